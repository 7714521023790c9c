// Block-32 signed int4 quantization of a 2x64 weight with per-block scales
// and offsets, its dequantization, and the equivalent one-step fake
// quantization. The README's first command compiles this file through
// --quant-affine-cpu-pipeline and runs @main with mlir-runner:
//
//   ninja -C build run-example
//
// which prints the int4 codes, the dequantized weight and the qdq result
// (equal to the dequantized weight, as it must be).

func.func @quantize_weight(%w: tensor<2x64xf32>, %scale: tensor<2x2xf32>,
                           %offset: tensor<2x2xf32>) -> tensor<2x64xi4> {
  %q = quant_affine.quantize %w, %scale, %offset range [-8, 7] block [1, 32]
      : (tensor<2x64xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xi4>
  return %q : tensor<2x64xi4>
}

func.func @dequantize_weight(%q: tensor<2x64xi4>, %scale: tensor<2x2xf32>,
                             %offset: tensor<2x2xf32>) -> tensor<2x64xf32> {
  %w = quant_affine.dequantize %q, %scale, %offset range [-8, 7] block [1, 32]
      : (tensor<2x64xi4>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xf32>
  return %w : tensor<2x64xf32>
}

func.func @fake_quantize_weight(%w: tensor<2x64xf32>, %scale: tensor<2x2xf32>,
                                %offset: tensor<2x2xf32>) -> tensor<2x64xf32> {
  %y = quant_affine.qdq %w, %scale, %offset range [-8, 7] block [1, -1]
      : (tensor<2x64xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xf32>
  return %y : tensor<2x64xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  // w[r][c] = (c - 32) / 16 + r / 8: a ramp with exact ties at the block
  // scales below, so round-half-to-even and the odd offsets matter.
  %ramp = tensor.generate {
  ^bb0(%r: index, %c: index):
    %ri = arith.index_cast %r : index to i32
    %ci = arith.index_cast %c : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %cf = arith.sitofp %ci : i32 to f32
    %c32 = arith.constant 32.0 : f32
    %c16 = arith.constant 16.0 : f32
    %c8 = arith.constant 8.0 : f32
    %a = arith.subf %cf, %c32 : f32
    %b = arith.divf %a, %c16 : f32
    %d = arith.divf %rf, %c8 : f32
    %v = arith.addf %b, %d : f32
    tensor.yield %v : f32
  } : tensor<2x64xf32>
  %scale = arith.constant dense<[[0.25, 0.125], [0.5, 0.0625]]> : tensor<2x2xf32>
  %offset = arith.constant dense<[[1.0, -3.0], [0.0, 5.0]]> : tensor<2x2xf32>

  %q = call @quantize_weight(%ramp, %scale, %offset)
      : (tensor<2x64xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xi4>
  %y = call @dequantize_weight(%q, %scale, %offset)
      : (tensor<2x64xi4>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xf32>
  %z = call @fake_quantize_weight(%ramp, %scale, %offset)
      : (tensor<2x64xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x64xf32>

  %q32 = arith.extsi %q : tensor<2x64xi4> to tensor<2x64xi32>
  %qp = tensor.cast %q32 : tensor<2x64xi32> to tensor<*xi32>
  call @printMemrefI32(%qp) : (tensor<*xi32>) -> ()
  %yp = tensor.cast %y : tensor<2x64xf32> to tensor<*xf32>
  call @printMemrefF32(%yp) : (tensor<*xf32>) -> ()
  %zp = tensor.cast %z : tensor<2x64xf32> to tensor<*xf32>
  call @printMemrefF32(%zp) : (tensor<*xf32>) -> ()
  return
}
