// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(func.func(quant-affine-localize-region-results),ownership-based-buffer-deallocation)' | FileCheck %s
// Ownership-based buffer deallocation (MLIR 22.1) erases each region op with
// memref results and then reads the erased results from the liveness sets of
// later blocks: it crashed on @branch_on_loop (llvm/llvm-project#119863). In
// functions with unstructured control flow, results used outside their block
// first go through a same-type memref.cast, which deallocation never erases.

// CHECK-LABEL: func.func @branch_on_loop
// CHECK: %[[LOOP:.*]]:2 = scf.for
// CHECK: %[[LOCAL:.*]] = memref.cast %[[LOOP]]#0 : memref<12xf32> to memref<12xf32>
// CHECK: cf.cond_br
// CHECK: vector.transfer_read %[[LOCAL]]
// CHECK: vector.transfer_read %[[LOCAL]]
func.func @branch_on_loop(%arg0: memref<12xf32>, %arg1: index, %arg2: i1, %arg3: memref<12xf32>) {
  %0 = ub.poison : f32
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
  %1 = vector.transfer_read %arg0[%c0], %0 {in_bounds = [true]} : memref<12xf32>, vector<12xf32>
  %2 = arith.negf %1 : vector<12xf32>
  %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
  vector.transfer_write %2, %alloc_0[%c0] {in_bounds = [true]} : vector<12xf32>, memref<12xf32>
  %3 = scf.for %arg4 = %c0 to %arg1 step %c1 iter_args(%arg5 = %alloc_0) -> (memref<12xf32>) {
    %9 = vector.transfer_read %arg5[%c0], %0 {in_bounds = [true]} : memref<12xf32>, vector<12xf32>
    %10 = math.floor %9 : vector<12xf32>
    vector.transfer_write %10, %alloc[%c0] {in_bounds = [true]} : vector<12xf32>, memref<12xf32>
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
    memref.copy %alloc, %alloc_2 : memref<12xf32> to memref<12xf32>
    scf.yield %alloc_2 : memref<12xf32>
  }
  cf.cond_br %arg2, ^bb1, ^bb2
^bb1:
  %4 = vector.transfer_read %3[%c0], %0 {in_bounds = [true]} : memref<12xf32>, vector<12xf32>
  %5 = arith.negf %4 : vector<12xf32>
  vector.transfer_write %5, %alloc[%c0] {in_bounds = [true]} : vector<12xf32>, memref<12xf32>
  %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
  memref.copy %alloc, %alloc_1 : memref<12xf32> to memref<12xf32>
  cf.br ^bb3(%alloc_1 : memref<12xf32>)
^bb2:
  %6 = vector.transfer_read %3[%c0], %0 {in_bounds = [true]} : memref<12xf32>, vector<12xf32>
  %7 = math.trunc %6 : vector<12xf32>
  vector.transfer_write %7, %arg3[%c0] {in_bounds = [true]} : vector<12xf32>, memref<12xf32>
  cf.br ^bb3(%arg3 : memref<12xf32>)
^bb3(%8: memref<12xf32>):
  memref.copy %8, %arg3 : memref<12xf32> to memref<12xf32>
  return
}

// Structured control flow only: nothing to do.
// CHECK-LABEL: func.func @structured
// CHECK-NOT: memref.cast
// CHECK: return
func.func @structured(%arg0: memref<12xf32>, %arg1: index, %arg2: i1, %arg3: memref<12xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc() : memref<12xf32>
  %3 = scf.for %arg4 = %c0 to %arg1 step %c1 iter_args(%arg5 = %alloc) -> (memref<12xf32>) {
    %alloc_2 = memref.alloc() : memref<12xf32>
    memref.copy %arg5, %alloc_2 : memref<12xf32> to memref<12xf32>
    scf.yield %alloc_2 : memref<12xf32>
  }
  scf.if %arg2 {
    memref.copy %3, %arg3 : memref<12xf32> to memref<12xf32>
  }
  return
}
