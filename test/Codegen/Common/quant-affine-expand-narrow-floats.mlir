// RUN: quant-affine-opt %s --quant-affine-expand-narrow-floats | FileCheck %s
// Conversions to and from the four float8 types become integer arithmetic
// (their values are checked exhaustively in
// test/Integration/CPU/narrow-float-storage-exhaustive.mlir); other conversions
// stay.

// CHECK-LABEL: func.func @truncf
// CHECK-NOT: arith.truncf
// CHECK: arith.andi {{.*}} : vector<16xi32>
// CHECK: math.roundeven {{.*}} : vector<16xf32>
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: arith.bitcast {{.*}} : vector<16xi8> to vector<16xf8E4M3FN>
func.func @truncf(%x: vector<16xf32>) -> vector<16xf8E4M3FN> {
  %y = arith.truncf %x : vector<16xf32> to vector<16xf8E4M3FN>
  return %y : vector<16xf8E4M3FN>
}

// f16 and bf16 go through f32 exactly; f64 is rounded from its own bits.
// CHECK-LABEL: func.func @truncf_f16_f64
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.bitcast {{.*}} : f64 to i64
// CHECK-NOT: arith.truncf
func.func @truncf_f16_f64(%x: f16, %y: f64) -> (f8E5M2FNUZ, f8E5M2) {
  %a = arith.truncf %x : f16 to f8E5M2FNUZ
  %b = arith.truncf %y : f64 to f8E5M2
  return %a, %b : f8E5M2FNUZ, f8E5M2
}

// CHECK-LABEL: func.func @extf
// CHECK: arith.bitcast {{.*}} : vector<8xf8E4M3FNUZ> to vector<8xi8>
// CHECK: arith.extui {{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.extf {{.*}} : vector<8xf32> to vector<8xf64>
// CHECK-NOT: f8E4M3FNUZ to
func.func @extf(%x: vector<8xf8E4M3FNUZ>) -> vector<8xf64> {
  %y = arith.extf %x : vector<8xf8E4M3FNUZ> to vector<8xf64>
  return %y : vector<8xf64>
}

// CHECK-LABEL: func.func @others
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.extf {{.*}} : f16 to f32
func.func @others(%x: f32) -> f32 {
  %a = arith.truncf %x : f32 to f16
  %b = arith.extf %a : f16 to f32
  return %b : f32
}
