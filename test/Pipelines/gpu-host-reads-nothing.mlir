// The host code of a GPU function reads none of its buffers: a caller may
// pass device memory (cuMemAlloc), which the host cannot touch. The per-tensor
// scale and offset, read once for all lanes, used to be read on the host and
// passed to the kernel by value (hoisting took them out of the tile loop),
// and the GPU benchmark crashed on device memory; they are read in the
// kernel now (quant-affine-sink-reads-into-launch).
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path reduction-threads=0" | FileCheck %s

// CHECK-LABEL: llvm.func @per_tensor_quantize(
// CHECK-NOT: llvm.load
// CHECK: gpu.launch_func
// CHECK-NEXT: llvm.return
func.func @per_tensor_quantize(%x: tensor<256x256xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<256x256xi8>) {
  %y = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256x256xi8>, memref<256x256xi8>) -> ()
  return
}

// CHECK-LABEL: llvm.func @per_tensor_qdq(
// CHECK-NOT: llvm.load
// CHECK: gpu.launch_func
// CHECK-NEXT: llvm.return
func.func @per_tensor_qdq(%x: tensor<256x256xf32>, %s: tensor<1x1xf32>, %o: tensor<1x1xf32>, %out: memref<256x256xf32>) {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<256x256xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<256x256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// CHECK-LABEL: llvm.func @per_tensor_dequantize(
// CHECK-NOT: llvm.load
// CHECK: gpu.launch_func
// CHECK-NEXT: llvm.return
func.func @per_tensor_dequantize(%q: tensor<256x256xi8>, %s: tensor<f32>, %out: memref<256x256xf32>) {
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<256x256xi8>, tensor<f32>) -> tensor<256x256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// A function that returns a tensor computed into an argument's buffer returns
// a managed copy of it: the copy runs on the device (cuMemcpy), not as a host
// memcpy from what may be device memory.
// CHECK-LABEL: llvm.func @returns_into_argument(
// CHECK-NOT: llvm.load
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.call @mgpuMemcpy
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return
func.func @returns_into_argument(%x: tensor<4x64xf32>, %q: tensor<32x64xi8>, %s: tensor<32x1xf32>, %d: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x64xi8>, tensor<32x1xf32>) -> tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<4x64xf32>, tensor<32x64xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// A matmul with one result: its sum runs in a kernel under both option sets
// (with reduction-threads=0 it once ran in host code: the one-iteration loop
// around it was folded away before the mapping).
// CHECK-LABEL: llvm.func @one_result(
// CHECK-NOT: llvm.load
// CHECK: gpu.launch_func
// CHECK-NOT: llvm.load
// CHECK: llvm.return
func.func @one_result(%x: tensor<1x256xf32>, %q: tensor<1x256xi8>, %s: tensor<1x8xf32>, %out: memref<1x1xf32>) {
  %w = quant_affine.dequantize %q, %s range [-128, 127] block [1, 32] : (tensor<1x256xi8>, tensor<1x8xf32>) -> tensor<1x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x256xf32>, tensor<1x256xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1x1xf32>, memref<1x1xf32>) -> ()
  return
}
