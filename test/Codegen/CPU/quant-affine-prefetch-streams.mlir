// RUN: quant-affine-opt %s --quant-affine-prefetch-streams -split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-prefetch-streams="distance=0" -split-input-file | FileCheck %s --check-prefix=NONE
// RUN: quant-affine-opt %s --quant-affine-prefetch-streams="distance=1024 locality=3" -split-input-file | FileCheck %s --check-prefix=NEAR
// RUN: quant-affine-opt %s --quant-affine-prefetch-streams="large-nest-bytes=262144" -split-input-file | FileCheck %s --check-prefix=NEST
// RUN: not quant-affine-opt %s --quant-affine-prefetch-streams="large-nest-bytes=-1" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: large-nest-bytes must be at least 0, got -1
// RUN: quant-affine-opt %s --quant-affine-prefetch-streams="large-nest-bytes=262144 reread-locality=2" -split-input-file | FileCheck %s --check-prefix=REREADL2
// RUN: not quant-affine-opt %s --quant-affine-prefetch-streams="locality=4" -split-input-file 2>&1 | FileCheck %s --check-prefix=BADLOC
// BADLOC: locality must be 0 to 3, got 4
// RUN: not quant-affine-opt %s --quant-affine-prefetch-streams="reread-locality=7" -split-input-file 2>&1 | FileCheck %s --check-prefix=BADREREAD
// BADREREAD: reread-locality must be 0 to 3, got 7
// A loop that streams its stores prefetches what it loads 4 KiB (1024 f32)
// further on in the whole argument, row-major, into L2 (locality 2), each
// 64-byte line of the load: the first clamped so that the last is at most
// the argument's last element, the others at constant distances from it;
// loops with plain stores, and loads from memrefs of dynamic shape, are left
// alone.

// CHECK-LABEL: func.func @streamed
// CHECK: scf.for
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[VIEW:.*]] :
// CHECK: arith.muli %{{.*}}, %[[STRIDES]]#0
// CHECK: arith.muli %{{.*}}, %[[STRIDES]]#1
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [65536], strides: [1] : memref<f32> to memref<65536xf32>
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c1024
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[AHEAD]], %c65487
// CHECK: memref.prefetch %[[FLAT]][%[[CLAMPED]]], read, locality<2>, data : memref<65536xf32>
// One per 64-byte line of the 256-byte load: 16 f32 apart.
// CHECK: %[[L1:.*]] = arith.addi %[[CLAMPED]], %c16{{.*}} overflow<nuw>
// CHECK: memref.prefetch %[[FLAT]][%[[L1]]]
// CHECK: %[[L2:.*]] = arith.addi %[[CLAMPED]], %c32{{.*}} overflow<nuw>
// CHECK: memref.prefetch %[[FLAT]][%[[L2]]]
// CHECK: %[[L3:.*]] = arith.addi %[[CLAMPED]], %c48{{.*}} overflow<nuw>
// CHECK: memref.prefetch %[[FLAT]][%[[L3]]]
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %[[VIEW]]
// NONE-LABEL: func.func @streamed
// NONE-NOT: memref.prefetch
// NONE: return
// NEAR-LABEL: func.func @streamed
// NEAR: arith.addi %{{.*}}, %c256
// NEAR: memref.prefetch %{{.*}}, read, locality<3>, data
func.func @streamed(%x: memref<256x256xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c256 step %c64 {
      %view = memref.subview %x[%i, %j] [1, 64] [1, 1] : memref<256x256xf32> to memref<1x64xf32, strided<[256, 1], offset: ?>>
      %v = vector.load %view[%c0, %c0] : memref<1x64xf32, strided<[256, 1], offset: ?>>, vector<64xf32>
      vector.store %v, %y[%i, %j] {nontemporal = true} : memref<256x256xf32>, vector<64xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @plain_stores
// CHECK-NOT: memref.prefetch
func.func @plain_stores(%x: memref<256x256xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    %v = vector.load %x[%i, %c0] : memref<256x256xf32>, vector<64xf32>
    vector.store %v, %y[%i, %c0] : memref<256x256xf32>, vector<64xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: memref.prefetch
func.func @dynamic(%x: memref<?x256xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    %v = vector.load %x[%i, %c0] : memref<?x256xf32>, vector<64xf32>
    vector.store %v, %y[%i, %c0] {nontemporal = true} : memref<256x256xf32>, vector<64xf32>
  }
  return
}

// -----

// With large-nest-bytes, loops whose stores stay plain prefetch too where
// their nest references more than that (here 256 KiB + 64 KiB + 1 KiB, over
// 256 KiB): a row reduction into registers, and a loop with plain stores.
// A loop that prefetches already is left alone, and so is a nest under the
// limit.
// NEST-LABEL: func.func @large_nest
// NEST: scf.for
// NEST: scf.for
// NEST: memref.prefetch
// NEST: vector.load
// NEST: scf.for
// NEST: memref.prefetch
// NEST: vector.load
// NEST: vector.store
// CHECK-LABEL: func.func @large_nest
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @large_nest(%x: memref<256x256xf32>, %y: memref<256x256xi8>, %m: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %acc = scf.for %j = %c0 to %c256 step %c16 iter_args(%a = %zero) -> (vector<16xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x256xf32>, vector<16xf32>
      %b = arith.maximumf %a, %v : vector<16xf32>
      scf.yield %b : vector<16xf32>
    }
    %r = vector.reduction <maximumf>, %acc : vector<16xf32> into f32
    memref.store %r, %m[%i] : memref<256xf32>
    scf.for %j = %c0 to %c256 step %c16 {
      %v = vector.load %x[%i, %j] : memref<256x256xf32>, vector<16xf32>
      %q = arith.fptosi %v : vector<16xf32> to vector<16xi8>
      vector.store %q, %y[%i, %j] : memref<256x256xi8>, vector<16xi8>
    }
  }
  return
}

// -----

// NEST-LABEL: func.func @prefetched_already
// NEST-COUNT-1: memref.prefetch
// NEST-NOT: memref.prefetch
// NEST: return
func.func @prefetched_already(%x: memref<256x256xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    memref.prefetch %x[%i, %c0], read, locality<3>, data : memref<256x256xf32>
    %v = vector.load %x[%i, %c0] : memref<256x256xf32>, vector<64xf32>
    vector.store %v, %y[%i, %c0] : memref<256x256xf32>, vector<64xf32>
  }
  return
}

// -----

// NEST-LABEL: func.func @small_nest
// NEST-NOT: memref.prefetch
// NEST: return
func.func @small_nest(%x: memref<64x256xf32>, %y: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = vector.load %x[%i, %c0] : memref<64x256xf32>, vector<64xf32>
    vector.store %v, %y[%i, %c0] : memref<64x256xf32>, vector<64xf32>
  }
  return
}

// -----

// Loads of a buffer of at most 32 KiB, or of one that an earlier loop of
// the nest wrote (a row tile's encodings), are not prefetched; the other
// loads of the same loop are.
// CHECK-LABEL: func.func @cached
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-1: memref.prefetch
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @cached(%x: memref<256x256xf32>, %s: memref<256x16xf32>, %t: memref<16xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %one = arith.constant dense<1.0> : vector<16xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c16 step %c16 {
      vector.store %one, %s[%i, %j] : memref<256x16xf32>, vector<16xf32>
    }
    scf.for %j = %c0 to %c256 step %c16 {
      %v = vector.load %x[%i, %j] : memref<256x256xf32>, vector<16xf32>
      %w = vector.load %s[%i, %c0] : memref<256x16xf32>, vector<16xf32>
      %u = vector.load %t[%c0] : memref<16xf32>, vector<16xf32>
      %a = arith.mulf %v, %w : vector<16xf32>
      %b = arith.mulf %a, %u : vector<16xf32>
      vector.store %b, %y[%i, %j] {nontemporal = true} : memref<256x256xf32>, vector<16xf32>
    }
  }
  return
}

// -----

// Unmasked 1-D transfer reads become vector.load first (without streamed
// stores, no earlier pass lowers them), and are prefetched as loads.
// NEST-LABEL: func.func @transfer_reads
// NEST: scf.for
// NEST: memref.prefetch
// NEST: vector.load
// NEST-NOT: vector.transfer_read
// NEST: return
func.func @transfer_reads(%x: memref<256x256xf32>, %m: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %acc = scf.for %j = %c0 to %c256 step %c16 iter_args(%a = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true]} : memref<256x256xf32>, vector<16xf32>
      %b = arith.maximumf %a, %v : vector<16xf32>
      scf.yield %b : vector<16xf32>
    }
    %r = vector.reduction <maximumf>, %acc : vector<16xf32> into f32
    memref.store %r, %m[%i] : memref<256xf32>
  }
  return
}

// -----

// A load of one element (an activation broadcast in a panel's outer-product
// step) reads a new line only every 16 steps: not prefetched; the panel row
// beside it is.
// NEST-LABEL: func.func @single_element
// NEST: scf.for
// NEST-COUNT-1: memref.prefetch
// NEST-NOT: memref.prefetch
// NEST: return
func.func @single_element(%x: memref<256x256xf32>, %p: memref<256x256xf32>, %m: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %acc = scf.for %k = %c0 to %c256 step %c1 iter_args(%a = %zero) -> (vector<16xf32>) {
    %v = vector.load %x[%c0, %k] : memref<256x256xf32>, vector<1xf32>
    %b = vector.broadcast %v : vector<1xf32> to vector<16xf32>
    %w = vector.load %p[%k, %c0] : memref<256x256xf32>, vector<16xf32>
    %f = vector.fma %b, %w, %a : vector<16xf32>
    scf.yield %f : vector<16xf32>
  }
  vector.store %acc, %m[%c0] : memref<256xf32>, vector<16xf32>
  return
}

// -----

// A loop that rereads the row tile an earlier loop of the tile read (the
// quantization after a block reduction) finds those lines in the cache: it
// prefetches the same place in the next row tile, the tile's view (1 KiB,
// 256 f32) further on, into L1 (reread-locality 3): two loops read it soon.
// The reduction, with plain stores, prefetches only in a large nest, 4 KiB
// ahead, into L2 (locality 2).
// CHECK-LABEL: func.func @reread_row
// CHECK: scf.for
// CHECK-NOT: memref.prefetch
// CHECK: vector.reduction
// CHECK: scf.for
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c256
// CHECK: arith.minui %[[NEXT]]
// CHECK: memref.prefetch {{.*}}, read, locality<3>, data
// CHECK: vector.load
// CHECK: vector.store {{.*}} {nontemporal = true}
// NEST-LABEL: func.func @reread_row
// NEST: scf.for
// NEST: arith.addi %{{.*}}, %c1024
// NEST: memref.prefetch {{.*}}, read, locality<2>, data
// NEST: vector.reduction
// NEST: arith.addi %{{.*}}, %c256
// NEST: memref.prefetch {{.*}}, read, locality<3>, data
// REREADL2-LABEL: func.func @reread_row
// REREADL2: arith.addi %{{.*}}, %c1024
// REREADL2: memref.prefetch {{.*}}, read, locality<2>, data
// REREADL2: vector.reduction
// REREADL2: arith.addi %{{.*}}, %c256
// REREADL2: memref.prefetch {{.*}}, read, locality<2>, data
func.func @reread_row(%x: memref<256x256xf32>, %y: memref<256x256xi8>, %m: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %row = memref.subview %x[%i, 0] [1, 256] [1, 1] : memref<256x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %acc = scf.for %j = %c0 to %c256 step %c16 iter_args(%a = %zero) -> (vector<16xf32>) {
      %v = vector.load %row[%c0, %j] : memref<1x256xf32, strided<[256, 1], offset: ?>>, vector<16xf32>
      %b = arith.maximumf %a, %v : vector<16xf32>
      scf.yield %b : vector<16xf32>
    }
    %r = vector.reduction <maximumf>, %acc : vector<16xf32> into f32
    memref.store %r, %m[%i] : memref<256xf32>
    scf.for %j = %c0 to %c256 step %c16 {
      %v = vector.load %row[%c0, %j] : memref<1x256xf32, strided<[256, 1], offset: ?>>, vector<16xf32>
      %q = arith.fptosi %v : vector<16xf32> to vector<16xi8>
      vector.store %q, %y[%i, %j] {nontemporal = true} : memref<256x256xi8>, vector<16xi8>
    }
  }
  return
}

// -----

// A register tile's accumulators (loaded before the reduction loop that
// carries them) are prefetched for the next tile of rows: 8 rows on, the
// last tile its own rows again, never past the loop.
// NEST-LABEL: func.func @accumulator_tiles
// NEST: scf.for %[[M:.*]] = %{{.*}} to %[[UB:.*]] step %[[STEP:[^ ]*]]
// NEST: %[[NEXT:.*]] = arith.addi %[[M]], %[[STEP]]
// NEST: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
// NEST: %[[ROW:.*]] = arith.select %[[IN]], %[[NEXT]], %[[M]]
// NEST: memref.subview %{{.*}}[%[[ROW]], 0] [8, 32]
// NEST-COUNT-2: memref.prefetch
// NEST: vector.load
// NEST: scf.for
// NEST-NOT: memref.prefetch
// NEST: return
func.func @accumulator_tiles(%x: memref<128x256xf32>, %p: memref<256x32xf32>, %y: memref<128x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %columns = memref.subview %y[0, 64] [128, 32] [1, 1] : memref<128x4096xf32> to memref<128x32xf32, strided<[4096, 1], offset: 64>>
  scf.for %m = %c0 to %c128 step %c8 {
    %tile = memref.subview %columns[%m, 0] [8, 32] [1, 1] : memref<128x32xf32, strided<[4096, 1], offset: 64>> to memref<8x32xf32, strided<[4096, 1], offset: ?>>
    %a = vector.load %tile[%c0, %c0] : memref<8x32xf32, strided<[4096, 1], offset: ?>>, vector<32xf32>
    %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %a) -> (vector<32xf32>) {
      %v = vector.load %x[%m, %k] : memref<128x256xf32>, vector<1xf32>
      %b = vector.broadcast %v : vector<1xf32> to vector<32xf32>
      %w = vector.load %p[%k, %c0] : memref<256x32xf32>, vector<32xf32>
      %f = vector.fma %b, %w, %acc : vector<32xf32>
      scf.yield %f : vector<32xf32>
    }
    vector.store %sum, %tile[%c0, %c0] : memref<8x32xf32, strided<[4096, 1], offset: ?>>, vector<32xf32>
  }
  return
}
