// RUN: quant-affine-opt %s --convert-elementwise-to-linalg --quant-affine-fuse-elementwise | FileCheck %s
// RUN: quant-affine-opt %s --convert-elementwise-to-linalg --quant-affine-fuse-elementwise="max-body-ops=4" | FileCheck %s --check-prefix=BOUND
// RUN: quant-affine-opt %s --convert-elementwise-to-linalg --quant-affine-fuse-elementwise="fuse-block-reads=false" | FileCheck %s --check-prefix=BLOCKS

// Without a tight bound the chain fuses into one generic, as upstream's
// linalg-fuse-elementwise-ops does.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-COUNT-4: arith.addf
// CHECK: return

// A fusion whose body would exceed the bound is not done: each body of
// (addf, yield) joins the next while the sum stays within 4 ops.
// BOUND-LABEL: func.func @chain
// BOUND-COUNT-2: linalg.generic
// BOUND-NOT: linalg.generic
// BOUND: return
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = arith.addf %x, %x : tensor<64xf32>
  %b = arith.addf %a, %a : tensor<64xf32>
  %c = arith.addf %b, %b : tensor<64xf32>
  %d = arith.addf %c, %c : tensor<64xf32>
  return %d : tensor<64xf32>
}

// A value computed per block (here a block scale squared) read by each
// element of its block: fused by default (the GPU pipeline); with
// fuse-block-reads=false (the CPU pipeline) it stays its own generic, so it
// is computed once per block and read from memory.
// CHECK-LABEL: func.func @per_block_value
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK-NOT: linalg.generic
// CHECK: return
// BLOCKS-LABEL: func.func @per_block_value
// BLOCKS: %[[S:.*]] = linalg.generic
// BLOCKS: arith.mulf
// BLOCKS: linalg.generic {{.*}} ins(%{{.*}}, %[[S]] :
// BLOCKS-NOT: arith.mulf
// BLOCKS: arith.divf
func.func @per_block_value(%x: tensor<4x2x16xf32>, %e: tensor<4x2xf32>) -> tensor<4x2x16xf32> {
  %s = arith.mulf %e, %e : tensor<4x2xf32>
  %init = tensor.empty() : tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<4x2x16xf32>, tensor<4x2xf32>) outs(%init : tensor<4x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}

// Unless the consumer feeds a contraction: a dequantization fused into the
// matmul's loop keeps the per-block arithmetic in its body either way.
// BLOCKS-LABEL: func.func @per_block_value_into_matmul
// BLOCKS: linalg.generic
// BLOCKS-SAME: "reduction"
// BLOCKS: arith.mulf
// BLOCKS: arith.mulf
// BLOCKS-NOT: linalg.generic
func.func @per_block_value_into_matmul(%a: tensor<1x32xf32>, %q: tensor<8x2x16xf32>, %e: tensor<8x2xf32>, %acc: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %s = arith.mulf %e, %e : tensor<8x2xf32>
  %init = tensor.empty() : tensor<8x2x16xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s : tensor<8x2x16xf32>, tensor<8x2xf32>) outs(%init : tensor<8x2x16xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %d = arith.mulf %c, %b : f32
    linalg.yield %d : f32
  } -> tensor<8x2x16xf32>
  %wf = tensor.collapse_shape %w [[0], [1, 2]] : tensor<8x2x16xf32> into tensor<8x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %wf : tensor<1x32xf32>, tensor<8x32xf32>) outs(%acc : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %m : tensor<1x8xf32>
}
