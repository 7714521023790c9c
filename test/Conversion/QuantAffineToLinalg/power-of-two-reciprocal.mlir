// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --split-input-file | FileCheck %s
// Quantizing by a scale that is a power of two with an exact reciprocal
// multiplies by 1 / s, computed from the scale (once per block after
// vectorization): x * 2^-k and x / 2^k are the same number rounded once
// (PowerOfTwoScales.h; Integration/CPU/e8m0-reciprocal.test checks every E8M0
// scale against division). Other scales divide.

// E8M0's value, block_scale's power-of-two f32, constant powers of two.
// CHECK-LABEL: func.func @multiplies
// CHECK-COUNT-4: arith.divf %cst{{.*}}, %in
// CHECK-NOT: arith.divf %in, %in
// CHECK: return
func.func @multiplies(%x: tensor<4x64xf32>, %e: tensor<4x2xf8E8M0FNU>) -> (tensor<4x64xf8E4M3FN>, tensor<4x64xf32>, tensor<4x64xi8>, tensor<4x64xf4E2M1FN>) {
  %s = arith.extf %e : tensor<4x2xf8E8M0FNU> to tensor<4x2xf32>
  %q = quant_affine.quantize %x, %s range [-448, 448] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf8E4M3FN>
  %p = quant_affine.block_scale %x element f4E2M1FN rounding "rceil" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf32>
  %y = quant_affine.qdq %x, %p range [-6, 6] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  %c = arith.constant dense<[[0.5, 2.0], [0.25, -4.0], [1.0, 8.0], [0.125, 1.17549435E-38]]> : tensor<4x2xf32>
  %i = quant_affine.quantize %x, %c range [-128, 127] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi8>
  %f = quant_affine.quantize %x, %s range [-6, 6] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf4E2M1FN>
  return %q, %y, %i, %f : tensor<4x64xf8E4M3FN>, tensor<4x64xf32>, tensor<4x64xi8>, tensor<4x64xf4E2M1FN>
}

// -----

// An f32 argument, FP8 blocks' amax / 448, a constant with 0.75, and
// torchao's float zero point: division as written.
// CHECK-LABEL: func.func @divides
// CHECK-COUNT-4: arith.divf %{{.*}}, %in
// CHECK-NOT: arith.divf %cst
// CHECK: return
func.func @divides(%x: tensor<4x64xf32>, %a: tensor<4x2xf32>) -> (tensor<4x64xi8>, tensor<4x64xf8E4M3FN>, tensor<4x64xi8>, tensor<4x64xi8>) {
  %q = quant_affine.quantize %x, %a range [-128, 127] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi8>
  %d = quant_affine.block_scale %x element f8E4M3FN block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf32>
  %f = quant_affine.quantize %x, %d range [-448, 448] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf8E4M3FN>
  %c = arith.constant dense<[[0.5, 2.0], [0.25, -4.0], [1.0, 8.0], [0.125, 0.75]]> : tensor<4x2xf32>
  %i = quant_affine.quantize %x, %c range [-128, 127] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi8>
  %z = arith.constant dense<0.0> : tensor<4x2xf32>
  %t = quant_affine.quantize %x, %a, %z range [0, 255] float_zero_point block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi8>
  return %q, %f, %i, %t : tensor<4x64xi8>, tensor<4x64xf8E4M3FN>, tensor<4x64xi8>, tensor<4x64xi8>
}
