// quant-affine-vectorize-contractions (docs/FusedMatmul.md).
// RUN: quant-affine-opt %s --quant-affine-vectorize-contractions=parallel-outer --canonicalize --cse --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-vectorize-contractions --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: not quant-affine-opt %s --quant-affine-vectorize-contractions=lanes=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: quant-affine-opt %s --quant-affine-vectorize-contractions --split-input-file 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: error

// ZERO: lanes must be at least 1, got 0

// x @ W^T with the dequantize fused in (as elementwise fusion leaves it): K
// splits into steps and 32 lanes; tiles of 4 weight rows a quarter of the
// matrix apart (rows t, t + 16, t + 32, t + 48: 4 sequential streams) in an
// scf.forall; steps of two blocks, the accumulators carried in vectors; the
// marked product; the lanes summed once, reassociated; the result collapsed
// back.
// CHECK-LABEL: func.func @decode(
// CHECK-DAG: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [4, 16, 8] : tensor<64x8xf32> into tensor<4x16x8xf32>
// CHECK-DAG: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [1, 4, 16] : tensor<1x64xf32> into tensor<1x4x16xf32>
// CHECK-DAG: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3, 4]] output_shape [4, 16, 8, 1, 32] : tensor<64x256xi4> into tensor<4x16x8x1x32xi4>
// CHECK: scf.forall (%[[T:.*]]) in (16)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1x4x1x32xf32>)
// CHECK: vector.transfer_read %[[W]][%c0, %[[T]], {{.*}} : tensor<4x16x8x1x32xi4>, vector<32xi4>
// CHECK: vector.transfer_read %[[W]][%c3, %[[T]], {{.*}} : tensor<4x16x8x1x32xi4>, vector<32xi4>
// CHECK: arith.mulf {{.*}} fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
// CHECK: arith.addf {{.*}} fastmath<contract> : vector<32xf32>
// CHECK-COUNT-4: vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<32xf32> into f32
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, 0, %[[T]]] [1, 4, 1] [1, 1, 1] : tensor<1x4x1xf32> into tensor<1x4x16xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<1x4x16xf32> into tensor<1x64xf32>
// CHECK-NOT: linalg.generic
// SERIAL-LABEL: func.func @decode(
// SERIAL-NOT: scf.forall
// SERIAL: scf.for
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
  func.func @decode(%arg0: tensor<1x256xf32>, %arg1: tensor<64x256xi4>, %arg2: tensor<64x8xf32>, %arg3: tensor<1x64xf32>) -> tensor<1x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %expanded = tensor.expand_shape %arg1 [[0], [1, 2]] output_shape [64, 8, 32] : tensor<64x256xi4> into tensor<64x8x32xi4>
    %0 = linalg.fill ins(%cst : f32) outs(%arg3 : tensor<1x64xf32>) -> tensor<1x64xf32>
    %expanded_0 = tensor.expand_shape %arg0 [[0], [1, 2]] output_shape [1, 8, 32] : tensor<1x256xf32> into tensor<1x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%expanded_0, %expanded, %arg2 : tensor<1x8x32xf32>, tensor<64x8x32xi4>, tensor<64x8xf32>) outs(%0 : tensor<1x64xf32>) {
    ^bb0(%in: f32, %in_1: i4, %in_2: f32, %out: f32):
      %2 = arith.sitofp %in_1 : i4 to f32
      %3 = arith.mulf %2, %in_2 : f32
      %4 = arith.mulf %in, %3 : f32
      %5 = arith.addf %out, %4 : f32
      linalg.yield %5 : f32
    } -> tensor<1x64xf32>
    return %1 : tensor<1x64xf32>
  }

// -----

// Rows stay as they are where one tile takes all of them (4 rows).
// CHECK-LABEL: func.func @decode_four_rows(
// CHECK-NOT: tensor.collapse_shape
// CHECK: vector.transfer_read %{{.*}} : tensor<4x8x1x32xi4>, vector<32xi4>
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
#four_x = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#four_w = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#four_s = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#four_out = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @decode_four_rows(%x: tensor<1x8x32xf32>, %w: tensor<4x8x32xi4>, %s: tensor<4x8xf32>, %d: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %1 = linalg.generic {indexing_maps = [#four_x, #four_w, #four_s, #four_out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w, %s : tensor<1x8x32xf32>, tensor<4x8x32xi4>, tensor<4x8xf32>) outs(%d : tensor<1x4xf32>) {
  ^bb0(%in: f32, %in_1: i4, %in_2: f32, %out: f32):
    %2 = arith.sitofp %in_1 : i4 to f32
    %3 = arith.mulf %2, %in_2 : f32
    %4 = arith.mulf %in, %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// -----

// Blocks of 128: a step is a whole block (4 vectors of 32 codes a row), so
// the block's scale is read once a step and the step loop runs over blocks.
// CHECK-LABEL: func.func @decode_block128(
// CHECK: scf.for %[[B:.*]] = %c0 to %c2 step %c1 iter_args(%{{.*}}) -> (vector<1x4x1x32xf32>)
// CHECK-COUNT-16: vector.transfer_read %{{.*}}[%c{{[0-3]}}, %{{.*}}, %[[B]], %c{{[0-3]}}, %c0], %{{.*}} : tensor<4x16x2x4x32xi4>, vector<32xi4>
// CHECK-COUNT-4: vector.transfer_read %{{.*}}[%c{{[0-3]}}, %{{.*}}, %[[B]]], %{{.*}} permutation_map = {{.*}} : tensor<4x16x2xf32>, vector<32xf32>
// CHECK-NOT: vector.transfer_read {{.*}}xi4
// CHECK: scf.yield
#bx = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#bw = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#bs = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#bo = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @decode_block128(%x: tensor<1x2x128xf32>, %w: tensor<64x2x128xi4>, %s: tensor<64x2xf32>, %d: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %1 = linalg.generic {indexing_maps = [#bx, #bw, #bs, #bo], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w, %s : tensor<1x2x128xf32>, tensor<64x2x128xi4>, tensor<64x2xf32>) outs(%d : tensor<1x64xf32>) {
  ^bb0(%in: f32, %in_1: i4, %in_2: f32, %out: f32):
    %2 = arith.sitofp %in_1 : i4 to f32
    %3 = arith.mulf %2, %in_2 : f32
    %4 = arith.mulf %in, %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<1x64xf32>
  return %1 : tensor<1x64xf32>
}

// -----

// Left as they are: results whose map repeats a loop (a diagonal: the lane
// sum over every result would turn the untouched -0.0 elsewhere into +0.0)
// or has a constant; no diagnostic either (QUIET).
// CHECK-LABEL: func.func @result_diagonal(
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK-LABEL: func.func @result_constant(
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @result_diagonal(%x: tensor<1x64xf32>, %w: tensor<4x64xf32>, %d: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x64xf32>, tensor<4x64xf32>) outs(%d : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
func.func @result_constant(%x: tensor<1x64xf32>, %w: tensor<16x64xf32>, %d: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x64xf32>, tensor<16x64xf32>) outs(%d : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// x @ W: the lanes are 16 results of a row; 4 rows of x per tile; each
// step adds a product, with no lane sum and no mark.
// CHECK-LABEL: func.func @x_w(
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: arith.mulf {{.*}} fastmath<contract> : vector<16xf32>
// CHECK-NOT: lanes_summed
// CHECK-NOT: vector.reduction
func.func @x_w(%x: tensor<4x64xf32>, %w: tensor<64x96xf32>, %d: tensor<4x96xf32>) -> tensor<4x96xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x96xf32>) outs(%d : tensor<4x96xf32>) -> tensor<4x96xf32>
  return %m : tensor<4x96xf32>
}

// -----

// Left to loops: a dynamic size (generalized only) and a reduction that is
// not a float sum. K = 63 gives no lanes along K: the 8 results carry them.
// CHECK-LABEL: func.func @dynamic(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @max_reduction(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @odd(
// CHECK-NOT: linalg.generic
// CHECK: arith.mulf {{.*}} : vector<8xf32>
func.func @dynamic(%x: tensor<?x64xf32>, %w: tensor<64x96xf32>, %d: tensor<?x96xf32>) -> tensor<?x96xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x96xf32>) outs(%d : tensor<?x96xf32>) -> tensor<?x96xf32>
  return %m : tensor<?x96xf32>
}
func.func @max_reduction(%x: tensor<8x64xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%d : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @odd(%x: tensor<1x63xf32>, %w: tensor<8x63xf32>, %d: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x63xf32>, tensor<8x63xf32>) outs(%d : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %m : tensor<1x8xf32>
}

// -----

// x @ W^T with 64 rows of x (prefill): through panels. Blocks of columns
// across threads, outermost (here one panel each); in each, K in chunks of
// 256 (8 blocks of 32). In each chunk, the chunk of x copied row by row into
// a buffer the chunk loop carries (its rows 1 KiB apart, not a row of x
// apart), then the block's panels of 32 weight rows, each dequantized into a
// fresh 8 x 32 x 32 f32 tensor (never one of the weight's size), K-major:
// 16 x 16 blocks transposed by shuffles. Then register tiles of 8 rows of x
// by the panel's 32 columns, one step of K at a time in one loop of 256
// (the chunk's blocks and their elements folded into one loop): 8 broadcast
// activations times one row of the panel (32 lanes), added into 8
// accumulators carried in registers. No lane sums.
// CHECK-LABEL: func.func @panels
// CHECK-NOT: tensor.empty() : tensor<16x32x64xf32>
// CHECK: scf.forall (%{{.*}}) = (0) to (64) step (32)
// CHECK: %[[XSCRATCH:.*]] = tensor.empty() : tensor<64x8x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 iter_args(%{{.*}} = %{{.*}}, %[[XBUF:.*]] = %[[XSCRATCH]])
// CHECK: %[[XCHUNK:.*]] = tensor.extract_slice %expanded[0, %{{.*}}, 0] [64, 8, 32] [1, 1, 1]
// CHECK: %[[XCOPY:.*]] = scf.for %[[XROW:.*]] = %c0 to %c64 step %c1 iter_args(%[[XACC:.*]] = %[[XBUF]])
// CHECK: tensor.extract_slice %[[XCHUNK]][%[[XROW]], 0, 0] [1, 8, 32]
// CHECK: tensor.insert_slice %{{.*}} into %[[XACC]][%[[XROW]], 0, 0] [1, 8, 32]
// CHECK: tensor.empty() : tensor<8x32x32xf32>
// CHECK: vector.transfer_read %{{.*}} : tensor<64x16x32xi8>, vector<16xi8>
// CHECK: arith.sitofp %{{.*}} : vector<16xi8> to vector<16xf32>
// CHECK: vector.shuffle
// CHECK: %[[X:.*]] = tensor.collapse_shape %[[XCOPY]] {{\[\[}}0], [1, 2]] : tensor<64x8x32xf32> into tensor<64x256xf32>
// CHECK: %[[PANEL:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<8x32x32xf32> into tensor<256x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>)
// CHECK-COUNT-8: vector.transfer_read %[[X]]{{.*}} {in_bounds = [true], permutation_map = #{{.*}}} : tensor<64x256xf32>, vector<32xf32>
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[PANEL]]{{.*}} : tensor<256x32xf32>, vector<32xf32>
// CHECK-COUNT-8: arith.mulf %{{.*}}, %[[ROW]] fastmath<contract> : vector<32xf32>
// CHECK-NOT: vector.reduction
// CHECK: scf.yield %{{.*}}, %[[XCOPY]] : tensor<64x32xf32>, tensor<64x8x32xf32>
// CHECK: return
func.func @panels(%x: tensor<64x512xf32>, %q: tensor<64x16x32xi8>, %s: tensor<64x16xf32>, %d: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %xe = tensor.expand_shape %x [[0], [1, 2]] output_shape [64, 16, 32] : tensor<64x512xf32> into tensor<64x16x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, kb, kk) -> (m, kb, kk)>, affine_map<(m, n, kb, kk) -> (n, kb, kk)>, affine_map<(m, n, kb, kk) -> (n, kb)>, affine_map<(m, n, kb, kk) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%xe, %q, %s : tensor<64x16x32xf32>, tensor<64x16x32xi8>, tensor<64x16xf32>) outs(%d : tensor<64x64xf32>) {
  ^bb0(%a: f32, %c: i8, %sc: f32, %out: f32):
    %f = arith.sitofp %c : i8 to f32
    %w = arith.mulf %f, %sc : f32
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// 512 weight rows: 16 panels in 8 blocks of 2 (at least 8 blocks across
// threads); each block runs its chunks of K, and in each chunk its 2 panels
// one after the other. The sums stay in the block's columns.
// CHECK-LABEL: func.func @panel_blocks
// CHECK-NOT: tensor.empty() : tensor<16x32x512xf32>
// CHECK: scf.forall (%{{.*}}) = (0) to (512) step (64)
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32 iter_args
// CHECK: tensor.empty() : tensor<8x32x32xf32>
// CHECK: return
func.func @panel_blocks(%x: tensor<64x512xf32>, %q: tensor<512x16x32xi8>, %s: tensor<512x16xf32>, %d: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %xe = tensor.expand_shape %x [[0], [1, 2]] output_shape [64, 16, 32] : tensor<64x512xf32> into tensor<64x16x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, kb, kk) -> (m, kb, kk)>, affine_map<(m, n, kb, kk) -> (n, kb, kk)>, affine_map<(m, n, kb, kk) -> (n, kb)>, affine_map<(m, n, kb, kk) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%xe, %q, %s : tensor<64x16x32xf32>, tensor<512x16x32xi8>, tensor<512x16xf32>) outs(%d : tensor<64x512xf32>) {
  ^bb0(%a: f32, %c: i8, %sc: f32, %out: f32):
    %f = arith.sitofp %c : i8 to f32
    %w = arith.mulf %f, %sc : f32
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}
