// RUN: quant-affine-opt %s --split-input-file --transform-interpreter \
// RUN:   --resolve-ranked-shaped-type-result-dims -cse -verify-diagnostics | FileCheck %s
// TilingInterface of the tensor ops (docs/Tiling.md): upstream tiling and
// fusion driven by transform scripts. A tile of an input dim maps to scale
// rows [off / B, ceil((off + size) / B)) for block B; a tile that does not
// start on a block boundary is computed on the enclosing whole blocks and
// sliced out. (resolve-ranked-shaped-type-result-dims uses the ops' reified
// result shapes, so that loop bounds do not keep the untiled op alive.)

// Block-32 int4 weights with offsets, dequantized into a matmul with a
// transposed B (N x K) that is tiled 32 x 64 with scf.forall: each tile of
// 64 rows of the weight takes the same 64 rows of the scale and offset, both
// of their columns (K is not tiled).
// CHECK-LABEL: func.func @fuse_block_dequantize
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<128x64xf32>, %[[W:[a-z0-9]+]]: tensor<256x64xi4>, %[[S:[a-z0-9]+]]: tensor<256x2xf32>, %[[O:[a-z0-9]+]]: tensor<256x2xf32>
// CHECK-NOT: quant_affine.dequantize
// CHECK: scf.forall (%[[I:.+]], %[[J:.+]]) in (4, 4)
// CHECK: %[[N:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[N]], 0] [64, 64] [1, 1] : tensor<256x64xi4> to tensor<64x64xi4>
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[N]], 0] [64, 2] [1, 1] : tensor<256x2xf32> to tensor<64x2xf32>
// CHECK: %[[OT:.+]] = tensor.extract_slice %[[O]][%[[N]], 0] [64, 2] [1, 1] : tensor<256x2xf32> to tensor<64x2xf32>
// CHECK: %[[B:.+]] = quant_affine.dequantize %[[WT]], %[[ST]], %[[OT]] range [-8, 7] block [1, 32] : (tensor<64x64xi4>, tensor<64x2xf32>, tensor<64x2xf32>) -> tensor<64x64xf32>
// CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %[[B]] : tensor<32x64xf32>, tensor<64x64xf32>)
func.func @fuse_block_dequantize(%a: tensor<128x64xf32>, %w: tensor<256x64xi4>, %s: tensor<256x2xf32>, %o: tensor<256x2xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<256x64xi4>, tensor<256x2xf32>, tensor<256x2xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xf32>, tensor<256x64xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %dq = transform.structured.match ops{["quant_affine.dequantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %mm tile_sizes [32, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %dq into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Per-channel: the scale rows of the tile. Per-tensor: the whole scale.
// CHECK-LABEL: func.func @fuse_channel_dequantize
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<256x64xi8>, %[[S:[a-z0-9]+]]: tensor<256x1xf32>
// CHECK: scf.forall (%{{.+}}, %[[J:.+]]) in (4, 4)
// CHECK: %[[N:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[N]], 0] [64, 64] [1, 1]
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[N]], 0] [64, 1] [1, 1] : tensor<256x1xf32> to tensor<64x1xf32>
// CHECK: quant_affine.dequantize %[[WT]], %[[ST]] range [-128, 127] : (tensor<64x64xi8>, tensor<64x1xf32>) -> tensor<64x64xf32>
func.func @fuse_channel_dequantize(%a: tensor<128x64xf32>, %w: tensor<256x64xi8>, %s: tensor<256x1xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<256x64xi8>, tensor<256x1xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xf32>, tensor<256x64xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// CHECK-LABEL: func.func @fuse_tensor_dequantize
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<256x64xi8>, %[[S:[a-z0-9]+]]: tensor<f32>
// CHECK: scf.forall
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]]
// CHECK-NEXT: quant_affine.dequantize %[[WT]], %[[S]] range [-128, 127] : (tensor<64x64xi8>, tensor<f32>) -> tensor<64x64xf32>
func.func @fuse_tensor_dequantize(%a: tensor<128x64xf32>, %w: tensor<256x64xi8>, %s: tensor<f32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<256x64xi8>, tensor<f32>) -> tensor<256x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xf32>, tensor<256x64xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %dq = transform.structured.match ops{["quant_affine.dequantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm1, %mm2 = transform.split_handle %mm : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %dq1, %dq2 = transform.split_handle %dq : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t1, %l1 = transform.structured.tile_using_forall %mm1 tile_sizes [32, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f1, %n1 = transform.structured.fuse_into_containing_op %dq1 into %l1 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_forall %mm2 tile_sizes [32, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f2, %n2 = transform.structured.fuse_into_containing_op %dq2 into %l2 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic shapes. K is not tiled, but the tile's K size comes from the
// activations, so it is not known to be a multiple of 32: the tiled op reads
// whole blocks (ceil(K / 32) x 32 elements) and the tile is sliced out of its
// result.
// CHECK-DAG: #[[$CEIL:.+]] = affine_map<()[s0] -> (s0 ceildiv 32)>
// CHECK-DAG: #[[$WHOLE:.+]] = affine_map<()[s0] -> ((s0 ceildiv 32) * 32)>
// CHECK-LABEL: func.func @fuse_dynamic
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<?x?xf32>, %[[W:[a-z0-9]+]]: tensor<?x?xi4>, %[[S:[a-z0-9]+]]: tensor<?x?xf32>
// CHECK-NOT: quant_affine.dequantize
// CHECK: %[[K:.+]] = tensor.dim %[[A]], %c1
// CHECK: scf.forall (%{{.+}}, %[[J:.+]]) in
// CHECK: %[[N:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK: affine.min
// CHECK: %[[NS:.+]] = affine.min
// CHECK: %[[KB:.+]] = affine.apply #[[$CEIL]]()[%[[K]]]
// CHECK: %[[KX:.+]] = affine.apply #[[$WHOLE]]()[%[[K]]]
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[N]], 0] [%[[NS]], %[[KX]]] [1, 1] : tensor<?x?xi4> to tensor<?x?xi4>
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[N]], 0] [%[[NS]], %[[KB]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK: %[[D:.+]] = quant_affine.dequantize %[[WT]], %[[ST]] range [-8, 7] block [1, 32] : (tensor<?x?xi4>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[B:.+]] = tensor.extract_slice %[[D]][0, 0] [%[[NS]], %[[K]]] [1, 1]
// CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %[[B]] : tensor<?x?xf32>, tensor<?x?xf32>)
func.func @fuse_dynamic(%a: tensor<?x?xf32>, %w: tensor<?x?xi4>, %s: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %b = quant_affine.dequantize %w, %s range [-8, 7] block [1, 32] : (tensor<?x?xi4>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %dq = transform.structured.match ops{["quant_affine.dequantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %mm tile_sizes [32, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %dq into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// structured.fuse (scf::tileConsumerAndFuseProducersUsingSCF) with scf.for
// loops, K tiled by the block size: the loop steps show each K tile starts
// on a block boundary, so the tiled op is static, one scale column per tile.
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func.func @fuse_k_tiles
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<256x64xi4>, %[[S:[a-z0-9]+]]: tensor<256x2xf32>
// CHECK-NOT: quant_affine.dequantize
// CHECK: scf.for
// CHECK: scf.for %[[N:.+]] = %c0 to %c256 step %c64
// CHECK: scf.for %[[K:.+]] = %c0 to %c64 step %c32
// CHECK: %[[KB:.+]] = affine.apply #[[$COL]](%[[K]])
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[N]], %[[K]]] [64, 32] [1, 1] : tensor<256x64xi4> to tensor<64x32xi4>
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[N]], %[[KB]]] [64, 1] [1, 1] : tensor<256x2xf32> to tensor<64x1xf32>
// CHECK: %[[B:.+]] = quant_affine.dequantize %[[WT]], %[[ST]] range [-8, 7] block [1, 32] : (tensor<64x32xi4>, tensor<64x1xf32>) -> tensor<64x32xf32>
// CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %[[B]] : tensor<32x32xf32>, tensor<64x32xf32>)
func.func @fuse_k_tiles(%a: tensor<128x64xf32>, %w: tensor<256x64xi4>, %s: tensor<256x2xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %b = quant_affine.dequantize %w, %s range [-8, 7] block [1, 32] : (tensor<256x64xi4>, tensor<256x2xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xf32>, tensor<256x64xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:3 = transform.structured.fuse %mm tile_sizes [32, 64, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The op tiled on its own (its result goes to a tensor.empty destination).
// Tiles of 24 over blocks of 32 start at 0, 24 and 48: the tiled op covers
// the whole blocks around the tile, and the tile is sliced from its result.
// CHECK-DAG: #[[$OFF:.+]] = affine_map<(d0) -> (d0 * 24)>
// CHECK-DAG: #[[$SOFF:.+]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-DAG: #[[$SSIZE:.+]] = affine_map<(d0, d1) -> ((d0 + d1) ceildiv 32 - d0 floordiv 32)>
// CHECK-DAG: #[[$XOFF:.+]] = affine_map<(d0) -> ((d0 floordiv 32) * 32)>
// CHECK-DAG: #[[$XSIZE:.+]] = affine_map<(d0, d1) -> (((d0 + d1) ceildiv 32) * 32 - (d0 floordiv 32) * 32)>
// CHECK-DAG: #[[$ROFF:.+]] = affine_map<(d0) -> (d0 mod 32)>
// CHECK-LABEL: func.func @tile_across_blocks
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x64xf32>, %[[S:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x64xf32>
// CHECK: scf.forall (%[[I:.+]], %[[J:.+]]) in (4, 3) shared_outs(%[[D:.+]] = %[[E]])
// CHECK: %[[OFFV:.+]] = affine.apply #[[$OFF]](%[[J]])
// CHECK: %[[SIZE:.+]] = affine.min #{{.+}}(%[[OFFV]])
// CHECK: %[[SO:.+]] = affine.apply #[[$SOFF]](%[[OFFV]])
// CHECK: %[[SS:.+]] = affine.apply #[[$SSIZE]](%[[OFFV]], %[[SIZE]])
// CHECK: %[[XO:.+]] = affine.apply #[[$XOFF]](%[[OFFV]])
// CHECK: %[[XS:.+]] = affine.apply #[[$XSIZE]](%[[OFFV]], %[[SIZE]])
// CHECK: %[[RO:.+]] = affine.apply #[[$ROFF]](%[[OFFV]])
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[X]][%[[I]], %[[XO]]] [1, %[[XS]]] [1, 1] : tensor<4x64xf32> to tensor<1x?xf32>
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[I]], %[[SO]]] [1, %[[SS]]] [1, 1] : tensor<4x2xf32> to tensor<1x?xf32>
// CHECK: %[[Y:.+]] = quant_affine.qdq %[[XT]], %[[ST]] range [-8, 7] block [1, 32] : (tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
// CHECK: %[[T:.+]] = tensor.extract_slice %[[Y]][0, %[[RO]]] [1, %[[SIZE]]] [1, 1]
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[D]][%[[I]], %[[OFFV]]] [1, %[[SIZE]]] [1, 1]
func.func @tile_across_blocks(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %y = quant_affine.qdq %x, %s range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// Tiles of 16 lie inside one block: that block's scale, and a block (-1)
// spanning the tile. No element is computed twice.
// CHECK-LABEL: func.func @tile_inside_block
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x64xf32>, %[[S:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK: scf.forall (%[[I:.+]], %[[J:.+]]) in (4, 4)
// CHECK: %[[OFFV:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK: %[[SO:.+]] = affine.apply #[[$SOFF]](%[[OFFV]])
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[X]][%[[I]], %[[OFFV]]] [1, 16] [1, 1] : tensor<4x64xf32> to tensor<1x16xf32>
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[I]], %[[SO]]] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
// CHECK: %[[Y:.+]] = quant_affine.qdq %[[XT]], %[[ST]] range [-8, 7] block [1, -1] : (tensor<1x16xf32>, tensor<1x1xf32>) -> tensor<1x16xf32>
// CHECK: tensor.parallel_insert_slice %[[Y]]
func.func @tile_inside_block(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %y = quant_affine.qdq %x, %s range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["quant_affine.qdq"]} in %root : (!transform.any_op) -> !transform.any_op
    %across, %inside = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t1, %l1 = transform.structured.tile_using_forall %across tile_sizes [1, 24] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_forall %inside tile_sizes [1, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic shapes, tiled on its own: the destination is a tensor.empty of the
// input's sizes (the ops have no destination operand). Tiles of 64 start on
// a block boundary; the last may be shorter, so the tiled op reads whole
// blocks from the tile's start.
// CHECK-DAG: #[[$SSIZE:.+]] = affine_map<(d0) -> (d0 ceildiv 32)>
// CHECK-DAG: #[[$XSIZE:.+]] = affine_map<(d0) -> ((d0 ceildiv 32) * 32)>
// CHECK-LABEL: func.func @tile_dynamic_quantize
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x?xf32>, %[[S:[a-z0-9]+]]: tensor<?xf32>
// CHECK: %[[D0:.+]] = tensor.dim %[[X]], %c0
// CHECK: %[[D1:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[E:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xi4>
// CHECK: scf.forall ({{.+}}) in ({{.+}}) shared_outs(%{{.+}} = %[[E]])
// CHECK: %[[ROW:.+]] = affine.apply
// CHECK: %[[COL:.+]] = affine.apply
// CHECK: %[[ROWS:.+]] = affine.min
// CHECK: %[[COLS:.+]] = affine.min
// CHECK: %[[SO:.+]] = affine.apply #{{.+}}(%[[COL]])
// CHECK: %[[SS:.+]] = affine.apply #[[$SSIZE]](%[[COLS]])
// CHECK: %[[XS:.+]] = affine.apply #[[$XSIZE]](%[[COLS]])
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[X]][%[[ROW]], %[[COL]]] [%[[ROWS]], %[[XS]]] [1, 1]
// CHECK: %[[ST:.+]] = tensor.extract_slice %[[S]][%[[SO]]] [%[[SS]]] [1]
// CHECK: %[[Q:.+]] = quant_affine.quantize %[[XT]], %[[ST]] range [-8, 7] block [32] : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xi4>
// CHECK: tensor.extract_slice %[[Q]][0, 0] [%[[ROWS]], %[[COLS]]] [1, 1]
func.func @tile_dynamic_quantize(%x: tensor<?x?xf32>, %s: tensor<?xf32>) -> tensor<?x?xi4> {
  %q = quant_affine.quantize %x, %s range [-8, 7] block [32] : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xi4>
  return %q : tensor<?x?xi4>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["quant_affine.quantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %q tile_sizes [8, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Scalar and vector forms have no loops to tile.
func.func @vector_form(%x: vector<4xf32>, %s: vector<4xf32>) -> vector<4xi8> {
  // expected-note @below {{target op}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (vector<4xf32>, vector<4xf32>) -> vector<4xi8>
  return %q : vector<4xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["quant_affine.quantize"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too many tiles provided, expected at most 0 found 1}}
    %t, %l = transform.structured.tile_using_for %q tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// float_qdq tiles and fuses like the quantizers: fp8 weights with a maxval
// per block of 32, fake-cast into a matmul tiled 32 x 64 (the weight's rows
// and their maxval rows), and one without maxval tiled across blocks.
// CHECK-LABEL: func.func @fuse_float_qdq
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<128x64xf32>, %[[W:[a-z0-9]+]]: tensor<256x64xf32>, %[[M:[a-z0-9]+]]: tensor<256x2xf32>
// CHECK: scf.forall (%{{.+}}, %[[J:.+]]) in (4, 4)
// CHECK: %[[N:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[N]], 0] [64, 64] [1, 1] : tensor<256x64xf32> to tensor<64x64xf32>
// CHECK: %[[MT:.+]] = tensor.extract_slice %[[M]][%[[N]], 0] [64, 2] [1, 1] : tensor<256x2xf32> to tensor<64x2xf32>
// CHECK: %[[B:.+]] = quant_affine.float_qdq %[[WT]], %[[MT]] format [4, 3] finite block [1, 32] : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x64xf32>
// CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %[[B]] : tensor<32x64xf32>, tensor<64x64xf32>)
func.func @fuse_float_qdq(%a: tensor<128x64xf32>, %w: tensor<256x64xf32>, %m: tensor<256x2xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %b = quant_affine.float_qdq %w, %m format [4, 3] finite block [1, 32] : (tensor<256x64xf32>, tensor<256x2xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xf32>, tensor<256x64xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// CHECK-LABEL: func.func @tile_float_qdq
// CHECK: scf.forall
// CHECK: quant_affine.float_qdq %{{.+}} format [5, 2] : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @tile_float_qdq(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %y = quant_affine.float_qdq %x format [5, 2] : (tensor<32x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %fuse = transform.structured.match ops{["func.func"]} attributes {sym_name = "fuse_float_qdq"} in %root : (!transform.any_op) -> !transform.any_op
    %fq = transform.structured.match ops{["quant_affine.float_qdq"]} in %fuse : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %mm tile_sizes [32, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %fq into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} attributes {sym_name = "tile_float_qdq"} in %root : (!transform.any_op) -> !transform.any_op
    %plain = transform.structured.match ops{["quant_affine.float_qdq"]} in %func : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %plain tile_sizes [8, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
