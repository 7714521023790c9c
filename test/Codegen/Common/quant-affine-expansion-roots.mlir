// RUN: quant-affine-opt %s --split-input-file --quant-affine-expand-narrow-floats | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file --quant-affine-expand-bf16 | FileCheck %s --check-prefix=BF16

// The expansions run the whole-function greedy driver (which also folds
// every op) only where something may expand: a function of f32 divisions
// and f16 conversions is left exactly as it is, unfolded constants
// included.
// CHECK-LABEL: func.func @nothing_to_expand(
// CHECK: arith.addi
// CHECK: arith.divf
// CHECK: arith.extf
// BF16-LABEL: func.func @nothing_to_expand(
// BF16: arith.addi
// BF16: arith.extf
func.func @nothing_to_expand(%x: f32, %h: f16) -> (i32, f32, f32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %sum = arith.addi %c1, %c2 : i32
  %one = arith.constant 1.0 : f32
  %r = arith.divf %one, %x : f32
  %e = arith.extf %h : f16 to f32
  return %sum, %r, %e : i32, f32, f32
}

// -----

// A reciprocal of an E8M0 scale that the driver's folding reveals (the
// select of a constant condition) is still rewritten: any extf from E8M0 in
// the function makes its divisions candidates.
// CHECK-LABEL: func.func @revealed_by_folding(
// CHECK-NOT: arith.divf
// CHECK: arith.subi
// CHECK-NOT: arith.divf
// CHECK: return
func.func @revealed_by_folding(%e: f8E8M0FNU, %y: f32) -> f32 {
  %t = arith.constant true
  %one = arith.constant 1.0 : f32
  %x = arith.extf %e : f8E8M0FNU to f32
  %s = arith.select %t, %x, %y : f32
  %r = arith.divf %one, %s : f32
  return %r : f32
}
