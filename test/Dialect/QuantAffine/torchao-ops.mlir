// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s
// torchao's properties round-trip in the custom and generic forms.

// CHECK-LABEL: func @forms
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] reciprocal block [1, 8] compute f32
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-8, 7] reciprocal :
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 15] float_zero_point :
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 15] float_zero_point :
func.func @forms(%x: tensor<2x8xf32>, %s: tensor<2x1xf32>, %o: tensor<2x1xf32>, %b: bf16, %bs: bf16)
    -> (tensor<2x8xi8>, bf16, tensor<2x8xi8>, tensor<2x8xf32>) {
  %a = quant_affine.quantize %x, %s, %o range [0, 255] reciprocal block [1, 8] compute f32 : (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x8xi8>
  %c = quant_affine.qdq %b, %bs range [-8, 7] reciprocal : (bf16, bf16) -> bf16
  %d = quant_affine.quantize %x, %s, %o range [0, 15] float_zero_point : (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x8xi8>
  %e = quant_affine.dequantize %d, %s, %o range [0, 15] float_zero_point : (tensor<2x8xi8>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %a, %c, %d, %e : tensor<2x8xi8>, bf16, tensor<2x8xi8>, tensor<2x8xf32>
}
