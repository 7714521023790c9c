// RUN: quant-affine-opt %s --split-input-file --quant-affine-sink-reads-into-launch | FileCheck %s

// A read that hoisting took out of the loop, and the broadcast of its value,
// go back into the kernel: the host must not read the caller's buffer, which
// may be device memory.

// CHECK-LABEL: func.func @hoisted_scale
// CHECK-NOT: memref.load
// CHECK-NOT: vector.broadcast
// CHECK: gpu.launch
// CHECK: %[[S:.*]] = memref.load %arg0[]
// CHECK: %[[B:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: arith.divf %{{.*}}, %[[B]]
// CHECK: gpu.terminator
func.func @hoisted_scale(%s: memref<f32>, %x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %scale = memref.load %s[] : memref<f32>
  %b = vector.broadcast %scale : f32 to vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i = arith.muli %tx, %c4 : index
    %v = vector.load %x[%i] : memref<64xf32>, vector<4xf32>
    %q = arith.divf %v, %b : vector<4xf32>
    vector.store %q, %y[%i] : memref<64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A read of a buffer the kernel writes (through a view) stays where it is:
// inside, a thread could see another's write.

// CHECK-LABEL: func.func @written_by_the_kernel
// CHECK: %[[S:.*]] = memref.load %arg0[%{{.*}}]
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg0
// CHECK: vector.broadcast %[[S]]
func.func @written_by_the_kernel(%xy: memref<65xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %scale = memref.load %xy[%c0] : memref<65xf32>
  %view = memref.subview %xy[1] [64] [1] : memref<65xf32> to memref<64xf32, strided<[1], offset: 1>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %b = vector.broadcast %scale : f32 to vector<4xf32>
    %i = arith.muli %tx, %c4 : index
    %v = vector.load %view[%i] : memref<64xf32, strided<[1], offset: 1>>, vector<4xf32>
    %q = arith.divf %v, %b : vector<4xf32>
    vector.store %q, %view[%i] : memref<64xf32, strided<[1], offset: 1>>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A value the host uses too stays on the host as well; the kernel gets its
// own read.

// CHECK-LABEL: func.func @used_on_both_sides
// CHECK: %[[HOST:.*]] = memref.load %arg0[]
// CHECK: gpu.launch
// CHECK: %[[DEVICE:.*]] = memref.load %arg0[]
// CHECK: memref.store %[[DEVICE]], %arg1
// CHECK: gpu.terminator
// CHECK: return %[[HOST]]
func.func @used_on_both_sides(%s: memref<f32>, %y: memref<16xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %scale = memref.load %s[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    memref.store %scale, %y[%tx] : memref<16xf32>
    gpu.terminator
  }
  return %scale : f32
}

// -----

// A read of a buffer that the host writes after it, before the launch, stays
// on the host: inside the kernel it would see the new value.

// CHECK-LABEL: func.func @written_before_the_launch
// CHECK: %[[S:.*]] = memref.load %arg0[]
// CHECK: memref.store %{{.*}}, %arg0[]
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg0
// CHECK: memref.store %[[S]], %arg1
func.func @written_before_the_launch(%s: memref<f32>, %y: memref<16xf32>, %new: f32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %scale = memref.load %s[] : memref<f32>
  memref.store %new, %s[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    memref.store %scale, %y[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// An op between them that writes another buffer does not keep it out.

// CHECK-LABEL: func.func @other_buffer_written_before
// CHECK-NOT: memref.load %arg0
// CHECK: memref.store %{{.*}}, %arg2[]
// CHECK: gpu.launch
// CHECK: %[[S:.*]] = memref.load %arg0[]
// CHECK: memref.store %[[S]], %arg1
func.func @other_buffer_written_before(%s: memref<f32>, %y: memref<16xf32>, %t: memref<f32>, %new: f32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %scale = memref.load %s[] : memref<f32>
  memref.store %new, %t[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    memref.store %scale, %y[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}
