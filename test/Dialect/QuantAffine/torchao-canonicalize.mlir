// RUN: quant-affine-opt %s -canonicalize -split-input-file | FileCheck %s
// The canonicalizations under torchao's properties, each on both sides of
// its re-derived condition (docs/Canonicalization.md). The executed
// counterparts are in test/Integration/CPU/torchao-rewrites.mlir.

// qdq(qdq) with reciprocal: r = 1 / s rounded in f32 adds u_S = 2^-24 to
// the round trip's error; the int8 grid is far within 2^(24-3).
// CHECK-LABEL: func @qdq_qdq_reciprocal
// CHECK-COUNT-1: quant_affine.qdq
// CHECK-NOT: quant_affine.qdq
func.func @qdq_qdq_reciprocal(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %a = quant_affine.qdq %x, %s range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.qdq %a, %s range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// A bf16 scale rounds r to 8 bits: the int8 grid (|k| up to 128) is past
// 2^(8-3), so the second qdq stays; the int4 grid (|k| <= 8) is within.
// CHECK-LABEL: func @qdq_qdq_reciprocal_bf16_scale
// CHECK-COUNT-2: quant_affine.qdq {{.*}} range [-128, 127]
// CHECK-COUNT-1: quant_affine.qdq {{.*}} range [-8, 7]
// CHECK-NOT: quant_affine.qdq
func.func @qdq_qdq_reciprocal_bf16_scale(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %s = arith.constant dense<0.0173> : tensor<bf16>
  %a = quant_affine.qdq %x, %s range [-128, 127] reciprocal compute f32 : (tensor<64xf32>, tensor<bf16>) -> tensor<64xf32>
  %b = quant_affine.qdq %a, %s range [-128, 127] reciprocal compute f32 : (tensor<64xf32>, tensor<bf16>) -> tensor<64xf32>
  %c = quant_affine.qdq %x, %s range [-8, 7] reciprocal compute f32 : (tensor<64xf32>, tensor<bf16>) -> tensor<64xf32>
  %d = quant_affine.qdq %c, %s range [-8, 7] reciprocal compute f32 : (tensor<64xf32>, tensor<bf16>) -> tensor<64xf32>
  return %b, %d : tensor<64xf32>, tensor<64xf32>
}

// -----

// A reciprocal that overflows (s subnormal): not a normal r, no fold.
// CHECK-LABEL: func @qdq_qdq_reciprocal_overflow
// CHECK-COUNT-2: quant_affine.qdq
func.func @qdq_qdq_reciprocal_overflow(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<1.0e-39> : tensor<f32>
  %a = quant_affine.qdq %x, %s range [-8, 7] reciprocal : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.qdq %a, %s range [-8, 7] reciprocal : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// torchao's FLOAT domain: the round trip is not derived, nothing folds.
// CHECK-LABEL: func @qdq_qdq_float_zero_point
// CHECK-COUNT-2: quant_affine.qdq
func.func @qdq_qdq_float_zero_point(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %z = arith.constant dense<1.5> : tensor<f32>
  %a = quant_affine.qdq %x, %s, %z range [0, 15] float_zero_point : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.qdq %a, %s, %z range [0, 15] float_zero_point : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// Dropping a zero offset: AIMET's form skips the add, so a qdq keeps a +0.0
// offset (it turns -0.0 into +0.0); torchao's FLOAT domain computes an
// absent zero point as +0.0, so there the +0.0 goes, and -0.0 stays.
// CHECK-LABEL: func @drop_zero_offset
// CHECK: quant_affine.qdq %arg0, %{{.*}}, %{{.*}} range [0, 15] :
// CHECK: quant_affine.qdq %arg0, %{{.*}} range [0, 15] float_zero_point :
// CHECK: quant_affine.qdq %arg0, %{{.*}}, %{{.*}} range [0, 15] float_zero_point :
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}} range [0, 15] float_zero_point :
func.func @drop_zero_offset(%x: tensor<64xf32>, %q: tensor<64xi8>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %s = arith.constant dense<0.25> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %negzero = arith.constant dense<-0.0> : tensor<f32>
  %a = quant_affine.qdq %x, %s, %zero range [0, 15] : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.qdq %x, %s, %zero range [0, 15] float_zero_point : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  %c = quant_affine.qdq %x, %s, %negzero range [0, 15] float_zero_point : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  %d = quant_affine.dequantize %q, %s, %zero range [0, 15] float_zero_point : (tensor<64xi8>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %a, %b, %c, %d : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// dequantize(quantize) -> qdq keeps the quantize's reciprocal.
// CHECK-LABEL: func @dq_q_reciprocal
// CHECK: %[[Y:.*]] = quant_affine.qdq %arg0, %{{.*}}, %{{.*}} range [-128, 127] reciprocal :
// CHECK-NEXT: return %[[Y]]
func.func @dq_q_reciprocal(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %o = arith.constant dense<3.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xi8>
  %y = quant_affine.dequantize %q, %s, %o range [-128, 127] : (tensor<64xi8>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// dequantize(quantize) under float_zero_point: not derived, both stay.
// CHECK-LABEL: func @dq_q_float_zero_point
// CHECK: quant_affine.quantize
// CHECK: quant_affine.dequantize
func.func @dq_q_float_zero_point(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %z = arith.constant dense<1.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %z range [0, 15] float_zero_point : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xi8>
  %y = quant_affine.dequantize %q, %s, %z range [0, 15] float_zero_point : (tensor<64xi8>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// quantize(dequantize(q)) -> q with a reciprocal quantize: the round trip
// holds for an f32 scale, not for a bf16 one on the int8 grid.
// CHECK-LABEL: func @q_dq_reciprocal
// CHECK-NOT: quant_affine.quantize {{.*}} : (tensor<64xf32>, tensor<f32>) -> tensor<64xi8>
// CHECK: quant_affine.dequantize {{.*}} : (tensor<64xi8>, tensor<bf16>) -> tensor<64xf32>
// CHECK: quant_affine.quantize {{.*}} reciprocal : (tensor<64xf32>, tensor<bf16>) -> tensor<64xi8>
// CHECK: return %arg0,
func.func @q_dq_reciprocal(%q: tensor<64xi8>) -> (tensor<64xi8>, tensor<64xi8>) {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<64xi8>, tensor<f32>) -> tensor<64xf32>
  %r = quant_affine.quantize %y, %s range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>) -> tensor<64xi8>
  %sb = arith.constant dense<0.0173> : tensor<bf16>
  %yb = quant_affine.dequantize %q, %sb range [-128, 127] compute f32 : (tensor<64xi8>, tensor<bf16>) -> tensor<64xf32>
  %rb = quant_affine.quantize %yb, %sb range [-128, 127] reciprocal compute f32 : (tensor<64xf32>, tensor<bf16>) -> tensor<64xi8>
  return %r, %rb : tensor<64xi8>, tensor<64xi8>
}
