// Quantize to i1 on the GPU. LLVM's NVPTX back end selects fptosi/fptoui to
// i1 as "the float's bits are zero" (setp.eq.b32 on the bits), the opposite
// truth: an H100 printed -1 where the reference has 0. Our lowering converts
// to i8 and truncates instead, so the PTX converts with cvt.rzi and keeps
// the low bit.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry to_i1_kernel(
// CHECK-NOT: setp.eq.b32
// CHECK: cvt.rzi.s16.f32
// CHECK-NOT: setp.eq.b32
// CHECK: and.b64 {{.*}}, 1;
// CHECK-NOT: setp.eq.b32
// CHECK: ret;
func.func @to_i1(%x: tensor<4x16xf32>, %s: tensor<4x1xf32>, %o: tensor<4x1xf32>, %out: memref<4x16xi64>) {
  %y = quant_affine.quantize %x, %s, %o range [-1, 0] : (tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x16xi1>
  %w = arith.extsi %y : tensor<4x16xi1> to tensor<4x16xi64>
  bufferization.materialize_in_destination %w in restrict writable %out : (tensor<4x16xi64>, memref<4x16xi64>) -> ()
  return
}
