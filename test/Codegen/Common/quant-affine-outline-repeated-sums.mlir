// quant-affine-outline-repeated-sums: each repeated float sum (with the fill
// of its destination) becomes a call of one private function.
// RUN: quant-affine-opt %s --quant-affine-outline-repeated-sums --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-outline-repeated-sums=min-repeats=3 --split-input-file | FileCheck %s --check-prefix=THREE

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// Two layers, the second reading the first: one function, the fill and the
// zero constant inside it, the destination last.
// CHECK-LABEL: func.func private @layers_sum(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<1x16xf32>, %[[W:[a-z0-9]+]]: tensor<16x16xf32>, %[[D:[a-z0-9]+]]: tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[D]] : tensor<1x16xf32>)
// CHECK: %[[M:.+]] = linalg.matmul {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[F]] : tensor<1x16xf32>)
// CHECK: return %[[M]]
// CHECK-LABEL: func.func @layers(
// CHECK-SAME: %[[X0:[a-z0-9]+]]: tensor<1x16xf32>, %[[W0:[a-z0-9]+]]: tensor<16x16xf32>, %[[W1:[a-z0-9]+]]: tensor<16x16xf32>)
// CHECK: %[[E0:.+]] = tensor.empty()
// CHECK: %[[M0:.+]] = call @layers_sum(%[[X0]], %[[W0]], %[[E0]])
// CHECK: %[[E1:.+]] = tensor.empty()
// CHECK: %[[M1:.+]] = call @layers_sum(%[[M0]], %[[W1]], %[[E1]])
// CHECK-NOT: linalg
// CHECK: return %[[M1]]
// THREE-LABEL: func.func @layers(
// THREE-COUNT-2: linalg.matmul
// THREE-NOT: call
func.func @layers(%x: tensor<1x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m0 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w0 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m1 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%m0, %w1 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %m1 : tensor<1x16xf32>
}

// -----

// A sum alone, sums that differ (a constant weight each, a fill value each)
// and a sum whose destination is read again are left in place. So is one
// that reads a slice (it would be passed as a copy).
// CHECK-LABEL: func.func @different(
// CHECK-NOT: call
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT: call
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @different(%x: tensor<1x16xf32>, %big: tensor<2x16xf32>, %w: tensor<16x16xf32>, %acc: tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<1x16xf32>
  %f0 = linalg.fill ins(%one : f32) outs(%e0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m0 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %f1 = linalg.fill ins(%two : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m1 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m2 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%acc, %w : tensor<1x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<1x16xf32>) -> tensor<1x16xf32>
  %slice = tensor.extract_slice %big[1, 0] [1, 16] [1, 1] : tensor<2x16xf32> to tensor<1x16xf32>
  %m3 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%slice, %w : tensor<1x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %m0, %m1, %m2, %m3 : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>
}

// -----

// The same sum in two functions of a module shares one function; the pattern
// of operands is part of the comparison (x times x is not x times y). A
// splat constant is cloned in (so only equal splats share); other tensor
// constants are passed, so sums of different weights share.
// CHECK-LABEL: func.func private @first_sum(
// CHECK-SAME: %{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: arith.constant dense<1.000000e+00> : tensor<4x4xf32>
// CHECK: linalg.matmul
// CHECK-LABEL: func.func private @first_sum_0(
// CHECK-SAME: %[[A:.+]]: tensor<2x2xf32>, %[[W:.+]]: tensor<2x2xf32>, %[[D:.+]]: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT: arith.constant
// CHECK: linalg.matmul ins(%[[A]], %[[W]] : {{.*}}) outs(%[[D]] :
// CHECK-LABEL: func.func @first(
// CHECK: call @first_sum(
// CHECK: linalg.matmul
// CHECK: %[[W1:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.0{{.*}}> : tensor<2x2xf32>
// CHECK: call @first_sum_0(%{{.+}}, %[[W1]], %{{.+}})
// CHECK-LABEL: func.func @second(
// CHECK: call @first_sum(
// CHECK: linalg.matmul
// CHECK: %[[W2:.+]] = arith.constant dense<{{\[\[}}5.000000e+00, 6.0{{.*}}> : tensor<2x2xf32>
// CHECK: call @first_sum_0(%{{.+}}, %[[W2]], %{{.+}})
func.func @first(%a: tensor<4x4xf32>, %acc: tensor<4x4xf32>, %acc2: tensor<4x4xf32>, %p: tensor<2x2xf32>, %pacc: tensor<2x2xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %w1 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %n = linalg.matmul ins(%p, %w1 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%pacc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %s, %n : tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>
}
func.func @second(%b: tensor<4x4xf32>, %c: tensor<4x4xf32>, %acc: tensor<4x4xf32>, %acc2: tensor<4x4xf32>, %p: tensor<2x2xf32>, %pacc: tensor<2x2xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<4x4xf32>
  %m = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul ins(%b, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %n = linalg.matmul ins(%p, %w2 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%pacc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %s, %n : tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>
}

// -----

// Sums in loops and branches stay (a loop repeats its body without copies);
// ops that are not float sums (an integer matmul, a max reduction) too.
// CHECK-LABEL: func.func @nested(
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: call
func.func @nested(%x: tensor<4x4xf32>, %acc: tensor<4x4xf32>, %i: tensor<4x4xi32>, %iacc: tensor<4x4xi32>, %n: index) -> (tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc) -> tensor<4x4xf32> {
    %m0 = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m1 = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%m0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m1 : tensor<4x4xf32>
  }
  %j0 = linalg.matmul ins(%i, %i : tensor<4x4xi32>, tensor<4x4xi32>) outs(%iacc : tensor<4x4xi32>) -> tensor<4x4xi32>
  %j1 = linalg.matmul ins(%i, %i : tensor<4x4xi32>, tensor<4x4xi32>) outs(%iacc : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r, %j0, %j1 : tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// A tensor of a strided memref, or a reshape of a slice, would be copied
// into an identity buffer at the call: such sums stay; the same sums on an
// identity memref are shared.
// CHECK-LABEL: func.func private @views_sum(
// CHECK-LABEL: func.func @views(
// CHECK-COUNT-2: linalg.matmul
// CHECK-COUNT-2: call @views_sum(
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: call
func.func @views(%strided: memref<4x4xf32, strided<[8, 1]>>, %plain: memref<4x4xf32>, %w: tensor<4x4xf32>, %acc: tensor<4x4xf32>, %acc2: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %a = bufferization.to_tensor %strided : memref<4x4xf32, strided<[8, 1]>> to tensor<4x4xf32>
  %b = bufferization.to_tensor %plain : memref<4x4xf32> to tensor<4x4xf32>
  %m0 = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m3 = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %row = tensor.extract_slice %w[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %flat = tensor.collapse_shape %row [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %sq = tensor.expand_shape %flat [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%sq, %sq : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%sq, %sq : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m0, %m1, %m2, %m3, %r0, %r1 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
