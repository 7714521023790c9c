// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s
// block_scale round-trips in its custom and generic forms: every rule, every
// element format, every scale type.

// CHECK-LABEL: func @forms
func.func @forms(%x: tensor<4x64xf32>, %h: tensor<?x32xbf16>, %t: tensor<f32>) {
  // CHECK: quant_affine.block_scale %{{.*}} element f4E2M1FN rounding "floor" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  %0 = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  // CHECK: element f6E2M3FN rounding "rceil"
  %1 = quant_affine.block_scale %x element f6E2M3FN rounding "rceil" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  // CHECK: element f6E3M2FN rounding "ceil"
  %2 = quant_affine.block_scale %x element f6E3M2FN rounding "ceil" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  // CHECK: element f8E4M3FN rounding "even" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf32>
  %3 = quant_affine.block_scale %x element f8E4M3FN rounding "even" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf32>
  // CHECK: element i8 rounding "nearest" block [1, -1]
  %4 = quant_affine.block_scale %x element i8 rounding "nearest" block [1, -1] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  // FP8 blocks: amax / 448 in f32; dynamic rows.
  // CHECK: element f8E4M3FN block [1, 32] : (tensor<?x32xbf16>) -> tensor<?x1xf32>
  %5 = quant_affine.block_scale %h element f8E4M3FN block [1, 32] : (tensor<?x32xbf16>) -> tensor<?x1xf32>
  // NVFP4, one- and two-level.
  // CHECK: element f4E2M1FN block [1, 16] : (tensor<4x64xf32>) -> tensor<4x4xf8E4M3FN>
  %6 = quant_affine.block_scale %x element f4E2M1FN block [1, 16] : (tensor<4x64xf32>) -> tensor<4x4xf8E4M3FN>
  // CHECK: quant_affine.block_scale %{{.*}}, %{{.*}} element f4E2M1FN block [1, 16] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x4xf8E4M3FN>
  %7 = quant_affine.block_scale %x, %t element f4E2M1FN block [1, 16] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x4xf8E4M3FN>
  // CHECK: element f8E5M2 block [4, 64] : (tensor<4x64xf32>) -> tensor<1x1xf16>
  %8 = quant_affine.block_scale %x element f8E5M2 block [4, 64] : (tensor<4x64xf32>) -> tensor<1x1xf16>
  return
}
