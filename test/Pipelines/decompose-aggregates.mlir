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
