// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids" | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids nontemporal-stores=true" | FileCheck %s --check-prefix=NT
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids vector-width=8" | FileCheck %s --check-prefix=W8
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids openmp=true" | FileCheck %s --check-prefix=OMP

// Results are written in place into the caller's buffers: no hidden
// allocation or copy in a function that writes into a memref.
// CHECK-LABEL: llvm.func @dequantize_into_buffer
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: memcpy
// CHECK-NOT: memrefCopy
// CHECK: llvm.sitofp {{.*}} : vector<16xi8> to vector<16xf32>
// CHECK: llvm.fmul {{.*}} : vector<16xf32>
// CHECK: llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// Non-temporal stores where the caller's buffer is 64-byte aligned (then
// every 16 x f32 store is), plain stores otherwise.
// NT-LABEL: llvm.func @dequantize_into_buffer
// NT: %[[REM:.*]] = llvm.urem %{{.*}}, %{{.*}} : i64
// NT: %[[ALIGNED:.*]] = llvm.icmp "eq" %[[REM]], %{{.*}} : i64
// NT: llvm.cond_br %[[ALIGNED]], ^[[STREAM:.*]], ^[[PLAIN:bb[0-9]+]]
// NT: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>
// NT: ^[[PLAIN]]:
// NT-NOT: nontemporal
// NT: llvm.store {{.*}} {alignment = 4 : i64} : vector<16xf32>
// NT: llvm.return
// W8-LABEL: llvm.func @dequantize_into_buffer
// W8: llvm.fmul {{.*}} : vector<8xf32>
func.func @dequantize_into_buffer(%q: tensor<64x64xi8>, %s: tensor<64x1xf32>, %out: memref<64x64xf32>) {
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<64x64xi8>, tensor<64x1xf32>) -> tensor<64x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  return
}

// Blocked encodings compute in an expanded shape; the result still goes
// straight into the caller's buffer. A public function that returns its
// argument's buffer returns a copy the caller owns (the ownership rule of
// buffer deallocation): one malloc and one memcpy after the loop.
// CHECK-LABEL: llvm.func @block_quantize_into_tensor
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.fdiv {{.*}} : vector<16xf32>
// CHECK: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// CHECK: llvm.call @malloc
// CHECK: llvm.intr.memcpy
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
func.func @block_quantize_into_tensor(%x: tensor<64x64xf32>, %s: tensor<64x2xf32>, %out: tensor<64x64xi8>) -> tensor<64x64xi8> {
  %y = quant_affine.quantize %x, %s range [-128, 127] block [1, 32] : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x64xi8>
  %r = bufferization.materialize_in_destination %y in %out : (tensor<64x64xi8>, tensor<64x64xi8>) -> tensor<64x64xi8>
  return %r : tensor<64x64xi8>
}

// The same without blocks: the loop over tiles writes into the argument
// (upstream One-Shot Analysis rejected this before the destination was
// renamed; see BufferizationPrep.cpp). Also with rows on threads.
// CHECK-LABEL: llvm.func @qdq_into_tensor
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.call @malloc
// CHECK: llvm.intr.memcpy
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
// OMP-LABEL: llvm.func @qdq_into_tensor
// OMP-NOT: llvm.call @malloc
// OMP: omp.wsloop
// OMP: llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// OMP: llvm.call @malloc
// OMP: llvm.intr.memcpy
// OMP-NOT: llvm.call @malloc
// OMP: llvm.return
func.func @qdq_into_tensor(%x: tensor<64x64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
  %r = bufferization.materialize_in_destination %y in %out : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// i4 results are stored packed, two a byte: 16 values of a vector in one
// 8-byte store to the rank-1 i8 buffer the argument has become (its
// descriptor: pointer, pointer, offset, one size, one stride).
// CHECK-LABEL: llvm.func @int4_into_buffer
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: atomicrmw
// CHECK: llvm.store {{.*}} : vector<8xi8>, !llvm.ptr
// CHECK-NOT: atomicrmw
// CHECK: llvm.return
func.func @int4_into_buffer(%x: tensor<64x64xf32>, %s: tensor<64x2xf32>, %out: memref<64x64xi4>) {
  %y = quant_affine.quantize %x, %s range [-8, 7] block [1, 32] : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x64xi4>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xi4>, memref<64x64xi4>) -> ()
  return
}

// Dynamic shapes with a doubly-dynamic block encoding lower too (gather).
// CHECK-LABEL: llvm.func @dynamic_qdq
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.fdiv
// CHECK: llvm.intr.roundeven
func.func @dynamic_qdq(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>, %out: memref<?x?xf32>) {
  %y = quant_affine.qdq %x, %s range [0, 255] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
