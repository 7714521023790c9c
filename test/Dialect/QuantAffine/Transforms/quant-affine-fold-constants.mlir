// RUN: quant-affine-opt %s --quant-affine-fold-constants | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-fold-constants="max-elements=4" | FileCheck %s --check-prefix=MAX4

// quantize, dequantize and qdq with constant operands become constants,
// whatever their size (fold.mlir and fold-limits.mlir hold the rounding
// cases and the limits of -canonicalize).

// CHECK-LABEL: func.func @each_op
// CHECK-DAG: %[[Q:.*]] = arith.constant dense<[0, 1, 2, -2]> : tensor<4xi8>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<[-1.000000e+00, 5.000000e-01, 1.500000e+00, 6.300000e+01]> : tensor<4xf32>
// CHECK-DAG: %[[QDQ:.*]] = arith.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, -1.000000e+00]> : tensor<4xf32>
// CHECK-NOT: quant_affine.
// CHECK: return %[[Q]], %[[D]], %[[QDQ]]
func.func @each_op() -> (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) {
  %x = arith.constant dense<[0.1, 0.5, 1.0, -1.0]> : tensor<4xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  %i = arith.constant dense<[-2, 1, 3, 126]> : tensor<4xi8>
  %d = quant_affine.dequantize %i, %s range [-128, 127] : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %q, %d, %y : tensor<4xi8>, tensor<4xf32>, tensor<4xf32>
}

// Operands that are not constants: nothing to fold.
// CHECK-LABEL: func.func @not_constant
// CHECK: %[[Q:.*]] = quant_affine.quantize %{{.*}}, %{{.*}} range [-128, 127]
// CHECK: return %[[Q]]
func.func @not_constant(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// 8 elements, more than max-elements=4: left alone there, folded by default.
// A splat folds at any size.
// CHECK-LABEL: func.func @max_elements
// CHECK-DAG: arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
// CHECK-DAG: arith.constant dense<4> : tensor<8xi8>
// CHECK-NOT: quant_affine.
// MAX4-LABEL: func.func @max_elements
// MAX4: quant_affine.quantize
// MAX4-NOT: quant_affine.
// MAX4: arith.constant dense<4> : tensor<8xi8>
// MAX4-NOT: quant_affine.
func.func @max_elements() -> (tensor<8xi8>, tensor<8xi8>) {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi8>
  %splat = arith.constant dense<2.0> : tensor<8xf32>
  %s2 = arith.constant dense<0.5> : tensor<f32>
  %q2 = quant_affine.quantize %splat, %s2 range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi8>
  return %q, %q2 : tensor<8xi8>, tensor<8xi8>
}

// float_qdq folds too, past -canonicalize's limit: 2^17 f32 values through
// fp8 E4M3 (448 = the largest, 1.0 and 0.1 rounded to 0.1015625), and a
// float8 storage quantize.
// CHECK-LABEL: func.func @float_qdq_large
// CHECK-DAG: arith.constant dense<0.1015625> : tensor<131072xf32>
// CHECK-DAG: arith.constant dense<[1.000000e+00, 4.480000e+02, 0.1015625, -0.000000e+00]> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<[5.000000e-01, 4.480000e+02, 5.078130e-02, -0.000000e+00]> : tensor<4xf8E4M3FN>
// CHECK-NOT: quant_affine.
func.func @float_qdq_large() -> (tensor<131072xf32>, tensor<4xf32>, tensor<4xf8E4M3FN>) {
  %x = arith.constant dense<0.1> : tensor<131072xf32>
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<131072xf32>) -> tensor<131072xf32>
  %v = arith.constant dense<[1.0, 1000.0, 0.1, -0.0]> : tensor<4xf32>
  %w = quant_affine.float_qdq %v format [4, 3] finite : (tensor<4xf32>) -> tensor<4xf32>
  %s = arith.constant dense<2.0> : tensor<f32>
  %q = quant_affine.quantize %v, %s range [-448, 448] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf8E4M3FN>
  return %y, %w, %q : tensor<131072xf32>, tensor<4xf32>, tensor<4xf8E4M3FN>
}
