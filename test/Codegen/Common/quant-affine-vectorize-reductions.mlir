// Reductions whose combiners are exact in any order (min, max, integer
// add and bitwise ops) are split into 16 lanes along their contiguous last
// loop when it is longer than 256 (shorter ones are one vector each): a
// row at a time, a step of 16 at a time with the partial results in
// registers (iter_args), then one vector.reduction per row and result.
// Short ones (blocks) whose length and row of blocks the lanes divide are
// reduced 16 blocks at a time by a shuffle tree.
// Float sums, dynamic shapes and last loops longer than 256 that 16 does
// not divide are left alone. With parallel-outer the rows are an scf.forall.
// RUN: quant-affine-opt %s --quant-affine-vectorize-reductions --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-vectorize-reductions=parallel-outer --split-input-file | FileCheck %s --check-prefix=FORALL

// Float minimumf/maximumf of one input become integer min/max of an
// ordered key (the bits, magnitude flipped when negative), turned back into
// floats and combined with the destinations by an elementwise op at the
// end. Positive NaNs have keys above +inf's (0x7F800000) and negative ones
// below -inf's (0x807FFFFF): with both the minimum and the maximum, the
// decoding sees whether a NaN was there, and the elements need no NaN test.
// CHECK-LABEL: func.func @min_max(
// CHECK-DAG: %[[INFKEY:.*]] = arith.constant 2139095040 : i32
// CHECK-DAG: %[[NEGINFKEY:.*]] = arith.constant -2139095041 : i32
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [8, 32, 16]
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> ({{.*}}vector<1x16xi32>, vector<1x16xi32>)
// CHECK: %[[V:.*]] = vector.transfer_read {{.*}} : tensor<8x32x16xf32>, vector<16xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[V]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[KEY:.*]] = arith.xori %[[BITS]]
// CHECK-NOT: arith.cmpf
// CHECK: arith.minsi %{{.*}}, %[[KEY]] : vector<16xi32>
// CHECK: arith.maxsi %{{.*}}, %[[KEY]] : vector<16xi32>
// CHECK: scf.for
// CHECK: vector.reduction <minsi>, %{{.*}}, %{{.*}} : vector<16xi32> into i32
// CHECK: vector.reduction <maxsi>, %{{.*}}, %{{.*}} : vector<16xi32> into i32
// The destinations start at +inf and -inf, which change nothing: the
// decoding does not read them.
// CHECK: linalg.generic
// CHECK: ^bb0(%[[MIN:.*]]: i32, %[[MAX:.*]]: i32,
// CHECK-DAG: %[[ABOVE:.*]] = arith.cmpi sgt, %[[MAX]], %[[INFKEY]] : i32
// CHECK-DAG: %[[BELOW:.*]] = arith.cmpi slt, %[[MIN]], %[[NEGINFKEY]] : i32
// CHECK: %[[ANYNAN:.*]] = arith.ori %[[ABOVE]], %[[BELOW]] : i1
// CHECK: arith.select %[[ANYNAN]]
// CHECK-NOT: arith.minimumf
// CHECK: arith.select %[[ANYNAN]]
// CHECK-NOT: arith.maximumf
// CHECK: return
// FORALL-LABEL: func.func @min_max(
// FORALL: scf.forall
// FORALL: arith.minsi %{{.*}} : vector<16xi32>
func.func @min_max(%x: tensor<8x512xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %pinf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.fill ins(%pinf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x512xf32>) outs(%a, %b : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %1 = arith.minimumf %o1, %in : f32
    %2 = arith.maximumf %o2, %in : f32
    linalg.yield %1, %2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// An integer sum (exact in any order), over the whole tensor: no row loop.
// CHECK-LABEL: func.func @int_sum(
// CHECK: scf.for {{.*}} -> (tensor<16xi32>, vector<16xi32>)
// CHECK: arith.addi %{{.*}} : vector<16xi32>
// CHECK: vector.reduction <add>
func.func @int_sum(%x: tensor<1024xi32>, %init: tensor<i32>) -> tensor<i32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<1024xi32>) outs(%init : tensor<i32>) {
  ^bb0(%in: i32, %o: i32):
    %1 = arith.addi %o, %in : i32
    linalg.yield %1 : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Not split: a float sum (not exact in another order), a last loop that 16
// does not divide, a dynamic shape.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: vector.
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%x: tensor<8x64xf32>, %y: tensor<8x600xf32>, %z: tensor<?x64xf32>, %i: tensor<8xf32>, %j: tensor<?xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<?xf32>) {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%i : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.addf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<8x600xf32>) outs(%i : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.minimumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%z : tensor<?x64xf32>) outs(%j : tensor<?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.maximumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<?xf32>
  return %s, %m, %d : tensor<8xf32>, tensor<8xf32>, tensor<?xf32>
}

// -----

// A short last loop is one vector whatever its length: one of 60, which 16
// does not divide, and one of exactly 16 lanes (NVFP4's blocks on AVX-512,
// which were left to scalar loops that LLVM vectorized across blocks with
// gathers).
// CHECK-LABEL: func.func @short_any_length(
// CHECK: vector.reduction <minsi>, %{{.*}}, %{{.*}} : vector<60xi32> into i32
// CHECK: vector.reduction <maxsi>, %{{.*}}, %{{.*}} : vector<16xi32> into i32
func.func @short_any_length(%y: tensor<8x60xf32>, %b: tensor<8x4x16xf32>, %i: tensor<8xf32>, %k: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<8x60xf32>) outs(%i : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.minimumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b : tensor<8x4x16xf32>) outs(%k : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.maximumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<8x4xf32>
  return %m, %n : tensor<8xf32>, tensor<8x4xf32>
}

// -----

// No parallel loop (a per-tensor statistic): the outer loop's rows keep
// their partial results apart ([rows, lanes]), so they can be threads; the
// combination reduces rows and lanes.
// CHECK-LABEL: func.func @per_tensor(
// CHECK: tensor.empty() : tensor<8x16xi32>
// CHECK: arith.minsi %{{.*}} : vector<16xi32>
// CHECK: vector.reduction <minsi>
// A destination of unknown value is combined with the result.
// CHECK: linalg.generic
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// FORALL-LABEL: func.func @per_tensor(
// FORALL: scf.forall
func.func @per_tensor(%x: tensor<8x512xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<8x512xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.minimumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A short last loop (a block of 32): not split; each block is one vector,
// reduced in registers. A maximum alone tests each element for NaN (NaN's
// key becomes the largest integer).
// CHECK-LABEL: func.func @blocks(
// CHECK-NOT: tensor.expand_shape
// CHECK: scf.for
// CHECK: %[[V:.*]] = vector.transfer_read {{.*}} : tensor<4x2x32xf32>, vector<32xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<32xf32>
// CHECK: %[[K:.*]] = arith.select %[[NAN]], %{{.*}}, %{{.*}} : vector<32xi1>, vector<32xi32>
// CHECK: vector.reduction <maxsi>, %[[K]], %{{.*}} : vector<32xi32> into i32
func.func @blocks(%x: tensor<4x2x32xf32>, %init: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x2x32xf32>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.maximumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// Blocks reduced into destinations filled with the combiners' neutral
// elements (+inf for a minimum, -inf for a maximum): each block's
// destination element is written once and never read before, so the
// vector reductions start from the integer extremes as constants, not from
// a read of the destination.
// Nothing reads the destinations' fills then: the loops start from
// tensor.empty, and so does the decoding, which does not read its
// destinations either.
// CHECK-LABEL: func.func @blocks_from_neutral(
// CHECK-DAG: %[[LOWEST:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[HIGHEST:.*]] = arith.constant 2147483647 : i32
// CHECK-NOT: linalg.fill
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x2xi32>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4x2xi32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[E1]], %{{.*}} = %[[E2]])
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<4x2xi32>
// CHECK: vector.reduction <minsi>, %{{.*}}, %[[HIGHEST]] : vector<32xi32> into i32
// CHECK: vector.reduction <maxsi>, %{{.*}}, %[[LOWEST]] : vector<32xi32> into i32
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<4x2xf32>)
// CHECK: return
func.func @blocks_from_neutral(%x: tensor<4x2x32xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %lo = linalg.fill ins(%inf : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %hi = linalg.fill ins(%ninf : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x2x32xf32>) outs(%lo, %hi : tensor<4x2xf32>, tensor<4x2xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %1 = arith.minimumf %a, %in : f32
    %2 = arith.maximumf %b, %in : f32
    linalg.yield %1, %2 : f32, f32
  } -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %r#0, %r#1 : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// The other side: a step loop (the middle dim is a reduction too) reads
// each destination element again after writing it, so the reduction
// starts from what the destination holds.
// CHECK-LABEL: func.func @blocks_with_steps(
// CHECK: scf.for
// CHECK: %[[START:.*]] = vector.transfer_read {{.*}} : tensor<1xi32>, vector<1xi32>
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[ACC:.*]] = %[[START]])
// CHECK: %[[FROM:.*]] = vector.extract %[[ACC]][0]
// CHECK: vector.reduction <maxsi>, %{{.*}}, %[[FROM]]
func.func @blocks_with_steps(%x: tensor<4x2x32xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %hi = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<4x2x32xf32>) outs(%hi : tensor<4xf32>) {
  ^bb0(%in: f32, %b: f32):
    %2 = arith.maximumf %b, %in : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A zero-size reduction has nothing to split (its loops run zero times): it
// stays as it is, to be lowered to loops. (It used to crash the tiler.)
// CHECK-LABEL: func.func @empty_reduction(
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<3x0xi32>)
func.func @empty_reduction(%x: tensor<3x0xi32>) -> tensor<i32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<3x0xi32>) outs(%init : tensor<i32>) {
  ^bb0(%in: i32, %acc: i32):
    %s = arith.addi %in, %acc : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// A minimumf of the accumulator and a value captured from above (not an
// element of the input) has no integer key of an input element: the lanes
// take the captured value, broadcast, as they would any operand. (The key
// rewrite used to take it for an input element, reading the body's
// argument of the captured value's number: a crash.)
// CHECK-LABEL: func.func @captured_operand
// CHECK-SAME: %[[B:[a-z0-9]+]]: f32) -> tensor<f32>
// CHECK: scf.for
// CHECK: %[[BB:.*]] = vector.broadcast %[[B]] : f32 to vector<16xf32>
// CHECK: arith.minimumf %{{.*}}, %[[BB]] : vector<16xf32>
// CHECK: vector.reduction <minimumf>
// FORALL-LABEL: func.func @captured_operand
#id = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @captured_operand(%x: tensor<512xf32>, %a: f32, %b: f32) -> tensor<f32> {
  %init = arith.constant dense<0x7F800000> : tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction"]}
      ins(%x : tensor<512xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %out, %b : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A largest magnitude (maximumf of absf: block_scale's amax) is one integer
// maximum of the bits without the sign: NaNs' keys lie above +inf's
// (0x7F800000), so no element needs a NaN test, and the decoding makes a
// key above +inf's NaN. With 32 blocks a row, 16 (the lanes) are read at a
// time as one vector<16x32>, each row's two halves combined, then reduced
// together by a shuffle tree: four levels of two shuffles and a maximum,
// which leave block i's result in lane i. No horizontal reduction per block.
// CHECK-LABEL: func.func @blocks_together(
// CHECK-DAG: %[[MAGNITUDE:.*]] = arith.constant dense<2147483647> : vector<16x32xi32>
// CHECK-DAG: %[[INF:.*]] = arith.constant 2139095040 : i32
// CHECK: scf.for
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[V:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[B]], %{{.*}}], {{.*}} : tensor<4x32x32xf32>, vector<16x32xf32>
// CHECK-NOT: arith.cmpf
// CHECK: %[[BITS:.*]] = arith.bitcast %[[V]]
// CHECK: arith.andi %[[BITS]], %[[MAGNITUDE]] : vector<16x32xi32>
// CHECK-COUNT-16: arith.maxsi {{.*}} : vector<16xi32>
// CHECK: vector.shuffle {{.*}} [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]
// CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
// CHECK: vector.shuffle {{.*}} [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]
// CHECK: vector.shuffle {{.*}} [2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31]
// CHECK: %[[ODD:.*]] = vector.shuffle {{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: %[[EVEN:.*]] = vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: %[[KEYS:.*]] = arith.maxsi %[[EVEN]], %[[ODD]] : vector<16xi32>
// CHECK: vector.transfer_write %[[KEYS]], %{{.*}}[%{{.*}}, %[[B]]] {in_bounds = [true]} : vector<16xi32>, tensor<4x32xi32>
// CHECK-NOT: vector.reduction
// CHECK: linalg.generic
// CHECK: %[[IS_NAN:.*]] = arith.cmpi sgt, %{{.*}}, %[[INF]] : i32
// CHECK: arith.select %[[IS_NAN]]
func.func @blocks_together(%x: tensor<4x32x32xf32>) -> tensor<4x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %hi = linalg.fill ins(%ninf : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x32x32xf32>) outs(%hi : tensor<4x32xf32>) {
  ^bb0(%in: f32, %b: f32):
    %a = math.absf %in : f32
    %2 = arith.maximumf %b, %a : f32
    linalg.yield %2 : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// Blocks that the lanes do not divide into (24 a row) stay one vector
// reduction each.
// CHECK-LABEL: func.func @blocks_not_together(
// CHECK: vector.transfer_read {{.*}} : tensor<4x24x32xf32>, vector<32xf32>
// CHECK: vector.reduction <maxsi>, %{{.*}} : vector<32xi32> into i32
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @blocks_not_together(%x: tensor<4x24x32xf32>) -> tensor<4x24xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x24xf32>
  %hi = linalg.fill ins(%ninf : f32) outs(%e : tensor<4x24xf32>) -> tensor<4x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x24x32xf32>) outs(%hi : tensor<4x24xf32>) {
  ^bb0(%in: f32, %b: f32):
    %a = math.absf %in : f32
    %2 = arith.maximumf %b, %a : f32
    linalg.yield %2 : f32
  } -> tensor<4x24xf32>
  return %r : tensor<4x24xf32>
}

// -----

// The partial results' op of a split reduction ends with the lanes, a
// parallel loop: its rows stay one a tile, each step one vector<16>. (Only
// a short last loop that is a reduction takes blocks together; taking 16
// rows of this op together made 4096 x 4096 per-tensor statistics 20 GB of
// LLVM IR.)
// CHECK-LABEL: func.func @per_tensor_many_rows(
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK: scf.for
// CHECK: vector.transfer_read %{{.*}}[%[[ROW]], %{{.*}}, %{{.*}}], {{.*}} : tensor<32x32x16xf32>, vector<16xf32>
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @per_tensor_many_rows(%x: tensor<32x512xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<32x512xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %1 = arith.maximumf %o, %in : f32
    linalg.yield %1 : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
