// RUN: quant-affine-opt %s --quant-affine-reshape-destinations --split-input-file | FileCheck %s

// A result computed in an expanded (blocked) shape and collapsed: the
// destination is expanded instead, right where it is defined, and the result
// materialized into it, so that empty-tensor elimination can later hand the
// computation the destination's buffer.

// CHECK-LABEL: func.func @tensor_destination
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x32xi8>, %[[DEST:.*]]: tensor<4x64xi8>)
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %[[DEST]] {{\[}}[0], [1, 2]] output_shape [4, 2, 32] : tensor<4x64xi8> into tensor<4x2x32xi8>
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[X]], %[[X]] : tensor<4x2x32xi8>
// CHECK-NEXT: %[[M:.*]] = bufferization.materialize_in_destination %[[R]] in %[[EXPANDED]] : (tensor<4x2x32xi8>, tensor<4x2x32xi8>) -> tensor<4x2x32xi8>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[M]] {{\[}}[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
// CHECK-NEXT: return %[[C]]
func.func @tensor_destination(%x: tensor<4x2x32xi8>, %dest: tensor<4x64xi8>) -> tensor<4x64xi8> {
  %r = arith.addi %x, %x : tensor<4x2x32xi8>
  %c = tensor.collapse_shape %r [[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
  %m = bufferization.materialize_in_destination %c in %dest : (tensor<4x64xi8>, tensor<4x64xi8>) -> tensor<4x64xi8>
  return %m : tensor<4x64xi8>
}

// -----

// A buffer destination: memref.expand_shape, and no collapse is left.
// CHECK-LABEL: func.func @buffer_destination
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x32xi8>, %[[OUT:.*]]: memref<4x64xi8>)
// CHECK-NEXT: %[[EXPANDED:.*]] = memref.expand_shape %[[OUT]] {{\[}}[0], [1, 2]] output_shape [4, 2, 32] : memref<4x64xi8> into memref<4x2x32xi8>
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[X]], %[[X]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[R]] in restrict writable %[[EXPANDED]] : (tensor<4x2x32xi8>, memref<4x2x32xi8>) -> ()
// CHECK-NOT: collapse_shape
// CHECK: return
func.func @buffer_destination(%x: tensor<4x2x32xi8>, %out: memref<4x64xi8>) {
  %r = arith.addi %x, %x : tensor<4x2x32xi8>
  %c = tensor.collapse_shape %r [[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4x64xi8>, memref<4x64xi8>) -> ()
  return
}

// -----

// Left alone: a dynamic shape, a strided buffer, a source that is not a
// collapse.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: expand_shape
// CHECK-COUNT-2: tensor.collapse_shape
// CHECK-NOT: expand_shape
// CHECK: return
func.func @unchanged(%x: tensor<?x2x32xi8>, %dest: tensor<?x64xi8>,
                     %y: tensor<4x2x32xi8>, %out: memref<4x64xi8, strided<[128, 1]>>,
                     %z: tensor<4x64xi8>, %dest2: tensor<4x64xi8>) -> (tensor<?x64xi8>, tensor<4x64xi8>) {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<?x2x32xi8> into tensor<?x64xi8>
  %m = bufferization.materialize_in_destination %c in %dest : (tensor<?x64xi8>, tensor<?x64xi8>) -> tensor<?x64xi8>
  %c2 = tensor.collapse_shape %y [[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
  bufferization.materialize_in_destination %c2 in restrict writable %out : (tensor<4x64xi8>, memref<4x64xi8, strided<[128, 1]>>) -> ()
  %m2 = bufferization.materialize_in_destination %z in %dest2 : (tensor<4x64xi8>, tensor<4x64xi8>) -> tensor<4x64xi8>
  return %m, %m2 : tensor<?x64xi8>, tensor<4x64xi8>
}
