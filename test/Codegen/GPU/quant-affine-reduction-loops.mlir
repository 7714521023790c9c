// RUN: quant-affine-opt %s --split-input-file --quant-affine-reduction-loops="warp-threads=1024" -cse | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file --quant-affine-reduction-loops -cse | FileCheck %s --check-prefix=LOOPS
// RUN: quant-affine-opt %s --split-input-file --quant-affine-reduction-loops="warp-threads=1024 rows=4" -cse | FileCheck %s --check-prefix=ROWS

// A block-quantized decode (64 results, K = 64 blocks of 32) with fewer
// results than warp-threads: a warp per result. Lane l sums blocks l and
// l + 32, 16 elements a step read as vectors, from -0.0; the lanes' sums are
// added with shuffles and lane 0 adds the total to the fill's value (the
// fill runs no kernel of its own).
// By default (warp-threads=0) the same op becomes plain loops that carry
// the sum: one load before, one store after, the order unchanged.

// CHECK-LABEL: func.func @warp_blocks
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel (%[[N:.*]], %[[LANE:.*]]) = (%{{.*}}, %{{.*}}) to (%c64, %c32)
// CHECK: %[[START:.*]] = arith.constant dense<-0.000000e+00> : vector<16xf32>
// CHECK: scf.for %[[J:.*]] = {{.*}} to %c2 {{.*}} iter_args(%{{.*}} = %[[START]]) -> (vector<16xf32>)
// CHECK: scf.for %[[T:.*]] = {{.*}} to %c2 {{.*}} -> (vector<16xf32>)
// CHECK: %[[JS:.*]] = arith.muli %[[J]], %c32
// CHECK: %[[BLOCK:.*]] = arith.addi %[[JS]], %[[LANE]]
// CHECK: %[[K:.*]] = arith.muli %[[T]], %c16
// CHECK: vector.transfer_read %arg0[%[[BLOCK]], %[[K]]]{{.*}} : memref<64x32xf32>, vector<16xf32>
// CHECK: vector.transfer_read %arg1[%[[N]], %[[BLOCK]], %[[K]]]{{.*}} : memref<64x64x32xi8>, vector<16xi8>
// CHECK: memref.load %arg2[%[[N]], %[[BLOCK]]]
// CHECK: arith.sitofp {{.*}} : vector<16xi8> to vector<16xf32>
// CHECK: vector.broadcast
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: vector.reduction <add>
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: scf.if %[[LEADER]]
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %cst, %{{.*}} : f32
// CHECK-NEXT: memref.store %[[TOTAL]], %arg3[%[[N]]]
// CHECK-NOT: linalg.generic

// With rows=4, a warp takes 4 consecutive results of n (x does not use n):
// the parallel loop steps n by 4, each step reads x once and the weights of
// each row, and 4 sums meet through their shuffles.
// ROWS-LABEL: func.func @warp_blocks
// ROWS: scf.parallel (%[[N:[a-z0-9]+]], %[[LANE:[a-z0-9]+]]) = (%{{.*}}, %{{.*}}) to (%c64, %c32) step (%c4, %c1)
// ROWS: %[[N1:.*]] = arith.addi %[[N]], %c1
// ROWS: %[[N2:.*]] = arith.addi %[[N]], %c2
// ROWS: %[[N3:.*]] = arith.addi %[[N]], %c3
// ROWS: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS: vector.transfer_read %arg1[%[[N]],
// ROWS: vector.transfer_read %arg1[%[[N1]],
// ROWS: vector.transfer_read %arg1[%[[N2]],
// ROWS: vector.transfer_read %arg1[%[[N3]],
// ROWS-COUNT-5: gpu.shuffle
// ROWS: memref.store %{{.*}}, %arg3[%[[N]]]
// ROWS-COUNT-5: gpu.shuffle
// ROWS: memref.store %{{.*}}, %arg3[%[[N1]]]
// ROWS-COUNT-5: gpu.shuffle
// ROWS: memref.store %{{.*}}, %arg3[%[[N2]]]
// ROWS-COUNT-5: gpu.shuffle
// ROWS: memref.store %{{.*}}, %arg3[%[[N3]]]

// LOOPS-LABEL: func.func @warp_blocks
// LOOPS-NOT: linalg.fill
// LOOPS: scf.parallel (%[[N:.*]]) =
// LOOPS-NOT: memref.load %arg3
// LOOPS: scf.for {{.*}} iter_args(%[[A:.*]] = %cst) -> (f32)
// LOOPS: scf.for {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32)
// LOOPS-NOT: memref.store
// LOOPS: %[[SUM:.*]] = arith.addf %[[B]], %{{.*}} : f32
// LOOPS: scf.yield %[[SUM]]
// LOOPS: memref.store %{{.*}}, %arg3[%[[N]]]
// LOOPS-NOT: gpu.shuffle
func.func @warp_blocks(%x: memref<64x32xf32>, %q: memref<64x64x32xi8>, %s: memref<64x64xf32>, %y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, b, k) -> (b, k)>, affine_map<(n, b, k) -> (n, b, k)>, affine_map<(n, b, k) -> (n, b)>, affine_map<(n, b, k) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x, %q, %s : memref<64x32xf32>, memref<64x64x32xi8>, memref<64x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %c: i8, %sc: f32, %acc: f32):
    %cf = arith.sitofp %c : i8 to f32
    %w = arith.mulf %cf, %sc : f32
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// One reduction dim (per-channel weights, K = 1024): lane l reads elements
// [(j * 32 + l) * 16, + 16), so a warp reads 512 contiguous elements a step.
// The output keeps its value (no fill before): lane 0 loads it.

// CHECK-LABEL: func.func @warp_channel
// CHECK: scf.parallel (%[[N:.*]], %[[LANE:.*]]) =
// CHECK: scf.for %[[J:.*]] = {{.*}} to %c2 {{.*}} -> (vector<16xf32>)
// CHECK: %[[JS:.*]] = arith.muli %[[J]], %c32
// CHECK: %[[CHUNK:.*]] = arith.addi %[[JS]], %[[LANE]]
// CHECK: %[[K:.*]] = arith.muli %[[CHUNK]], %c16
// CHECK: vector.transfer_read %arg0[%[[K]]]
// CHECK: vector.transfer_read %arg1[%[[N]], %[[K]]]
// CHECK: scf.if
// CHECK-NEXT: %[[OLD:.*]] = memref.load %arg2[%[[N]]]
// CHECK-NEXT: arith.addf %[[OLD]], %{{.*}} : f32
func.func @warp_channel(%x: memref<1024xf32>, %w: memref<8x1024xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<1024xf32>, memref<8x1024xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not sums that may be reassociated: a maximum, and a sum whose K (48) 32
// does not divide. Both stay in order in plain loops; the fill before the
// second is folded all the same.

// CHECK-LABEL: func.func @not_warp_sums
// CHECK-NOT: gpu.shuffle
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @not_warp_sums(%x: memref<4x64xf32>, %m: memref<4xf32>, %z: memref<4x48xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%z : memref<4x48xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A fill whose buffer is read before the sum is not folded: the read must
// see the fill.

// CHECK-LABEL: func.func @fill_read_first
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: scf.parallel
// CHECK: memref.load %arg1
func.func @fill_read_first(%x: memref<4x64xf32>, %s: memref<4xf32>, %copy: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  memref.copy %s, %copy : memref<4xf32> to memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Vectors take their alignment: a view 8 elements into its buffer is read 8
// elements at a time, and one at a dynamic offset one element at a time.

// CHECK-LABEL: func.func @offset_views
// CHECK: vector.transfer_read %arg0{{.*}} vector<8xf32>
// CHECK: vector.reduction <add>
// CHECK: scf.parallel
// CHECK-NOT: vector.transfer_read
// CHECK: memref.load %arg2
// CHECK-NOT: vector.reduction
// CHECK: gpu.shuffle
func.func @offset_views(%x: memref<4x1024xf32, strided<[1024, 1], offset: 8>>, %y: memref<4xf32>, %z: memref<4x1024xf32, strided<[1024, 1], offset: ?>>, %w: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1024xf32, strided<[1024, 1], offset: 8>>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%z : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) outs(%w : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An f16 sum stays a thread per result: NVVM shuffles 32-bit values only
// (the shuffle of an f16 failed to convert).

// CHECK-LABEL: func.func @f16_sum
// CHECK-NOT: gpu.shuffle
// CHECK: scf.for {{.*}} -> (f16)
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @f16_sum(%x: memref<4x1024xf16>, %y: memref<4xf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1024xf16>) outs(%y : memref<4xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %r = arith.addf %acc, %a : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// One result: as a warp sum when it may be one; otherwise left to
// quant-affine-map-to-gpu (a one-iteration scf.parallel made here would be
// folded away before the mapping, and the sum would run on the host).

// CHECK-LABEL: func.func @one_result
// CHECK: gpu.shuffle
// LOOPS-LABEL: func.func @one_result
// LOOPS: linalg.generic
// ROWS-LABEL: func.func @one_result
// ROWS-COUNT-5: gpu.shuffle
// ROWS-NOT: gpu.shuffle
func.func @one_result(%x: memref<1x64xf32>, %y: memref<1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x64xf32>) outs(%y : memref<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
