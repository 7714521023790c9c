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

// E8M0 (MX's scale byte c, 2^(c - 127)): c << 23 as f32 bits, the denormal
// 2^-127 (0x00400000) for c = 0, NaN (0x7FC00000) for 0xFF; f16 rounds once
// from f32.
// CHECK-LABEL: func.func @e8m0_to_f32
// CHECK: %[[BYTE:.*]] = arith.bitcast %{{.*}} : vector<8xf8E8M0FNU> to vector<8xi8>
// CHECK: %[[CODE:.*]] = arith.extui %[[BYTE]] : vector<8xi8> to vector<8xi32>
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[CODE]]
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : vector<8xi32>
// CHECK-DAG: %[[SMALLEST:.*]] = arith.constant dense<4194304> : vector<8xi32>
// CHECK: %[[IS_ZERO:.*]] = arith.cmpi eq, %[[CODE]], %[[ZERO]]
// CHECK: %[[LOW:.*]] = arith.select %[[IS_ZERO]], %[[SMALLEST]], %[[SHIFTED]]
// CHECK-DAG: %[[NAN_CODE:.*]] = arith.constant dense<255> : vector<8xi32>
// CHECK-DAG: %[[NAN:.*]] = arith.constant dense<2143289344> : vector<8xi32>
// CHECK: %[[IS_NAN:.*]] = arith.cmpi eq, %[[CODE]], %[[NAN_CODE]]
// CHECK: %[[BITS:.*]] = arith.select %[[IS_NAN]], %[[NAN]], %[[LOW]]
// CHECK: arith.bitcast %[[BITS]] : vector<8xi32> to vector<8xf32>
// CHECK-NOT: arith.extf
func.func @e8m0_to_f32(%x: vector<8xf8E8M0FNU>) -> vector<8xf32> {
  %y = arith.extf %x : vector<8xf8E8M0FNU> to vector<8xf32>
  return %y : vector<8xf32>
}

// CHECK-LABEL: func.func @e8m0_to_f16
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @e8m0_to_f16(%x: f8E8M0FNU) -> f16 {
  %y = arith.extf %x : f8E8M0FNU to f16
  return %y : f16
}
