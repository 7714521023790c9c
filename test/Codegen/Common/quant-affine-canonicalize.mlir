// quant-affine-canonicalize gives -canonicalize's output, with its defaults
// and in the pipelines' structured form (bottom-up, regions not simplified).
// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' -o %t.upstream
// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(func.func(quant-affine-canonicalize))' -o %t.ours
// RUN: diff %t.upstream %t.ours
// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{region-simplify=disabled top-down=false}))' -o %t.upstream-structured
// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(func.func(quant-affine-canonicalize{simplify-regions=false top-down=false}))' -o %t.ours-structured
// RUN: diff %t.upstream-structured %t.ours-structured
// RUN: FileCheck %s < %t.ours

// Duplicate constants (merged while the driver builds its first worklist,
// which its `changed` flag does not count), folds, a dead block argument.
// CHECK-LABEL: func.func @mixed
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: call @use(%[[C1]], %[[C1]])
// CHECK: call @use(%[[C1]], %[[C3]])
// CHECK-NOT: arith.addi
func.func private @use(i32, i32)
func.func @mixed(%c: i1, %x: i32) -> i32 {
  %a = arith.constant 1 : i32
  func.call @use(%a, %a) : (i32, i32) -> ()
  %b = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %s = arith.addi %b, %two : i32
  func.call @use(%a, %s) : (i32, i32) -> ()
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%x : i32)
^bb1(%p: i32):
  cf.br ^bb3(%p : i32)
^bb2(%q: i32):
  cf.br ^bb3(%q : i32)
^bb3(%r: i32):
  return %r : i32
}

// Nothing to change: the output is the input.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT: return %[[S]] : i32
func.func @unchanged(%x: i32) -> i32 {
  %c = arith.constant 7 : i32
  %s = arith.addi %x, %c : i32
  return %s : i32
}
