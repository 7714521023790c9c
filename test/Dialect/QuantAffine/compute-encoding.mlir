// compute_encoding: the custom form round-trips (and the generic form
// parses to it); on a constant input it folds to the AIMET encoding, both
// under -canonicalize (up to 65536 input elements) and
// --quant-affine-fold-constants (any size); a calibration feeding quantize
// on a constant folds all the way to the quantized constant.
// RUN: quant-affine-opt %s -split-input-file | quant-affine-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: quant-affine-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: quant-affine-opt %s -split-input-file --quant-affine-fold-constants | FileCheck %s --check-prefix=PASS

// ROUND-LABEL: func.func @forms(
// ROUND: quant_affine.compute_encoding %{{.*}} range [0, 255] : tensor<3x4xf32> -> (tensor<f32>, tensor<f32>)
// ROUND: quant_affine.compute_encoding %{{.*}} range [-8, 7] symmetric block [1, 32] : tensor<4x64xbf16> -> (tensor<4x2xf32>, tensor<4x2xf16>)
// ROUND: quant_affine.compute_encoding %{{.*}} range [-128, 127] symmetric : tensor<?x16xf16> -> (tensor<16xf32>, tensor<16xf32>)
// ROUND: quant_affine.compute_encoding %{{.*}} range [0, 15] torchao no_preserve_zero float_zero_point eps {{9.9999999999999995E-7}} block [1, 4] : tensor<3x4xf32> -> (tensor<3x1xf32>, tensor<3x1xf32>)
// FOLD-LABEL: func.func @forms(
// FOLD-COUNT-3: quant_affine.compute_encoding
func.func @forms(%a: tensor<3x4xf32>, %b: tensor<4x64xbf16>, %c: tensor<?x16xf16>) -> (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf16>, tensor<16xf32>) {
  %s0, %o0 = quant_affine.compute_encoding %a range [0, 255] : tensor<3x4xf32> -> (tensor<f32>, tensor<f32>)
  %s1, %o1 = "quant_affine.compute_encoding"(%b) <{qmin = -8 : i64, qmax = 7 : i64, symmetric, block_size = array<i64: 1, 32>}> : (tensor<4x64xbf16>) -> (tensor<4x2xf32>, tensor<4x2xf16>)
  %s2, %o2 = quant_affine.compute_encoding %c range [-128, 127] symmetric : tensor<?x16xf16> -> (tensor<16xf32>, tensor<16xf32>)
  %s3, %o3 = "quant_affine.compute_encoding"(%a) <{qmin = 0 : i64, qmax = 15 : i64, torchao, no_preserve_zero, float_zero_point, eps = 1.0e-06 : f64, block_size = array<i64: 1, 4>}> : (tensor<3x4xf32>) -> (tensor<3x1xf32>, tensor<3x1xf32>)
  return %s0, %s1, %o1, %s2 : tensor<f32>, tensor<4x2xf32>, tensor<4x2xf16>, tensor<16xf32>
}

// -----

// Per tensor, asymmetric 8-bit (public.aimet_compute_encoding.0127):
// scale 0.02350196 (bits 0x3CC0892F), offset -160.
// FOLD-LABEL: func.func @per_tensor(
// FOLD-DAG: arith.constant dense<0.0235019606> : tensor<1xf32>
// FOLD-DAG: arith.constant dense<-1.600000e+02> : tensor<1xf32>
// FOLD-NOT: quant_affine.compute_encoding
// PASS-LABEL: func.func @per_tensor(
// PASS-DAG: arith.constant dense<0.0235019606> : tensor<1xf32>
// PASS-NOT: quant_affine.compute_encoding
func.func @per_tensor() -> (tensor<1xf32>, tensor<1xf32>) {
  %x = arith.constant dense<[[-3.77, 0.837, 0.172, -2.095], [1.409, -1.973, 1.492, 2.223], [0.99, -0.012, 1.006, -0.964]]> : tensor<3x4xf32>
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<3x4xf32> -> (tensor<1xf32>, tensor<1xf32>)
  return %s, %o : tensor<1xf32>, tensor<1xf32>
}

// -----

// Symmetric int4 per row, fed to quantize: the quantized constant. Row 0
// spans [-1, 0.5]: d = max(0.5 / 7, 1 / 8) = 0.125, range [-1, 0.875],
// scale 1.875 / 15 = 0.125, offset 0; row 1 spans [0, 3.5]: d = 0.5, scale
// 0.5, offset 0.
// FOLD-LABEL: func.func @calibrate_then_quantize(
// FOLD: %[[Q:.*]] = arith.constant dense<{{\[}}[-8, -4, 0, 4], [0, 1, 3, 7]]> : tensor<2x4xi4>
// FOLD-NOT: quant_affine
// FOLD: return %[[Q]]
func.func @calibrate_then_quantize() -> tensor<2x4xi4> {
  %x = arith.constant dense<[[-1.0, -0.5, 0.0, 0.5], [0.0, 0.5, 1.5, 3.5]]> : tensor<2x4xf32>
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric : tensor<2x4xf32> -> (tensor<2x1xf32>, tensor<2x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x4xi4>
  return %q : tensor<2x4xi4>
}

// -----

// Above -canonicalize's limit (65536 input elements), a splat of 65537 is
// left to --quant-affine-fold-constants, which folds it: all equal 2.0,
// unsigned 8-bit: range [0, 2], scale 2 / 255, offset 0.
// FOLD-LABEL: func.func @large(
// FOLD: quant_affine.compute_encoding
// PASS-LABEL: func.func @large(
// PASS-NOT: quant_affine.compute_encoding
// PASS-DAG: arith.constant dense<0.00784313772> : tensor<f32>
// PASS-DAG: arith.constant dense<0.000000e+00> : tensor<f32>
func.func @large() -> (tensor<f32>, tensor<f32>) {
  %x = arith.constant dense<2.0> : tensor<65537xf32>
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<65537xf32> -> (tensor<f32>, tensor<f32>)
  return %s, %o : tensor<f32>, tensor<f32>
}
