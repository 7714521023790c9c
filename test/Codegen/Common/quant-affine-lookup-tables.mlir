// Table lookup of int4 codes in summed products (docs/FusedMatmul.md,
// LookupTables.h): the chain from the codes to the weight (sitofp, times the
// broadcast scale) is computed on the 16 codes, each code is looked up, and
// the activation is shuffled to the lookups' order (low nibbles, then high).
// In loops, the activation is shuffled once, into a copy made before them.
// Products without the lanes_summed mark, and the pass without
// table-lookup, keep the conversion. The marks stay for
// quant-affine-prefetch-weights, which drops them.
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=table-lookup --canonicalize --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @lut(
// CHECK-SAME: %[[CODES:.*]]: memref<1024xi8>, %[[X:.*]]: memref<32xf32>
// CHECK-DAG: %[[DOMAIN:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, -8.000000e+00, -7.000000e+00, -6.000000e+00, -5.000000e+00, -4.000000e+00, -3.000000e+00, -2.000000e+00, -1.000000e+00]> : vector<16xf32>
// CHECK: %[[BYTES:.*]] = vector.load %[[CODES]]{{.*}} : memref<1024xi8>, vector<16xi8>
// CHECK: %[[SCALE:.*]] = vector.transfer_read {{.*}} : memref<64xf32>, vector<16xf32>
// CHECK: %[[TABLE:.*]] = arith.mulf %[[SCALE]], %[[DOMAIN]] : vector<16xf32>
// CHECK: %[[WORDS:.*]] = arith.extui %[[BYTES]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[LOW:.*]] = arith.andi %[[WORDS]]
// CHECK: %[[HIGH:.*]] = arith.shrui %[[WORDS]]
// CHECK: %[[LOOKED_LOW:.*]] = quant_affine_vector.lookup %[[TABLE]][%[[LOW]]] : vector<16xf32>, vector<16xi32>
// CHECK: %[[LOOKED_HIGH:.*]] = quant_affine_vector.lookup %[[TABLE]][%[[HIGH]]] : vector<16xf32>, vector<16xi32>
// CHECK: %[[WEIGHTS:.*]] = vector.shuffle %[[LOOKED_LOW]], %[[LOOKED_HIGH]] [0, 1, 2, {{.*}}, 31] : vector<16xf32>, vector<16xf32>
// CHECK: %[[XV:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[XS:.*]] = vector.shuffle %[[XV]], %[[XV]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xf32>, vector<32xf32>
// CHECK: arith.mulf %[[XS]], %[[WEIGHTS]] fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
// CHECK-NOT: arith.sitofp
// OFF-LABEL: func.func @lut(
// OFF-NOT: quant_affine_vector.lookup
// OFF: arith.sitofp
func.func @lut(%codes: memref<64x32xi4>, %x: memref<32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>, %row: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %pi = arith.constant 0 : i4
  %pf = arith.constant 0.0 : f32
  %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi4>, vector<32xi4>
  %f = arith.sitofp %q : vector<32xi4> to vector<32xf32>
  %sv = vector.transfer_read %s[%row], %pf {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<64xf32>, vector<32xf32>
  %w = arith.mulf %f, %sv : vector<32xf32>
  %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
  %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
  %r = arith.addf %acc, %p fastmath<contract> : vector<32xf32>
  return %r : vector<32xf32>
}

// -----

// CHECK-LABEL: func.func @unmarked(
// CHECK-NOT: quant_affine_vector.lookup
// CHECK: arith.sitofp
func.func @unmarked(%codes: memref<64x32xi4>, %x: memref<32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>, %row: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %pi = arith.constant 0 : i4
  %pf = arith.constant 0.0 : f32
  %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi4>, vector<32xi4>
  %f = arith.sitofp %q : vector<32xi4> to vector<32xf32>
  %sv = vector.transfer_read %s[%row], %pf {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<64xf32>, vector<32xf32>
  %w = arith.mulf %f, %sv : vector<32xf32>
  %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
  %p = arith.mulf %xv, %w fastmath<contract> : vector<32xf32>
  %r = arith.addf %acc, %p fastmath<contract> : vector<32xf32>
  return %r : vector<32xf32>
}

// -----

// In a loop, the activation rows (read whole, at last index 0, from a
// memref the loop does not write) are shuffled once into a copy before the
// loop; the loop reads the copy.
// CHECK-LABEL: func.func @shuffled_once(
// CHECK-SAME: %[[CODES:.*]]: memref<1024xi8>, %[[X:.*]]: memref<4x32xf32>
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<4x32xf32>
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[XV:.*]] = vector.transfer_read %[[X]][%[[ROW]], %{{.*}}]
// CHECK: %[[XS:.*]] = vector.shuffle %[[XV]], %[[XV]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: vector.store %[[XS]], %[[COPY]][%[[ROW]], %{{.*}}]
// CHECK: scf.for
// CHECK-NOT: vector.shuffle {{.*}} : vector<32xf32>
// CHECK: %[[LOADED:.*]] = vector.load %[[COPY]][%{{.*}}, %{{.*}}] : memref<4x32xf32>, vector<32xf32>
// CHECK-NOT: vector.shuffle {{.*}} : vector<32xf32>
// CHECK: arith.mulf %[[LOADED]], %{{.*}} {quant_affine.lanes_summed}
func.func @shuffled_once(%codes: memref<64x32xi4>, %x: memref<4x32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pi = arith.constant 0 : i4
  %pf = arith.constant 0.0 : f32
  %r = scf.for %row = %c0 to %c64 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi4>, vector<32xi4>
    %f = arith.sitofp %q : vector<32xi4> to vector<32xf32>
    %sv = vector.transfer_read %s[%row], %pf {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<64xf32>, vector<32xf32>
    %w = arith.mulf %f, %sv : vector<32xf32>
    %i = arith.remui %row, %c1 : index
    %xv = vector.transfer_read %x[%i, %c0], %pf {in_bounds = [true]} : memref<4x32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// The loop writes the activation's buffer: shuffled where it is read.
// CHECK-LABEL: func.func @written_in_loop(
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK: %[[XV:.*]] = vector.transfer_read {{.*}} : memref<4x32xf32>, vector<32xf32>
// CHECK: vector.shuffle %[[XV]], %[[XV]]
func.func @written_in_loop(%codes: memref<64x32xi4>, %x: memref<4x32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pi = arith.constant 0 : i4
  %pf = arith.constant 0.0 : f32
  %r = scf.for %row = %c0 to %c64 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi4>, vector<32xi4>
    %f = arith.sitofp %q : vector<32xi4> to vector<32xf32>
    %sv = vector.transfer_read %s[%row], %pf {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<64xf32>, vector<32xf32>
    %w = arith.mulf %f, %sv : vector<32xf32>
    %xv = vector.transfer_read %x[%c0, %c0], %pf {in_bounds = [true]} : memref<4x32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    vector.transfer_write %n, %x[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<4x32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}
