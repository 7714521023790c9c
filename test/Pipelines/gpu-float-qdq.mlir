// float_qdq through the GPU pipeline. Without maxval one kernel: the clamp,
// the exponent field of the bits (and.b32 with 0x7F800000, raised to the
// format's smallest binade), the shifter S built from it (an integer add),
// (c + S) - S in round-to-nearest additions that PTX never contracts
// (add.rn, sub.rn) and c's sign bit or'ed back; no cvt.rni, no log2 or exp2
// of data values (no lg2/ex2 at all). With a maxval, a first kernel derives
// k from each maxval element (libdevice's f64 log2 and exp2, inlined:
// fma.rn.f64 chains) and the data kernel divides by it with IEEE division
// (div.rn), then rounds the same way (unsigned_zero: no sign bit or'ed).
// ptxas accepts the object. Run on an H100 and an H200 by
// test/Integration/GPU/float-qdq.mlir.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s
// RUN: %if ptxas %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-NOT: lg2
// CHECK-NOT: ex2
// CHECK: .entry fp8_kernel
// CHECK-NOT: cvt.rni
// CHECK: and.b32 [[FIELD:%r[0-9]+]], [[C:%r[0-9]+]], 2139095040;
// CHECK: max.u32 [[RAISED:%r[0-9]+]], [[FIELD]], 1015021568;
// CHECK: add.s32 [[S:%r[0-9]+]], [[RAISED]], 171966464;
// CHECK: add.rn.f32 [[SUM:%r[0-9]+]], [[C]], [[S]];
// CHECK: sub.rn.f32 [[R:%r[0-9]+]], [[SUM]], [[S]];
// CHECK: and.b32 [[SIGN:%r[0-9]+]], [[C]], -2147483648;
// CHECK: or.b32 {{%r[0-9]+}}, [[SIGN]], [[R]];
// CHECK: .entry maxval_kernel
// CHECK: fma.rn.f64
// CHECK: .entry maxval_kernel
// CHECK-NOT: cvt.rni
// CHECK: div.rn.f32
// CHECK: add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 180355072;
// CHECK: add.rn.f32
// CHECK: sub.rn.f32
// CHECK-NOT: or.b32 {{.*}}-2147483648
// CHECK-NOT: cvt.rni
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
