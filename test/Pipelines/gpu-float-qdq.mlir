// float_qdq through the GPU pipeline. Without maxval one kernel: the clamp,
// the exponent field of the bits (and.b32 with 0x7F800000, clamped to the
// format's binades), the powers of two built from it, cvt.rni and two
// multiplications; no log2 or exp2 of data values (no lg2/ex2 at all).
// With a maxval, a first kernel derives k from each maxval element
// (libdevice's f64 log2 and exp2, inlined: fma.rn.f64 chains) and the data
// kernel divides by it with IEEE division (div.rn). ptxas accepts the
// first object. Not yet run on a GPU (none was available).
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-NOT: lg2
// CHECK-NOT: ex2
// CHECK: .entry fp8_kernel
// CHECK-DAG: and.b32 {{.*}}, 2139095040;
// CHECK-DAG: min.{{[su]}}32
// CHECK-DAG: cvt.rni.f32.f32
// CHECK-DAG: mul.rn.f32
// CHECK: .entry maxval_kernel
// CHECK: fma.rn.f64
// CHECK: .entry maxval_kernel
// CHECK: div.rn.f32
// CHECK: cvt.rni.f32.f32
// CHECK-NOT: lg2
// CHECK-NOT: ex2
func.func @fp8(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

func.func @maxval(%x: tensor<16x64xbf16>, %m: tensor<16x2xf32>) -> tensor<16x64xbf16> {
  %y = quant_affine.float_qdq %x, %m format [5, 2] finite unsigned_zero block [1, 32]
      : (tensor<16x64xbf16>, tensor<16x2xf32>) -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}
