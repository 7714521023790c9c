// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-split-deallocs))' \
// RUN:   | FileCheck %s

// Three fresh allocations freed together: one dealloc each, in order, with
// its own condition; those freed unconditionally are memref.deallocs.
// CHECK-LABEL: func.func @fresh
// CHECK-SAME: (%[[C:.*]]: i1)
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK: arith.constant true
// CHECK-NEXT: memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NEXT: bufferization.dealloc (%[[B]] : memref<8xf32>) if (%[[C]])
// CHECK-NEXT: memref.dealloc %[[D]] : memref<4xf32>
// CHECK-NEXT: return
func.func @fresh(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  %d = memref.alloc() : memref<4xf32>
  %true = arith.constant true
  bufferization.dealloc (%a, %b, %d : memref<4xf32>, memref<8xf32>, memref<4xf32>) if (%true, %c, %true)
  return
}

// -----

// Left to the simplification: a dealloc that retains a value (its results
// are conditions to recompute), one that frees an argument (it may alias
// an allocation), and one that frees a view.
// CHECK-LABEL: func.func @not_fresh
// CHECK: bufferization.dealloc ({{.*}}, {{.*}} : memref<4xf32>, memref<4xf32>) if ({{.*}}, {{.*}}) retain ({{.*}} : memref<4xf32>)
// CHECK: bufferization.dealloc ({{.*}}, {{.*}} : memref<4xf32>, memref<4xf32>) if ({{.*}}, {{.*}})
// CHECK: bufferization.dealloc ({{.*}}, {{.*}} : memref<4xf32>, memref<2xf32, strided<[1], offset: 2>>) if ({{.*}}, {{.*}})
// CHECK-NOT: bufferization.dealloc
func.func @not_fresh(%arg: memref<4xf32>) -> i1 {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %r = bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%true, %true) retain (%arg : memref<4xf32>)
  %c = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%c, %arg : memref<4xf32>, memref<4xf32>) if (%true, %true)
  %d = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  %v = memref.subview %e[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  bufferization.dealloc (%d, %v : memref<4xf32>, memref<2xf32, strided<[1], offset: 2>>) if (%true, %true)
  return %r : i1
}
