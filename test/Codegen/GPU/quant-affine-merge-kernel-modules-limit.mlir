// RUN: quant-affine-opt %s --quant-affine-merge-kernel-modules="max-modules=2" | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-merge-kernel-modules="max-modules=1" | FileCheck %s --check-prefix=ONE
// RUN: not quant-affine-opt %s --quant-affine-merge-kernel-modules="max-modules=-1" 2>&1 \
// RUN: | FileCheck %s --check-prefix=NEG

// NEG: error: max-modules must be at least 0, got -1

// With max-modules=2, five kernel modules become three: two pairs and the
// last one alone, which keeps its name. Each merged module takes the next
// free name, and the launches follow.
// CHECK: gpu.module @kernels {
// CHECK-NEXT: gpu.func @k0(
// CHECK: gpu.func @k1(
// CHECK: gpu.module @kernels_0 {
// CHECK-NEXT: gpu.func @k2(
// CHECK: gpu.func @k3(
// CHECK: gpu.module @k4 {
// CHECK-NEXT: gpu.func @k4(
// CHECK-NOT: gpu.module
// CHECK: func.func @run()
// CHECK-NEXT: arith.constant
// CHECK-NEXT: gpu.launch_func @kernels::@k0
// CHECK-NEXT: gpu.launch_func @kernels::@k1
// CHECK-NEXT: gpu.launch_func @kernels_0::@k2
// CHECK-NEXT: gpu.launch_func @kernels_0::@k3
// CHECK-NEXT: gpu.launch_func @k4::@k4

// One module each: nothing is merged, nothing renamed.
// ONE: gpu.module @k0 {
// ONE: gpu.module @k1 {
// ONE: gpu.module @k2 {
// ONE: gpu.module @k3 {
// ONE: gpu.module @k4 {
// ONE: gpu.launch_func @k0::@k0
// ONE: gpu.launch_func @k4::@k4
module attributes {gpu.container_module} {
  gpu.module @k0 {
    gpu.func @k0() kernel {
      gpu.return
    }
  }
  gpu.module @k1 {
    gpu.func @k1() kernel {
      gpu.return
    }
  }
  gpu.module @k2 {
    gpu.func @k2() kernel {
      gpu.return
    }
  }
  gpu.module @k3 {
    gpu.func @k3() kernel {
      gpu.return
    }
  }
  gpu.module @k4 {
    gpu.func @k4() kernel {
      gpu.return
    }
  }
  func.func @run() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k0::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k1::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k2::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k3::@k3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k4::@k4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
