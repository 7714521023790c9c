// RUN: quant-affine-opt %s --quant-affine-prepare-tensor-destinations | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-prepare-tensor-destinations \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN: | FileCheck %s --check-prefix=BUF
// RUN: not quant-affine-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" 2>&1 \
// RUN: | FileCheck %s --check-prefix=WITHOUT

// Tensor destinations of materialize_in_destination are renamed by a
// same-type tensor.cast right after their definition, so that One-Shot
// Analysis sees an OpResult equivalent to the destination.
// CHECK-LABEL: func.func @renamed
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>, %[[DEST:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[DEST]] : tensor<16xf32> to tensor<16xf32>
// CHECK: %[[Y:.*]] = tensor.insert %{{.*}} into %[[X]]
// CHECK-NEXT: %[[M:.*]] = bufferization.materialize_in_destination %[[Y]] in %[[CAST]]
// CHECK-NEXT: return %[[M]]

// BUF-LABEL: func.func @renamed
// BUF-SAME: (%[[X:.*]]: memref<16xf32>, %[[DEST:.*]]: memref<16xf32>) -> memref<16xf32>
// BUF: memref.copy %[[X]], %[[DEST]]
// BUF: return %[[DEST]]
func.func @renamed(%x: tensor<16xf32>, %d: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %y = tensor.insert %f into %x[%c0] : tensor<16xf32>
  %m = bufferization.materialize_in_destination %y in %d : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %m : tensor<16xf32>
}

// The destination's old value is read after the write: no in-place write
// is possible, so the result is the source itself (in a buffer of its own)
// and the destination is left as it was.
// CHECK-LABEL: func.func @conflict
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>, %[[DEST:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[DEST]]
// CHECK-NOT: materialize_in_destination
// CHECK: %[[V:.*]] = tensor.extract %[[CAST]]
// CHECK-NEXT: return %[[X]], %[[V]]

// BUF-LABEL: func.func @conflict
// BUF-SAME: (%[[X:.*]]: memref<16xf32>, %[[DEST:.*]]: memref<16xf32>)
// BUF-NOT: memref.copy
// BUF: %[[V:.*]] = memref.load %[[DEST]]
// BUF-NEXT: return %[[X]], %[[V]]

// WITHOUT: error: 'bufferization.materialize_in_destination' op not bufferizable under the given constraints: cannot avoid RaW conflict
func.func @conflict(%x: tensor<16xf32>, %d: tensor<16xf32>) -> (tensor<16xf32>, f32) {
  %c0 = arith.constant 0 : index
  %m = bufferization.materialize_in_destination %x in %d : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %v = tensor.extract %d[%c0] : tensor<16xf32>
  return %m, %v : tensor<16xf32>, f32
}

// Buffer destinations are not this pass's business.
// CHECK-LABEL: func.func @buffer
// CHECK-NOT: tensor.cast
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %{{.*}} : (tensor<16xf32>, memref<16xf32>) -> ()
func.func @buffer(%x: tensor<16xf32>, %out: memref<16xf32>) {
  bufferization.materialize_in_destination %x in restrict writable %out : (tensor<16xf32>, memref<16xf32>) -> ()
  return
}
