// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s
// float_qdq round-trips in its custom and generic forms.

// CHECK-LABEL: func @forms
func.func @forms(%x: tensor<8x64xf32>, %m: tensor<8x2xf32>, %s: bf16, %v: vector<4xf16>, %vm: vector<4xf16>, %d: tensor<?x16xf64>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, bf16, vector<4xf16>, tensor<?x16xf64>) {
  // CHECK: quant_affine.float_qdq %{{.*}} format [4, 3] finite : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %a = quant_affine.float_qdq %x format [4, 3] finite : (tensor<8x64xf32>) -> tensor<8x64xf32>
  // CHECK: quant_affine.float_qdq %{{.*}}, %{{.*}} format [5, 2] finite unsigned_zero block [1, 32] : (tensor<8x64xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  %b = quant_affine.float_qdq %x, %m format [5, 2] finite unsigned_zero block [1, 32] : (tensor<8x64xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  // CHECK: quant_affine.float_qdq %{{.*}} format [3, 2] : (bf16) -> bf16
  %c = quant_affine.float_qdq %s format [3, 2] : (bf16) -> bf16
  // CHECK: quant_affine.float_qdq %{{.*}}, %{{.*}} format [4, 3] finite unsigned_zero : (vector<4xf16>, vector<4xf16>) -> vector<4xf16>
  %e = quant_affine.float_qdq %v, %vm format [4, 3] finite unsigned_zero : (vector<4xf16>, vector<4xf16>) -> vector<4xf16>
  // E = 11 fits f64 when M keeps the smallest quantum normal: not here, but
  // (10, 40) does.
  // CHECK: quant_affine.float_qdq %{{.*}} format [10, 40] : (tensor<?x16xf64>) -> tensor<?x16xf64>
  %f = quant_affine.float_qdq %d format [10, 40] : (tensor<?x16xf64>) -> tensor<?x16xf64>
  return %a, %b, %c, %e, %f : tensor<8x64xf32>, tensor<8x64xf32>, bf16, vector<4xf16>, tensor<?x16xf64>
}
