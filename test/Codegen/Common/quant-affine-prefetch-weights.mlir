// Prefetch of the weights summed products read (docs/FusedMatmul.md): each
// read of byte-sized codes that a marked product inside a loop is computed
// from (through casts, table lookups, arithmetic) gets a memref.prefetch of
// the same place `distance` bytes further on, in whole indices of the
// outermost dim that steps at most that far and is long enough (else the
// next dim out; never the last dim of a buffer of rank 2 or more), clamped
// to its last index. Unmarked products, products outside loops and
// memrefs shorter than the distance get none; with distance 0, nothing is
// prefetched. Either way the marks are gone.
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=table-lookup --quant-affine-prefetch-weights=distance=256 --canonicalize --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=table-lookup --quant-affine-prefetch-weights=distance=0 --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF

// Packed int4: the byte buffer, 256 bytes ahead, at most byte 1023.
// CHECK-LABEL: func.func @int4_rows(
// CHECK-SAME: %[[CODES:.*]]: memref<1024xi8>
// CHECK-DAG: %[[AHEAD:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 1023 : index
// CHECK: scf.for
// CHECK: %[[AT:.*]] = affine.apply
// CHECK: %[[NEXT:.*]] = arith.addi %[[AT]], %[[AHEAD]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK: memref.prefetch %[[CODES]][%[[CLAMPED]]], read, locality<3>, data : memref<1024xi8>
// CHECK-NEXT: vector.load %[[CODES]][%[[AT]]] : memref<1024xi8>, vector<16xi8>
// CHECK-NOT: memref.prefetch
// CHECK-NOT: lanes_summed
// CHECK: return
// OFF-LABEL: func.func @int4_rows(
// OFF-NOT: memref.prefetch
// OFF-NOT: lanes_summed
// OFF: return
func.func @int4_rows(%codes: memref<64x32xi4>, %x: memref<32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
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
    %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// int8: rows of 32 bytes, so 8 rows ahead, at most row 63. The activation
// (f32) is not prefetched.
// CHECK-LABEL: func.func @int8_rows(
// CHECK-SAME: %[[CODES:.*]]: memref<64x32xi8>
// CHECK-DAG: %[[AHEAD:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 63 : index
// CHECK: scf.for %[[ROW:[a-z0-9]*]] =
// CHECK: %[[NEXT:.*]] = arith.addi %[[ROW]], %[[AHEAD]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK: memref.prefetch %[[CODES]][%[[CLAMPED]], %{{.*}}], read, locality<3>, data : memref<64x32xi8>
// CHECK-NEXT: vector.transfer_read %[[CODES]][%[[ROW]],
// CHECK-NOT: memref.prefetch
// CHECK-NOT: lanes_summed
// CHECK: return
// OFF-LABEL: func.func @int8_rows(
// OFF-NOT: memref.prefetch
// OFF: return
func.func @int8_rows(%codes: memref<64x32xi8>, %x: memref<32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pi = arith.constant 0 : i8
  %pf = arith.constant 0.0 : f32
  %r = scf.for %row = %c0 to %c64 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi8>, vector<32xi8>
    %f = arith.sitofp %q : vector<32xi8> to vector<32xf32>
    %sv = vector.transfer_read %s[%row], %pf {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<64xf32>, vector<32xf32>
    %w = arith.mulf %f, %sv : vector<32xf32>
    %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// Rows spread over the matrix (docs/FusedMatmul.md): a tile reads rows t,
// t + 16, t + 32, t + 48 of [4, 16, 32]. The prefetch steps along the rows of
// each stream (dim 1: 256 bytes are 8 rows of 32), not into the next stream
// (dim 0, 512 bytes a step).
// CHECK-LABEL: func.func @spread_rows(
// CHECK-SAME: %[[CODES:[a-z0-9]*]]: memref<4x16x32xi8>
// CHECK-DAG: %[[AHEAD:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 15 : index
// CHECK: scf.for %[[T:[a-z0-9]*]] =
// CHECK: %[[NEXT:.*]] = arith.addi %[[T]], %[[AHEAD]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK: memref.prefetch %[[CODES]][%c3, %[[CLAMPED]], %c0], read, locality<3>, data : memref<4x16x32xi8>
// CHECK-NEXT: vector.transfer_read %[[CODES]][%c3, %[[T]],
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @spread_rows(%codes: memref<4x16x32xi8>, %x: memref<32xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %pi = arith.constant 0 : i8
  %pf = arith.constant 0.0 : f32
  %r = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%c3, %t, %c0], %pi {in_bounds = [true]} : memref<4x16x32xi8>, vector<32xi8>
    %f = arith.sitofp %q : vector<32xi8> to vector<32xf32>
    %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %f fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// Streams too short for the distance (4 rows of 64 bytes each, 256 bytes a
// stream): the next dim out instead, one stream further (clamped to the
// last, here folded to stream 2).
// CHECK-LABEL: func.func @short_streams(
// CHECK-SAME: %[[CODES:[a-z0-9]*]]: memref<4x4x64xi8>
// CHECK: scf.for %[[T:[a-z0-9]*]] =
// CHECK: memref.prefetch %[[CODES]][%c2, %[[T]], %c0], read, locality<3>, data : memref<4x4x64xi8>
// CHECK-NEXT: vector.transfer_read %[[CODES]][%c1, %[[T]],
func.func @short_streams(%codes: memref<4x4x64xi8>, %x: memref<32xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pi = arith.constant 0 : i8
  %pf = arith.constant 0.0 : f32
  %r = scf.for %t = %c0 to %c4 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%c1, %t, %c0], %pi {in_bounds = [true]} : memref<4x4x64xi8>, vector<32xi8>
    %f = arith.sitofp %q : vector<32xi8> to vector<32xf32>
    %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %f fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// Not prefetched: an unmarked product, a marked one outside any loop, and
// a buffer shorter than the distance (8 rows of 16 bytes).
// CHECK-LABEL: func.func @none(
// CHECK-NOT: memref.prefetch
// CHECK-NOT: lanes_summed
// CHECK: return
func.func @none(%codes: memref<64x32xi8>, %short: memref<8x16xi8>, %x: memref<32xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pi = arith.constant 0 : i8
  %pf = arith.constant 0.0 : f32
  %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
  %r = scf.for %row = %c0 to %c8 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi8>, vector<32xi8>
    %f = arith.sitofp %q : vector<32xi8> to vector<32xf32>
    %p = arith.mulf %xv, %f fastmath<contract> : vector<32xf32>
    %q2 = vector.transfer_read %short[%row, %c0], %pi {in_bounds = [true]} : memref<8x16xi8>, vector<16xi8>
    %f2 = arith.sitofp %q2 : vector<16xi8> to vector<16xf32>
    %x2 = vector.extract_strided_slice %xv {offsets = [0], sizes = [16], strides = [1]} : vector<32xf32> to vector<16xf32>
    %p2 = arith.mulf %x2, %f2 fastmath<contract> {quant_affine.lanes_summed} : vector<16xf32>
    %b = vector.broadcast %p2 : vector<16xf32> to vector<2x16xf32>
    %p2w = vector.shape_cast %b : vector<2x16xf32> to vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    %n2 = arith.addf %n, %p2w fastmath<contract> : vector<32xf32>
    scf.yield %n2 : vector<32xf32>
  }
  %q3 = vector.transfer_read %codes[%c0, %c0], %pi {in_bounds = [true]} : memref<64x32xi8>, vector<32xi8>
  %f3 = arith.sitofp %q3 : vector<32xi8> to vector<32xf32>
  %p3 = arith.mulf %xv, %f3 fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
  %s = arith.addf %r, %p3 fastmath<contract> : vector<32xf32>
  return %s : vector<32xf32>
}

// -----

// The blocks' scales are part of the weight stream: a broadcast read of a
// float is prefetched as the codes are (16 rows of 4 scales = 256 bytes
// ahead). The activation, read whole, is not.
// CHECK-LABEL: func.func @block_scales(
// CHECK-SAME: %[[CODES:[a-z0-9]*]]: memref<64x32xi8>, %[[X:[a-z0-9]*]]: memref<32xf32>, %[[S:[a-z0-9]*]]: memref<64x4xf32>
// CHECK-DAG: %[[AHEAD:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[ROW:[a-z0-9]*]] =
// CHECK: memref.prefetch %[[CODES]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[ROW]], %[[AHEAD]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %{{.*}} : index
// CHECK: memref.prefetch %[[S]][%[[CLAMPED]], %{{.*}}], read, locality<3>, data : memref<64x4xf32>
// CHECK-NEXT: vector.transfer_read %[[S]][%[[ROW]],
// CHECK-NOT: memref.prefetch %[[X]]
// CHECK: return
func.func @block_scales(%codes: memref<64x32xi8>, %x: memref<32xf32>, %s: memref<64x4xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %pi = arith.constant 0 : i8
  %pf = arith.constant 0.0 : f32
  %r = scf.for %row = %c0 to %c64 step %c1 iter_args(%a = %acc) -> vector<32xf32> {
    %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xi8>, vector<32xi8>
    %f = arith.sitofp %q : vector<32xi8> to vector<32xf32>
    %sv = vector.transfer_read %s[%row, %c2], %pf {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<64x4xf32>, vector<32xf32>
    %w = arith.mulf %f, %sv : vector<32xf32>
    %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// Codes read a word at a time (packed codes are): one prefetch per line is
// enough. Sorted by offset, the first and last reads of a row keep theirs,
// and so does every read the kept one before it is more than 64 bytes from:
// here offsets 0, 4, ..., 20 and 96 keep 0, 20 and 96. Each line the reads
// touch holds a prefetched address, whatever the row's alignment.
// CHECK-LABEL: func.func @words_of_a_row(
// CHECK-SAME: %[[CODES:.*]]: memref<64x128xi8>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG: %[[C96:.*]] = arith.constant 96 : index
// CHECK: scf.for
// CHECK: memref.prefetch %[[CODES]][%{{.*}}, %[[C0]]]
// CHECK-NOT: memref.prefetch
// CHECK: memref.prefetch %[[CODES]][%{{.*}}, %[[C20]]]
// CHECK-NOT: memref.prefetch
// CHECK: memref.prefetch %[[CODES]][%{{.*}}, %[[C96]]]
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @words_of_a_row(%codes: memref<64x128xi8>, %x: vector<4xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %r = scf.for %row = %c0 to %c64 step %c1 iter_args(%a = %acc) -> vector<4xf32> {
    %w0 = vector.load %codes[%row, %c0] : memref<64x128xi8>, vector<4xi8>
    %w1 = vector.load %codes[%row, %c4] : memref<64x128xi8>, vector<4xi8>
    %w2 = vector.load %codes[%row, %c8] : memref<64x128xi8>, vector<4xi8>
    %w3 = vector.load %codes[%row, %c12] : memref<64x128xi8>, vector<4xi8>
    %w4 = vector.load %codes[%row, %c16] : memref<64x128xi8>, vector<4xi8>
    %w5 = vector.load %codes[%row, %c20] : memref<64x128xi8>, vector<4xi8>
    %w6 = vector.load %codes[%row, %c96] : memref<64x128xi8>, vector<4xi8>
    %s01 = arith.addi %w0, %w1 : vector<4xi8>
    %s23 = arith.addi %w2, %w3 : vector<4xi8>
    %s45 = arith.addi %w4, %w5 : vector<4xi8>
    %s03 = arith.addi %s01, %s23 : vector<4xi8>
    %s05 = arith.addi %s03, %s45 : vector<4xi8>
    %s06 = arith.addi %s05, %w6 : vector<4xi8>
    %f = arith.sitofp %s06 : vector<4xi8> to vector<4xf32>
    %p = arith.mulf %x, %f fastmath<contract> {quant_affine.lanes_summed} : vector<4xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// Only reads of one stretch share: the same buffer, the same indices but
// the last (another row keeps its own), and a contiguous last dim (on a
// strided one, index deltas are not bytes). Order does not matter: the
// stretch is sorted by offset.
// CHECK-LABEL: func.func @stretches(
// CHECK-SAME: %[[CODES:[a-z0-9]*]]: memref<64x128xi8>
// CHECK-SAME: %[[STRIDED:[a-z0-9]*]]: memref<64x128xi8, strided<[256, 2]>>
// CHECK-COUNT-2: memref.prefetch %[[CODES]][%{{.*}}, %{{.*}}]
// CHECK-NOT: memref.prefetch %[[CODES]]
// CHECK: memref.prefetch %[[CODES]][%{{.*}}, %{{.*}}]
// CHECK-NOT: memref.prefetch %[[CODES]]
// CHECK-COUNT-3: memref.prefetch %[[STRIDED]]
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @stretches(%codes: memref<64x128xi8>, %strided: memref<64x128xi8, strided<[256, 2]>>, %x: vector<4xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c63 = arith.constant 63 : index
  %pad = arith.constant 0 : i8
  %r = scf.for %row = %c0 to %c63 step %c1 iter_args(%a = %acc) -> vector<4xf32> {
    %next = arith.addi %row, %c1 : index
    %w0 = vector.load %codes[%row, %c20] : memref<64x128xi8>, vector<4xi8>
    %w1 = vector.load %codes[%row, %c4] : memref<64x128xi8>, vector<4xi8>
    %w2 = vector.load %codes[%row, %c0] : memref<64x128xi8>, vector<4xi8>
    %w3 = vector.load %codes[%next, %c0] : memref<64x128xi8>, vector<4xi8>
    %w4 = vector.transfer_read %strided[%row, %c0], %pad {in_bounds = [true]} : memref<64x128xi8, strided<[256, 2]>>, vector<4xi8>
    %w5 = vector.transfer_read %strided[%row, %c4], %pad {in_bounds = [true]} : memref<64x128xi8, strided<[256, 2]>>, vector<4xi8>
    %w6 = vector.transfer_read %strided[%row, %c8], %pad {in_bounds = [true]} : memref<64x128xi8, strided<[256, 2]>>, vector<4xi8>
    %s01 = arith.addi %w0, %w1 : vector<4xi8>
    %s23 = arith.addi %w2, %w3 : vector<4xi8>
    %s45 = arith.addi %w4, %w5 : vector<4xi8>
    %s03 = arith.addi %s01, %s23 : vector<4xi8>
    %s05 = arith.addi %s03, %s45 : vector<4xi8>
    %s06 = arith.addi %s05, %w6 : vector<4xi8>
    %f = arith.sitofp %s06 : vector<4xi8> to vector<4xf32>
    %p = arith.mulf %x, %f fastmath<contract> {quant_affine.lanes_summed} : vector<4xf32>
    %n = arith.addf %a, %p fastmath<contract> : vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
  return %r : vector<4xf32>
}
