// RUN: quant-affine-opt %s --quant-affine-divide-by-reciprocal | FileCheck %s

// roundeven(x / s) with the same s in every lane: 1 / s is divided once, and
// x * (1 / s) is used where a per-vector check proves it rounds like x / s;
// otherwise the vector divides. The proof is in DivideByReciprocal.cpp.

// CHECK-LABEL: func.func @broadcast_scale
// CHECK-SAME: (%[[MEM:.*]]: memref<16xf32>, %[[S:.*]]: f32)
// CHECK: %[[X:.*]] = vector.transfer_read %[[MEM]]
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK: %[[ABSR:.*]] = math.absf %[[R]] : f32
// CHECK: %[[RB:.*]] = vector.broadcast %[[R]] : f32 to vector<16xf32>
// CHECK: %[[T:.*]] = arith.mulf %[[X]], %[[RB]] : vector<16xf32>
// CHECK: math.floor %[[T]] : vector<16xf32>
// CHECK: arith.constant dense<9.53674316E-7> : vector<16xf32>
// CHECK: arith.constant dense<5.242880e+05> : vector<16xf32>
// CHECK: %[[LANES:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<16xi1>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %{{.*}} : vector<16xi1> into i1
// CHECK: %[[FAST:.*]] = arith.andi %[[ALL]], %{{.*}} : i1
// CHECK: %[[Q:.*]] = scf.if %[[FAST]] -> (vector<16xf32>) {
// CHECK-NEXT: %[[ROUNDED:.*]] = math.roundeven %[[T]] : vector<16xf32>
// CHECK-NEXT: scf.yield %[[ROUNDED]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[DIV:.*]] = arith.divf %[[X]], %[[SV]] : vector<16xf32>
// CHECK-NEXT: %[[SLOW:.*]] = math.roundeven %[[DIV]] : vector<16xf32>
// CHECK-NEXT: scf.yield %[[SLOW]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[Q]]
func.func @broadcast_scale(%mem: memref<16xf32>, %s: f32) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %x = vector.transfer_read %mem[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %sv = vector.broadcast %s : f32 to vector<16xf32>
  %d = arith.divf %x, %sv : vector<16xf32>
  %q = math.roundeven %d : vector<16xf32>
  return %q : vector<16xf32>
}

// A scale read that broadcasts along the vector (per-channel scales of an
// outer dim) is uniform too: its first lane is the divisor.
// CHECK-LABEL: func.func @broadcast_read
// CHECK: %[[SV:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : memref<4xf32>, vector<1x16xf32>
// CHECK: %[[S:.*]] = vector.extract %[[SV]][0, 0] : f32 from vector<1x16xf32>
// CHECK: arith.divf %{{.*}}, %[[S]] : f32
// CHECK: scf.if
// CHECK: math.roundeven %{{.*}} : vector<1x16xf32>
// CHECK: else
// CHECK: arith.divf %{{.*}}, %[[SV]] : vector<1x16xf32>
#outer = affine_map<(d0) -> (d0, 0)>
func.func @broadcast_read(%mem: memref<4x16xf32>, %scales: memref<4xf32>, %i: index) -> vector<1x16xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %x = vector.transfer_read %mem[%i, %c0], %p {in_bounds = [true, true]} : memref<4x16xf32>, vector<1x16xf32>
  %sv = vector.transfer_read %scales[%i], %p {in_bounds = [true, true], permutation_map = #outer} : memref<4xf32>, vector<1x16xf32>
  %d = arith.divf %x, %sv : vector<1x16xf32>
  %q = math.roundeven %d : vector<1x16xf32>
  return %q : vector<1x16xf32>
}

// Left alone: a divisor that differs per lane, a dividend with lanes that may
// be out of bounds (poison), and f64.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: scf.if
// CHECK-COUNT-3: math.roundeven
// CHECK-NOT: scf.if
// CHECK: return
func.func @unchanged(%mem: memref<16xf32>, %sv: vector<16xf32>, %s: f32, %n: index,
                     %mem64: memref<16xf64>, %s64: f64) -> (vector<16xf32>, vector<16xf32>, vector<16xf64>) {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %x = vector.transfer_read %mem[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %d = arith.divf %x, %sv : vector<16xf32>
  %q = math.roundeven %d : vector<16xf32>
  %y = vector.transfer_read %mem[%n], %p : memref<16xf32>, vector<16xf32>
  %b = vector.broadcast %s : f32 to vector<16xf32>
  %d2 = arith.divf %y, %b : vector<16xf32>
  %q2 = math.roundeven %d2 : vector<16xf32>
  %p64 = ub.poison : f64
  %z = vector.transfer_read %mem64[%c0], %p64 {in_bounds = [true]} : memref<16xf64>, vector<16xf64>
  %b64 = vector.broadcast %s64 : f64 to vector<16xf64>
  %d3 = arith.divf %z, %b64 : vector<16xf64>
  %q3 = math.roundeven %d3 : vector<16xf64>
  return %q, %q2, %q3 : vector<16xf32>, vector<16xf32>, vector<16xf64>
}
