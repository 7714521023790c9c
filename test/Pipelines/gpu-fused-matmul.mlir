// Dequantize fused into a matmul on the GPU (docs/FusedMatmul.md): one kernel
// per matmul (the zero fill is folded into it), whose threads read the packed
// int4 codes and dequantize them in registers; no kernel writes a dequantized
// weight. ptxas accepts it.
// - @decode_int4 (32 blocks of 32 along K): a warp per 4 results
//   (quant-affine-reduction-loops, reduction-rows=4). Each lane reads 16
//   activations a step as vectors once for the 4 rows (4 ld.global.v4) and
//   16 codes of each row (one 8-byte ld.global.v2 each, and its scale); each
//   row's lane sums meet through 5 shuffles, and one store writes each result.
// - @decode_int4_short (16 blocks, which 32 lanes do not divide): a thread
//   per result whose sum stays in a register: the loop stores nothing, one
//   store follows it.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry decode_int4_kernel(
// CHECK: .maxntid 32, 8, 1
// CHECK-NOT: st.global
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT: ld.global.v4
// CHECK-COUNT-4: ld.global.v2.b32
// CHECK: cvt.rn.f32.s16
// CHECK: mul.rn.f32
// CHECK: add.rn.f32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: st.global.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: st.global.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: st.global.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: st.global.b32
// CHECK-NOT: shfl
// CHECK-NOT: st.global
// CHECK: ret;
func.func @decode_int4(%x: tensor<1x1024xf32>, %q: tensor<256x1024xi4>, %s: tensor<256x32xf32>, %out: memref<1x256xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<256x1024xi4>, tensor<256x32xf32>) -> tensor<256x1024xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x1024xf32>, tensor<256x1024xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<1x256xf32>, memref<1x256xf32>) -> ()
  return
}

// CHECK-LABEL: .entry decode_int4_short_kernel(
// CHECK-NOT: st.global
// CHECK: ld.global.b8
// CHECK: cvt.rn.f32.s16
// CHECK: add.rn.f32
// CHECK-NOT: st.global
// CHECK: bra
// CHECK: st.global.b32
// CHECK-NOT: st.global
// CHECK: ret;
func.func @decode_int4_short(%x: tensor<1x512xf32>, %q: tensor<256x512xi4>, %s: tensor<256x16xf32>, %out: memref<1x256xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<256x512xi4>, tensor<256x16xf32>) -> tensor<256x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x512xf32>, tensor<256x512xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<1x256xf32>, memref<1x256xf32>) -> ()
  return
}
