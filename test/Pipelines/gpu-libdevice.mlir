// Device code links libdevice only for the math it has no instruction for:
// rounding (every quantize) is PTX's cvt, and math.exp a call of __nv_expf,
// resolved by linking libdevice. Without libdevice, the error is at the op
// whose function needs it, not a dump of the device module. Math that
// libdevice has no function for (trunc of bf16) is LLVM's intrinsic, lowered
// in the device stage: the kernels are serialized before the host lowering.
// Bit counts on an n-D vector (a 4 x 2 tensor in one tile) count on it
// flattened: upstream's math conversion takes 1-D vectors only.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s --implicit-check-not=.extern --implicit-check-not=call
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%t.no-cuda" 2>&1 \
// RUN: | FileCheck %s --check-prefix=MISSING

// CHECK-LABEL: .entry exp_then_qdq_kernel(
// CHECK: ex2.approx
// CHECK: div.rn.f32
// CHECK: cvt.rni.f32.f32
// CHECK: ret;
// CHECK-LABEL: .entry trunc_bf16_kernel(
// CHECK-COUNT-4: cvt.rzi.bf16.bf16
// CHECK: ret;
// CHECK-LABEL: .entry ctlz_2d_kernel(
// CHECK: clz.b32
// CHECK: ret;

// MISSING: gpu-libdevice.mlir:[[# @LINE + 3]]:8: error: '__nv_expf' comes from libdevice, but {{.*}}no-cuda/nvvm/libdevice/libdevice.10.bc does not exist; point the pipeline's cuda-path option at a CUDA toolkit
// MISSING-NOT: see current operation
func.func @exp_then_qdq(%x: tensor<256xf32>, %s: tensor<f32>, %out: memref<256xf32>) {
  %e = math.exp %x : tensor<256xf32>
  %q = quant_affine.qdq %e, %s range [-128, 127] : (tensor<256xf32>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

func.func @trunc_bf16(%x: tensor<256xbf16>, %out: memref<256xbf16>) {
  %t = math.trunc %x : tensor<256xbf16>
  bufferization.materialize_in_destination %t in restrict writable %out : (tensor<256xbf16>, memref<256xbf16>) -> ()
  return
}

func.func @ctlz_2d(%x: tensor<4x2xi32>, %out: memref<4x2xi32>) {
  %c = math.ctlz %x : tensor<4x2xi32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4x2xi32>, memref<4x2xi32>) -> ()
  return
}
