// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=4" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// Signed packed values read back and sign-extended (arith.extsi) by the
// program: upstream's generic ext(bitcast) rewrite extended the zero-extended
// field, so a packed i1 of 1 read as 1 instead of -1 (found by progtest,
// seed 20261128 program 155). The i2 and i4 rows also cover lengths that are
// not a whole number of bytes.

func.func @i1(%x: tensor<?x?xf32>) -> tensor<4x4xi1> {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1, 0] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xi1>
  %c = tensor.cast %q : tensor<?x?xi1> to tensor<4x4xi1>
  return %c : tensor<4x4xi1>
}

func.func @i2(%x: tensor<4x3xf32>) -> tensor<4x3xi2> {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-2, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi2>
  return %q : tensor<4x3xi2>
}

func.func @i4(%x: tensor<5xf32>) -> tensor<5xi4> {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-8, 7] : (tensor<5xf32>, tensor<f32>) -> tensor<5xi4>
  return %q : tensor<5xi4>
}

func.func private @printMemrefI64(tensor<*xi64>)

func.func @print(%v: tensor<?xi64>) {
  %u = tensor.cast %v : tensor<?xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  // CHECK: [-1,  0,  -1,  0,  -1,  -1,  0,  0,  0,  -1,  0,  -1,  -1,  -1,  -1,  0]
  %x1 = arith.constant dense<[[-1.0, 0.0, -3.0, 2.0], [-0.7, -1.0, 0.2, 0.0],
                              [0.4, -2.0, 5.0, -1.0], [-9.0, -1.5, -0.6, 0.49]]> : tensor<4x4xf32>
  %d1 = tensor.cast %x1 : tensor<4x4xf32> to tensor<?x?xf32>
  %q1 = call @i1(%d1) : (tensor<?x?xf32>) -> tensor<4x4xi1>
  %f1 = tensor.collapse_shape %q1 [[0, 1]] : tensor<4x4xi1> into tensor<16xi1>
  %e1 = arith.extsi %f1 : tensor<16xi1> to tensor<16xi64>
  %p1 = tensor.cast %e1 : tensor<16xi64> to tensor<?xi64>
  call @print(%p1) : (tensor<?xi64>) -> ()

  // CHECK: [-2,  -1,  0,  1,  1,  -2,  -2,  0,  -2,  1,  0,  -2]
  %x2 = arith.constant dense<[[-2.0, -1.0, 0.0], [1.0, 3.0, -3.0],
                              [-2.5, 0.5, -1.5], [1.5, -0.4, -9.0]]> : tensor<4x3xf32>
  %q2 = call @i2(%x2) : (tensor<4x3xf32>) -> tensor<4x3xi2>
  %f2 = tensor.collapse_shape %q2 [[0, 1]] : tensor<4x3xi2> into tensor<12xi2>
  %e2 = arith.extsi %f2 : tensor<12xi2> to tensor<12xi64>
  %p2 = tensor.cast %e2 : tensor<12xi64> to tensor<?xi64>
  call @print(%p2) : (tensor<?xi64>) -> ()

  // CHECK: [-8,  7,  -1,  0,  -6]
  %x4 = arith.constant dense<[-9.0, 7.5, -1.0, -0.5, -6.5]> : tensor<5xf32>
  %q4 = call @i4(%x4) : (tensor<5xf32>) -> tensor<5xi4>
  %e4 = arith.extsi %q4 : tensor<5xi4> to tensor<5xi64>
  %p4 = tensor.cast %e4 : tensor<5xi64> to tensor<?xi64>
  call @print(%p4) : (tensor<?xi64>) -> ()
  return
}
