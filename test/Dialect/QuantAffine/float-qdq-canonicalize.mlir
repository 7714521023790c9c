// RUN: quant-affine-opt %s -canonicalize -split-input-file | FileCheck %s
// float_qdq's folds and canonicalizations, each on both sides of its
// condition. The executed counterparts are in
// test/Integration/CPU/float-qdq-rewrites.mlir.

// One format applied twice rounds once.
// CHECK-LABEL: func @twice
// CHECK-COUNT-1: quant_affine.float_qdq
// CHECK-NOT: quant_affine.float_qdq
func.func @twice(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = quant_affine.float_qdq %x format [4, 3] finite : (tensor<64xf32>) -> tensor<64xf32>
  %b = quant_affine.float_qdq %a format [4, 3] finite : (tensor<64xf32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// Different formats (here only unsigned_zero differs) both stay.
// CHECK-LABEL: func @two_formats
// CHECK-COUNT-2: quant_affine.float_qdq
func.func @two_formats(%x: tensor<64xf16>) -> tensor<64xf16> {
  %a = quant_affine.float_qdq %x format [4, 3] finite : (tensor<64xf16>) -> tensor<64xf16>
  %b = quant_affine.float_qdq %a format [4, 3] finite unsigned_zero : (tensor<64xf16>) -> tensor<64xf16>
  return %b : tensor<64xf16>
}

// -----

// With a constant maxval whose factor keeps every grid value normal after
// the multiplication, the second application changes nothing.
// CHECK-LABEL: func @twice_maxval
// CHECK-COUNT-1: quant_affine.float_qdq
// CHECK-NOT: quant_affine.float_qdq
func.func @twice_maxval(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %m = arith.constant dense<[[2.5], [1000.0], [0.5], [7.0]]> : tensor<4x1xf32>
  %a = quant_affine.float_qdq %x, %m format [5, 2] : (tensor<4x64xbf16>, tensor<4x1xf32>) -> tensor<4x64xbf16>
  %b = quant_affine.float_qdq %a, %m format [5, 2] : (tensor<4x64xbf16>, tensor<4x1xf32>) -> tensor<4x64xbf16>
  return %b : tensor<4x64xbf16>
}

// -----

// A maxval known only at run time: no proof, both stay.
// CHECK-LABEL: func @twice_runtime_maxval
// CHECK-COUNT-2: quant_affine.float_qdq
func.func @twice_runtime_maxval(%x: tensor<64xf32>, %m: tensor<f32>) -> tensor<64xf32> {
  %a = quant_affine.float_qdq %x, %m format [4, 3] finite : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.float_qdq %a, %m format [4, 3] finite : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// bf16 rounds the product to 8 bits, too coarse for a 10-bit mantissa to
// come back: both stay.
// CHECK-LABEL: func @twice_maxval_coarse_type
// CHECK-COUNT-2: quant_affine.float_qdq
func.func @twice_maxval_coarse_type(%x: tensor<64xbf16>) -> tensor<64xbf16> {
  %m = arith.constant dense<3.0> : tensor<f32>
  %a = quant_affine.float_qdq %x, %m format [5, 10] : (tensor<64xbf16>, tensor<f32>) -> tensor<64xbf16>
  %b = quant_affine.float_qdq %a, %m format [5, 10] : (tensor<64xbf16>, tensor<f32>) -> tensor<64xbf16>
  return %b : tensor<64xbf16>
}

// -----

// A tiny maxval puts the smallest grid values times k below f32's normal
// range, where the product loses bits: both stay.
// CHECK-LABEL: func @twice_maxval_subnormal
// CHECK-COUNT-2: quant_affine.float_qdq
func.func @twice_maxval_subnormal(%x: tensor<64xf32>) -> tensor<64xf32> {
  %m = arith.constant dense<1.0e-35> : tensor<f32>
  %a = quant_affine.float_qdq %x, %m format [4, 3] finite : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.float_qdq %a, %m format [4, 3] finite : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// (6, 10) holds every f16 value, and its fmt_max rounds to inf in f16, so
// +-inf come back too: the identity.
// CHECK-LABEL: func @identity
// CHECK-NOT: quant_affine.float_qdq
// CHECK: return %arg0
func.func @identity(%x: tensor<64xf16>) -> tensor<64xf16> {
  %y = quant_affine.float_qdq %x format [6, 10] : (tensor<64xf16>) -> tensor<64xf16>
  return %y : tensor<64xf16>
}

// -----

// f16's own format maps +-inf to +-65504: not the identity.
// CHECK-LABEL: func @not_identity_inf
// CHECK: quant_affine.float_qdq
func.func @not_identity_inf(%x: tensor<64xf16>) -> tensor<64xf16> {
  %y = quant_affine.float_qdq %x format [5, 10] : (tensor<64xf16>) -> tensor<64xf16>
  return %y : tensor<64xf16>
}

// -----

// (8, 23) holds every finite f32 value but its fmt_max is f32's largest
// value, so inf would change; (9, 23) reaches beyond: the identity.
// CHECK-LABEL: func @f32_formats
// CHECK: %[[A:.*]] = quant_affine.float_qdq %arg0 format [8, 23]
// CHECK-NOT: quant_affine.float_qdq
// CHECK: return %[[A]], %arg0
func.func @f32_formats(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %a = quant_affine.float_qdq %x format [8, 23] : (tensor<64xf32>) -> tensor<64xf32>
  %b = quant_affine.float_qdq %x format [9, 23] : (tensor<64xf32>) -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// -0 becomes +0 under unsigned_zero: never the identity.
// CHECK-LABEL: func @unsigned_zero_not_identity
// CHECK: quant_affine.float_qdq
func.func @unsigned_zero_not_identity(%x: f16) -> f16 {
  %y = quant_affine.float_qdq %x format [4, 3] finite unsigned_zero : (f16) -> f16
  return %y : f16
}

// -----

// Constants fold with the formula of the generated code: AIMET's E4M3 grid
// (max 240) on values of the public vectors, and f8E4M3FNUZ's +0.
// CHECK-LABEL: func @fold
// CHECK-DAG: arith.constant dense<[1.000000e+00, 1.600000e+01, 2.400000e+02, 0x7FC00000, 2.400000e+02, -0.000000e+00, 0.000000e+00, 2.240000e+02, 0.0029296875]> : tensor<9xf32>
// CHECK-DAG: arith.constant dense<[0.000000e+00, 2.400000e+02, -2.400000e+02, 1.464840e-02]> : tensor<4xf16>
// CHECK-NOT: quant_affine.float_qdq
func.func @fold() -> (tensor<9xf32>, tensor<4xf16>) {
  %x = arith.constant dense<[1.0625, 17.0, 464.0, 0x7FC00000, 0x7F800000, -0.0, 3.0517578e-05, 232.0, 0.002889642]> : tensor<9xf32>
  %a = quant_affine.float_qdq %x format [4, 3] : (tensor<9xf32>) -> tensor<9xf32>
  %h = arith.constant dense<[-0.0, 1000.0, -1000.0, 0.015]> : tensor<4xf16>
  %b = quant_affine.float_qdq %h format [4, 3] finite unsigned_zero : (tensor<4xf16>) -> tensor<4xf16>
  return %a, %b : tensor<9xf32>, tensor<4xf16>
}

// -----

// A constant maxval folds through the factor k = 2^(log2 2.5 - log2 448)
// in f32 (so 448 * k is 2.49999976), as the generated code and ref.py
// compute it.
// CHECK-LABEL: func @fold_maxval
// CHECK: arith.constant dense<[0.000000e+00, 2.49999976, 0.982142806, -2.49999976]> : tensor<4xf32>
func.func @fold_maxval() -> tensor<4xf32> {
  %x = arith.constant dense<[0.0, 3.0, 1.0, -100.0]> : tensor<4xf32>
  %m = arith.constant dense<2.5> : tensor<f32>
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
