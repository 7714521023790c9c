// torchao's conventions through the GPU pipeline: quantize with
// `reciprocal` multiplies (the reciprocal of each scale is rcp.rn, the
// correctly rounded 1 / s, never rcp.approx), and dequantize with
// `float_zero_point` subtracts the midpoint 8 (an add of -8), multiplies and
// adds the zero point. ptxas accepts the first kernel. Not yet run on a GPU (none was available).
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-NOT: rcp.approx
// CHECK-NOT: div.approx
// CHECK: .entry quantize_kernel
// CHECK-DAG: rcp.rn.f32
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: cvt.rni.f32.f32
// CHECK: .entry dequantize_kernel
// CHECK-DAG: add.rn.f32 {{.*}}, 0fC1000000;
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: add.rn.f32
func.func @quantize(%x: tensor<8x64xf32>, %s: tensor<8x1xf32>, %o: tensor<8x1xf32>) -> tensor<8x64xi8> {
  %q = quant_affine.quantize %x, %s, %o range [0, 255] reciprocal : (tensor<8x64xf32>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x64xi8>
  return %q : tensor<8x64xi8>
}

func.func @dequantize(%q: tensor<8x64xi8>, %s: tensor<8x2xf32>, %z: tensor<8x2xf32>) -> tensor<8x64xf32> {
  %y = quant_affine.dequantize %q, %s, %z range [0, 15] float_zero_point block [1, 32] : (tensor<8x64xi8>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
