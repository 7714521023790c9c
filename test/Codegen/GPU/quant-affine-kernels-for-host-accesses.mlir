// RUN: quant-affine-opt %s --quant-affine-kernels-for-host-accesses --split-input-file | FileCheck %s

// What a 1 x 1 op leaves when its one-iteration tile loop is folded away: a
// read of an argument, arithmetic, a write; all of it goes into a
// one-iteration scf.parallel (a one-thread kernel after the mapping).
// CHECK-LABEL: func.func @one_element
// CHECK-NOT: vector.transfer
// CHECK: scf.parallel
// CHECK: vector.transfer_read
// CHECK: arith.mulf
// CHECK: vector.transfer_write
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @one_element(%x: memref<1x1xf32>, %y: memref<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : vector<1x1xf32>
  %v = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x1xf32>, vector<1x1xf32>
  %w = arith.mulf %v, %two : vector<1x1xf32>
  vector.transfer_write %w, %y[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x1xf32>
  return
}

// -----

// A read moves down past an allocation and a copy into another buffer to
// the write it feeds; the side-effect-free op the host also needs after
// the run stays on the host.
// CHECK-LABEL: func.func @sunk
// CHECK: gpu.alloc
// CHECK: gpu.memcpy
// CHECK: %[[N:.*]] = arith.addi
// CHECK: scf.parallel
// CHECK-NEXT: memref.load %{{.*}}[%[[N]]]
// CHECK-NEXT: memref.store
// CHECK: return %[[N]]
func.func @sunk(%x: memref<8xf32>, %y: memref<8xf32>, %i: index) -> index {
  %c1 = arith.constant 1 : index
  %n = arith.addi %i, %c1 : index
  %v = memref.load %x[%n] : memref<8xf32>
  %a = gpu.alloc host_shared () : memref<8xf32>
  %t = gpu.wait async
  %c = gpu.memcpy async [%t] %a, %x : memref<8xf32>, memref<8xf32>
  gpu.wait [%c]
  memref.store %v, %y[%i] : memref<8xf32>
  return %n : index
}

// -----

// A value the host needs (a branch condition) is read on the host: that
// read stays, to be reported by quant-affine-check-host-access.
// CHECK-LABEL: func.func @needed
// CHECK-NOT: scf.parallel
// CHECK: %[[V:.*]] = memref.load
// CHECK: arith.cmpf
// CHECK: scf.if
func.func @needed(%x: memref<8xf32>, %i: index) -> i32 {
  %v = memref.load %x[%i] : memref<8xf32>
  %z = arith.constant 0.0 : f32
  %p = arith.cmpf ogt, %v, %z : f32
  %r = scf.if %p -> i32 {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %zero = arith.constant 0 : i32
    scf.yield %zero : i32
  }
  return %r : i32
}

// -----

// Two outputs of one 8-element input, each op a single tile (vector width
// 16), after CSE shared the read of %x: the allocation of the second output
// splits the ops into two runs. Each run's kernel reads %x itself (the
// later one through a copy of the read and of the op carrying its value),
// so no read stays on the host and every value is defined in the kernel
// that uses it.
// CHECK-LABEL: func.func @shared_read
// CHECK-NOT: vector.transfer_read
// CHECK: gpu.alloc
// CHECK: scf.parallel
// CHECK-NEXT: %[[V:.*]] = vector.transfer_read %arg0[
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[V]]
// CHECK-NEXT: arith.mulf %[[N]]
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: scf.reduce
// CHECK: gpu.alloc
// CHECK: scf.parallel
// CHECK-NEXT: %[[V2:.*]] = vector.transfer_read %arg0[
// CHECK-NEXT: %[[N2:.*]] = arith.negf %[[V2]]
// CHECK-NEXT: arith.addf %[[N2]]
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @shared_read(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : vector<8xf32>
  %v = vector.transfer_read %x[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %n = arith.negf %v : vector<8xf32>
  %a = gpu.alloc host_shared () : memref<8xf32>
  %m = arith.mulf %n, %two : vector<8xf32>
  vector.transfer_write %m, %a[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  %b = gpu.alloc host_shared () : memref<8xf32>
  %s = arith.addf %n, %two : vector<8xf32>
  vector.transfer_write %s, %b[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  return %a, %b : memref<8xf32>, memref<8xf32>
}

// -----

// The same, but the first kernel overwrites the buffer read: the later run
// may not read it again, so the read stays on the host as well, for
// quant-affine-check-host-access to report, rather than a kernel's value
// used by another kernel.
// CHECK-LABEL: func.func @read_then_written
// CHECK: %[[V:.*]] = vector.transfer_read
// CHECK-NEXT: gpu.alloc
// CHECK: scf.parallel
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: arith.negf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.transfer_write %{{.*}}, %arg0
// CHECK: scf.parallel
// CHECK-NEXT: arith.negf %[[V]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: vector.transfer_write
func.func @read_then_written(%x: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : vector<8xf32>
  %v = vector.transfer_read %x[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %n = arith.negf %v : vector<8xf32>
  %a = gpu.alloc host_shared () : memref<8xf32>
  %m = arith.mulf %n, %two : vector<8xf32>
  vector.transfer_write %m, %x[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  %b = gpu.alloc host_shared () : memref<8xf32>
  %s = arith.addf %n, %two : vector<8xf32>
  vector.transfer_write %s, %b[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  return %b : memref<8xf32>
}
