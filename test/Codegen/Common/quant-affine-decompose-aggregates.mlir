// RUN: quant-affine-opt %s --quant-affine-decompose-aggregates | FileCheck %s

// linalg.softmax becomes upstream's decomposition: max, exp and sum as
// generics, then the division.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: return
func.func @softmax(%a: tensor<2x4xf32>, %d: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.softmax dimension(1) ins(%a : tensor<2x4xf32>) outs(%d : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// An input less static than the output (as canonicalization leaves it after
// inlining) is cast to the output's type first, so the decomposition's
// generics are typed like the result.
// CHECK-LABEL: func.func @softmax_mixed_static
// CHECK: %[[CAST:.*]] = tensor.cast %{{.*}} : tensor<?x?xf32> to tensor<4x6xf32>
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : tensor<4x6xf32>)
// CHECK: return %{{.*}} : tensor<4x6xf32>
func.func @softmax_mixed_static(%a: tensor<?x?xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<?x?xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
