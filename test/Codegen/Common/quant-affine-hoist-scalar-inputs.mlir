// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-hoist-scalar-inputs))' \
// RUN:   | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-hoist-scalar-inputs{before-each-user=true}))' \
// RUN:   | FileCheck %s --check-prefix=EACH

// A per-tensor scale read by two elementwise generics: extracted once, at
// the function's entry, and captured by both bodies.
// CHECK-LABEL: func.func @shared_scale
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<f32>)
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[S]][] : tensor<f32>
// CHECK: %[[A:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%[[X]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.divf %[[IN]], %[[E]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf %[[IN2]], %[[E]] : f32
// CHECK-NOT: tensor.extract
// With before-each-user (the GPU pipeline), each generic reads it right
// before itself.
// EACH-LABEL: func.func @shared_scale
// EACH-SAME: (%[[X:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<f32>)
// EACH-NEXT: tensor.empty
// EACH-NEXT: %[[E1:.*]] = tensor.extract %[[S]][] : tensor<f32>
// EACH-NEXT: %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>)
// EACH-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// EACH-NEXT: arith.divf %[[IN]], %[[E1]] : f32
// EACH: %[[E2:.*]] = tensor.extract %[[S]][] : tensor<f32>
// EACH-NEXT: linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>)
// EACH-NEXT: ^bb0(%[[IN2:.*]]: f32, %{{.*}}: f32):
// EACH-NEXT: arith.mulf %[[IN2]], %[[E2]] : f32
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @shared_scale(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %d = arith.divf %in, %sc : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
      ins(%a, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// A 0-D tensor computed in the function: extracted right after the op that
// defines it, inside the loop that does.
// CHECK-LABEL: func.func @computed_scale
// CHECK: scf.for
// CHECK: %[[S:.*]] = linalg.fill {{.*}} -> tensor<f32>
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[S]][] : tensor<f32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK: arith.addf %{{.*}}, %[[E]] : f32
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @computed_scale(%x: tensor<8xf32>, %v: f32, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<8xf32> {
    %z = tensor.empty() : tensor<f32>
    %s = linalg.fill ins(%v : f32) outs(%z : tensor<f32>) -> tensor<f32>
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
        ins(%acc, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %sc: f32, %out: f32):
      %d = arith.addf %in, %sc : f32
      linalg.yield %d : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Left alone: a generic with a reduction (a fused contraction plans from
// its operands), a 0-D output, and a generic on buffers.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.extract
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>)
// CHECK: ins(%{{.*}}, %{{.*}} : memref<8xf32>, memref<f32>)
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @left_alone(%x: tensor<8xf32>, %s: tensor<f32>, %init: tensor<f32>,
                      %bx: memref<8xf32>, %bs: memref<f32>, %bo: memref<8xf32>) -> tensor<f32> {
  %sum = linalg.generic {indexing_maps = [#id, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%x, %s : tensor<8xf32>, tensor<f32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    %a = arith.addf %m, %out : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
      ins(%bx, %bs : memref<8xf32>, memref<f32>) outs(%bo : memref<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %d = arith.divf %in, %sc : f32
    linalg.yield %d : f32
  }
  return %sum : tensor<f32>
}

// -----

// Consumers before their 0-D producers in the block list (a cf branch
// back): each consumer captures the element of its own producer. (Rebuilt
// generics once left a stale entry behind, and %w captured %t's element.)
// CHECK-LABEL: func.func @blocks_out_of_order
// CHECK: ^bb1:
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf %{{.*}}, %[[T:.*]] : f32
// CHECK: ^bb2:
// CHECK: %[[TV:.*]] = linalg.generic
// CHECK: %[[T]] = tensor.extract %[[TV]][] : tensor<f32>
// CHECK: %[[VV:.*]] = linalg.generic
// CHECK: %[[V:.*]] = tensor.extract %[[VV]][] : tensor<f32>
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.subf %{{.*}}, %[[V]] : f32
#id = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
#z = affine_map<() -> ()>
func.func @blocks_out_of_order(%x: tensor<8xf32>, %s: tensor<f32>, %c: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %e0 = tensor.empty() : tensor<f32>
  cf.br ^bb2
^bb1:
  %y = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel"]}
      ins(%x, %t : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %y, %w : tensor<8xf32>, tensor<8xf32>
^bb2:
  %t = linalg.generic {indexing_maps = [#z, #z], iterator_types = []}
      ins(%s : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%a: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %v = linalg.generic {indexing_maps = [#z, #z, #z], iterator_types = []}
      ins(%s, %c : tensor<f32>, f32) outs(%e0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %w = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel"]}
      ins(%x, %v : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.subf %in, %sc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  cf.br ^bb1
}
