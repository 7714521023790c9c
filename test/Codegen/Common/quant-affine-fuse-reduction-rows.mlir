// A reduction that keeps its input's first dim (per-token or per-block
// statistics) and an all-parallel op that reads the same input again by
// rows (the quantize of dynamic quantization): the consumer is tiled into
// whole rows, as many as fit in tile-bytes of its row inputs (16 KiB) and
// divide the dim, and the reduction, its fills and the epilogue between are
// fused into each tile, once each. The encodings, used after the loop too,
// are yielded by it. Reductions over the first dim are left alone.
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --quant-affine-fuse-elementwise --cse \
// RUN:   --quant-affine-fuse-reduction-rows --split-input-file | FileCheck %s
// RUN: not quant-affine-opt %s --quant-affine-fuse-reduction-rows=tile-bytes=0 \
// RUN:   --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: tile-bytes must be at least 1, got 0

// Per block of 32 along rows of 4096 f32 (16 KiB): one row per tile.
// CHECK-LABEL: func.func @per_block(
// CHECK: %[[LOOP:.*]]:2 = scf.forall (%[[ROW:.*]]) in (64) shared_outs(
// CHECK: %[[X:.*]] = tensor.extract_slice %{{.*}}[%[[ROW]], 0, 0] [1, 128, 32]
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK: %[[STATS:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<1x128x32xf32>)
// CHECK: %[[ENC:.*]]:2 = linalg.generic {{.*}} ins(%[[STATS]]#0, %[[STATS]]#1 : tensor<1x128xf32>, tensor<1x128xf32>)
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[ENC]]#0, %[[ENC]]#1 : tensor<1x128x32xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[Q]]
// CHECK-NEXT: tensor.parallel_insert_slice %[[ENC]]#0
// CHECK-NEXT: }
// CHECK: return %[[LOOP]]#1, %
func.func @per_block(%x: tensor<64x4096xf32>) -> (tensor<64x128xf32>, tensor<64x4096xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 32] : tensor<64x4096xf32> -> (tensor<64x128xf32>, tensor<64x128xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32] : (tensor<64x4096xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x4096xi8>
  return %s, %q : tensor<64x128xf32>, tensor<64x4096xi8>
}

// -----

// Per token: the quantize reads the [M, 1] encodings through an
// expand_shape of the epilogue's [M] results, which it now reads directly.
// Rows of 2048 f32 (8 KiB): two per tile.
// CHECK-LABEL: func.func @per_token(
// CHECK: %[[LOOP:.*]]:3 = scf.forall (%[[ROWS:.*]]) = (0) to (48) step (2) shared_outs(
// CHECK: %[[X:.*]] = tensor.extract_slice %{{.*}}[%[[ROWS]], 0] [2, 2048]
// CHECK: %[[STATS:.*]]:2 = linalg.generic {{.*}}["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<2x2048xf32>)
// CHECK: %[[ENC:.*]]:2 = linalg.generic {{.*}} ins(%[[STATS]]#0, %[[STATS]]#1 : tensor<2xf32>, tensor<2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[ENC]]#0, %[[ENC]]#1 : tensor<2x2048xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK: %[[S:.*]] = tensor.expand_shape %[[LOOP]]#1 {{\[}}[0, 1]] output_shape [48, 1]
// CHECK: %[[O:.*]] = tensor.expand_shape %[[LOOP]]#2 {{\[}}[0, 1]] output_shape [48, 1]
// CHECK: return %[[S]], %[[O]], %[[LOOP]]#0
func.func @per_token(%x: tensor<48x2048xf32>) -> (tensor<48x1xf32>, tensor<48x1xf32>, tensor<48x2048xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x2048xf32> -> (tensor<48x1xf32>, tensor<48x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<48x2048xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x2048xi8>
  return %s, %o, %q : tensor<48x1xf32>, tensor<48x1xf32>, tensor<48x2048xi8>
}

// -----

// Per tensor: the reduction has no parallel dim, a tile would need the
// whole input. Left alone.
// CHECK-LABEL: func.func @per_tensor(
// CHECK-NOT: scf.forall
// CHECK: return
func.func @per_tensor(%x: tensor<48x2048xf32>) -> tensor<48x2048xi8> {
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<48x2048xf32> -> (tensor<f32>, tensor<f32>)
  %q = quant_affine.quantize %x, %s, %o range [0, 255] : (tensor<48x2048xf32>, tensor<f32>, tensor<f32>) -> tensor<48x2048xi8>
  return %q : tensor<48x2048xi8>
}

// -----

// Per channel of the last dim: the reduction runs over the first dim.
// Left alone.
// CHECK-LABEL: func.func @per_column(
// CHECK-NOT: scf.forall
// CHECK: return
func.func @per_column(%x: tensor<48x2048xf32>) -> tensor<48x2048xi8> {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x2048xf32> -> (tensor<1x2048xf32>, tensor<1x2048xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<48x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) -> tensor<48x2048xi8>
  return %q : tensor<48x2048xi8>
}

// -----

// Encodings of one tensor quantizing another: no second read of the same
// data to save. Left alone.
// CHECK-LABEL: func.func @other_input(
// CHECK-NOT: scf.forall
// CHECK: return
func.func @other_input(%x: tensor<48x2048xf32>, %y: tensor<48x2048xf32>) -> tensor<48x2048xi8> {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x2048xf32> -> (tensor<48x1xf32>, tensor<48x1xf32>)
  %q = quant_affine.quantize %y, %s, %o range [-128, 127] : (tensor<48x2048xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x2048xi8>
  return %q : tensor<48x2048xi8>
}

// -----

// Two consumers of the same encodings: the first one fuses the reduction
// (and yields the encodings), the second reads them from its loop,
// untouched.
// CHECK-LABEL: func.func @two_consumers(
// CHECK: %[[LOOP:.*]]:3 = scf.forall
// CHECK: linalg.generic {{.*}}"reduction"
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: %[[S:.*]] = tensor.expand_shape %[[LOOP]]#1
// CHECK: %[[O:.*]] = tensor.expand_shape %[[LOOP]]#2
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[S]], %[[O]] : tensor<48x2048xf32>, tensor<48x1xf32>, tensor<48x1xf32>) outs(%{{.*}} : tensor<48x2048xf32>)
func.func @two_consumers(%x: tensor<48x2048xf32>) -> (tensor<48x2048xi8>, tensor<48x2048xf32>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x2048xf32> -> (tensor<48x1xf32>, tensor<48x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<48x2048xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x2048xi8>
  %d = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<48x2048xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x2048xf32>
  return %q, %d : tensor<48x2048xi8>, tensor<48x2048xf32>
}
