// RUN: quant-affine-opt %s --quant-affine-check-host-access --split-input-file --verify-diagnostics

// Host code that reads a buffer argument of a public function: it may be
// device memory.
func.func @host_read(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{host code reads argument #0 of @host_read, which may be device memory}}
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Through a view, and a write.
func.func @host_write(%m: memref<8xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  // expected-error @below {{host code writes argument #0 of @host_write}}
  vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, strided<[1], offset: 4>>
  return
}

// -----

// A private helper that a public function passes its argument to.
func.func private @helper(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{host code reads argument #0 of @helper}}
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}
func.func @caller(%m: memref<4xf32>) -> f32 {
  %v = func.call @helper(%m) : (memref<4xf32>) -> f32
  return %v : f32
}

// -----

// A private helper that only gets buffers the module allocates (what the
// deallocation helpers bufferization makes get): host memory, no error.
// Kernels may touch arguments, and the driver copies them.
func.func private @only_local(%m: memref<2xi1>) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  memref.store %t, %m[%c0] : memref<2xi1>
  return
}
func.func @fine(%m: memref<4xf32>, %d: memref<4xf32>) {
  %a = gpu.alloc host_shared () : memref<2xi1>
  func.call @only_local(%a) : (memref<2xi1>) -> ()
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0] : memref<4xf32>
    memref.store %v, %m[%c0] : memref<4xf32>
    gpu.terminator
  }
  %t = gpu.wait async
  %c = gpu.memcpy async [%t] %d, %m : memref<4xf32>, memref<4xf32>
  gpu.wait [%c]
  return
}

// -----

// A stack buffer reaching a kernel.
func.func @stack(%v: f32) {
  // expected-note @below {{the buffer comes from here}}
  %a = memref.alloca() : memref<4xf32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{host memory reaches this GPU kernel: a stack buffer (memref.alloca)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A mutable global reaching a kernel (constants get managed copies first).
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @global_state(%v: f32) {
  // expected-note @below {{the buffer comes from here}}
  %g = memref.get_global @state : memref<4xf32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{host memory reaches this GPU kernel: global @state}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    memref.store %v, %g[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}
