// RUN: quant-affine-opt %s --quant-affine-deduplicate-kernels --split-input-file | FileCheck %s

// Two layers' kernels, the same but for their names and locations: the
// second module goes, and both launches run the first kernel. A third
// kernel stores another constant and stays.
// CHECK-LABEL: module @layers
// CHECK: gpu.module @f_kernel {
// CHECK-NEXT: gpu.func @f_kernel(%{{.*}}: memref<4xf32>, %{{.*}}: f32) kernel
// CHECK: arith.constant 1.0
// CHECK-NOT: gpu.module @f_kernel_0
// CHECK: gpu.module @f_kernel_1 {
// CHECK-NEXT: gpu.func @f_kernel_1(
// CHECK: arith.constant 2.0
// CHECK-NOT: gpu.module
// CHECK: func.func @f(
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: gpu.launch_func @f_kernel::@f_kernel blocks {{.*}} args(%arg0 : memref<4xf32>, %arg1 : f32)
// CHECK-NEXT: gpu.launch_func @f_kernel::@f_kernel blocks {{.*}} args(%arg2 : memref<4xf32>, %arg1 : f32)
// CHECK-NEXT: gpu.launch_func @f_kernel_1::@f_kernel_1 blocks
module @layers attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%m: memref<4xf32>, %x: f32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %m[%c0] : memref<4xf32>
      gpu.return
    } loc("first")
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel_0(%m: memref<4xf32>, %x: f32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index loc("second")
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel_1(%m: memref<4xf32>, %x: f32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %two = arith.constant 2.0 : f32
      %y = arith.addf %x, %two : f32
      memref.store %y, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  func.func @f(%a: memref<4xf32>, %x: f32, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>, %x : f32)
    gpu.launch_func @f_kernel_0::@f_kernel_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>, %x : f32)
    gpu.launch_func @f_kernel_1::@f_kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>, %x : f32)
    return
  }
}

// -----

// Kernels the same but for what they differ in, each kept: the order of a
// subtraction's operands (the same ops, the same types), an argument type,
// a kernel attribute, the module's target.
// CHECK-LABEL: module @different
// CHECK: gpu.module @a
// CHECK: gpu.module @operands
// CHECK: gpu.module @types
// CHECK: gpu.module @attributes
// CHECK: gpu.module @target
// CHECK: gpu.launch_func @a::@a
// CHECK: gpu.launch_func @operands::@operands
// CHECK: gpu.launch_func @types::@types
// CHECK: gpu.launch_func @attributes::@attributes
// CHECK: gpu.launch_func @target::@target
module @different attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @a(%m: memref<4xi32>, %x: i32, %y: i32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %d = arith.subi %x, %y : i32
      memref.store %d, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @operands {
    gpu.func @operands(%m: memref<4xi32>, %x: i32, %y: i32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %d = arith.subi %y, %x : i32
      memref.store %d, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @types {
    gpu.func @types(%m: memref<8xi32>, %x: i32, %y: i32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %d = arith.subi %x, %y : i32
      memref.store %d, %m[%c0] : memref<8xi32>
      gpu.return
    }
  }
  gpu.module @attributes {
    gpu.func @attributes(%m: memref<4xi32>, %x: i32, %y: i32) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %d = arith.subi %x, %y : i32
      memref.store %d, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @target [#nvvm.target<chip = "sm_90">] {
    gpu.func @target(%m: memref<4xi32>, %x: i32, %y: i32) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %d = arith.subi %x, %y : i32
      memref.store %d, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  func.func @f(%m: memref<4xi32>, %m8: memref<8xi32>, %x: i32, %y: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>, %x : i32, %y : i32)
    gpu.launch_func @operands::@operands blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>, %x : i32, %y : i32)
    gpu.launch_func @types::@types blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m8 : memref<8xi32>, %x : i32, %y : i32)
    gpu.launch_func @attributes::@attributes blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>, %x : i32, %y : i32)
    gpu.launch_func @target::@target blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>, %x : i32, %y : i32)
    return
  }
}

// -----

// Kernels that call a helper of the same name, but whose helpers differ:
// both kept. Where the helpers are the same, one module goes.
// CHECK-LABEL: module @helpers
// CHECK: gpu.module @k1 {
// CHECK: gpu.module @k2 {
// CHECK-NOT: gpu.module @k3
// CHECK: func.func @f(
// CHECK: gpu.launch_func @k1::@k1
// CHECK: gpu.launch_func @k2::@k2
// CHECK: gpu.launch_func @k1::@k1
module @helpers attributes {gpu.container_module} {
  gpu.module @k1 {
    func.func private @helper() -> f32 {
      %c = arith.constant 1.0 : f32
      return %c : f32
    }
    gpu.func @k1(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @helper() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @k2 {
    func.func private @helper() -> f32 {
      %c = arith.constant 2.0 : f32
      return %c : f32
    }
    gpu.func @k2(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @helper() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @k3 {
    func.func private @helper() -> f32 {
      %c = arith.constant 1.0 : f32
      return %c : f32
    }
    gpu.func @k3(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @helper() : () -> f32
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k1::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @k2::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @k3::@k3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

// Only this module's gpu.modules: a nested module's may be named from
// outside it, so its copies stay. References that start with a dropped
// module's kernel are redirected whatever follows (@k_0::@k_0::@x), and so
// are the module's own attributes.
// CHECK-LABEL: module @outer
// CHECK-SAME: test.entry = @k::@k
// CHECK: gpu.module @k {
// CHECK-NOT: gpu.module @k_0
// CHECK: module @inner
// CHECK: gpu.module @k {
// CHECK: gpu.module @k_0 {
// CHECK: gpu.launch_func @k::@k
// CHECK: gpu.launch_func @k_0::@k_0
// CHECK: func.func @f() attributes {test.deep = @k::@k::@x, test.inner = @inner::@k_0::@k_0}
// CHECK: gpu.launch_func @k::@k
// CHECK: gpu.launch_func @k::@k
module @outer attributes {gpu.container_module, test.entry = @k_0::@k_0} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @k_0 {
    gpu.func @k_0() kernel {
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
      gpu.func @k_0() kernel {
        gpu.return
      }
    }
    func.func @g() {
      %c1 = arith.constant 1 : index
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      gpu.launch_func @k_0::@k_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      return
    }
  }
  func.func @f() attributes {test.deep = @k_0::@k_0::@x, test.inner = @inner::@k_0::@k_0} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k_0::@k_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Kept: a module that device code names (a kernel launching a kernel; its
// reference is not rewritten), and modules whose kernels name kernels of
// their own module (the comparison ignores kernel names, so @a naming @b
// in one module and @b naming @b in the other would compare equal). A
// kernel-marked op that is not a gpu.func is compared with its name.
// CHECK-LABEL: module @device_names
// CHECK: gpu.module @m0 {
// CHECK: gpu.module @m1 {
// CHECK: gpu.launch_func @m2::@k2
// CHECK: gpu.module @m2 {
// CHECK: gpu.module @s1 {
// CHECK: gpu.module @s2 {
// CHECK: gpu.module @u1 {
// CHECK: gpu.module @u2 {
module @device_names attributes {gpu.container_module} {
  gpu.module @m0 {
    gpu.func @k0() kernel {
      gpu.return
    }
  }
  gpu.module @m1 {
    gpu.func @k1() kernel {
      %c1 = arith.constant 1 : index
      gpu.launch_func @m2::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @k2() kernel {
      gpu.return
    }
  }
  gpu.module @s1 {
    gpu.func @a() kernel attributes {test.next = @b} {
      gpu.return
    }
    gpu.func @b() kernel {
      gpu.return
    }
  }
  gpu.module @s2 {
    gpu.func @b() kernel attributes {test.next = @b} {
      gpu.return
    }
    gpu.func @a() kernel {
      gpu.return
    }
  }
  gpu.module @u1 {
    builtin.module attributes {gpu.kernel} {
    }
  }
  gpu.module @u2 {
    builtin.module @k attributes {gpu.kernel} {
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m1::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @s1::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @s2::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Nothing to drop: the module is printed as it came.
// CHECK-LABEL: module @distinct
// CHECK: gpu.module @a
// CHECK: gpu.module @b
module @distinct attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @a() kernel {
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @b() kernel {
      %c0 = arith.constant 0 : index
      gpu.return
    }
  }
}
