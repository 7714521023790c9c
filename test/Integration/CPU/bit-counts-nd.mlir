// math.ctlz, math.cttz and math.ctpop on a tensor vectorized whole as a 2-D
// vector (4 x 2 with vector-width=8): upstream's convert-math-to-llvm takes
// only scalars and 1-D vectors, and the pipeline failed with "failed to
// legalize operation 'math.ctlz'". quant-affine-flatten-bit-counts counts
// on the flattened vector. Each option set and the GPU mapping run on the
// CPU print the same counts.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=4" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// Inputs 0, 1, 0x80000000, -1, 0x00F00000, 12, 0x7FFFFFFF, 256.
// CHECK:      [32,   31],
// CHECK-NEXT: [0,   0],
// CHECK-NEXT: [8,   28],
// CHECK-NEXT: [1,   23]
// CHECK:      [32,   0],
// CHECK-NEXT: [31,   0],
// CHECK-NEXT: [20,   2],
// CHECK-NEXT: [0,   8]
// CHECK:      [0,   1],
// CHECK-NEXT: [1,   32],
// CHECK-NEXT: [4,   2],
// CHECK-NEXT: [31,   1]
func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})
func.func @counts(%x: tensor<4x2xi32>) -> (tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>) {
  %l = math.ctlz %x : tensor<4x2xi32>
  %t = math.cttz %x : tensor<4x2xi32>
  %p = math.ctpop %x : tensor<4x2xi32>
  return %l, %t, %p : tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>
}
func.func @main() {
  %x = arith.constant dense<[[0, 1], [-2147483648, -1], [15728640, 12], [2147483647, 256]]> : tensor<4x2xi32>
  %l, %t, %p = call @counts(%x) : (tensor<4x2xi32>) -> (tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>)
  %lu = tensor.cast %l : tensor<4x2xi32> to tensor<*xi32>
  %tu = tensor.cast %t : tensor<4x2xi32> to tensor<*xi32>
  %pu = tensor.cast %p : tensor<4x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%lu) : (tensor<*xi32>) -> ()
  func.call @printMemrefI32(%tu) : (tensor<*xi32>) -> ()
  func.call @printMemrefI32(%pu) : (tensor<*xi32>) -> ()
  return
}
