// Block-32 signed int4 quantization of a 4x64 weight with per-block scales and
// offsets, its dequantization, and the equivalent one-step fake quantization.
//
//   quant-affine-opt examples/block-int4-weight.mlir
//
// parses, verifies and prints it.
func.func @quantize_weight(%w: tensor<4x64xf32>, %scale: tensor<4x2xf32>,
                           %offset: tensor<4x2xf32>) -> tensor<4x64xi4> {
  %q = quant_affine.quantize %w, %scale, %offset range [-8, 7] block [1, 32]
      : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return %q : tensor<4x64xi4>
}

func.func @dequantize_weight(%q: tensor<4x64xi4>, %scale: tensor<4x2xf32>,
                             %offset: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %w = quant_affine.dequantize %q, %scale, %offset range [-8, 7] block [1, 32]
      : (tensor<4x64xi4>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return %w : tensor<4x64xf32>
}

func.func @fake_quantize_weight(%w: tensor<4x64xf32>, %scale: tensor<4x2xf32>,
                                %offset: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %y = quant_affine.qdq %w, %scale, %offset range [-8, 7] block [1, -1]
      : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
