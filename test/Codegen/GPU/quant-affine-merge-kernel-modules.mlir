// RUN: quant-affine-opt %s --quant-affine-merge-kernel-modules --split-input-file | FileCheck %s

// Outlining gives every kernel a module; the kernels of a module share one.
// A kernel whose name is taken takes its old module's name, and the
// launches follow.
// CHECK-LABEL: module @same_names
// CHECK: gpu.module @kernels {
// CHECK-NEXT: gpu.func @f_kernel(%{{.*}}: memref<4xf32>) kernel
// CHECK: arith.constant 1.0
// CHECK: gpu.func @f_kernel_0(%{{.*}}: memref<4xf32>) kernel
// CHECK: arith.constant 2.0
// CHECK-NOT: gpu.module
// CHECK: func.func @f(
// CHECK: gpu.launch_func @kernels::@f_kernel blocks
// CHECK: gpu.launch_func @kernels::@f_kernel_0 blocks
// CHECK: gpu.launch_func @kernels::@f_kernel_0 blocks
module @same_names attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %two = arith.constant 2.0 : f32
      memref.store %two, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

// A function both kernels call (outlining copies it into each module) is
// kept twice, the second renamed, and the call in its module follows. A
// kernel whose old module's name is taken too gets a suffix. A host symbol
// named `kernels` keeps its name; the merged module takes the next free one.
// CHECK-LABEL: module @helpers
// CHECK: gpu.module @kernels_0 {
// CHECK-NEXT: func.func private @helper() -> f32
// CHECK: arith.constant 1.0
// CHECK: gpu.func @g_kernel(
// CHECK: func.call @helper()
// CHECK: func.func @g_kernel_0()
// CHECK: func.func private @helper_0() -> f32
// CHECK: arith.constant 2.0
// CHECK: gpu.func @g_kernel_1(
// CHECK: func.call @helper_0()
// CHECK: func.call @g_kernel_0_0()
// CHECK: func.func @g_kernel_0_0()
// CHECK: func.func @kernels()
// CHECK: gpu.launch_func @kernels_0::@g_kernel blocks
// CHECK: gpu.launch_func @kernels_0::@g_kernel_1 blocks
module @helpers attributes {gpu.container_module} {
  gpu.module @g_kernel {
    func.func private @helper() -> f32 {
      %one = arith.constant 1.0 : f32
      return %one : f32
    }
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @helper() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
    func.func @g_kernel_0() {
      return
    }
  }
  gpu.module @g_kernel_0 {
    func.func private @helper() -> f32 {
      %two = arith.constant 2.0 : f32
      return %two : f32
    }
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @helper() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      func.call @g_kernel_0() : () -> ()
      gpu.return
    }
    func.func @g_kernel_0() {
      return
    }
  }
  func.func @kernels() {
    return
  }
  func.func @g(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @g_kernel_0::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

// Only modules with the same attributes (here, targets) are merged; one
// that has no partner keeps its name.
// CHECK-LABEL: module @targets
// CHECK: gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
// CHECK: gpu.func @a_kernel(
// CHECK: gpu.func @c_kernel(
// CHECK: gpu.module @b_kernel [#nvvm.target<chip = "sm_80">] {
// CHECK: gpu.func @b_kernel(
// CHECK: gpu.launch_func @kernels::@a_kernel
// CHECK: gpu.launch_func @b_kernel::@b_kernel
// CHECK: gpu.launch_func @kernels::@c_kernel
module @targets attributes {gpu.container_module} {
  gpu.module @a_kernel [#nvvm.target<chip = "sm_90">] {
    gpu.func @a_kernel() kernel {
      gpu.return
    }
  }
  gpu.module @b_kernel [#nvvm.target<chip = "sm_80">] {
    gpu.func @b_kernel() kernel {
      gpu.return
    }
  }
  gpu.module @c_kernel [#nvvm.target<chip = "sm_90">] {
    gpu.func @c_kernel() kernel {
      gpu.return
    }
  }
  func.func @run() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a_kernel::@a_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @b_kernel::@b_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @c_kernel::@c_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// One kernel module: nothing changes.
// CHECK-LABEL: module @single
// CHECK: gpu.module @only_kernel {
// CHECK: gpu.launch_func @only_kernel::@only_kernel
module @single attributes {gpu.container_module} {
  gpu.module @only_kernel {
    gpu.func @only_kernel() kernel {
      gpu.return
    }
  }
  func.func @run() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @only_kernel::@only_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A nested module's kernel modules are merged among themselves, and its
// launches name its own modules, even where the outer module has the same
// names.
// CHECK-LABEL: module @outer
// CHECK: gpu.module @kernels {
// CHECK: gpu.func @k(
// CHECK: gpu.func @k_0(
// CHECK: module @inner
// CHECK: gpu.module @kernels {
// CHECK: gpu.func @k(
// CHECK: gpu.func @k_0(
// CHECK: func.func @run_inner()
// CHECK: gpu.launch_func @kernels::@k_0
// CHECK: func.func @run_outer()
// CHECK: gpu.launch_func @kernels::@k
// CHECK: gpu.launch_func @kernels::@k_0
module @outer attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @k_0 {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  module @inner attributes {gpu.container_module} {
    gpu.module @k {
      gpu.func @k() kernel {
        gpu.return
      }
    }
    gpu.module @k_0 {
      gpu.func @k() kernel {
        gpu.return
      }
    }
    func.func @run_inner() {
      %c1 = arith.constant 1 : index
      gpu.launch_func @k_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      return
    }
  }
  func.func @run_outer() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// References are redirected in host code only, and only the host's own:
// device code that calls a helper named like a merged module keeps its
// call, and a nested module whose single kernel module is left alone keeps
// its launch (same names as the outer ones). A declaration both modules
// have is kept once, not renamed to a symbol nothing defines.
// CHECK-LABEL: module @own_references
// CHECK: gpu.module @kernels {
// CHECK: func.func private @b() -> f32
// CHECK: gpu.func @a(
// CHECK: func.call @b() : () -> f32
// CHECK: func.func private @ext(f32) -> f32
// CHECK-NOT: @ext_0
// CHECK: gpu.func @b_0(
// CHECK: func.call @ext(
// CHECK: module @inner
// CHECK: gpu.module @b {
// CHECK: gpu.launch_func @b::@b blocks
// CHECK: func.func @f(
// CHECK: gpu.launch_func @kernels::@a blocks
// CHECK: gpu.launch_func @kernels::@b_0 blocks
module @own_references attributes {gpu.container_module} {
  gpu.module @a {
    func.func private @b() -> f32 {
      %one = arith.constant 1.0 : f32
      return %one : f32
    }
    gpu.func @a(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @b() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
    func.func private @ext(f32) -> f32
  }
  gpu.module @b {
    func.func private @ext(f32) -> f32
    gpu.func @b(%m: memref<4xf32>, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @ext(%x) : (f32) -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  module @inner attributes {gpu.container_module} {
    gpu.module @b {
      gpu.func @b() kernel {
        gpu.return
      }
    }
    func.func @run_inner() {
      %c1 = arith.constant 1 : index
      gpu.launch_func @b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      return
    }
  }
  func.func @f(%m: memref<4xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>, %x : f32)
    return
  }
}

// -----

// Merged modules go to the top of their module (the GPU dialect's verifier
// looks each launch's module up by a scan from there).
// CHECK-LABEL: module @placement
// CHECK-NEXT: gpu.module @kernels {
// CHECK: gpu.func @p_kernel(
// CHECK: gpu.func @q_kernel(
// CHECK: func.func @p()
// CHECK: gpu.launch_func @kernels::@p_kernel
// CHECK: func.func @q()
// CHECK: gpu.launch_func @kernels::@q_kernel
module @placement attributes {gpu.container_module} {
  func.func @p() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @p_kernel::@p_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @p_kernel {
    gpu.func @p_kernel() kernel {
      gpu.return
    }
  }
  func.func @q() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @q_kernel::@q_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @q_kernel {
    gpu.func @q_kernel() kernel {
      gpu.return
    }
  }
}

// -----

// A lone kernel module keeps its name, and moves to the top too.
// CHECK-LABEL: module @lone_after_function
// CHECK-NEXT: gpu.module @a {
// CHECK: func.func @p()
// CHECK: gpu.launch_func @a::@a
module @lone_after_function attributes {gpu.container_module} {
  func.func @p() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @a {
    gpu.func @a() kernel {
      gpu.return
    }
  }
}
