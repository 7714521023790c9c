// Sizes that cannot fit, where the op's types say `?` and a producer knows
// better: an error at the op that names the sizes, and the pass fails. Also
// with runtime-checks (the program would always fail that check), and through
// both pipelines: exactly these errors, no others.
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg="runtime-checks=true" --split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline --split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s -canonicalize --quant-affine-cpu-pipeline="runtime-checks=true openmp=true" --split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa runtime-checks=true" --split-input-file -verify-diagnostics
// As a user sees it (the annotations taken out, one module): the driver
// fails with one error per op, and prints no IR.
// RUN: sed -e 's/expected-error/expected/' %s \
// RUN: | not quant-affine-opt --quant-affine-cpu-pipeline="runtime-checks=true" 2>&1 \
// RUN: | FileCheck %s --implicit-check-not=error: --implicit-check-not=func.func

// CHECK: <stdin>:[[# @LINE + 4]]:8: error: 'quant_affine.qdq' op input dim 0 has 8 elements but block_size 4 x scale dim 0 size 3 needs 12
func.func @hidden_by_cast(%x: tensor<8xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %xc = tensor.cast %x : tensor<8xf32> to tensor<?xf32>
  // expected-error @below {{'quant_affine.qdq' op input dim 0 has 8 elements but block_size 4 x scale dim 0 size 3 needs 12}}
  %y = quant_affine.qdq %xc, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// Whatever the dynamic scale size, blocks of 4 do not tile 10 elements.
// CHECK: <stdin>:[[# @LINE + 4]]:8: error: 'quant_affine.quantize' op input dim 1 has 10 elements, not a multiple of block_size 4
func.func @not_a_multiple(%x: tensor<2x10xf32>, %s: tensor<2x?xf32>) -> tensor<2x?xi8> {
  %xc = tensor.cast %x : tensor<2x10xf32> to tensor<2x?xf32>
  // expected-error @below {{input dim 1 has 10 elements, not a multiple of block_size 4}}
  %q = quant_affine.quantize %xc, %s range [-128, 127] block [1, 4] : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xi8>
  return %q : tensor<2x?xi8>
}

// -----

// CHECK: <stdin>:[[# @LINE + 5]]:8: error: 'quant_affine.qdq' op input dim 0 has 13 elements but block_size -1 needs a multiple of scale dim 0 size 3
func.func @wildcard(%x: tensor<13xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %xc = tensor.cast %x : tensor<13xf32> to tensor<?xf32>
  %sc = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  // expected-error @below {{input dim 0 has 13 elements but block_size -1 needs a multiple of scale dim 0 size 3}}
  %y = quant_affine.qdq %xc, %sc range [-128, 127] block [-1] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// CHECK: <stdin>:[[# @LINE + 5]]:8: error: 'quant_affine.dequantize' op scale dim 0 has 3 elements but needs 1 or input dim 1 size 5
func.func @broadcast(%q: tensor<4x5xi8>, %s: tensor<?xf32>) -> tensor<4x5xf32> {
  %sc = tensor.cast %s : tensor<?xf32> to tensor<3xf32>
  %sd = tensor.cast %sc : tensor<3xf32> to tensor<?xf32>
  // expected-error @below {{scale dim 0 has 3 elements but needs 1 or input dim 1 size 5}}
  %y = quant_affine.dequantize %q, %sd range [-128, 127] : (tensor<4x5xi8>, tensor<?xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// CHECK: <stdin>:[[# @LINE + 5]]:8: error: 'quant_affine.qdq' op offset dim 0 has 4 elements but needs scale dim 0 size 3
func.func @offset(%x: tensor<12xf32>, %s: tensor<3xf32>, %o: tensor<4xf32>) -> tensor<12xf32> {
  %sc = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  %oc = tensor.cast %o : tensor<4xf32> to tensor<?xf32>
  // expected-error @below {{offset dim 0 has 4 elements but needs scale dim 0 size 3}}
  %y = quant_affine.qdq %x, %sc, %oc range [-128, 127] block [4] : (tensor<12xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<12xf32>
  return %y : tensor<12xf32>
}

// -----

// Sizes known through another quant_affine op (its result has its input's
// shape): only the second op is wrong.
// CHECK: <stdin>:[[# @LINE + 5]]:8: error: 'quant_affine.qdq' op input dim 0 has 12 elements but block_size 4 x scale dim 0 size 2 needs 8
func.func @through_an_op(%x: tensor<12xf32>, %s: tensor<3xf32>, %t: tensor<2xf32>) -> tensor<?xf32> {
  %xc = tensor.cast %x : tensor<12xf32> to tensor<?xf32>
  %a = quant_affine.qdq %xc, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  // expected-error @below {{input dim 0 has 12 elements but block_size 4 x scale dim 0 size 2 needs 8}}
  %b = quant_affine.qdq %a, %t range [-128, 127] block [4] : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>
  return %b : tensor<?xf32>
}
