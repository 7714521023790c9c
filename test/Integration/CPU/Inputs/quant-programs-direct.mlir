// The program of ../quant-programs.mlir written directly in quant_affine:
// storage integers, constant scales and offsets (offset = -zero_point).
// quant-programs.mlir checks that both print the same bits.

// !quant.uniform<i8:f32, 0.0625:-3>
func.func @quantize_input(%x: tensor<2x16xf32>) -> tensor<2x16xi8> {
  %s = arith.constant dense<0.0625> : tensor<f32>
  %o = arith.constant dense<3.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<2x16xf32>, tensor<f32>, tensor<f32>) -> tensor<2x16xi8>
  return %q : tensor<2x16xi8>
}

func.func @refine(%x: tensor<2x16xi8>, %n: index, %flag: i1) -> tensor<2x16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant dense<0.0625> : tensor<f32>
  %o = arith.constant dense<3.0> : tensor<f32>
  %bias = arith.constant dense<0.3> : tensor<2x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2x16xi8>) {
    %f = quant_affine.dequantize %acc, %s, %o range [-128, 127] : (tensor<2x16xi8>, tensor<f32>, tensor<f32>) -> tensor<2x16xf32>
    %h = arith.addf %f, %bias : tensor<2x16xf32>
    %t = math.tanh %h : tensor<2x16xf32>
    %q = quant_affine.quantize %t, %s, %o range [-128, 127] : (tensor<2x16xf32>, tensor<f32>, tensor<f32>) -> tensor<2x16xi8>
    scf.yield %q : tensor<2x16xi8>
  }
  %out = scf.if %flag -> tensor<2x16xi8> {
    scf.yield %r : tensor<2x16xi8>
  } else {
    scf.yield %x : tensor<2x16xi8>
  }
  return %out : tensor<2x16xi8>
}

// Weight: !quant.uniform<i4:f32:{0:8, 1:1}, ...>, blocks of 8 along K.
// Output: !quant.uniform<u8:f32:1, ...>, per output channel.
func.func @layer(%x: tensor<2x16xi8>, %w: tensor<16x4xi4>) -> tensor<2x4xi8> {
  %sx = arith.constant dense<0.0625> : tensor<f32>
  %ox = arith.constant dense<3.0> : tensor<f32>
  %xf = quant_affine.dequantize %x, %sx, %ox range [-128, 127] : (tensor<2x16xi8>, tensor<f32>, tensor<f32>) -> tensor<2x16xf32>
  %sw = arith.constant dense<[[0.5, 0.25, 0.125, 1.0], [0.5, 0.25, 2.0, 0.0625]]> : tensor<2x4xf32>
  %ow = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [-1.0, 1.0, 0.0, 0.0]]> : tensor<2x4xf32>
  %wf = quant_affine.dequantize %w, %sw, %ow range [-8, 7] block [8, 1] : (tensor<16x4xi4>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<16x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%xf, %wf : tensor<2x16xf32>, tensor<16x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sy = arith.constant dense<[0.25, 0.5, 1.0, 0.125]> : tensor<4xf32>
  %oy = arith.constant dense<[-128.0, -120.0, -128.0, -100.0]> : tensor<4xf32>
  %q = quant_affine.quantize %y, %sy, %oy range [0, 255] : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xi8>
  return %q : tensor<2x4xi8>
}

func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %true = arith.constant true
  %c2 = arith.constant 2 : index
  %x = arith.constant dense<[[0.0, 0.03125, -0.03125, 0.09375, 1.0, -1.0, 2.5, -2.5, 7.96875, -8.0, 0.5, 0.15625, -0.21875, 3.3, -4.7, 0.0625],
                             [5.0, 9.0, -9.0, 0.1, 0.2, 0.3, -0.4, 1.5, -1.5, 2.25, 0.71875, -0.71875, 6.0, -6.0, 0.09, 0.01]]> : tensor<2x16xf32>
  %xq = call @quantize_input(%x) : (tensor<2x16xf32>) -> tensor<2x16xi8>
  %xr = call @refine(%xq, %c2, %true) : (tensor<2x16xi8>, index, i1) -> tensor<2x16xi8>
  %w = arith.constant dense<[[1, -2, 3, -4], [5, -6, 7, -8], [0, 1, 2, 3], [-1, -2, -3, -4], [7, 7, -8, -8], [2, 0, -2, 0], [1, 1, 1, 1], [-5, 4, -3, 2],
                             [3, -3, 6, -6], [0, 0, 0, 0], [-8, 7, -8, 7], [1, 2, 3, 4], [-1, 5, -1, 5], [2, -2, 2, -2], [6, 5, 4, 3], [-7, -6, -5, -4]]> : tensor<16x4xi4>
  %y = call @layer(%xr, %w) : (tensor<2x16xi8>, tensor<16x4xi4>) -> tensor<2x4xi8>

  %pxq = arith.extsi %xq : tensor<2x16xi8> to tensor<2x16xi32>
  %uxq = tensor.cast %pxq : tensor<2x16xi32> to tensor<*xi32>
  call @printMemrefI32(%uxq) : (tensor<*xi32>) -> ()
  %pxr = arith.extsi %xr : tensor<2x16xi8> to tensor<2x16xi32>
  %uxr = tensor.cast %pxr : tensor<2x16xi32> to tensor<*xi32>
  call @printMemrefI32(%uxr) : (tensor<*xi32>) -> ()
  %py = arith.extui %y : tensor<2x4xi8> to tensor<2x4xi32>
  %uy = tensor.cast %py : tensor<2x4xi32> to tensor<*xi32>
  call @printMemrefI32(%uy) : (tensor<*xi32>) -> ()
  return
}
