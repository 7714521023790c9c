// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-unshare-empty-tensors))' \
// RUN:   | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(quant-affine-unshare-empty-tensors{alloc-tensors=true}))' \
// RUN:   | FileCheck %s --check-prefix=ALLOC

// One tensor.empty as the destination of two ops (what CSE makes): each
// use gets its own, right before its op.
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[A:.*]] = linalg.generic {{.*}} outs(%[[E0]] : tensor<8xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
// ALLOC-LABEL: func.func @shared_empty
// ALLOC-NOT: tensor.empty
// ALLOC: %[[E:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// ALLOC-COUNT-2: outs(%[[E]] : tensor<8xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @shared_empty(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// One zero-filled accumulator for every matmul (CSE makes it so in an MLP):
// each use after the first gets its own tensor.empty and fill. With
// alloc-tensors, fills stay as they are.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[Z:.*]] = arith.constant 0.0
// CHECK: %[[E0:.*]] = tensor.empty()
// CHECK-NEXT: %[[F0:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E0]]
// CHECK-NEXT: %[[E1:.*]] = tensor.empty()
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E1]]
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[F1]]
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[F0]]
// ALLOC-LABEL: func.func @shared_fill
// ALLOC-COUNT-1: linalg.fill
// ALLOC-NOT: linalg.fill
func.func @shared_fill(%x: tensor<1x16xf32>, %w0: tensor<16x16xf32>,
                       %w1: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m0 = linalg.matmul ins(%x, %w0 : tensor<1x16xf32>, tensor<16x16xf32>)
      outs(%f : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m1 = linalg.matmul ins(%m0, %w1 : tensor<1x16xf32>, tensor<16x16xf32>)
      outs(%f : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %m1 : tensor<1x16xf32>
}

// -----

// Nothing shared: nothing changes.
// CHECK-LABEL: func.func @unshared
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
func.func @unshared(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  return %a : tensor<8xf32>
}
