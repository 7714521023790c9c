// RUN: quant-affine-opt %s --quant-affine-test-launches-on-cpu --split-input-file --verify-diagnostics | FileCheck %s

// A launch becomes loops over blocks (z, y, x) and threads (z, y, x) with
// the body unchanged; host GPU memory ops become memref ops.
// CHECK-LABEL: func.func @plain
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<64xf32>
// CHECK: scf.for %[[BZ:.*]] =
// CHECK: scf.for %[[BY:.*]] =
// CHECK: scf.for %[[BX:.*]] =
// CHECK: scf.for %[[TZ:.*]] =
// CHECK: scf.for %[[TY:.*]] =
// CHECK: scf.for %[[TX:.*]] =
// CHECK: %[[I:.*]] = affine.apply #{{.*}}(%[[BX]], %[[TX]])
// CHECK: memref.store %{{.*}}, %[[BUF]][%[[I]]]
// CHECK: memref.copy %[[BUF]], %{{.*}}
// CHECK: memref.dealloc %[[BUF]]
// CHECK-NOT: gpu.
func.func @plain(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %buf = gpu.alloc host_shared () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(b, t) -> (b * 32 + t)>(%bx, %tx)
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    memref.store %v, %buf[%i] : memref<64xf32>
    gpu.terminator
  }
  %t = gpu.wait async
  %c = gpu.memcpy async [%t] %out, %buf : memref<64xf32>, memref<64xf32>
  %d = gpu.dealloc async [%c] %buf : memref<64xf32>
  gpu.wait [%d]
  return
}

// -----

// A shuffle cuts the body: every thread publishes its value, then every
// thread reads its partner's (lane xor 16 within 32), and what crosses the
// cut (the sum's operand, the lane test) is kept per thread.
// CHECK-LABEL: func.func @warp_sum
// CHECK-DAG: %[[PUB:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[PUB]][%{{.*}}]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: arith.xori %[[LANE]], %{{.*}} : index
// CHECK: memref.load %[[PUB]]
// CHECK-NOT: gpu.shuffle
func.func @warp_sum(%x: memref<32xf32>, %out: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : i32
    %w = arith.constant 32 : i32
    %v = memref.load %x[%tx] : memref<32xf32>
    %other, %valid = gpu.shuffle xor %v, %c16, %w : f32
    %s = arith.addf %v, %other : f32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %s, %out[%c0] : memref<1xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// What needs all threads at once and cannot be cut is an error.
func.func @reduce_op(%x: memref<32xf32>, %out: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<32xf32>
    // expected-error @below {{cannot run this GPU op on the CPU}}
    %s = gpu.subgroup_reduce add %v : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.terminator
  }
  return
}
