// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-when-present{ops=arith.addi,linalg pipeline=func.func(canonicalize)}))' \
// RUN:   | FileCheck %s

// The pipeline runs where a named op is: the muli folds with the addi.
// CHECK-LABEL: func.func @named_op
// CHECK-NEXT: %[[C:.*]] = arith.constant 12 : i32
// CHECK-NEXT: return %[[C]]
func.func @named_op() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 4 : i32
  %s = arith.addi %a, %b : i32
  %p = arith.muli %s, %a : i32
  return %p : i32
}

// -----

// And where an op of a named dialect is (anywhere in the function).
// CHECK-LABEL: func.func @named_dialect
// CHECK-NOT: arith.muli
// CHECK: linalg.fill
func.func @named_dialect(%t: tensor<4xi32>) -> (i32, tensor<4xi32>) {
  %a = arith.constant 2 : i32
  %p = arith.muli %a, %a : i32
  %f = linalg.fill ins(%p : i32) outs(%t : tensor<4xi32>) -> tensor<4xi32>
  return %p, %f : i32, tensor<4xi32>
}

// -----

// Nowhere else: the function is left as it is, its muli unfolded.
// CHECK-LABEL: func.func @absent
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: arith.muli
func.func @absent() -> i32 {
  %a = arith.constant 2 : i32
  %p = arith.muli %a, %a : i32
  return %p : i32
}
