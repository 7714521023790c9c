// RUN: quant-affine-opt %s --quant-affine-map-to-gpu --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-map-to-gpu="block-size=128" --split-input-file | FileCheck %s --check-prefix=B128
// RUN: not quant-affine-opt %s --quant-affine-map-to-gpu="block-size=2048" --split-input-file 2>&1 | FileCheck %s --check-prefix=BIG

// Each outermost scf.parallel becomes a loop over blocks around a loop over
// the threads of a block, with the mapping convert-parallel-loops-to-gpu
// reads: the innermost dim on thread x (coalesced accesses), the dim with the
// most blocks on block x.

// The block loop steps by step x threads; the thread loop counts threads;
// a thread's index is block + thread x step. 8 x 1024 in tiles of 4 divides
// evenly: no guard.
// CHECK-LABEL: func.func @rows
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[STEP:.*]] = arith.muli %[[C4]], %[[C256]] : index
// CHECK: scf.parallel (%[[BI:.*]], %[[BJ:.*]]) = ({{.*}}) to ({{.*}}) step (%{{.*}}, %[[STEP]]) {
// CHECK: scf.parallel (%[[TI:.*]], %[[TJ:.*]]) = ({{.*}}) to ({{.*}}) step ({{.*}}) {
// CHECK: %[[I:.*]] = arith.addi %[[BI]], %{{.*}} : index
// CHECK: %[[OJ:.*]] = arith.muli %[[TJ]], %[[C4]] : index
// CHECK: %[[J:.*]] = arith.addi %[[BJ]], %[[OJ]] : index
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>, #gpu.loop_dim_map<processor = block_y, {{.*}}>]}

// B128-LABEL: func.func @rows
// B128: %[[C128:.*]] = arith.constant 128 : index
// B128: arith.muli %{{.*}}, %[[C128]] : index
// B128: mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]

// BIG: error: block-size must be in [1, 1024], got 2048
func.func @rows(%m: memref<8x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c1024) step (%c1, %c4) {
    memref.store %f, %m[%i, %j] : memref<8x1024xf32>
    scf.reduce
  }
  return
}

// -----

// 1000 iterations in blocks of 256: the last block's extra threads do
// nothing.
// CHECK-LABEL: func.func @ragged
// CHECK-DAG: %[[C1000:.*]] = arith.constant 1000 : index
// CHECK: scf.parallel (%[[B:.*]]) =
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[I:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[C1000]] : index
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @ragged(%m: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    memref.store %f, %m[%i] : memref<1000xf32>
    scf.reduce
  }
  return
}

// -----

// A linalg op on buffers outside any loop runs on the device too: a rank-0
// op in a one-iteration loop, others as parallel loops.
// CHECK-LABEL: func.func @untiled
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: linalg.copy ins(%{{.*}} : memref<f32>) outs(%{{.*}} : memref<f32>)
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: linalg.copy
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]
// CHECK: return
func.func @untiled(%a: memref<f32>, %b: memref<f32>, %c: memref<64xf32>, %d: memref<64xf32>) {
  linalg.copy ins(%a : memref<f32>) outs(%b : memref<f32>)
  linalg.copy ins(%c : memref<64xf32>) outs(%d : memref<64xf32>)
  return
}

// -----

// memref.copy left on the host (bufferized tensor.pad, tensor.concat,
// insert_slice) may touch device memory: it becomes parallel loops too. A
// copy to or from a stack buffer stays on the host, which alone reaches it.
// CHECK-LABEL: func.func @host_copies
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.load %{{.*}} : memref<4x3xf32>
// CHECK: memref.store %{{.*}} : memref<4x3xf32, strided<[5, 1], offset: 6>>
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]
// CHECK: memref.copy %[[STACK:.*]], %{{.*}} : memref<2xf32> to memref<2xf32>
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @host_copies(%a: memref<4x3xf32>, %b: memref<6x5xf32>, %c: memref<2xf32>) {
  %view = memref.subview %b[1, 1] [4, 3] [1, 1] : memref<6x5xf32> to memref<4x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %a, %view : memref<4x3xf32> to memref<4x3xf32, strided<[5, 1], offset: 6>>
  %stack = memref.alloca() : memref<2xf32>
  memref.copy %stack, %c : memref<2xf32> to memref<2xf32>
  return
}

// -----

// A dynamic row count guards the rows only; the columns (2 vector tiles of 4
// per row) are exact. The guard compares the thread's own index, scaled by
// the step once: the guard of upstream's tileParallelLoop scaled it twice
// (thread x 4 x 4 < 8), so only thread 0 of each row wrote.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %[[C0]]
// CHECK: scf.parallel (%[[BI:.*]], %[[BJ:.*]]) =
// CHECK: scf.parallel (%[[TI:.*]], %[[TJ:.*]]) =
// CHECK: %[[I:.*]] = arith.addi %[[BI]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK: %[[OJ:.*]] = arith.muli %[[TJ]], %[[C4]] : index
// CHECK: %[[J:.*]] = arith.addi %[[BJ]], %[[OJ]] : index
// CHECK-NOT: arith.cmpi
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: vector.transfer_write %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
func.func @dynamic_rows(%m: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %m, %c0 : memref<?x8xf32>
  %v = arith.constant dense<1.0> : vector<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c8) step (%c1, %c4) {
    vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x8xf32>
    scf.reduce
  }
  return
}

// -----

// A parallel loop inside a tile's body (a tile that was not vectorized runs
// its elements in a loop) runs in order in its thread: without a mapping,
// upstream's conversion would leave the whole nest on the host.
// CHECK-LABEL: func.func @nested_loop
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.store
// CHECK: {mapping = [#gpu.loop_dim_map<processor = sequential
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_y
// CHECK-SAME: #gpu.loop_dim_map<processor = thread_x
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-SAME: #gpu.loop_dim_map<processor = block_y
func.func @nested_loop(%x: memref<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c16) step (%c1, %c4) {
    scf.parallel (%k) = (%c0) to (%c4) step (%c1) {
      %col = arith.addi %j, %k : index
      memref.store %f, %x[%i, %col] : memref<3x16xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
