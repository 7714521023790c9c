// Dynamic quantization per block of 32 into the caller's buffers, through
// the CPU pipeline: one parallel loop of row tiles (the statistics, the
// encodings and the codes of a row together), the codes and the encodings
// written in place (no copy of them, no buffer of the encodings' size);
// with non-temporal stores, the codes stream while the per-row statistics,
// read back by the next loop of the tile, do not; every load of the input
// is prefetched (the nest moves over 4 MiB): by the statistics 4 KiB ahead,
// by the quantize loop, which rereads the row the statistics read, the same
// place in the next row.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids openmp=true nontemporal-stores=true" | FileCheck %s

// CHECK-LABEL: llvm.func @per_block32(
// CHECK-NOT: memrefCopy
// CHECK-NOT: llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK: %[[ROW:.*]] = llvm.mlir.constant(4096 : index) : i64
// CHECK: omp.parallel
// CHECK: omp.wsloop
// The statistics: the row's 128 per-block keys 16 blocks at a time, a
// 512-lane load whose blocks a shuffle tree reduces into one vector of 16
// keys per statistic (no horizontal reduction per block), plain stores.
// CHECK: "llvm.intr.prefetch"
// CHECK: llvm.load {{.*}} : !llvm.ptr -> vector<512xf32>
// CHECK-NOT: llvm.intr.vector.reduce
// CHECK: llvm.shufflevector {{.*}} : vector<16xi32>
// CHECK: llvm.intr.smin({{.*}}) : (vector<16xi32>, vector<16xi32>) -> vector<16xi32>
// CHECK: llvm.intr.smax({{.*}}) : (vector<16xi32>, vector<16xi32>) -> vector<16xi32>
// CHECK-NOT: nontemporal
// CHECK: llvm.store {{.*}} : vector<16xi32>, !llvm.ptr
// The codes stream; the input is prefetched a row ahead, not the encodings
// the tile has just written.
// CHECK: %[[NEXT:.*]] = llvm.add %{{.*}}, %[[ROW]] : i64
// CHECK-NEXT: llvm.intr.umin(%[[NEXT]],
// CHECK: "llvm.intr.prefetch"
// CHECK-NOT: "llvm.intr.prefetch"
// CHECK: llvm.store {{.*}} {alignment = 16 : i64, nontemporal} : vector<16xi8>, !llvm.ptr
// CHECK: omp.yield
// CHECK-NOT: memrefCopy
// CHECK: llvm.return
func.func @per_block32(%x: tensor<256x4096xf32>, %q: memref<256x4096xi8>, %s: memref<256x128xf32>, %o: memref<256x128xf32>) attributes {llvm.emit_c_interface} {
  %sc, %of = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 32] : tensor<256x4096xf32> -> (tensor<256x128xf32>, tensor<256x128xf32>)
  %y = quant_affine.quantize %x, %sc, %of range [-8, 7] block [1, 32] : (tensor<256x4096xf32>, tensor<256x128xf32>, tensor<256x128xf32>) -> tensor<256x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<256x4096xi8>, memref<256x4096xi8>) -> ()
  bufferization.materialize_in_destination %sc in restrict writable %s : (tensor<256x128xf32>, memref<256x128xf32>) -> ()
  bufferization.materialize_in_destination %of in restrict writable %o : (tensor<256x128xf32>, memref<256x128xf32>) -> ()
  return
}
