// compute_encoding through the GPU pipeline: two kernels, the reduction of
// each encoding's elements to their minimum and maximum (NaN-propagating
// min.NaN/max.NaN, one thread per encoding, its block in its loop) and the
// epilogue, whose divisions are IEEE (div.rn, never approximate). ptxas
// accepts it. Not yet run on a GPU (none was available).
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .entry
// CHECK-DAG: ld.global
// CHECK-DAG: min.NaN.f32
// CHECK-DAG: max.NaN.f32
// CHECK: .entry
// CHECK-NOT: div.approx
// CHECK: div.rn.f32
// CHECK-NOT: div.approx
// CHECK: cvt.rni.f32.f32
func.func @per_block(%x: tensor<4x64xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] block [1, 32] : tensor<4x64xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %s, %o : tensor<4x2xf32>, tensor<4x2xf32>
}
