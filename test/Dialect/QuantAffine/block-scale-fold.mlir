// RUN: quant-affine-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-fold-constants --split-input-file | FileCheck %s --check-prefix=PASS
// block_scale folds on constants by the formula the lowering emits
// (Utils/BlockScaleFormula.h); Conformance/mx-vectors.test compares the
// folded scales with the independent reference. Blocks of 2: amax 3, 0.75,
// 7 and 0 (a signed-zero block).

// CHECK-LABEL: func @rules
// FLOOR 2^(E - 2): 3 -> 2^-1, 0.75 -> 2^-3, 7 -> 2^0, 0 -> 2^-127.
// CHECK-DAG: %[[FLOOR:.*]] = arith.constant dense<[5.000000e-01, 1.250000e-01, 1.000000e+00, 5.877470e-39]> : tensor<4xf8E8M0FNU>
// RCEIL 2^ceil(log2(amax / 6)): 7 / 6 -> 2^1. EVEN: 7 rounds to 8 -> 2^1.
// CHECK-DAG: %[[RCEIL:.*]] = arith.constant dense<[5.000000e-01, 1.250000e-01, 2.000000e+00, 5.877470e-39]> : tensor<4xf8E8M0FNU>
// CEIL 2^(E + (M != 0) - 2): 3 = 1.5 * 2^1 -> 2^0, 0.75 -> 2^-2, 7 -> 2^1.
// CHECK-DAG: %[[CEIL:.*]] = arith.constant dense<[1.000000e+00, 2.500000e-01, 2.000000e+00, 5.877470e-39]> : tensor<4xf8E8M0FNU>
// NEAREST 2^round(log2(amax / 6)): as FLOOR here.
// CHECK-NOT: quant_affine.block_scale
// CHECK: return %[[FLOOR]], %[[RCEIL]], %[[CEIL]], %[[RCEIL]], %[[FLOOR]]
// PASS-LABEL: func @rules
// PASS-NOT: quant_affine.block_scale
func.func @rules() -> (tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>) {
  %x = arith.constant dense<[1.0, -3.0, 0.75, 0.1, 7.0, -6.5, 0.0, -0.0]> : tensor<8xf32>
  %f = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [2] : (tensor<8xf32>) -> tensor<4xf8E8M0FNU>
  %r = quant_affine.block_scale %x element f4E2M1FN rounding "rceil" block [2] : (tensor<8xf32>) -> tensor<4xf8E8M0FNU>
  %c = quant_affine.block_scale %x element f4E2M1FN rounding "ceil" block [2] : (tensor<8xf32>) -> tensor<4xf8E8M0FNU>
  %e = quant_affine.block_scale %x element f4E2M1FN rounding "even" block [2] : (tensor<8xf32>) -> tensor<4xf8E8M0FNU>
  %n = quant_affine.block_scale %x element f4E2M1FN rounding "nearest" block [2] : (tensor<8xf32>) -> tensor<4xf8E8M0FNU>
  return %f, %r, %c, %e, %n : tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func @scale_types
// PASS-LABEL: func @scale_types
// PASS-NOT: quant_affine.block_scale
// PASS-LABEL: func @nan_block
// The same powers of two in f32, 2^-127 as the denormal.
// CHECK-DAG: arith.constant dense<[5.000000e-01, 1.250000e-01, 2.000000e+00, 5.87747175E-39]> : tensor<4xf32>
// NVFP4 one-level: amax / 6 rounded to E4M3 (7 / 6 -> 1.125), clamped to 2^-6.
// CHECK-DAG: arith.constant dense<[5.000000e-01, 1.250000e-01, 1.125000e+00, 1.562500e-02]> : tensor<4xf8E4M3FN>
// Two-level: over the tensor scale 0.25 (7 / 6 / 0.25 -> 4.5).
// CHECK-DAG: arith.constant dense<[2.000000e+00, 5.000000e-01, 4.500000e+00, 1.562500e-02]> : tensor<4xf8E4M3FN>
// FP8 blocks: amax / 448 in f32, and rounded once to bf16.
// CHECK-DAG: arith.constant dense<[0.00669642864, 0.00167410716, 1.562500e-02, 0.000000e+00]> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<[6.683350e-03, 1.670840e-03, 1.562500e-02, 0.000000e+00]> : tensor<4xbf16>
// CHECK-NOT: quant_affine.block_scale
func.func @scale_types() -> (tensor<4xf32>, tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>, tensor<4xf32>, tensor<4xbf16>) {
  %x = arith.constant dense<[1.0, -3.0, 0.75, 0.1, 7.0, -6.5, 0.0, -0.0]> : tensor<8xf32>
  %t = arith.constant dense<0.25> : tensor<f32>
  %p = quant_affine.block_scale %x element f4E2M1FN rounding "rceil" block [2] : (tensor<8xf32>) -> tensor<4xf32>
  %n1 = quant_affine.block_scale %x element f4E2M1FN block [2] : (tensor<8xf32>) -> tensor<4xf8E4M3FN>
  %n2 = quant_affine.block_scale %x, %t element f4E2M1FN block [2] : (tensor<8xf32>, tensor<f32>) -> tensor<4xf8E4M3FN>
  %d = quant_affine.block_scale %x element f8E4M3FN block [2] : (tensor<8xf32>) -> tensor<4xf32>
  %b = quant_affine.block_scale %x element f8E4M3FN block [2] : (tensor<8xf32>) -> tensor<4xbf16>
  return %p, %n1, %n2, %d, %b : tensor<4xf32>, tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>, tensor<4xf32>, tensor<4xbf16>
}

// -----

// A NaN block: its f32 scale folds to NaN; its E8M0 scale (0xFF) is left to
// the generated code, because upstream's arith.extf folder reads E8M0's NaN
// as +inf and would change the program at the next -canonicalize.
// CHECK-LABEL: func @nan_block
// CHECK-DAG: arith.constant dense<[0x7FC00000, 5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: quant_affine.block_scale %{{.*}} rounding "floor" block [2] : (tensor<4xf32>) -> tensor<2xf8E8M0FNU>
func.func @nan_block() -> (tensor<2xf8E8M0FNU>, tensor<2xf32>) {
  %x = arith.constant dense<[1.0, 0x7FC00000, 2.0, 3.0]> : tensor<4xf32>
  %e = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [2] : (tensor<4xf32>) -> tensor<2xf8E8M0FNU>
  %f = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [2] : (tensor<4xf32>) -> tensor<2xf32>
  return %e, %f : tensor<2xf8E8M0FNU>, tensor<2xf32>
}

// -----

// Not constant: nothing to fold. A constant input over a non-constant tensor
// scale neither.
// CHECK-LABEL: func @not_constant
// CHECK-COUNT-2: quant_affine.block_scale
func.func @not_constant(%x: tensor<8xf32>, %t: tensor<f32>) -> (tensor<4xf32>, tensor<4xf8E4M3FN>) {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %s = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [2] : (tensor<8xf32>) -> tensor<4xf32>
  %n = quant_affine.block_scale %c, %t element f4E2M1FN block [2] : (tensor<8xf32>, tensor<f32>) -> tensor<4xf8E4M3FN>
  return %s, %n : tensor<4xf32>, tensor<4xf8E4M3FN>
}

// -----

// The MX idiom on a constant weight: the pass folds the scale, its extf and
// then the quantize (in program order), leaving constants only.
// PASS-LABEL: func @mx_weight
// PASS-DAG: arith.constant dense<[5.000000e-01, 1.250000e-01]> : tensor<2xf32>
// PASS-DAG: arith.constant dense<[2.000000e+00, -6.000000e+00, 6.000000e+00, 1.000000e+00]> : tensor<4xf4E2M1FN>
// PASS-NOT: quant_affine
// PASS-NOT: arith.extf
func.func @mx_weight() -> (tensor<4xf4E2M1FN>, tensor<2xf32>) {
  %w = arith.constant dense<[1.0, -3.0, 0.75, 0.1]> : tensor<4xf32>
  %e = quant_affine.block_scale %w element f4E2M1FN rounding "floor" block [2] : (tensor<4xf32>) -> tensor<2xf8E8M0FNU>
  %s = arith.extf %e : tensor<2xf8E8M0FNU> to tensor<2xf32>
  %q = quant_affine.quantize %w, %s range [-6, 6] block [2] : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf4E2M1FN>
  return %q, %s : tensor<4xf4E2M1FN>, tensor<2xf32>
}
