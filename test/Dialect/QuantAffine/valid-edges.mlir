// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s

// Valid IR at the edges of the verifier rules of issue 10 (invalid.mlir has
// the other side of each): it parses, verifies and round-trips.

// An explicit compute type must hold qmin and qmax exactly only when the
// result is an integer: a float result, a qdq and a dequantize may round them.
// CHECK-LABEL: func.func @compute_type_grid_ends
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}} range [-256, 256] compute bf16 : (tensor<8xf32>, tensor<f32>) -> tensor<8xi16>
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}} range [-32768, 32767] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-32768, 32767] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}} range [-32768, 32767] compute bf16 : (tensor<8xi16>, tensor<f32>) -> tensor<8xf32>
func.func @compute_type_grid_ends(%x: tensor<8xf32>, %b: tensor<8xbf16>, %q: tensor<8xi16>, %s: tensor<f32>) {
  %0 = quant_affine.quantize %x, %s range [-256, 256] compute bf16 : (tensor<8xf32>, tensor<f32>) -> tensor<8xi16>
  %1 = quant_affine.quantize %b, %s range [-32768, 32767] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
  %2 = quant_affine.qdq %b, %s range [-32768, 32767] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
  %3 = quant_affine.dequantize %q, %s range [-32768, 32767] compute bf16 : (tensor<8xi16>, tensor<f32>) -> tensor<8xf32>
  return
}

// Sizes at the int64 limits: a block whose product with the scale dim just
// fits, 2^61 - 1 f32 elements (just under 2^63 bytes), a dynamic scale dim
// whose block divides the static input dim.
// CHECK-LABEL: func.func @size_limits
// CHECK: block [4611686018427387904] : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
// CHECK: range [-8, 7] : (tensor<2305843009213693951xf32>, tensor<f32>) -> tensor<2305843009213693951xf32>
// CHECK: block [4] : (tensor<8xf32>, tensor<?xf32>) -> tensor<8xf32>
func.func @size_limits(%x: tensor<?xf32>, %s: tensor<1xf32>, %h: tensor<2305843009213693951xf32>, %t: tensor<f32>,
                       %e: tensor<8xf32>, %d: tensor<?xf32>) {
  %0 = quant_affine.qdq %x, %s range [-8, 7] block [4611686018427387904] : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %1 = quant_affine.qdq %h, %t range [-8, 7] : (tensor<2305843009213693951xf32>, tensor<f32>) -> tensor<2305843009213693951xf32>
  %2 = quant_affine.qdq %e, %d range [-8, 7] block [4] : (tensor<8xf32>, tensor<?xf32>) -> tensor<8xf32>
  return
}
