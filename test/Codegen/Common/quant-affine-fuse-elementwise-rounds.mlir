// RUN: quant-affine-opt %s --quant-affine-fuse-elementwise="max-body-ops=3" | FileCheck %s

// Rewrites that feed one another for more rounds than the pass's top-down
// sweeps allow (10): the bound keeps these 12 generics apart, and the
// reshape at the end moves up one generic per sweep. The greedy driver
// finishes the work, as it did before the sweeps: the reshape reaches the
// argument and every generic is two-dimensional.
// CHECK-LABEL: func.func @reshape_up_a_chain
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [8, 8] : tensor<64xf32> into tensor<8x8xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-12: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @reshape_up_a_chain(%x: tensor<64xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %g0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g0 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g1 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g2 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g3 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g4 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g5 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g6 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g7 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g9 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g8 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g10 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g9 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %g11 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g10 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %r = tensor.expand_shape %g11 [[0, 1]] output_shape [8, 8] : tensor<64xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
