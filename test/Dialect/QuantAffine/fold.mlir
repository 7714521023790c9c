// RUN: quant-affine-opt %s -canonicalize -split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-fold-constants -split-input-file | FileCheck %s --check-prefix=PASS

// Seed 000's tie: 0.1 / f32(1/15) = 1.5 rounds to 2 (a reciprocal multiply
// would give 1.4999999 and round to 1).
// CHECK-LABEL: func.func @scalar_tie
// CHECK: %[[C:.*]] = arith.constant 2 : i8
// CHECK: return %[[C]]
func.func @scalar_tie() -> i8 {
  %x = arith.constant 0.1 : f32
  %s = arith.constant 0.0666666701 : f32
  %q = quant_affine.quantize %x, %s range [-128, 127] : (f32, f32) -> i8
  return %q : i8
}

// -----

// Half to even before the odd offset: roundeven(2.5) - 3 = -1 (not 0).
// CHECK-LABEL: func.func @odd_offset_tie
// CHECK: arith.constant -1.000000e+00 : f32
func.func @odd_offset_tie() -> f32 {
  %x = arith.constant 0.625 : f32
  %s = arith.constant 0.25 : f32
  %o = arith.constant 3.0 : f32
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] : (f32, f32, f32) -> f32
  return %q : f32
}

// -----

// Float results keep -0.0, NaN, and saturate infinities.
// CHECK-LABEL: func.func @specials
// CHECK: arith.constant dense<[-0.000000e+00, 0x7FC00000, 1.500000e+01, 0.000000e+00]> : vector<4xf32>
func.func @specials() -> vector<4xf32> {
  %x = arith.constant dense<[-0.01, 0x7FC00000, 0x7F800000, 0xFF800000]> : vector<4xf32>
  %s = arith.constant dense<1.0> : vector<4xf32>
  %q = quant_affine.quantize %x, %s range [0, 15] : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return %q : vector<4xf32>
}

// -----

// Blocks: element j uses scale[j / 2].
// CHECK-LABEL: func.func @blocks
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
func.func @blocks() -> tensor<4xf32> {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %y = quant_affine.qdq %x, %s range [-128, 127] block [2] : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// -canonicalize folds up to 65,536 elements ...
// CHECK-LABEL: func.func @at_limit
// CHECK: arith.constant dense<"0x0202{{.*}}0404"> : tensor<2x32768xi8>
// CHECK-NOT: quant_affine
func.func @at_limit() -> tensor<2x32768xi8> {
  %x = arith.constant dense<1.0> : tensor<2x32768xf32>
  %s = arith.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<2x32768xf32>, tensor<2x1xf32>) -> tensor<2x32768xi8>
  return %q : tensor<2x32768xi8>
}

// -----

// ... and leaves larger results to --quant-affine-fold-constants.
// CHECK-LABEL: func.func @over_limit
// CHECK: quant_affine.quantize
// PASS-LABEL: func.func @over_limit
// PASS: arith.constant dense<"0x0202{{.*}}0404"> : tensor<2x32769xi8>
// PASS-NOT: quant_affine
func.func @over_limit() -> tensor<2x32769xi8> {
  %x = arith.constant dense<1.0> : tensor<2x32769xf32>
  %s = arith.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<2x32769xf32>, tensor<2x1xf32>) -> tensor<2x32769xi8>
  return %q : tensor<2x32769xi8>
}

// -----

// A splat input with a splat or per-tensor encoding is a splat result, which
// costs one element whatever the size: -canonicalize folds it past the limit.
// CHECK-LABEL: func.func @splat_over_limit
// CHECK: arith.constant dense<2> : tensor<65537xi8>
// CHECK-NOT: quant_affine
// PASS-LABEL: func.func @splat_over_limit
// PASS: arith.constant dense<2> : tensor<65537xi8>
func.func @splat_over_limit() -> tensor<65537xi8> {
  %x = arith.constant dense<1.0> : tensor<65537xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<65537xf32>, tensor<f32>) -> tensor<65537xi8>
  return %q : tensor<65537xi8>
}

// -----

// Operands that are not constant: nothing folds.
// CHECK-LABEL: func.func @not_constant
// CHECK: quant_affine.dequantize
// PASS-LABEL: func.func @not_constant
// PASS: quant_affine.dequantize
func.func @not_constant(%q: tensor<4xi8>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Where the compute type rounds a grid end, the clamp uses the rounded end,
// as the generated code does: a float result (or a qdq) may then hold 32768.
// An integer result is not allowed such a compute type (invalid.mlir).
// CHECK-LABEL: func.func @rounded_grid_end
// CHECK-DAG: arith.constant dense<3.276800e+04> : tensor<2xbf16>
// CHECK-DAG: arith.constant dense<[3.276800e+04, -3.276800e+04]> : tensor<2xf32>
// CHECK-NOT: quant_affine
func.func @rounded_grid_end() -> (tensor<2xbf16>, tensor<2xf32>) {
  %x = arith.constant dense<1.0e+6> : tensor<2xbf16>
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-32768, 32767] compute bf16 : (tensor<2xbf16>, tensor<f32>) -> tensor<2xbf16>
  %y = arith.constant dense<[1.0e+6, -1.0e+6]> : tensor<2xf32>
  %r = quant_affine.qdq %y, %s range [-32768, 32767] compute bf16 : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %q, %r : tensor<2xbf16>, tensor<2xf32>
}

// -----

// A NaN of either sign folds to the float8 type's one NaN code, as the
// generated code writes it (quant-affine-expand-narrow-floats), not to
// APFloat's NaN of the input's sign; float4 has no NaN: a zero of NaN's sign.
// CHECK-LABEL: func @negative_nan_to_float8
// CHECK-DAG: arith.constant dense<0x7F> : tensor<2xf8E4M3FN>
// CHECK-DAG: arith.constant dense<0x7E> : tensor<2xf8E5M2>
// CHECK-DAG: arith.constant dense<[-0.000000e+00, 0.000000e+00]> : tensor<2xf4E2M1FN>
// PASS-LABEL: func @negative_nan_to_float8
// PASS-NOT: quant_affine.quantize
func.func @negative_nan_to_float8() -> (tensor<2xf8E4M3FN>, tensor<2xf8E5M2>, tensor<2xf4E2M1FN>) {
  %x = arith.constant dense<[0xFFC00000, 0x7FC00000]> : tensor<2xf32>
  %s = arith.constant dense<1.0> : tensor<f32>
  %a = quant_affine.quantize %x, %s range [-448, 448] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf8E4M3FN>
  %b = quant_affine.quantize %x, %s range [-57344, 57344] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf8E5M2>
  %c = quant_affine.quantize %x, %s range [-6, 6] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf4E2M1FN>
  return %a, %b, %c : tensor<2xf8E4M3FN>, tensor<2xf8E5M2>, tensor<2xf4E2M1FN>
}
