// RUN: quant-affine-opt %s --quant-affine-vectorize | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-vectorize="vector-width=8" | FileCheck %s --check-prefix=W8
// RUN: quant-affine-opt %s --quant-affine-vectorize="full-vectors-only" | FileCheck %s --check-prefix=FULL
// RUN: quant-affine-opt %s --quant-affine-vectorize="parallel-loops" | FileCheck %s --check-prefix=FORALL
// RUN: quant-affine-opt %s --quant-affine-vectorize="parallel-outer vector-width=8" | FileCheck %s --check-prefix=OUTER
// RUN: not quant-affine-opt %s --quant-affine-vectorize="vector-width=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: quant-affine-opt %s --quant-affine-vectorize="large-vector-width=64 large-op-bytes=2559" | FileCheck %s --check-prefix=LARGE
// RUN: quant-affine-opt %s --quant-affine-vectorize="large-vector-width=64 large-op-bytes=2560" | FileCheck %s --check-prefix=SMALL
// RUN: not quant-affine-opt %s --quant-affine-vectorize="large-vector-width=-1" 2>&1 | FileCheck %s --check-prefix=NEGLARGE
// RUN: quant-affine-opt %s --quant-affine-vectorize="large-vector-width=64 large-op-bytes=2559 block-vector-width=256" | FileCheck %s --check-prefix=BLOCKS

// Elementwise generics on tensors are tiled to 1 x ... x 1 x vector-width
// and each tile becomes vector ops.

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x64xf32>)
// CHECK: tensor.extract_slice %{{.*}}[%[[I]], %[[J]]] [1, 16] [1, 1] : tensor<4x64xf32> to tensor<1x16xf32>
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : vector<1x16xf32>
// CHECK: %[[TILE:.*]] = vector.transfer_write %[[SUM]], {{.*}} : vector<1x16xf32>, tensor<1x16xf32>
// CHECK: tensor.insert_slice %[[TILE]] into %[[ACC]][%[[I]], %[[J]]] [1, 16] [1, 1]
// CHECK-NOT: linalg.generic
// CHECK: return

// W8-LABEL: func.func @rows
// W8: arith.addf %{{.*}}, %{{.*}} : vector<1x8xf32>

// FORALL-LABEL: func.func @rows
// FORALL: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 64) step (1, 16) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x64xf32>)
// FORALL: arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// FORALL: scf.forall.in_parallel
// FORALL-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[I]], %[[J]]] [1, 16] [1, 1]

// One row per forall iteration, tiled with scf.for inside.
// OUTER-LABEL: func.func @rows
// OUTER: scf.forall (%[[ROW:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x64xf32>)
// OUTER: tensor.extract_slice %{{.*}}[%[[ROW]], 0] [1, 64] [1, 1] : tensor<4x64xf32> to tensor<1x64xf32>
// OUTER: scf.for
// OUTER: scf.for
// OUTER: arith.addf %{{.*}}, %{{.*}} : vector<1x8xf32>
// OUTER: scf.forall.in_parallel
// OUTER-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[ROW]], 0] [1, 64] [1, 1]

// ZERO: error: vector-width must be at least 1, got 0
func.func @rows(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// 20 is not a multiple of 16: the last tile is partial and vectorized with a
// mask. With full-vectors-only the width shrinks to 4, which divides 20.
// CHECK-LABEL: func.func @partial_tile
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[SIZE:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK: tensor.extract_slice %{{.*}}[%[[I]]] [%[[SIZE]]] [1] : tensor<20xf32> to tensor<?xf32>
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK: vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<?xf32>, vector<16xf32> }
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: vector.mask %[[MASK]] { vector.transfer_write

// FULL-LABEL: func.func @partial_tile
// FULL-NOT: vector.mask
// FULL: tensor.extract_slice %{{.*}} [4] [1] : tensor<20xf32> to tensor<4xf32>
// FULL: arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// FULL-NOT: vector.mask
// FULL: return
func.func @partial_tile(%a: tensor<20xf32>) -> tensor<20xf32> {
  %e = tensor.empty() : tensor<20xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<20xf32>) outs(%e : tensor<20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<20xf32>
  return %r : tensor<20xf32>
}

// An innermost block of 8, narrower than the width of 16: tiles of 2 x 8.
// CHECK-LABEL: func.func @narrow_blocks
// CHECK: tensor.extract_slice %{{.*}} [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<1x2x8xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<1x2x8xf32>
func.func @narrow_blocks(%a: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %e = tensor.empty() : tensor<4x2x8xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x2x8xf32>
  return %r : tensor<4x2x8xf32>
}

// i4 is stored packed (quant-affine-emulate-narrow-types), as LLVM lays out
// its vectors: the op is vectorized like any other.
// CHECK-LABEL: func.func @subbyte
// CHECK: vector.transfer_read {{.*}} : tensor<16xi4>, vector<16xi4>
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<16xi4>
// CHECK: vector.transfer_write {{.*}} : vector<16xi4>, tensor<16xi4>
func.func @subbyte(%a: tensor<64xi4>) -> tensor<64xi4> {
  %e = tensor.empty() : tensor<64xi4>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<64xi4>) outs(%e : tensor<64xi4>) {
  ^bb0(%x: i4, %o: i4):
    %s = arith.addi %x, %x : i4
    linalg.yield %s : i4
  } -> tensor<64xi4>
  return %r : tensor<64xi4>
}

// i3 takes a byte per element in memory while LLVM packs its vectors bit by
// bit: the op stays scalar.
// CHECK-LABEL: func.func @odd_width
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: arith.addi %{{.*}}, %{{.*}} : i3
// CHECK-NOT: vector.
// CHECK: return
func.func @odd_width(%a: tensor<64xi3>) -> tensor<64xi3> {
  %e = tensor.empty() : tensor<64xi3>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<64xi3>) outs(%e : tensor<64xi3>) {
  ^bb0(%x: i3, %o: i3):
    %s = arith.addi %x, %x : i3
    linalg.yield %s : i3
  } -> tensor<64xi3>
  return %r : tensor<64xi3>
}

// Ops that move more than large-op-bytes (the static sizes of their tensors,
// each counted once: 8 x 64 f32 in and 8 x 64 i8 out are 2,560 bytes) take
// large-vector-width; at or below it, and with a dynamic result, the op
// keeps vector-width.
// LARGE-LABEL: func.func @large_op
// LARGE: tensor.extract_slice %{{.*}} [1, 64] [1, 1] : tensor<8x64xf32> to tensor<1x64xf32>
// LARGE: arith.fptosi %{{.*}} : vector<1x64xf32> to vector<1x64xi8>
// SMALL-LABEL: func.func @large_op
// SMALL: arith.fptosi %{{.*}} : vector<1x16xf32> to vector<1x16xi8>
func.func @large_op(%a: tensor<8x64xf32>) -> tensor<8x64xi8> {
  %e = tensor.empty() : tensor<8x64xi8>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x64xf32>) outs(%e : tensor<8x64xi8>) {
  ^bb0(%x: f32, %o: i8):
    %i = arith.fptosi %x : f32 to i8
    linalg.yield %i : i8
  } -> tensor<8x64xi8>
  return %r : tensor<8x64xi8>
}

// LARGE-LABEL: func.func @dynamic_result
// LARGE: arith.fptosi %{{.*}} : vector<1x16xf32> to vector<1x16xi8>
// LARGE-NOT: vector<1x64x
// LARGE: return
func.func @dynamic_result(%a: tensor<?x64xf32>) -> tensor<?x64xi8> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xi8>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x64xf32>) outs(%e : tensor<?x64xi8>) {
  ^bb0(%x: f32, %o: i8):
    %i = arith.fptosi %x : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?x64xi8>
  return %r : tensor<?x64xi8>
}

// NEGLARGE: error: large-vector-width must be at least 0, got -1

// With block-vector-width, a large op whose body computes something once
// per block of its innermost dim (the extf of an E8M0 scale here) takes
// whole blocks up to that many elements a tile: 8 blocks of 32 here, where
// large-vector-width gives 2. Without such work (@large_op, or an f32 scale
// that divides each element directly), when the blocks of a tile would not
// divide the blocks of a row (6 of them), or with blocks at least
// large-vector-width long (128), large-vector-width.
// BLOCKS-LABEL: func.func @large_op
// BLOCKS: arith.fptosi %{{.*}} : vector<1x64xf32> to vector<1x64xi8>
// BLOCKS-LABEL: func.func @scaled_blocks(
// BLOCKS: tensor.extract_slice %{{.*}} [1, 8, 32] [1, 1, 1] : tensor<4x8x32xf32> to tensor<1x8x32xf32>
// BLOCKS: arith.divf %{{.*}} : vector<1x8x32xf32>
// BLOCKS-LABEL: func.func @scaled_blocks_f32
// BLOCKS: tensor.extract_slice %{{.*}} [1, 2, 32] [1, 1, 1] : tensor<4x8x32xf32> to tensor<1x2x32xf32>
// BLOCKS-LABEL: func.func @scaled_blocks_uneven
// BLOCKS: tensor.extract_slice %{{.*}} [1, 2, 32] [1, 1, 1] : tensor<4x6x32xf32> to tensor<1x2x32xf32>
// BLOCKS-LABEL: func.func @scaled_blocks_long
// BLOCKS: tensor.extract_slice %{{.*}} [1, 1, 64] [1, 1, 1] : tensor<4x8x128xf32> to tensor<1x1x64xf32>
// LARGE-LABEL: func.func @scaled_blocks(
// LARGE: tensor.extract_slice %{{.*}} [1, 2, 32] [1, 1, 1] : tensor<4x8x32xf32> to tensor<1x2x32xf32>
func.func @scaled_blocks(%a: tensor<4x8x32xf32>, %s: tensor<4x8xf8E8M0FNU>) -> tensor<4x8x32xf32> {
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<4x8x32xf32>, tensor<4x8xf8E8M0FNU>) outs(%e : tensor<4x8x32xf32>) {
  ^bb0(%x: f32, %c: f8E8M0FNU, %o: f32):
    %cf = arith.extf %c : f8E8M0FNU to f32
    %q = arith.divf %x, %cf : f32
    linalg.yield %q : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

func.func @scaled_blocks_f32(%a: tensor<4x8x32xf32>, %s: tensor<4x8xf32>) -> tensor<4x8x32xf32> {
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<4x8x32xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8x32xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %q = arith.divf %x, %c : f32
    linalg.yield %q : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

func.func @scaled_blocks_uneven(%a: tensor<4x6x32xf32>, %s: tensor<4x6xf8E8M0FNU>) -> tensor<4x6x32xf32> {
  %e = tensor.empty() : tensor<4x6x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<4x6x32xf32>, tensor<4x6xf8E8M0FNU>) outs(%e : tensor<4x6x32xf32>) {
  ^bb0(%x: f32, %c: f8E8M0FNU, %o: f32):
    %cf = arith.extf %c : f8E8M0FNU to f32
    %q = arith.divf %x, %cf : f32
    linalg.yield %q : f32
  } -> tensor<4x6x32xf32>
  return %r : tensor<4x6x32xf32>
}

func.func @scaled_blocks_long(%a: tensor<4x8x128xf32>, %s: tensor<4x8xf8E8M0FNU>) -> tensor<4x8x128xf32> {
  %e = tensor.empty() : tensor<4x8x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<4x8x128xf32>, tensor<4x8xf8E8M0FNU>) outs(%e : tensor<4x8x128xf32>) {
  ^bb0(%x: f32, %c: f8E8M0FNU, %o: f32):
    %cf = arith.extf %c : f8E8M0FNU to f32
    %q = arith.divf %x, %cf : f32
    linalg.yield %q : f32
  } -> tensor<4x8x128xf32>
  return %r : tensor<4x8x128xf32>
}

// A block's scale times a per-tensor one (two-level NVFP4): the product is
// computed once per block, on the 8 scales of the tile, then spread over
// the blocks' lanes, not once per lane.
// BLOCKS-LABEL: func.func @scaled_blocks_two_level
// BLOCKS: %[[T:.*]] = vector.broadcast %{{.*}} : f32 to vector<1x8xf32>
// BLOCKS: %[[S:.*]] = arith.extf %{{.*}} : vector<1x8xf8E4M3FN> to vector<1x8xf32>
// BLOCKS: %[[P:.*]] = arith.mulf %[[T]], %[[S]] : vector<1x8xf32>
// BLOCKS: %[[W:.*]] = vector.broadcast %[[P]] : vector<1x8xf32> to vector<32x1x8xf32>
// BLOCKS: %[[WT:.*]] = vector.transpose %[[W]], [1, 2, 0]
// BLOCKS-NOT: arith.mulf
// BLOCKS: arith.divf %{{.*}}, %[[WT]] : vector<1x8x32xf32>
func.func @scaled_blocks_two_level(%a: tensor<4x8x32xf32>, %s: tensor<4x8xf8E4M3FN>, %t: f32) -> tensor<4x8x32xf32> {
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<4x8x32xf32>, tensor<4x8xf8E4M3FN>) outs(%e : tensor<4x8x32xf32>) {
  ^bb0(%x: f32, %c: f8E4M3FN, %o: f32):
    %cf = arith.extf %c : f8E4M3FN to f32
    %bs = arith.mulf %t, %cf : f32
    %q = arith.divf %x, %bs : f32
    linalg.yield %q : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// Elementwise ops whose operands replicate one smaller vector the same way
// (a broadcast under the same transpose), beside broadcast scalars or splat
// constants, compute on the smaller vector and replicate the result; so do
// the ops they feed (@replicated_chain), and an op that takes the same
// replicated value twice. Left alone: an operand that varies per lane, and
// replications of different shapes. The wide broadcasts no op uses any
// more are gone.
// CHECK-LABEL: func.func @replicated_vectors(
// CHECK-SAME: %[[S:[a-z0-9]*]]: f32, %[[A:[a-z0-9]*]]: vector<4xf32>, %[[B:[a-z0-9]*]]: vector<4xf32>, %[[C:[a-z0-9]*]]: vector<8xf32>, %[[X:[a-z0-9]*]]: vector<4x8xf32>
// CHECK-NOT: vector.broadcast %[[B]]
// CHECK-NOT: vector.broadcast %[[S]] : f32 to vector<4x8xf32>
// CHECK: %[[AB:.*]] = vector.broadcast %[[A]] : vector<4xf32> to vector<8x4xf32>
// CHECK-NEXT: %[[AT:.*]] = vector.transpose %[[AB]], [1, 0]
// CHECK-NEXT: %[[CB:.*]] = vector.broadcast %[[C]] : vector<8xf32> to vector<4x8xf32>
// CHECK: %[[SN:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[SN]], %[[A]] : vector<4xf32>
// CHECK: %[[SCALEDB:.*]] = vector.broadcast %[[SCALED]] : vector<4xf32> to vector<8x4xf32>
// CHECK: %[[SCALEDT:.*]] = vector.transpose %[[SCALEDB]], [1, 0] : vector<8x4xf32> to vector<4x8xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : vector<4xf32>
// CHECK: %[[SUMB:.*]] = vector.broadcast %[[SUM]] : vector<4xf32> to vector<8x4xf32>
// CHECK: %[[SUMT:.*]] = vector.transpose %[[SUMB]], [1, 0]
// CHECK: %[[SHAPES:.*]] = arith.addf %[[AT]], %[[CB]] : vector<4x8xf32>
// CHECK: %[[OTHER:.*]] = arith.mulf %[[AT]], %[[X]] : vector<4x8xf32>
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK: %[[PLUS:.*]] = arith.addf %[[B]], %[[ONE]] : vector<4xf32>
// CHECK: %[[PLUSB:.*]] = vector.broadcast %[[PLUS]] : vector<4xf32> to vector<8x4xf32>
// CHECK: %[[PLUST:.*]] = vector.transpose %[[PLUSB]], [1, 0]
// CHECK: %[[TWICE:.*]] = arith.addf %[[A]], %[[A]] : vector<4xf32>
// CHECK: %[[TWICEB:.*]] = vector.broadcast %[[TWICE]] : vector<4xf32> to vector<8x4xf32>
// CHECK: %[[TWICET:.*]] = vector.transpose %[[TWICEB]], [1, 0]
// CHECK: return %[[SCALEDT]], %[[SUMT]], %[[SHAPES]], %[[OTHER]], %[[PLUST]], %[[TWICET]] :
func.func @replicated_vectors(%s: f32, %a: vector<4xf32>, %b: vector<4xf32>, %c: vector<8xf32>, %x: vector<4x8xf32>) -> (vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>) {
  %sb = vector.broadcast %s : f32 to vector<4x8xf32>
  %ab = vector.broadcast %a : vector<4xf32> to vector<8x4xf32>
  %at = vector.transpose %ab, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  %bb = vector.broadcast %b : vector<4xf32> to vector<8x4xf32>
  %bt = vector.transpose %bb, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  %cb = vector.broadcast %c : vector<8xf32> to vector<4x8xf32>
  %one = arith.constant dense<1.0> : vector<4x8xf32>
  %scaled = arith.mulf %sb, %at : vector<4x8xf32>
  %sum = arith.addf %at, %bt : vector<4x8xf32>
  %shapes = arith.addf %at, %cb : vector<4x8xf32>
  %other = arith.mulf %at, %x : vector<4x8xf32>
  %plus = arith.addf %bt, %one : vector<4x8xf32>
  %twice = arith.addf %at, %at : vector<4x8xf32>
  return %scaled, %sum, %shapes, %other, %plus, %twice : vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>
}

// CHECK-LABEL: func.func @replicated_chain(
// CHECK-SAME: %[[A:[a-z0-9]*]]: vector<4xf32>, %[[S:[a-z0-9]*]]: f32, %[[T:[a-z0-9]*]]: f32
// CHECK: %[[SN:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[SN]] fastmath<contract> : vector<4xf32>
// CHECK: %[[TN:.*]] = vector.broadcast %[[T]] : f32 to vector<4xf32>
// CHECK: %[[N:.*]] = arith.addf %[[M]], %[[TN]] : vector<4xf32>
// CHECK: %[[NB:.*]] = vector.broadcast %[[N]] : vector<4xf32> to vector<8x4xf32>
// CHECK: %[[NT:.*]] = vector.transpose %[[NB]], [1, 0] : vector<8x4xf32> to vector<4x8xf32>
// CHECK-NEXT: return %[[NT]]
func.func @replicated_chain(%a: vector<4xf32>, %s: f32, %t: f32) -> vector<4x8xf32> {
  %ab = vector.broadcast %a : vector<4xf32> to vector<8x4xf32>
  %at = vector.transpose %ab, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  %sb = vector.broadcast %s : f32 to vector<4x8xf32>
  %tb = vector.broadcast %t : f32 to vector<4x8xf32>
  %m = arith.mulf %at, %sb fastmath<contract> : vector<4x8xf32>
  %n = arith.addf %m, %tb : vector<4x8xf32>
  return %n : vector<4x8xf32>
}

// A block's scale does not change across the 16-lane tiles of its block:
// its slice and broadcast read move out of that loop (on tensors the read
// is pure; bufferized, LLVM could not move it past the loop's stores).
// CHECK-LABEL: func.func @block_scale_hoisted(
// CHECK: scf.for %[[ROW:[a-z0-9]*]] =
// CHECK: scf.for %[[BLOCK:[a-z0-9]*]] =
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[ROW]], %[[BLOCK]]] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
// CHECK: %[[SV:.*]] = vector.transfer_read %[[S]]
// CHECK: scf.for
// CHECK-NOT: tensor<4x2xf32> to tensor<1x1xf32>
// CHECK: arith.divf %{{.*}}, %[[SV]]
func.func @block_scale_hoisted(%arg0: tensor<4x64xf32>, %arg1: tensor<4x2xf32>) -> tensor<4x64xi8> {
  %c32 = arith.constant 32 : index
  %expanded = tensor.expand_shape %arg0 [[0], [1, 2]] output_shape [4, 2, 32] : tensor<4x64xf32> into tensor<4x2x32xf32>
  %0 = tensor.empty() : tensor<4x2x32xi8>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg1 : tensor<4x2x32xf32>, tensor<4x2xf32>) outs(%0 : tensor<4x2x32xi8>) {
  ^bb0(%in: f32, %in_0: f32, %out: i8):
    %cst = arith.constant -8.000000e+00 : f32
    %cst_1 = arith.constant 7.000000e+00 : f32
    %2 = arith.divf %in, %in_0 : f32
    %3 = math.roundeven %2 : f32
    %4 = arith.cmpf olt, %3, %cst : f32
    %5 = arith.select %4, %cst, %3 : f32
    %6 = arith.cmpf olt, %cst_1, %5 : f32
    %7 = arith.select %6, %cst_1, %5 : f32
    %8 = arith.fptosi %7 : f32 to i8
    linalg.yield %8 : i8
  } -> tensor<4x2x32xi8>
  %collapsed = tensor.collapse_shape %1 [[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
  return %collapsed : tensor<4x64xi8>
}
