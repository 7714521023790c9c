// Dequantize fused into a matmul on the GPU (docs/FusedMatmul.md): two
// kernels, the fill of the result with zeros and the sum, whose threads read
// the packed int4 codes as bytes and dequantize them in registers; no kernel
// writes a dequantized weight.
// This is the plain mapping (one thread per result, the reduction in its
// loop): correct, not yet tiled for the GPU's memory system. ptxas accepts it.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .entry decode_int4_kernel(
// CHECK-NOT: ld.global
// CHECK: st.global.b32 {{.*}}, 0;
// CHECK: .entry decode_int4_kernel(
// CHECK: ld.global.b8
// CHECK: cvt.rn.f32.s16
// CHECK: mul.rn.f32
// CHECK: add.rn.f32
// CHECK-NOT: .entry
func.func @decode_int4(%x: tensor<1x512xf32>, %q: tensor<256x512xi4>, %s: tensor<256x16xf32>, %out: memref<1x256xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<256x512xi4>, tensor<256x16xf32>) -> tensor<256x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x512xf32>, tensor<256x512xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<1x256xf32>, memref<1x256xf32>) -> ()
  return
}
