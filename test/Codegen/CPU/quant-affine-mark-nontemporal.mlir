// RUN: quant-affine-opt %s --quant-affine-mark-nontemporal | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="nontemporal-stores=true vector-width=64" \
// RUN: | FileCheck %s --check-prefix=PIPE
// Stores whose size is not a power of two: a vector that covers a row of
// 12 x i32 (48 bytes) once got `alignment = 48`, which vector.store rejects.
// The buffer is checked for its store size rounded up to a power of two, and
// each store carries the largest power of two that this and its offset prove.

// CHECK-LABEL: func.func @row
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.remui %{{.*}}, %[[C64]] : index
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<1x12xi32>, vector<12xi32>
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: return
func.func @row(%v: vector<12xi32>, %out: memref<1x12xi32>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true]} : vector<12xi32>, memref<1x12xi32>
  return
}

// 12 x i8 rows: the buffer is checked for 16 bytes; the second row starts 12
// bytes in, which proves 4.
// CHECK-LABEL: func.func @bytes
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: arith.remui %{{.*}}, %[[C16]] : index
// CHECK: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<2x12xi8>, vector<12xi8>
// CHECK: vector.store {{.*}} {alignment = 4 : i64, nontemporal = true} : memref<2x12xi8>, vector<12xi8>
func.func @bytes(%v: vector<12xi8>, %out: memref<2x12xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true]} : vector<12xi8>, memref<2x12xi8>
  vector.transfer_write %v, %out[%c1, %c0] {in_bounds = [true]} : vector<12xi8>, memref<2x12xi8>
  return
}

// The progtest case: one 64-lane tile covers the 12-element row.
// PIPE-LABEL: llvm.func @quantize_row
// PIPE: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<12xi32>, !llvm.ptr
func.func @quantize_row(%x: tensor<1x12xf32>, %s: tensor<12xf32>, %out: memref<1x12xi32>) {
  %q = quant_affine.quantize %x, %s range [0, 65535] : (tensor<1x12xf32>, tensor<12xf32>) -> tensor<1x12xi32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<1x12xi32>, memref<1x12xi32>) -> ()
  return
}
