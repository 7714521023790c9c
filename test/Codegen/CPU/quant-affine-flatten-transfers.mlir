// RUN: quant-affine-opt %s --split-input-file --quant-affine-flatten-transfers | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: quant-affine-opt %s --split-input-file --quant-affine-cpu-pipeline="vector-width=1" | FileCheck %s --check-prefix=PIPE
// RUN: quant-affine-opt %s --split-input-file --quant-affine-cpu-pipeline="vector-width=64" | FileCheck %s --check-prefix=ROWS
// Upstream's flattening pattern calls vector::isContiguousSlice on every
// n-D transfer of a memref, which reads past the end of a shape when the
// vector has no non-unit dim left or more dims than the memref: all-unit
// broadcast reads of a per-tensor or per-channel scale (tensor<1x1x1xf32> by
// default, 1x4 with vector-width=1) crashed the pass. Such transfers now
// stay as they are.

// CHECK-LABEL: func.func @broadcast_rank0
// CHECK: vector.transfer_read %{{.*}}[], %{{.*}} {in_bounds = [true, true, true], permutation_map = #{{.*}}} : memref<f32>, vector<1x1x1xf32>
func.func @broadcast_rank0(%m: memref<f32>) -> vector<1x1x1xf32> {
  %p = ub.poison : f32
  %v = vector.transfer_read %m[], %p {in_bounds = [true, true, true], permutation_map = affine_map<() -> (0, 0, 0)>} : memref<f32>, vector<1x1x1xf32>
  return %v : vector<1x1x1xf32>
}

// CHECK-LABEL: func.func @broadcast_rank1
// CHECK: vector.transfer_read %{{.*}} : memref<1xf32, strided<[1], offset: ?>>, vector<1x1xf32>
func.func @broadcast_rank1(%m: memref<1xf32, strided<[1], offset: ?>>) -> vector<1x1xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<1xf32, strided<[1], offset: ?>>, vector<1x1xf32>
  return %v : vector<1x1xf32>
}

// Contiguous tiles still flatten.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.collapse_shape
// CHECK: vector.transfer_read {{.*}} : memref<64xf32>, vector<64xf32>
func.func @contiguous(%m: memref<2x32xf32>) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
  return %v : vector<2x32xf32>
}

// -----

// The progtest cases through the pipeline.
// PIPE-LABEL: llvm.func @qdq_unit
func.func @qdq_unit(%x: tensor<1x1x1xf32>, %s: tensor<f32>) -> tensor<1x1x1xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<1x1x1xf32>
  return %y : tensor<1x1x1xf32>
}

// -----

// PIPE-LABEL: llvm.func @qdq_row
func.func @qdq_row(%x: tensor<1x4xf32>, %s: tensor<4xf32>) -> tensor<1x4xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

// A read in which every lane is one element (a per-row factor broadcast
// along the row) is one scalar load and a broadcast, not one load and
// insert per lane.
// CHECK-LABEL: func.func @uniform_row
// CHECK: %[[S:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x1xf32, strided<[1, 1], offset: ?>>
// CHECK: vector.broadcast %[[S]] : f32 to vector<1x64xf32>
// CHECK-NOT: vector.transfer_read
func.func @uniform_row(%m: memref<1x1xf32, strided<[1, 1], offset: ?>>) -> vector<1x64xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<1x1xf32, strided<[1, 1], offset: ?>>, vector<1x64xf32>
  return %v : vector<1x64xf32>
}

// A non-broadcast dim that may be out of bounds keeps the transfer (its
// padding semantics).
// CHECK-LABEL: func.func @uniform_row_maybe_out_of_bounds
// CHECK: vector.transfer_read
func.func @uniform_row_maybe_out_of_bounds(%m: memref<?x1xf32>, %i: index) -> vector<1x64xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %c0], %p {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<?x1xf32>, vector<1x64xf32>
  return %v : vector<1x64xf32>
}

// A per-channel float_qdq through the pipeline: the row's factor is loaded
// once and broadcast.
// ROWS-LABEL: llvm.func @float_qdq_rows
// ROWS-NOT: llvm.insertelement {{.*}} : i64] : vector<64xf32>
// ROWS: llvm.shufflevector {{.*}} [0, 0, 0, {{.*}}] : vector<64xf32>
// ROWS-NOT: llvm.insertelement {{.*}} : i64] : vector<64xf32>
// ROWS: llvm.fdiv {{.*}} : vector<64xf32>
func.func @float_qdq_rows(%x: tensor<8x256xf32>, %m: tensor<8x1xf32>) -> tensor<8x256xf32> {
  %y = quant_affine.float_qdq %x, %m format [5, 2] : (tensor<8x256xf32>, tensor<8x1xf32>) -> tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}
