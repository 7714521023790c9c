// Packed i4 and i2 on the GPU (docs/Packing.md): each thread moves its values'
// bytes in one vector access where its tile starts a byte (4 values of i4:
// st/ld.global.v2.b8; of i2: one byte), with no atomics; rows whose length
// is not a multiple of a byte's values share bytes between threads and go
// value by value with atomic and/or on the byte's word. ptxas accepts it.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry quantize_i4_kernel(
// CHECK-NOT: atom.
// CHECK: st.global.v2.b8
// CHECK-NOT: atom.
// CHECK: ret;
func.func @quantize_i4(%x: tensor<64x64xf32>, %s: tensor<64x2xf32>, %out: memref<64x64xi4>) {
  %y = quant_affine.quantize %x, %s range [-8, 7] block [1, 32] : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x64xi4>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xi4>, memref<64x64xi4>) -> ()
  return
}

// CHECK-LABEL: .entry dequantize_i4_kernel(
// CHECK-NOT: atom.
// CHECK: ld.global.v2.b8
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @dequantize_i4(%q: tensor<64x64xi4>, %s: tensor<64x2xf32>, %out: memref<64x64xf32>) {
  %y = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<64x64xi4>, tensor<64x2xf32>) -> tensor<64x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  return
}

// CHECK-LABEL: .entry quantize_i2_kernel(
// CHECK-NOT: atom.
// CHECK: st.global.b8
// CHECK-NOT: atom.
// CHECK: ret;
func.func @quantize_i2(%x: tensor<64x64xf32>, %s: tensor<64x1xf32>, %out: memref<64x64xi2>) {
  %y = quant_affine.quantize %x, %s range [-2, 1] : (tensor<64x64xf32>, tensor<64x1xf32>) -> tensor<64x64xi2>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xi2>, memref<64x64xi2>) -> ()
  return
}

// CHECK-LABEL: .entry dequantize_u2_kernel(
// CHECK-NOT: atom.
// CHECK: ld.global.b8
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @dequantize_u2(%q: tensor<64x64xi2>, %s: tensor<64x64xf32>, %out: memref<64x64xf32>) {
  %y = quant_affine.dequantize %q, %s range [0, 3] : (tensor<64x64xi2>, tensor<64x64xf32>) -> tensor<64x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  return
}

// Rows of 5 i4 values: row 1 starts in the upper half of byte 2.
// CHECK-LABEL: .entry odd_rows_kernel(
// CHECK: atom.global.and.b32
// CHECK: atom.global.or.b32
// CHECK: ret;
func.func @odd_rows(%x: tensor<5x5xf32>, %s: tensor<f32>, %out: memref<5x5xi4>) {
  %y = quant_affine.quantize %x, %s range [-8, 7] : (tensor<5x5xf32>, tensor<f32>) -> tensor<5x5xi4>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<5x5xi4>, memref<5x5xi4>) -> ()
  return
}
