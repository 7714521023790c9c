// RUN: quant-affine-opt %s -canonicalize -split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-fold-constants -split-input-file | FileCheck %s --check-prefix=PASS
// RUN: quant-affine-opt %s --quant-affine-fold-constants=max-elements=4 -split-input-file | FileCheck %s --check-prefix=MAX4
// RUN: not quant-affine-opt %s --quant-affine-fold-constants=max-elements=abc 2>&1 | FileCheck %s --check-prefix=BADOPT

// Size limits of constant folding. A splat input with a splat (or per-tensor)
// encoding folds to a splat in O(1), whatever its size and whatever the
// limits. Other results are materialized element by element: -canonicalize
// folds up to 65,536 elements, --quant-affine-fold-constants up to its
// max-elements, and neither ever tries 2^32 elements or more.

// BADOPT-NOT: error
// BADOPT: quant-affine-opt: for the --max-elements option: 'abc' value invalid
// BADOPT-NOT: error

// 2^60 elements: folded at once (folding element by element would never end).
// CHECK-LABEL: func.func @huge_splat
// CHECK: %[[C:.*]] = arith.constant dense<2> : tensor<1152921504606846976xi8>
// CHECK: return %[[C]]
// PASS-LABEL: func.func @huge_splat
// PASS: arith.constant dense<2> : tensor<1152921504606846976xi8>
// PASS-NOT: quant_affine
// MAX4-LABEL: func.func @huge_splat
// MAX4: arith.constant dense<2> : tensor<1152921504606846976xi8>
// MAX4-NOT: quant_affine
func.func @huge_splat() -> tensor<1152921504606846976xi8> {
  %x = arith.constant dense<1.0> : tensor<1152921504606846976xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<1152921504606846976xf32>, tensor<f32>) -> tensor<1152921504606846976xi8>
  return %q : tensor<1152921504606846976xi8>
}

// -----

// Splat scale and offset tensors of any shape, blocks included, and the
// APFloat path (bf16): still a splat.
// CHECK-LABEL: func.func @splat_blocks_bf16
// CHECK: arith.constant dense<1.000000e+00> : tensor<4096x4096xbf16>
// CHECK-NOT: quant_affine
// MAX4-LABEL: func.func @splat_blocks_bf16
// MAX4: arith.constant dense<1.000000e+00> : tensor<4096x4096xbf16>
func.func @splat_blocks_bf16() -> tensor<4096x4096xbf16> {
  %x = arith.constant dense<1.1> : tensor<4096x4096xbf16>
  %s = arith.constant dense<0.25> : tensor<4096x128xf32>
  %o = arith.constant dense<-3.0> : tensor<4096x128xf32>
  %y = quant_affine.qdq %x, %s, %o range [-8, 7] block [1, 32] : (tensor<4096x4096xbf16>, tensor<4096x128xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

// -----

// The vector form folds to a splat too.
// CHECK-LABEL: func.func @splat_vector
// CHECK: arith.constant dense<-1.000000e+00> : vector<16xf32>
// MAX4-LABEL: func.func @splat_vector
// MAX4: arith.constant dense<-1.000000e+00> : vector<16xf32>
func.func @splat_vector() -> vector<16xf32> {
  %x = arith.constant dense<0.625> : vector<16xf32>
  %s = arith.constant dense<0.25> : vector<16xf32>
  %o = arith.constant dense<3.0> : vector<16xf32>
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
  return %q : vector<16xf32>
}

// -----

// 2^32 elements that differ (one scale per row): never materialized, left
// alone without a crash, whatever max-elements says.
// CHECK-LABEL: func.func @too_large_to_materialize
// CHECK: quant_affine.quantize
// PASS-LABEL: func.func @too_large_to_materialize
// PASS: quant_affine.quantize
// MAX4-LABEL: func.func @too_large_to_materialize
// MAX4: quant_affine.quantize
func.func @too_large_to_materialize() -> tensor<2x2147483648xi8> {
  %x = arith.constant dense<1.0> : tensor<2x2147483648xf32>
  %s = arith.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<2x2147483648xf32>, tensor<2x1xf32>) -> tensor<2x2147483648xi8>
  return %q : tensor<2x2147483648xi8>
}

// -----

// max-elements bounds the results that are materialized: 8 > 4.
// CHECK-LABEL: func.func @over_max_elements
// CHECK: arith.constant dense<{{\[\[}}2, 2, 2, 2], [4, 4, 4, 4]]> : tensor<2x4xi8>
// PASS-LABEL: func.func @over_max_elements
// PASS: arith.constant dense<{{\[\[}}2, 2, 2, 2], [4, 4, 4, 4]]> : tensor<2x4xi8>
// MAX4-LABEL: func.func @over_max_elements
// MAX4: quant_affine.quantize
func.func @over_max_elements() -> tensor<2x4xi8> {
  %x = arith.constant dense<1.0> : tensor<2x4xf32>
  %s = arith.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xi8>
  return %q : tensor<2x4xi8>
}

// -----

// No elements: nothing to read, an empty constant.
// CHECK-LABEL: func.func @empty
// CHECK: arith.constant dense<> : tensor<0x4xi8>
// MAX4-LABEL: func.func @empty
// MAX4: arith.constant dense<> : tensor<0x4xi8>
func.func @empty() -> tensor<0x4xi8> {
  %x = arith.constant dense<> : tensor<0x4xf32>
  %s = arith.constant dense<> : tensor<0x1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<0x4xf32>, tensor<0x1xf32>) -> tensor<0x4xi8>
  return %q : tensor<0x4xi8>
}
