// RUN: quant-affine-opt %s --split-input-file --quant-affine-managed-allocations | FileCheck %s

// Host buffers are allocated as managed memory, which kernels can touch and
// the host can still read; every host dealloc frees through the GPU runtime
// (async, the only form gpu-to-llvm lowers, then waited for).

// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NOT: memref.alloc
// CHECK: %[[A:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf32>
// CHECK: %[[B:.*]] = gpu.alloc  host_shared () : memref<16xi8>
// CHECK: %[[START:.*]] = gpu.wait async
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[START]]] %[[B]] : memref<16xi8>
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[A]]
func.func @host(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<16xi8>
  memref.dealloc %b : memref<16xi8>
  return %a : memref<?xf32>
}

// Device code keeps its own allocations.
// CHECK-LABEL: gpu.module @kernels
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.dealloc %{{.*}} : memref<4xf32>
gpu.module @kernels {
  gpu.func @kernel() kernel {
    %t = memref.alloc() : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
    gpu.return
  }
}

// So does code in a gpu.launch.
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: gpu.terminator
func.func @launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %s = memref.alloca() : memref<4xf32>
    %t = memref.alloc() : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// A copy out of (or into) an argument's buffer, which may be device memory,
// goes through the driver (gpu.memcpy, waited for); a copy between the
// function's own buffers stays a host copy.

// CHECK-LABEL: func.func @copies
// CHECK: %[[R:.*]] = gpu.alloc  host_shared () : memref<4x8xf32>
// CHECK: %[[START:.*]] = gpu.wait async
// CHECK-NEXT: %[[DONE:.*]] = gpu.memcpy async [%[[START]]] %[[R]], %arg0 : memref<4x8xf32>, memref<4x8xf32>
// CHECK-NEXT: gpu.wait [%[[DONE]]]
// CHECK: memref.copy %[[R]], %{{.*}} : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: return %[[R]]
func.func @copies(%arg: memref<4x8xf32>) -> memref<4x8xf32> {
  %r = memref.alloc() : memref<4x8xf32>
  memref.copy %arg, %r : memref<4x8xf32> to memref<4x8xf32>
  %t = memref.alloc() : memref<4x8xf32>
  memref.copy %r, %t : memref<4x8xf32> to memref<4x8xf32>
  return %r : memref<4x8xf32>
}
