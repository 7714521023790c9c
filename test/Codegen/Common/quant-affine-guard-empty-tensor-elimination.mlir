// RUN: quant-affine-opt %s --quant-affine-guard-empty-tensor-elimination | FileCheck %s

// A chain whose values are used only by the chain keeps its tensor.empty, so
// eliminate-empty-tensors can compute it in the destination.
// CHECK-LABEL: func.func @single_use
// CHECK: tensor.empty
// CHECK-NOT: alloc_tensor
func.func @single_use(%x: tensor<4xf32>, %out: memref<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// A value on the chain that is also returned: its root becomes an
// alloc_tensor, which the elimination leaves alone.
// CHECK-LABEL: func.func @shared
// CHECK-NOT: tensor.empty
// CHECK: bufferization.alloc_tensor() : tensor<4xf32>
func.func @shared(%x: tensor<4xf32>, %out: memref<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %i = tensor.insert %v into %y[%c0] : tensor<4xf32>
  bufferization.materialize_in_destination %i in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return %y : tensor<4xf32>
}

// Through a call (the callee may return its argument): conservatively the
// same.
// CHECK-LABEL: func.func @through_call
// CHECK-NOT: tensor.empty
// CHECK: bufferization.alloc_tensor() : tensor<4xf32>
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @through_call(%x: tensor<4xf32>, %out: memref<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c = func.call @callee(%y) : (tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return %y : tensor<4xf32>
}

// Through the branches of an scf.if: the value it yields in one branch is
// also returned (progtest seed 20261124 program 224).
// CHECK-LABEL: func.func @through_if
// CHECK-NOT: tensor.empty
// CHECK: bufferization.alloc_tensor() : tensor<4xf32>
func.func @through_if(%x: tensor<4xf32>, %c: i1, %out: memref<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %y : tensor<4xf32>
  } else {
    %s = math.sin %y : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return %y : tensor<4xf32>
}
