// Float8 and float4 storage through the GPU pipeline: quantize to f8E4M3FN (the
// saturated encoding of quant-affine-expand-narrow-floats: a NaN lowered to
// 480 by min.u32, the binade at least the smallest normal's by max.u32, one
// add.rn.f32 of 2^(E + 20) + 152 ulps rounding normal and subnormal codes
// alike, the code the sum's bits plus themselves shifted right by 20; four
// codes stored as one 32-bit word) and dequantize
// from f8E5M2, one kernel each; ptxas accepts the first. Not yet run on a GPU
// (none was available).
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .entry quantize_kernel
// CHECK-DAG: div.rn.f32
// CHECK-DAG: min.u32 {{.*}}, 1139802112;
// CHECK-DAG: max.u32 {{.*}}, 1015021568;
// CHECK-DAG: add.s32 {{.*}}, 167772312;
// CHECK-DAG: add.rn.f32
// CHECK-DAG: shr.u32 {{.*}}, 20;
// CHECK-DAG: st.global
// CHECK: .entry dequantize_kernel
// CHECK-DAG: ld.global
// CHECK-DAG: mul.rn.f32
func.func @quantize(%x: tensor<8x64xf32>, %s: tensor<8x1xf32>) -> tensor<8x64xf8E4M3FN> {
  %q = quant_affine.quantize %x, %s range [-448, 448] : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf8E4M3FN>
  return %q : tensor<8x64xf8E4M3FN>
}

func.func @dequantize(%q: tensor<8x64xf8E5M2>, %s: tensor<8x1xf32>) -> tensor<8x64xf32> {
  %y = quant_affine.dequantize %q, %s range [-57344, 57344] : (tensor<8x64xf8E5M2>, tensor<8x1xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// f4E2M1FN packed two a byte on the device too (the same encoding: the
// binade at least 2^0, the smallest normal's; its quantum there, 2^-1, is the
// ulp of 2^22).
// CHECK: .entry quantize_f4_kernel
// CHECK-DAG: max.u32 {{.*}}, 1065353216;
// CHECK-DAG: add.s32 {{.*}}, 184549382;
// CHECK-DAG: add.rn.f32
// CHECK-DAG: shr.u32 {{.*}}, 22;
// CHECK-DAG: st.global
func.func @quantize_f4(%x: tensor<8x64xf32>, %s: tensor<8x1xf32>) -> tensor<8x64xf4E2M1FN> {
  %q = quant_affine.quantize %x, %s range [-6, 6] : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf4E2M1FN>
  return %q : tensor<8x64xf4E2M1FN>
}
