// RUN: quant-affine-opt %s --quant-affine-split-reductions --split-input-file | FileCheck %s

// The min and max of a 300 x 77 tensor (what a per-tensor compute_encoding
// takes): 77 columns strided over 77 threads times 4 chunks of rows, into
// partials of 308 elements; those reduced over 5 threads (about 64 each)
// into 5 partials; those reduced into the results by the same combiners, in
// the same operand order.
// CHECK-LABEL: func.func @min_max
// CHECK-DAG: %[[P1:.*]] = memref.alloc() : memref<308xf32>
// CHECK-DAG: %[[P2:.*]] = memref.alloc() : memref<308xf32>
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[P1]]
// CHECK: memref.store %{{.*}}, %[[P2]]
// CHECK: memref.alloc() : memref<5xf32>
// CHECK: memref.alloc() : memref<5xf32>
// CHECK: scf.parallel
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : memref<f32>, memref<f32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[LO:.*]]: f32, %[[HI:.*]]: f32):
// CHECK-NEXT: arith.minimumf %[[LO]], %[[A]]
// CHECK-NEXT: arith.maximumf %[[HI]], %[[B]]
func.func @min_max(%x: memref<300x77xf32>, %lo: memref<f32>, %hi: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : memref<300x77xf32>) outs(%lo, %hi : memref<f32>, memref<f32>) {
  ^bb0(%in: f32, %l: f32, %h: f32):
    %a = arith.minimumf %l, %in : f32
    %b = arith.maximumf %h, %in : f32
    linalg.yield %a, %b : f32, f32
  }
  return
}

// -----

// A sum is not idempotent: left to one thread (and to warp sums elsewhere).
// CHECK-LABEL: func.func @sum
// CHECK-NOT: scf.parallel
// CHECK: linalg.generic
func.func @sum(%x: memref<4096xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<4096xf32>) outs(%acc : memref<f32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %a, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Few elements: one thread.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.parallel
func.func @small(%x: memref<16x16xf32>, %m: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : memref<16x16xf32>) outs(%m : memref<f32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.maximumf %in, %a : f32
    linalg.yield %s : f32
  }
  return
}
