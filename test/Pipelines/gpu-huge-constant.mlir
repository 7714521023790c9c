// A constant too large for a device module (2^60 bytes, folded from a splat)
// is one error at the op that needs it, not LLVM running out of memory in
// gpu-module-to-binary (it did: "LLVM ERROR: out of memory").
// REQUIRES: libdevice
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" 2>&1 | FileCheck %s
// CHECK: gpu-huge-constant.mlir:[[# @LINE + 6]]:8: error: device code would hold a copy of @__constant_1152921504606846976xi8 of 1152921504606846976 bytes, more than the 2^32 bytes the GPU pipeline puts into a device module
// CHECK-NOT: error
// CHECK-NOT: see current operation
func.func @huge_splat() -> tensor<1152921504606846976xi8> {
  %x = arith.constant dense<1.0> : tensor<1152921504606846976xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<1152921504606846976xf32>, tensor<f32>) -> tensor<1152921504606846976xi8>
  return %q : tensor<1152921504606846976xi8>
}
