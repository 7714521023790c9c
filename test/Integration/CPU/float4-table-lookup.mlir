// f4E2M1FN weights looked up in tables (LookupTables.cpp) are bit for bit
// the weights the arithmetic decode gives. @looked multiplies the 16 codes
// (0 to 15, low nibble first) under a scale into a product marked
// quant_affine.lanes_summed, which quant-affine-emulate-narrow-types looks up
// by table; @decoded is the same unmarked, which it decodes in the lanes
// (shift-unpack). The activation is 1.0, so each product is its weight, -0.0
// and NaN payloads included. Scales: ordinary ones, negative, the E8M0
// extremes 2^-127 (a denormal) and 2^127 (2, 3, 4 and 6 times it overflow
// to infinity), the smallest denormal (halves round to even), infinity
// (code 0 and 8 give NaN) and NaNs of either sign with a payload (every
// product is that NaN, quieted: a code is never NaN, so the sign of the code
// never reaches it; x86's default NaN for 0 x inf). Each scale's bits, then
// @looked's and @decoded's bits; the lines below are the products a C
// program computes (f32 multiplies on x86), the same for both functions,
// which stay calls (noinline), so nothing is folded. With 8 lanes the
// codes go through two tables (AVX2's vpermps); with 16, one (AVX-512's);
// either runs here, through whatever shuffles the host has.
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types="float4-table-lanes=8 shift-unpack=true" \
// RUN:   --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types="float4-table-lanes=16 shift-unpack=true" \
// RUN:   --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// The lookups are there (and not in @decoded):
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types="float4-table-lanes=8 shift-unpack=true" \
// RUN: | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @looked(
// IR-COUNT-4: quant_affine_vector.lookup %{{.*}}[%{{.*}}] : vector<8xf32>, vector<8xi32>
// IR: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// IR-LABEL: func.func @decoded(
// IR-NOT: quant_affine_vector.lookup

func.func @looked(%q: memref<16xf4E2M1FN>, %s: f32, %x: memref<16xf32>, %out: memref<16xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %codes = vector.load %q[%c0] : memref<16xf4E2M1FN>, vector<16xf4E2M1FN>
  %f = arith.extf %codes : vector<16xf4E2M1FN> to vector<16xf32>
  %sv = vector.broadcast %s : f32 to vector<16xf32>
  %w = arith.mulf %f, %sv : vector<16xf32>
  %xv = vector.load %x[%c0] : memref<16xf32>, vector<16xf32>
  %p = arith.mulf %xv, %w {quant_affine.lanes_summed} : vector<16xf32>
  vector.store %p, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

func.func @decoded(%q: memref<16xf4E2M1FN>, %s: f32, %x: memref<16xf32>, %out: memref<16xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %codes = vector.load %q[%c0] : memref<16xf4E2M1FN>, vector<16xf4E2M1FN>
  %f = arith.extf %codes : vector<16xf4E2M1FN> to vector<16xf32>
  %sv = vector.broadcast %s : f32 to vector<16xf32>
  %w = arith.mulf %f, %sv : vector<16xf32>
  %xv = vector.load %x[%c0] : memref<16xf32>, vector<16xf32>
  %p = arith.mulf %xv, %w : vector<16xf32>
  vector.store %p, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

memref.global "private" constant @codes : memref<16xf4E2M1FN> = dense<[0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]>
memref.global "private" constant @scales : memref<11xi32> = dense<[
  0x3F800000, 0x3F000000, 0xC0000000, 0x00400000, 0x00800000, 0x7F000000,
  0x00000001, 0x7F800000, 0x7FC00000, 0xFFC12345, 0x7FA00001]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 11 : index
  %one = arith.constant dense<1.0> : vector<16xf32>
  %q = memref.get_global @codes : memref<16xf4E2M1FN>
  %scales = memref.get_global @scales : memref<11xi32>
  %x = memref.alloc() : memref<16xf32>
  vector.store %one, %x[%c0] : memref<16xf32>, vector<16xf32>
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    %bits = memref.load %scales[%i] : memref<11xi32>
    %s = arith.bitcast %bits : i32 to f32
    func.call @looked(%q, %s, %x, %a) : (memref<16xf4E2M1FN>, f32, memref<16xf32>, memref<16xf32>) -> ()
    func.call @decoded(%q, %s, %x, %b) : (memref<16xf4E2M1FN>, f32, memref<16xf32>, memref<16xf32>) -> ()
    %va = vector.load %a[%c0] : memref<16xf32>, vector<16xf32>
    %vb = vector.load %b[%c0] : memref<16xf32>, vector<16xf32>
    %ia = arith.bitcast %va : vector<16xf32> to vector<16xi32>
    %ib = arith.bitcast %vb : vector<16xf32> to vector<16xi32>
    vector.print %bits : i32
    vector.print %ia : vector<16xi32>
    vector.print %ib : vector<16xi32>
  }
  return
}

// CHECK: 1065353216
// CHECK-NEXT: ( 0, 1056964608, 1065353216, 1069547520, 1073741824, 1077936128, 1082130432, 1086324736, -2147483648, -1090519040, -1082130432, -1077936128, -1073741824, -1069547520, -1065353216, -1061158912 )
// CHECK-NEXT: ( 0, 1056964608, 1065353216, 1069547520, 1073741824, 1077936128, 1082130432, 1086324736, -2147483648, -1090519040, -1082130432, -1077936128, -1073741824, -1069547520, -1065353216, -1061158912 )
// CHECK-NEXT: 1056964608
// CHECK-NEXT: ( 0, 1048576000, 1056964608, 1061158912, 1065353216, 1069547520, 1073741824, 1077936128, -2147483648, -1098907648, -1090519040, -1086324736, -1082130432, -1077936128, -1073741824, -1069547520 )
// CHECK-NEXT: ( 0, 1048576000, 1056964608, 1061158912, 1065353216, 1069547520, 1073741824, 1077936128, -2147483648, -1098907648, -1090519040, -1086324736, -1082130432, -1077936128, -1073741824, -1069547520 )
// CHECK-NEXT: -1073741824
// CHECK-NEXT: ( -2147483648, -1082130432, -1073741824, -1069547520, -1065353216, -1061158912, -1056964608, -1052770304, 0, 1065353216, 1073741824, 1077936128, 1082130432, 1086324736, 1090519040, 1094713344 )
// CHECK-NEXT: ( -2147483648, -1082130432, -1073741824, -1069547520, -1065353216, -1061158912, -1056964608, -1052770304, 0, 1065353216, 1073741824, 1077936128, 1082130432, 1086324736, 1090519040, 1094713344 )
// CHECK-NEXT: 4194304
// CHECK-NEXT: ( 0, 2097152, 4194304, 6291456, 8388608, 12582912, 16777216, 20971520, -2147483648, -2145386496, -2143289344, -2141192192, -2139095040, -2134900736, -2130706432, -2126512128 )
// CHECK-NEXT: ( 0, 2097152, 4194304, 6291456, 8388608, 12582912, 16777216, 20971520, -2147483648, -2145386496, -2143289344, -2141192192, -2139095040, -2134900736, -2130706432, -2126512128 )
// CHECK-NEXT: 8388608
// CHECK-NEXT: ( 0, 4194304, 8388608, 12582912, 16777216, 20971520, 25165824, 29360128, -2147483648, -2143289344, -2139095040, -2134900736, -2130706432, -2126512128, -2122317824, -2118123520 )
// CHECK-NEXT: ( 0, 4194304, 8388608, 12582912, 16777216, 20971520, 25165824, 29360128, -2147483648, -2143289344, -2139095040, -2134900736, -2130706432, -2126512128, -2122317824, -2118123520 )
// CHECK-NEXT: 2130706432
// CHECK-NEXT: ( 0, 2122317824, 2130706432, 2134900736, 2139095040, 2139095040, 2139095040, 2139095040, -2147483648, -25165824, -16777216, -12582912, -8388608, -8388608, -8388608, -8388608 )
// CHECK-NEXT: ( 0, 2122317824, 2130706432, 2134900736, 2139095040, 2139095040, 2139095040, 2139095040, -2147483648, -25165824, -16777216, -12582912, -8388608, -8388608, -8388608, -8388608 )
// CHECK-NEXT: 1
// CHECK-NEXT: ( 0, 0, 1, 2, 2, 3, 4, 6, -2147483648, -2147483648, -2147483647, -2147483646, -2147483646, -2147483645, -2147483644, -2147483642 )
// CHECK-NEXT: ( 0, 0, 1, 2, 2, 3, 4, 6, -2147483648, -2147483648, -2147483647, -2147483646, -2147483646, -2147483645, -2147483644, -2147483642 )
// CHECK-NEXT: 2139095040
// CHECK-NEXT: ( -4194304, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, -4194304, -8388608, -8388608, -8388608, -8388608, -8388608, -8388608, -8388608 )
// CHECK-NEXT: ( -4194304, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, 2139095040, -4194304, -8388608, -8388608, -8388608, -8388608, -8388608, -8388608, -8388608 )
// CHECK-NEXT: 2143289344
// CHECK-NEXT: ( 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344 )
// CHECK-NEXT: ( 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344, 2143289344 )
// CHECK-NEXT: -4119739
// CHECK-NEXT: ( -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739 )
// CHECK-NEXT: ( -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739, -4119739 )
// CHECK-NEXT: 2141192193
// CHECK-NEXT: ( 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497 )
// CHECK-NEXT: ( 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497, 2145386497 )
