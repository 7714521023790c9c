// MXFP4 quantization (block_scale to E8M0, its value in f32 by arith.extf,
// then quantize and dequantize) through every pipeline: CPU code is vectorized, and the GPU
// pipeline makes PTX (no ptxas needed).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver3" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=CPU
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa" | FileCheck %s --check-prefix=GPU
// CPU: <8 x float>
// GPU: gpu.binary @kernels
// GPU-NOT: quant_affine.

func.func @mxfp4(%x: tensor<64x256xf32>) -> (tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<64x256xf32>) {
  %e = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [1, 32] : (tensor<64x256xf32>) -> tensor<64x8xf8E8M0FNU>
  %s = arith.extf %e : tensor<64x8xf8E8M0FNU> to tensor<64x8xf32>
  %q = quant_affine.quantize %x, %s range [-6, 6] block [1, 32] : (tensor<64x256xf32>, tensor<64x8xf32>) -> tensor<64x256xf4E2M1FN>
  %y = quant_affine.dequantize %q, %s range [-6, 6] block [1, 32] : (tensor<64x256xf4E2M1FN>, tensor<64x8xf32>) -> tensor<64x256xf32>
  return %q, %e, %y : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<64x256xf32>
}
