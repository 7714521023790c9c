// RUN: quant-affine-opt %s --quant-affine-expand-narrow-floats | FileCheck %s
// Conversions to and from the four float8 types become integer arithmetic
// (their values are checked exhaustively in
// test/Integration/CPU/narrow-float-storage-exhaustive.mlir); other conversions
// stay.

// From f32, on the bits: normal results round to nearest even in integer
// arithmetic (add 2^19 - 1 and the lsb, then shift out 20 bits, rebiasing in
// the same addition; past 126 is overflow, inf or NaN: the NaN code 127),
// subnormal ones in an f32 addition of 2^14, whose ulp is f8E4M3FN's quantum
// 2^-9 (the code in the low bits of the sum's bits, which the truncation
// keeps).
// CHECK-LABEL: func.func @truncf
// CHECK-DAG: %[[NAN:.*]] = arith.constant dense<127> : vector<16xi32>
// CHECK-DAG: %[[SIGN_BIT:.*]] = arith.constant dense<-2147483648> : vector<16xi32>
// CHECK-DAG: %[[TO_SIGN:.*]] = arith.constant dense<24> : vector<16xi32>
// CHECK-DAG: %[[MIN_NORMAL:.*]] = arith.constant dense<1.562500e-02> : vector<16xf32>
// CHECK-DAG: %[[MAGIC:.*]] = arith.constant dense<1.638400e+04> : vector<16xf32>
// CHECK-DAG: %[[LARGEST:.*]] = arith.constant dense<126> : vector<16xi32>
// CHECK-DAG: %[[ROUND_REBIAS:.*]] = arith.constant dense<-1006108673> : vector<16xi32>
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant dense<20> : vector<16xi32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1> : vector<16xi32>
// CHECK-DAG: %[[ABS_MASK:.*]] = arith.constant dense<2147483647> : vector<16xi32>
// CHECK-NOT: arith.truncf
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: %[[ABS:.*]] = arith.andi %[[BITS]], %[[ABS_MASK]]
// CHECK: %[[MAGNITUDE:.*]] = arith.bitcast %[[ABS]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[LSB_AT_0:.*]] = arith.shrui %[[ABS]], %[[SHIFT]]
// CHECK: %[[LSB:.*]] = arith.andi %[[LSB_AT_0]], %[[ONE]]
// CHECK: %[[BIASED:.*]] = arith.addi %[[ABS]], %[[ROUND_REBIAS]]
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[BIASED]], %[[LSB]]
// CHECK: %[[NORMAL:.*]] = arith.shrsi %[[ROUNDED]], %[[SHIFT]]
// CHECK: %[[OVERFLOW:.*]] = arith.cmpi sgt, %[[NORMAL]], %[[LARGEST]]
// CHECK: %[[SHIFTED:.*]] = arith.addf %[[MAGNITUDE]], %[[MAGIC]]
// CHECK: %[[SUBNORMAL:.*]] = arith.bitcast %[[SHIFTED]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[IS_SUBNORMAL:.*]] = arith.cmpf olt, %[[MAGNITUDE]], %[[MIN_NORMAL]]
// CHECK: %[[CODE:.*]] = arith.select %[[IS_SUBNORMAL]], %[[SUBNORMAL]], %[[NORMAL]]
// CHECK: %[[SIGN_AT_31:.*]] = arith.andi %[[BITS]], %[[SIGN_BIT]]
// CHECK: %[[SIGN:.*]] = arith.shrui %[[SIGN_AT_31]], %[[TO_SIGN]]
// CHECK: %[[SIGNED:.*]] = arith.ori %[[CODE]], %[[SIGN]]
// CHECK: %[[RESULT:.*]] = arith.select %[[OVERFLOW]], %[[NAN]], %[[SIGNED]]
// CHECK: %[[BYTE:.*]] = arith.trunci %[[RESULT]] : vector<16xi32> to vector<16xi8>
// CHECK: arith.bitcast %[[BYTE]] : vector<16xi8> to vector<16xf8E4M3FN>
func.func @truncf(%x: vector<16xf32>) -> vector<16xf8E4M3FN> {
  %y = arith.truncf %x : vector<16xf32> to vector<16xf8E4M3FN>
  return %y : vector<16xf8E4M3FN>
}

// quantize's clamp to the type's range (compares and selects, NaN passing)
// folded into the encoding: the magnitude limited to 448 by one compare and
// select (x86 vminps), the clamp's two left for other users only. Saturated,
// normal and subnormal magnitudes round in one f32 addition of
// C = 2^(E + 20) + 152 ulps, E the magnitude's binade (at least -6, the
// smallest normal's): C's ulp is f8E4M3FN's quantum in binade E, so the sum
// is C plus the rounded count of quanta, and its bits plus themselves
// shifted right by 20 hold the code in their low byte. A NaN magnitude is
// first lowered to 480 (the value the NaN code 127 would have), the sign
// taken from x clamped above (positive for a NaN) rides in C as 128 ulps.
// Either bound first. Exact for every f32 input: utils/narrow-encode-f32
// compares it with the clamp and plain encoding; the edges run in
// test/Integration/CPU/narrow-float-saturated-edges.test.
// CHECK-LABEL: func.func @truncf_clamped
// CHECK-SAME: (%[[X:.*]]: vector<16xf32>, %[[Y:.*]]: f32)
// CHECK-DAG: %[[MAX:.*]] = arith.constant dense<4.480000e+02> : vector<16xf32>
// CHECK-DAG: %[[NAN_VALUE:.*]] = arith.constant dense<1139802112> : vector<16xi32>
// CHECK-DAG: %[[EXPONENT:.*]] = arith.constant dense<2139095040> : vector<16xi32>
// CHECK-DAG: %[[MIN_NORMAL:.*]] = arith.constant dense<1015021568> : vector<16xi32>
// CHECK-DAG: %[[TO_C:.*]] = arith.constant dense<167772312> : vector<16xi32>
// CHECK-DAG: %[[TO_SIGN:.*]] = arith.constant dense<24> : vector<16xi32>
// CHECK-DAG: %[[SIGN_BIT:.*]] = arith.constant dense<128> : vector<16xi32>
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant dense<20> : vector<16xi32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[ABS:.*]] = arith.andi %[[BITS]], %{{.*}}
// CHECK: %[[MAGNITUDE:.*]] = arith.bitcast %[[ABS]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[ABOVE:.*]] = arith.cmpf olt, %[[MAX]], %[[MAGNITUDE]]
// CHECK: %[[LIMITED:.*]] = arith.select %[[ABOVE]], %[[MAX]], %[[MAGNITUDE]]
// CHECK: %[[LIMITED_BITS:.*]] = arith.bitcast %[[LIMITED]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[MAX]]
// CHECK: %[[SIGNED:.*]] = arith.select %[[BELOW]], %[[X]], %[[MAX]]
// CHECK: %[[SIGNED_BITS:.*]] = arith.bitcast %[[SIGNED]]
// CHECK: %[[SIGN_AT_7:.*]] = arith.shrui %[[SIGNED_BITS]], %[[TO_SIGN]]
// CHECK: %[[SIGN:.*]] = arith.andi %[[SIGN_AT_7]], %[[SIGN_BIT]]
// CHECK: %[[NOT_NAN:.*]] = arith.minui %[[LIMITED_BITS]], %[[NAN_VALUE]]
// CHECK: %[[EXP:.*]] = arith.andi %[[NOT_NAN]], %[[EXPONENT]]
// CHECK: %[[BINADE:.*]] = arith.maxui %[[EXP]], %[[MIN_NORMAL]]
// CHECK: %[[SIGNED_BINADE:.*]] = arith.ori %[[BINADE]], %[[SIGN]]
// CHECK: %[[C_BITS:.*]] = arith.addi %[[SIGNED_BINADE]], %[[TO_C]]
// CHECK: %[[C:.*]] = arith.bitcast %[[C_BITS]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[A:.*]] = arith.bitcast %[[NOT_NAN]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[C]]
// CHECK: %[[SUM_BITS:.*]] = arith.bitcast %[[SUM]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[EXP_SHIFTED:.*]] = arith.shrui %[[SUM_BITS]], %[[SHIFT]]
// CHECK: %[[CODE:.*]] = arith.addi %[[SUM_BITS]], %[[EXP_SHIFTED]]
// CHECK: %[[BYTE:.*]] = arith.trunci %[[CODE]] : vector<16xi32> to vector<16xi8>
// CHECK: arith.bitcast %[[BYTE]] : vector<16xi8> to vector<16xf8E4M3FN>
// Upper bound first, scalar:
// CHECK: %[[YBITS:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: arith.minui %{{.*}}, %{{.*}} : i32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.select
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK-NOT: arith.truncf
func.func @truncf_clamped(%x: vector<16xf32>, %y: f32) -> (vector<16xf8E4M3FN>, f8E4M3FN) {
  %lo = arith.constant dense<-448.0> : vector<16xf32>
  %hi = arith.constant dense<448.0> : vector<16xf32>
  %below = arith.cmpf olt, %x, %lo : vector<16xf32>
  %l = arith.select %below, %lo, %x : vector<16xi1>, vector<16xf32>
  %above = arith.cmpf olt, %hi, %l : vector<16xf32>
  %c = arith.select %above, %hi, %l : vector<16xi1>, vector<16xf32>
  %t = arith.truncf %c : vector<16xf32> to vector<16xf8E4M3FN>
  %slo = arith.constant -448.0 : f32
  %shi = arith.constant 448.0 : f32
  %sabove = arith.cmpf olt, %shi, %y : f32
  %su = arith.select %sabove, %shi, %y : f32
  %sbelow = arith.cmpf olt, %su, %slo : f32
  %sc = arith.select %sbelow, %slo, %su : f32
  %st = arith.truncf %sc : f32 to f8E4M3FN
  return %t, %st : vector<16xf8E4M3FN>, f8E4M3FN
}

// A format without a NaN code (f4E2M1FN): unclamped, the rounded code is
// limited to the largest one (arith.minsi); clamped, the magnitude already
// is (the saturated encoding, one addition), and a NaN becomes a zero of its
// sign by a select, so the minimum is left out.
// CHECK-LABEL: func.func @truncf_e2m1_clamped_or_not
// CHECK-DAG: %[[TO_C:.*]] = arith.constant dense<184549382> : vector<16xi32>
// CHECK-DAG: %[[MIN_NORMAL:.*]] = arith.constant dense<1065353216> : vector<16xi32>
// CHECK: arith.minsi
// CHECK: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi4>
// CHECK-NOT: arith.minsi
// CHECK: %[[BINADE:.*]] = arith.maxui %{{.*}}, %[[MIN_NORMAL]]
// CHECK: %[[SIGNED_BINADE:.*]] = arith.ori %[[BINADE]], %[[SIGN:.*]] :
// CHECK: arith.addi %[[SIGNED_BINADE]], %[[TO_C]]
// CHECK: arith.addf
// CHECK-NOT: arith.minsi
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0
// CHECK: %[[CODE:.*]] = arith.select %[[NAN]], %[[SIGN]], %{{.*}}
// CHECK: arith.trunci %[[CODE]] : vector<16xi32> to vector<16xi4>
func.func @truncf_e2m1_clamped_or_not(%x: vector<16xf32>) -> (vector<16xf4E2M1FN>, vector<16xf4E2M1FN>) {
  %plain = arith.truncf %x : vector<16xf32> to vector<16xf4E2M1FN>
  %lo = arith.constant dense<-6.0> : vector<16xf32>
  %hi = arith.constant dense<6.0> : vector<16xf32>
  %below = arith.cmpf olt, %x, %lo : vector<16xf32>
  %l = arith.select %below, %lo, %x : vector<16xi1>, vector<16xf32>
  %above = arith.cmpf olt, %hi, %l : vector<16xf32>
  %c = arith.select %above, %hi, %l : vector<16xi1>, vector<16xf32>
  %clamped = arith.truncf %c : vector<16xf32> to vector<16xf4E2M1FN>
  return %plain, %clamped : vector<16xf4E2M1FN>, vector<16xf4E2M1FN>
}

// Not the type's range (a clamp to 240 for f8E4M3FN), or a bound that is
// not a constant: the clamp stays and the clamped value is encoded.
// CHECK-LABEL: func.func @truncf_other_clamps
// CHECK: arith.select
// CHECK-NEXT: arith.cmpf
// CHECK-NEXT: %[[C1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.bitcast %[[C1]] : f32 to i32
// CHECK: arith.select %{{.*}}, %{{.*}}, %arg0 : f32
// CHECK-NEXT: arith.cmpf
// CHECK-NEXT: %[[C2:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.bitcast %[[C2]] : f32 to i32
func.func @truncf_other_clamps(%y: f32, %m: f32) -> (f8E4M3FN, f8E4M3FN) {
  %lo = arith.constant -240.0 : f32
  %hi = arith.constant 240.0 : f32
  %below = arith.cmpf olt, %y, %lo : f32
  %l = arith.select %below, %lo, %y : f32
  %above = arith.cmpf olt, %hi, %l : f32
  %c = arith.select %above, %hi, %l : f32
  %t = arith.truncf %c : f32 to f8E4M3FN
  %nm = arith.negf %m : f32
  %below2 = arith.cmpf olt, %y, %nm : f32
  %l2 = arith.select %below2, %nm, %y : f32
  %above2 = arith.cmpf olt, %m, %l2 : f32
  %c2 = arith.select %above2, %m, %l2 : f32
  %t2 = arith.truncf %c2 : f32 to f8E4M3FN
  return %t, %t2 : f8E4M3FN, f8E4M3FN
}

// Not quantize's clamp either, so not folded (each is encoded from its own
// last select, never from %y itself): the selects' operands swapped, an
// unordered compare, a compare of another value, the bounds the wrong way
// round.
// CHECK-LABEL: func.func @truncf_not_clamps
// CHECK-NOT: arith.bitcast %arg0 : f32 to i32
// CHECK: return
func.func @truncf_not_clamps(%y: f32, %z: f32) -> (f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN) {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %b0 = arith.cmpf olt, %y, %lo : f32
  %l0 = arith.select %b0, %y, %lo : f32
  %a0 = arith.cmpf olt, %hi, %l0 : f32
  %c0 = arith.select %a0, %hi, %l0 : f32
  %t0 = arith.truncf %c0 : f32 to f8E4M3FN
  %b1 = arith.cmpf ult, %y, %lo : f32
  %l1 = arith.select %b1, %lo, %y : f32
  %a1 = arith.cmpf ult, %hi, %l1 : f32
  %c1 = arith.select %a1, %hi, %l1 : f32
  %t1 = arith.truncf %c1 : f32 to f8E4M3FN
  %b2 = arith.cmpf olt, %z, %lo : f32
  %l2 = arith.select %b2, %lo, %y : f32
  %a2 = arith.cmpf olt, %hi, %l2 : f32
  %c2 = arith.select %a2, %hi, %l2 : f32
  %t2 = arith.truncf %c2 : f32 to f8E4M3FN
  %b3 = arith.cmpf olt, %y, %hi : f32
  %l3 = arith.select %b3, %hi, %y : f32
  %a3 = arith.cmpf olt, %lo, %l3 : f32
  %c3 = arith.select %a3, %lo, %l3 : f32
  %t3 = arith.truncf %c3 : f32 to f8E4M3FN
  return %t0, %t1, %t2, %t3 : f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN
}

// f16 and bf16 go through f32 exactly; f64 is rounded onto the grid in f64
// (Utils/FloatFormula.h's roundToGrid: one roundeven).
// CHECK-LABEL: func.func @truncf_f16_f64
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.bitcast {{.*}} : f32 to i32
// CHECK: arith.bitcast {{.*}} : f64 to i64
// CHECK: math.roundeven {{.*}} : f64
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
// CHECK-DAG: %[[NAN_CODE:.*]] = arith.constant dense<255> : vector<8xi32>
// CHECK-DAG: %[[NAN:.*]] = arith.constant dense<2143289344> : vector<8xi32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : vector<8xi32>
// CHECK-DAG: %[[SMALLEST:.*]] = arith.constant dense<4194304> : vector<8xi32>
// CHECK: %[[BYTE:.*]] = arith.bitcast %{{.*}} : vector<8xf8E8M0FNU> to vector<8xi8>
// CHECK: %[[CODE:.*]] = arith.extui %[[BYTE]] : vector<8xi8> to vector<8xi32>
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[CODE]]
// CHECK: %[[IS_ZERO:.*]] = arith.cmpi eq, %[[CODE]], %[[ZERO]]
// CHECK: %[[LOW:.*]] = arith.select %[[IS_ZERO]], %[[SMALLEST]], %[[SHIFTED]]
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

// 1 / extf(e) of an E8M0 scale in f32 is the scale of code 254 - c (255,
// NaN, stays), decoded: no division (every code, executed:
// test/Integration/CPU/e8m0-reciprocal-codes.mlir).
// CHECK-LABEL: func.func @e8m0_reciprocal(
// CHECK-DAG: %[[NAN_BYTE:.*]] = arith.constant dense<-1> : vector<8xi8>
// CHECK-DAG: %[[C254:.*]] = arith.constant dense<-2> : vector<8xi8>
// CHECK: %[[BYTE:.*]] = arith.bitcast %{{.*}} : vector<8xf8E8M0FNU> to vector<8xi8>
// CHECK: %[[NEG:.*]] = arith.subi %[[C254]], %[[BYTE]] : vector<8xi8>
// CHECK: %[[IS_NAN:.*]] = arith.cmpi eq, %[[BYTE]], %[[NAN_BYTE]]
// CHECK: %[[RCODE:.*]] = arith.select %[[IS_NAN]], %[[NAN_BYTE]], %[[NEG]]
// CHECK: arith.extui %[[RCODE]] : vector<8xi8> to vector<8xi32>
// CHECK-NOT: arith.divf
// CHECK: return
func.func @e8m0_reciprocal(%x: vector<8xf8E8M0FNU>) -> vector<8xf32> {
  %one = arith.constant dense<1.0> : vector<8xf32>
  %s = arith.extf %x : vector<8xf8E8M0FNU> to vector<8xf32>
  %r = arith.divf %one, %s : vector<8xf32>
  return %r : vector<8xf32>
}

// CHECK-LABEL: func.func @e8m0_reciprocal_scalar(
// CHECK: arith.subi
// CHECK-NOT: arith.divf
// CHECK: return
func.func @e8m0_reciprocal_scalar(%x: f8E8M0FNU) -> f32 {
  %one = arith.constant 1.0 : f32
  %s = arith.extf %x : f8E8M0FNU to f32
  %r = arith.divf %one, %s : f32
  return %r : f32
}

// Left dividing: another numerator, another scale type, an f64 result.
// CHECK-LABEL: func.func @not_e8m0_reciprocals(
// CHECK-COUNT-3: arith.divf
// CHECK: return
func.func @not_e8m0_reciprocals(%x: f8E8M0FNU, %y: f8E4M3FN) -> (f32, f32, f64) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %oned = arith.constant 1.0 : f64
  %s = arith.extf %x : f8E8M0FNU to f32
  %a = arith.divf %two, %s : f32
  %t = arith.extf %y : f8E4M3FN to f32
  %b = arith.divf %one, %t : f32
  %sd = arith.extf %x : f8E8M0FNU to f64
  %c = arith.divf %oned, %sd : f64
  return %a, %b, %c : f32, f32, f64
}
