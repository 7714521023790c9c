// RUN: quant-affine-opt %s -canonicalize="test-convergence" -split-input-file -allow-unregistered-dialect | FileCheck %s

// A compute_type equal to the default is dropped; a different one stays.
// CHECK-LABEL: func.func @default_compute_type
// CHECK: quant_affine.qdq %{{.*}} range [-128, 127] : (tensor<8xbf16>
// CHECK: quant_affine.qdq %{{.*}} range [-128, 127] compute bf16
func.func @default_compute_type(%x: tensor<8xbf16>, %s: tensor<f32>) -> (tensor<8xbf16>, tensor<8xbf16>) {
  %a = quant_affine.qdq %x, %s range [-128, 127] compute f32 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
  %b = quant_affine.qdq %x, %s range [-128, 127] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
  return %a, %b : tensor<8xbf16>, tensor<8xbf16>
}

// -----

// block_size: dropped when it only restates broadcasting, wildcards resolved
// where static, kept otherwise.
// CHECK-LABEL: func.func @block_size
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 255] : (tensor<4x64xf32>, tensor<4x1xf32>)
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 255] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>)
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 255] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>)
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 255] block [1, -1] : (tensor<4x?xf32>, tensor<4x2xf32>)
func.func @block_size(%x: tensor<4x64xf32>, %r: tensor<4x1xf32>, %b: tensor<4x2xf32>, %d: tensor<4x?xf32>) {
  %0 = quant_affine.qdq %x, %r range [0, 255] block [1, 64] : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %1 = quant_affine.qdq %x, %b range [0, 255] block [1, -1] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  %2 = quant_affine.qdq %x, %b range [0, 255] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  %3 = quant_affine.qdq %d, %b range [0, 255] block [1, -1] : (tensor<4x?xf32>, tensor<4x2xf32>) -> tensor<4x?xf32>
  "test.use"(%0, %1, %2, %3) : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x?xf32>) -> ()
  return
}

// -----

// Splat scales and offsets become per-tensor; a non-uniform offset keeps the
// encoding as it is.
// CHECK-LABEL: func.func @uniform_encoding
// CHECK-DAG: %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[O:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK: quant_affine.quantize %{{.*}}, %[[S]], %[[O]] range [-8, 7] : (tensor<4x64xf32>, tensor<f32>, tensor<f32>)
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
func.func @uniform_encoding(%x: tensor<4x64xf32>) -> (tensor<4x64xi4>, tensor<4x64xi4>) {
  %s = arith.constant dense<0.5> : tensor<4x2xf32>
  %o = arith.constant dense<2.0> : tensor<4x2xf32>
  %a = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  %ov = arith.constant dense<[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]> : tensor<4x2xf32>
  %b = quant_affine.quantize %x, %s, %ov range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return %a, %b : tensor<4x64xi4>, tensor<4x64xi4>
}

// -----

// Zero offsets: dropped where exact (quantize with +0.0; dequantize of
// integers with either zero), kept where the sign of a zero result would
// change (quantize with -0.0, qdq, dequantize of floats).
// CHECK-LABEL: func.func @zero_offset
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}} range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}} range [0, 255] : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255]
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}}, %{{.*}} range [0, 255]
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] : (tensor<4xf32>
func.func @zero_offset(%x: tensor<4xf32>, %q: tensor<4xi8>, %s: tensor<f32>) {
  %pz = arith.constant dense<0.0> : tensor<f32>
  %nz = arith.constant dense<-0.0> : tensor<f32>
  %0 = quant_affine.quantize %x, %s, %pz range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %1 = quant_affine.dequantize %q, %s, %nz range [0, 255] : (tensor<4xi8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %2 = quant_affine.quantize %x, %s, %nz range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %3 = quant_affine.qdq %x, %s, %pz range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %4 = quant_affine.dequantize %x, %s, %pz range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  "test.use"(%0, %1, %2, %3, %4) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

// qdq(qdq(x, E), E) -> qdq(x, E) when the grid provably round-trips
// (offsets may be zeros of either sign).
// CHECK-LABEL: func.func @qdq_of_qdq
// CHECK: %[[Y:.*]] = quant_affine.qdq
// CHECK-NOT: quant_affine.qdq
// CHECK: return %[[Y]]
func.func @qdq_of_qdq(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = arith.constant dense<[0.1, 0.3, 7.0, 1.0e-30]> : tensor<4xf32>
  %o = arith.constant dense<[3.0, -0.0, 0.0, 128.0]> : tensor<4xf32>
  %a = quant_affine.qdq %x, %s, %o range [-128, 127] block [2] : (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %b = quant_affine.qdq %a, %s, %o range [-128, 127] block [2] : (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// Each condition's failing side keeps both ops.
// CHECK-LABEL: func.func @qdq_of_qdq_kept
// CHECK-COUNT-16: quant_affine.qdq
func.func @qdq_of_qdq_kept(%x: tensor<4xf32>, %h: tensor<4xbf16>, %sa: tensor<f32>) {
  // Scale not constant.
  %0 = quant_affine.qdq %x, %sa range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = quant_affine.qdq %0, %sa range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // Scale zero: (q + o) * 0 = 0, then 0 / 0 = NaN.
  %z = arith.constant dense<0.0> : tensor<f32>
  %2 = quant_affine.qdq %x, %z range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = quant_affine.qdq %2, %z range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // Subnormal scale: k * s loses relative precision.
  %d = arith.constant dense<1.0e-40> : tensor<f32>
  %4 = quant_affine.qdq %x, %d range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = quant_affine.qdq %4, %d range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // Non-integer offset: qmin + o is no grid point.
  %s = arith.constant dense<0.1> : tensor<f32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %6 = quant_affine.qdq %x, %s, %half range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %7 = quant_affine.qdq %6, %s, %half range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // Offset 0.7: a clamped q = 0 gives k = 0.7, which rounds to 1, and
  // q' = 0.3 is not clamped.
  %o7 = arith.constant dense<0.7> : tensor<f32>
  %8 = quant_affine.qdq %x, %s, %o7 range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %9 = quant_affine.qdq %8, %s, %o7 range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // bf16 result of an f32 computation: the inner result is rounded.
  %10 = quant_affine.qdq %h, %s range [-128, 127] : (tensor<4xbf16>, tensor<f32>) -> tensor<4xbf16>
  %11 = quant_affine.qdq %10, %s range [-128, 127] : (tensor<4xbf16>, tensor<f32>) -> tensor<4xbf16>
  // Grid one past 2^(p-3) = 2^21 for f32 (the boundary itself is below).
  %12 = quant_affine.qdq %x, %s range [0, 2097153] compute f32 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %13 = quant_affine.qdq %12, %s range [0, 2097153] compute f32 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // Overflow: 255 * 1e37 is not finite in f32.
  %big = arith.constant dense<1.0e37> : tensor<f32>
  %14 = quant_affine.qdq %x, %big range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %15 = quant_affine.qdq %14, %big range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  "test.use"(%1, %3, %5, %7, %9, %11, %13, %15) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

// The boundary: max |q + o| = 2^21 still folds for f32.
// CHECK-LABEL: func.func @qdq_of_qdq_boundary
// CHECK-COUNT-1: quant_affine.qdq
// CHECK-NOT: quant_affine.qdq
func.func @qdq_of_qdq_boundary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.1> : tensor<f32>
  %a = quant_affine.qdq %x, %s range [0, 2097152] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %b = quant_affine.qdq %a, %s range [0, 2097152] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// dequantize(quantize(x, E), E) -> qdq(x, E): float storage of C, or integer
// storage with a constant integer offset free of -0.0.
// CHECK-LABEL: func.func @dequantize_of_quantize
// CHECK: %[[A:.*]] = quant_affine.qdq %{{.*}}, %{{.*}} range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = quant_affine.qdq %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NOT: quant_affine.quantize
// CHECK: return %[[A]], %[[B]]
func.func @dequantize_of_quantize(%x: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %q = quant_affine.quantize %x, %s range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %a = quant_affine.dequantize %q, %s range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %o = arith.constant dense<1.0> : tensor<f32>
  %qi = quant_affine.quantize %x, %s, %o range [-8, 7] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi4>
  %b = quant_affine.dequantize %qi, %s, %o range [-8, 7] : (tensor<4xi4>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// Kept: integer storage without an offset (quantize gives -0.0, the integer
// +0.0), with a non-constant offset, float storage narrower than C, a result
// type other than x's, different scales.
// CHECK-LABEL: func.func @dequantize_of_quantize_kept
// CHECK-COUNT-5: quant_affine.dequantize
func.func @dequantize_of_quantize_kept(%x: tensor<4xf32>, %s: tensor<f32>, %t: tensor<f32>, %oa: tensor<f32>) {
  %q0 = quant_affine.quantize %x, %s range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi4>
  %0 = quant_affine.dequantize %q0, %s range [-8, 7] : (tensor<4xi4>, tensor<f32>) -> tensor<4xf32>
  %q1 = quant_affine.quantize %x, %s, %oa range [-8, 7] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi4>
  %1 = quant_affine.dequantize %q1, %s, %oa range [-8, 7] : (tensor<4xi4>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %q2 = quant_affine.quantize %x, %s range [0, 4095] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf16>
  %2 = quant_affine.dequantize %q2, %s range [0, 4095] compute f32 : (tensor<4xf16>, tensor<f32>) -> tensor<4xf32>
  %q3 = quant_affine.quantize %x, %s range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = quant_affine.dequantize %q3, %s range [-8, 7] compute f32 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf64>
  %4 = quant_affine.dequantize %q3, %t range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  "test.use"(%0, %1, %2, %3, %4) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf32>) -> ()
  return
}

// -----

// quantize(dequantize(q, E), E) -> q when the integer type is the grid and
// the grid round-trips.
// CHECK-LABEL: func.func @quantize_of_dequantize
// CHECK-SAME: (%[[Q:.*]]: tensor<16xi8>
// CHECK-NOT: quant_affine
// CHECK: return %[[Q]]
func.func @quantize_of_dequantize(%q: tensor<16xi8>) -> tensor<16xi8> {
  %s = arith.constant dense<0.05> : tensor<f32>
  %o = arith.constant dense<-3.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s, %o range [-128, 127] : (tensor<16xi8>, tensor<f32>, tensor<f32>) -> tensor<16xf32>
  %r = quant_affine.quantize %y, %s, %o range [-128, 127] : (tensor<16xf32>, tensor<f32>, tensor<f32>) -> tensor<16xi8>
  return %r : tensor<16xi8>
}

// -----

// Kept: a grid narrower than the type (q may be clamped), a subnormal scale,
// a dequantized value rounded to bf16 before the f32 quantize.
// CHECK-LABEL: func.func @quantize_of_dequantize_kept
// CHECK-COUNT-3: quant_affine.quantize
func.func @quantize_of_dequantize_kept(%q: tensor<16xi8>) {
  %s = arith.constant dense<0.05> : tensor<f32>
  %y0 = quant_affine.dequantize %q, %s range [-100, 100] : (tensor<16xi8>, tensor<f32>) -> tensor<16xf32>
  %0 = quant_affine.quantize %y0, %s range [-100, 100] : (tensor<16xf32>, tensor<f32>) -> tensor<16xi8>
  %d = arith.constant dense<1.0e-40> : tensor<f32>
  %y1 = quant_affine.dequantize %q, %d range [-128, 127] : (tensor<16xi8>, tensor<f32>) -> tensor<16xf32>
  %1 = quant_affine.quantize %y1, %d range [-128, 127] : (tensor<16xf32>, tensor<f32>) -> tensor<16xi8>
  %y2 = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<16xi8>, tensor<f32>) -> tensor<16xbf16>
  %2 = quant_affine.quantize %y2, %s range [-128, 127] compute f32 : (tensor<16xbf16>, tensor<f32>) -> tensor<16xi8>
  "test.use"(%0, %1, %2) : (tensor<16xi8>, tensor<16xi8>, tensor<16xi8>) -> ()
  return
}

// -----

// Constant encodings that do not vary along a dim keep one entry along it;
// the block over that dim becomes the whole dim, and block_size then only
// restates per-channel broadcasting and goes. Varying along every dim: kept.
// CHECK-LABEL: func.func @constant_along_dims
// CHECK-DAG: %[[S:.*]] = arith.constant dense<{{\[\[}}5.000000e-01], [2.500000e-01], [1.250000e-01], [6.250000e-02]]> : tensor<4x1xf32>
// CHECK-DAG: %[[O:.*]] = arith.constant dense<{{\[\[}}1.000000e+00], [2.000000e+00], [3.000000e+00], [4.000000e+00]]> : tensor<4x1xf32>
// CHECK: quant_affine.quantize %{{.*}}, %[[S]], %[[O]] range [-8, 7] : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
// CHECK: quant_affine.quantize %{{.*}} range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
func.func @constant_along_dims(%x: tensor<4x64xf32>) -> (tensor<4x64xi4>, tensor<4x64xi4>) {
  %s = arith.constant dense<[[0.5, 0.5], [0.25, 0.25], [0.125, 0.125], [0.0625, 0.0625]]> : tensor<4x2xf32>
  %o = arith.constant dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]> : tensor<4x2xf32>
  %a = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  %v = arith.constant dense<[[0.5, 0.25], [0.25, 0.5], [0.5, 0.25], [0.25, 0.5]]> : tensor<4x2xf32>
  %b = quant_affine.quantize %x, %v, %o range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return %a, %b : tensor<4x64xi4>, tensor<4x64xi4>
}

// -----

// The compute_type rule binds only quantize to an integer (the clamp must keep
// every value convertible). dequantize(quantize(x)) through bf16 storage of a
// 16-bit grid computed in bf16 becomes a qdq that keeps compute bf16: valid,
// as a qdq never converts to an integer. A compute type the default rule also
// picks is dropped from an integer quantize: the default always holds the grid.
// CHECK-LABEL: func.func @compute_type_rule
// CHECK: %[[Y:.*]] = quant_affine.qdq %{{.*}}, %{{.*}} range [-32768, 32767] compute bf16 : (tensor<4xbf16>, tensor<f32>) -> tensor<4xbf16>
// CHECK: %[[I:.*]] = quant_affine.quantize %{{.*}}, %{{.*}} range [-32768, 32767] : (tensor<4xbf16>, tensor<f32>) -> tensor<4xi16>
// CHECK: return %[[Y]], %[[I]]
func.func @compute_type_rule(%x: tensor<4xbf16>, %s: tensor<f32>) -> (tensor<4xbf16>, tensor<4xi16>) {
  %q = quant_affine.quantize %x, %s range [-32768, 32767] compute bf16 : (tensor<4xbf16>, tensor<f32>) -> tensor<4xbf16>
  %y = quant_affine.dequantize %q, %s range [-32768, 32767] : (tensor<4xbf16>, tensor<f32>) -> tensor<4xbf16>
  %i = quant_affine.quantize %x, %s range [-32768, 32767] compute f32 : (tensor<4xbf16>, tensor<f32>) -> tensor<4xi16>
  return %y, %i : tensor<4xbf16>, tensor<4xi16>
}
