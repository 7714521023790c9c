// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --split-input-file | FileCheck %s
// Every result verifies after the pipelines' first canonicalization too.
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg="runtime-checks=true" -canonicalize --split-input-file -o /dev/null

// Each input dim is static or dynamic, each scale dim too, and a block is
// static, -1 or absent. A tensor.expand_shape group is static exactly when
// the input dim it splits is, so where the encoding fixes a size the types
// leave dynamic, the operand is cast to it. (test/Integration/CPU/
// Inputs/shape_matrix.py runs all combinations; these are representatives.)

// Dynamic input, static block and scale: the input must be 4 x 3 = 12.
// CHECK-LABEL: func.func @dynamic_input_static_block
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>, %[[S:.*]]: tensor<3xf32>)
// CHECK: %[[C:.*]] = tensor.cast %[[X]] : tensor<?xf32> to tensor<12xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
// CHECK: %[[G:.*]] = linalg.generic
// CHECK-SAME: ins(%[[E]], %[[S]] : tensor<3x4xf32>, tensor<3xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1]] : tensor<3x4xf32> into tensor<12xf32>
// CHECK: %[[D:.*]] = tensor.cast %[[R]] : tensor<12xf32> to tensor<?xf32>
// CHECK: return %[[D]]
func.func @dynamic_input_static_block(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// Static input, static block, dynamic scale and offset: they must be 12 / 4.
// CHECK-LABEL: func.func @static_input_dynamic_scale
// CHECK-SAME: (%[[X:.*]]: tensor<2x12xf32>, %[[S:.*]]: tensor<?xf32>, %[[O:.*]]: tensor<?xf32>)
// CHECK-DAG: %[[SC:.*]] = tensor.cast %[[S]] : tensor<?xf32> to tensor<3xf32>
// CHECK-DAG: %[[OC:.*]] = tensor.cast %[[O]] : tensor<?xf32> to tensor<3xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[E]], %[[SC]], %[[OC]] : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: tensor.collapse_shape
// CHECK-NOT: tensor.cast
// CHECK: return
func.func @static_input_dynamic_scale(%x: tensor<2x12xf32>, %s: tensor<?xf32>, %o: tensor<?xf32>) -> tensor<2x12xf32> {
  %y = quant_affine.qdq %x, %s, %o range [0, 255] block [4] : (tensor<2x12xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<2x12xf32>
  return %y : tensor<2x12xf32>
}

// -----

// Both dynamic with a static block: the count is dynamic, nothing is cast.
// CHECK-LABEL: func.func @dynamic_both_static_block
// CHECK-NOT: tensor.cast
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%{{.*}}, 4] : tensor<?xf32> into tensor<?x4xf32>
// CHECK-NOT: tensor.cast
// CHECK: return
func.func @dynamic_both_static_block(%x: tensor<?xf32>, %s: tensor<?xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A -1 block over a dynamic input with a static scale: the block size is
// dynamic, the count static; nothing is cast.
// CHECK-LABEL: func.func @wildcard_dynamic_input
// CHECK-NOT: tensor.cast
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, %{{.*}}] : tensor<?xf32> into tensor<3x?xf32>
// CHECK-NOT: tensor.cast
// CHECK: return
func.func @wildcard_dynamic_input(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [-1] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A -1 block over a static input with a dynamic scale: neither the count nor
// the block size is known, so the scale is gathered at j / (12 / s).
// CHECK-LABEL: func.func @wildcard_dynamic_scale
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: tensor.extract
func.func @wildcard_dynamic_scale(%x: tensor<12xf32>, %s: tensor<?xf32>) -> tensor<12xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [-1] : (tensor<12xf32>, tensor<?xf32>) -> tensor<12xf32>
  return %y : tensor<12xf32>
}

// -----

// Dynamic dims that are not split are left alone: per element, broadcast and
// leading dims.
// CHECK-LABEL: func.func @unsplit_dims
// CHECK-NOT: tensor.cast
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic
// CHECK-NOT: tensor.cast
// CHECK: return
func.func @unsplit_dims(%x: tensor<?x?xf32>, %s: tensor<1x8xf32>) -> tensor<?x?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<?x?xf32>, tensor<1x8xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// A static 0 anywhere: no elements, no generic (and no block to split: a
// -1 block over 0 elements with a 0-sized scale has no size).
// CHECK-LABEL: func.func @empty
// CHECK-NOT: linalg.generic
// CHECK: %[[A:.*]] = tensor.empty() : tensor<0xi8>
// CHECK: %[[B:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: %[[BD:.*]] = tensor.cast %[[B]] : tensor<0xf32> to tensor<?xf32>
// CHECK: return %[[A]], %[[BD]]
func.func @empty(%x: tensor<0xf32>, %s: tensor<0xf32>, %xd: tensor<?xf32>) -> (tensor<0xi8>, tensor<?xf32>) {
  %q = quant_affine.quantize %x, %s range [-128, 127] block [-1] : (tensor<0xf32>, tensor<0xf32>) -> tensor<0xi8>
  %y = quant_affine.qdq %xd, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<0xf32>) -> tensor<?xf32>
  return %q, %y : tensor<0xi8>, tensor<?xf32>
}
