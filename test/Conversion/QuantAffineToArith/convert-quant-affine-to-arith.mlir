// RUN: quant-affine-opt %s --convert-quant-affine-to-arith --split-input-file | FileCheck %s

// True division, roundeven before the offset, compare-select clamp (keeps
// -0.0 and NaN), fptosi for a signed grid.
// CHECK-LABEL: func.func @quantize_scalar
// CHECK-SAME: (%[[X:.*]]: f32, %[[S:.*]]: f32, %[[O:.*]]: f32)
// CHECK-DAG: %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[D:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK: %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK: %[[V:.*]] = arith.subf %[[R]], %[[O]] : f32
// CHECK: %[[B:.*]] = arith.cmpf olt, %[[V]], %[[LO]] : f32
// CHECK: %[[M:.*]] = arith.select %[[B]], %[[LO]], %[[V]] : f32
// CHECK: %[[A:.*]] = arith.cmpf olt, %[[HI]], %[[M]] : f32
// CHECK: %[[C:.*]] = arith.select %[[A]], %[[HI]], %[[M]] : f32
// CHECK: %[[Q:.*]] = arith.fptosi %[[C]] : f32 to i8
// CHECK: return %[[Q]]
// CHECK-NOT: arith.mulf
// CHECK-NOT: maximumf
func.func @quantize_scalar(%x: f32, %s: f32, %o: f32) -> i8 {
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (f32, f32, f32) -> i8
  return %q : i8
}

// -----

// Unsigned grid: fptoui. No offset: no subf.
// CHECK-LABEL: func.func @quantize_unsigned_no_offset
// CHECK-NOT: arith.subf
// CHECK: arith.fptoui %{{.*}} : f32 to i8
func.func @quantize_unsigned_no_offset(%x: f32, %s: f32) -> i8 {
  %q = quant_affine.quantize %x, %s range [0, 255] : (f32, f32) -> i8
  return %q : i8
}

// -----

// 8-bit qdq of bf16 computes in f32. bf16 widens by a shift and narrows by
// integer round-to-nearest-even (arith.truncf to bf16 becomes VCVTNEPS2BF16
// on AVX512-BF16 CPUs, which flushes subnormals).
// CHECK-LABEL: func.func @qdq_bf16_vector
// CHECK-SAME: (%[[X:.*]]: vector<16xbf16>, %[[S:.*]]: vector<16xf32>)
// CHECK: %[[XI:.*]] = arith.bitcast %[[X]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[XW:.*]] = arith.extui %[[XI]] : vector<16xi16> to vector<16xi32>
// CHECK: %[[XS:.*]] = arith.shli %[[XW]], %{{.*}} : vector<16xi32>
// CHECK: %[[XE:.*]] = arith.bitcast %[[XS]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[D:.*]] = arith.divf %[[XE]], %[[S]] : vector<16xf32>
// CHECK: math.roundeven %[[D]] : vector<16xf32>
// CHECK: %[[Y:.*]] = arith.mulf %{{.*}}, %[[S]] : vector<16xf32>
// CHECK: %[[YB:.*]] = arith.bitcast %[[Y]] : vector<16xf32> to vector<16xi32>
// CHECK: arith.addi %[[YB]], %{{.*}} : vector<16xi32>
// CHECK: arith.cmpf uno, %[[Y]], %[[Y]] : vector<16xf32>
// CHECK: arith.bitcast %{{.*}} : vector<16xi16> to vector<16xbf16>
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
func.func @qdq_bf16_vector(%x: vector<16xbf16>, %s: vector<16xf32>) -> vector<16xbf16> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (vector<16xbf16>, vector<16xf32>) -> vector<16xbf16>
  return %y : vector<16xbf16>
}

// -----

// An explicit compute type wins: the f32 scale is rounded to bf16, and each
// bf16 step runs in f32 with a software rounding back to bf16 (no bf16
// arithmetic reaches LLVM, which would narrow with a flushing instruction).
// CHECK-LABEL: func.func @qdq_explicit_bf16
// CHECK: %[[S:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.divf %{{.*}} : bf16
// CHECK-NOT: arith.mulf %{{.*}} : bf16
func.func @qdq_explicit_bf16(%x: bf16, %s: f32) -> bf16 {
  %y = quant_affine.qdq %x, %s range [-128, 127] compute bf16 : (bf16, f32) -> bf16
  return %y : bf16
}

// -----

// A 32-bit grid on f32 computes in f64; f64 to f16 rounds through f32.
// CHECK-LABEL: func.func @quantize_f64_compute_to_f16
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.divf {{.*}} : f64
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %[[T]] : f32 to f16
func.func @quantize_f64_compute_to_f16(%x: f16, %s: f32) -> f16 {
  %q = quant_affine.quantize %x, %s range [-2147483648, 2147483647] : (f16, f32) -> f16
  return %q : f16
}

// -----

// Dequantize reads integers by the grid's signedness and never clamps.
// CHECK-LABEL: func.func @dequantize_signed_and_unsigned
// CHECK: arith.sitofp %{{.*}} : i4 to f32
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.uitofp %{{.*}} : i8 to f16
// CHECK-NOT: arith.cmpf
func.func @dequantize_signed_and_unsigned(%q: i4, %u: i8, %s: f32, %o: f32, %h: f16) -> (f32, f16) {
  %a = quant_affine.dequantize %q, %s, %o range [-8, 7] : (i4, f32, f32) -> f32
  %b = quant_affine.dequantize %u, %h range [0, 255] : (i8, f16) -> f16
  return %a, %b : f32, f16
}

// -----

// Tensor forms are left for convert-quant-affine-to-linalg.
// CHECK-LABEL: func.func @tensor_untouched
// CHECK: quant_affine.qdq
func.func @tensor_untouched(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %y = quant_affine.qdq %x, %s range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
