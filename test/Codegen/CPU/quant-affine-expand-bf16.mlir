// RUN: quant-affine-opt %s --quant-affine-expand-bf16 | FileCheck %s

// bf16 conversions become integer arithmetic, so no bf16 conversion reaches
// LLVM (whose x86 backend narrows with VCVTNEPS2BF16, which flushes
// subnormals, on AVX512-BF16 hosts).

// Widening: the 16 bits shifted into the top of an f32.
// CHECK-LABEL: func.func @widen
// CHECK-SAME: (%[[X:.*]]: bf16)
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[WIDE]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK-NOT: arith.extf
// CHECK: return %[[F]]
func.func @widen(%x: bf16) -> f32 {
  %f = arith.extf %x : bf16 to f32
  return %f : f32
}

// Narrowing: round to nearest even in integers (add 0x7FFF plus the lowest
// kept bit, drop 16 bits), NaN to 0x7FC0; on vectors too.
// CHECK-LABEL: func.func @narrow
// CHECK-SAME: (%[[X:.*]]: vector<4xf32>)
// CHECK-DAG: %[[QNAN:.*]] = arith.constant dense<32704> : vector<4xi16>
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<32767> : vector<4xi32>
// CHECK: %[[ISNAN:.*]] = arith.cmpf une, %[[X]], %[[X]] : vector<4xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<4xf32> to vector<4xi32>
// CHECK: %[[ROUNDING:.*]] = arith.addi %{{.*}}, %[[BIAS]] : vector<4xi32>
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[BITS]], %[[ROUNDING]] : vector<4xi32>
// CHECK: %[[HIGH:.*]] = arith.shrui %[[ROUNDED]], %{{.*}} : vector<4xi32>
// CHECK: %[[NARROW:.*]] = arith.trunci %[[HIGH]] : vector<4xi32> to vector<4xi16>
// CHECK: %[[SEL:.*]] = arith.select %[[ISNAN]], %[[QNAN]], %[[NARROW]] : vector<4xi1>, vector<4xi16>
// CHECK: %[[B:.*]] = arith.bitcast %[[SEL]] : vector<4xi16> to vector<4xbf16>
// CHECK-NOT: arith.truncf
// CHECK: return %[[B]]
func.func @narrow(%x: vector<4xf32>) -> vector<4xbf16> {
  %b = arith.truncf %x : vector<4xf32> to vector<4xbf16>
  return %b : vector<4xbf16>
}

// Nothing else changes: not other float types, and not maximumf (which
// arith-expand{include-bf16} would turn into a compare and select).
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: arith.maximumf %{{.*}}, %{{.*}} : bf16
// CHECK-NEXT: return
func.func @unchanged(%h: f16, %f: f32, %a: bf16, %b: bf16) -> (f32, f16, bf16) {
  %w = arith.extf %h : f16 to f32
  %n = arith.truncf %f : f32 to f16
  %m = arith.maximumf %a, %b : bf16
  return %w, %n, %m : f32, f16, bf16
}

// An extf(truncf(x)) pair marked fastmath<contract> (as
// arith-emulate-unsupported-floats marks them) keeps its rounding to bf16:
// the flag is dropped before any folding.
// CHECK-LABEL: func.func @contract_pair
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.shli
// CHECK-NOT: fastmath
// CHECK: return
func.func @contract_pair(%x: f32) -> f32 {
  %b = arith.truncf %x fastmath<contract> : f32 to bf16
  %w = arith.extf %b fastmath<contract> : bf16 to f32
  return %w : f32
}
