// The same output on every run for a module of several functions with
// tensor constants: One-Shot Module Bufferize in LLVM 22 meets them in an
// order that varies from run to run (five different outputs in six runs
// before quant-affine-name-constant-globals).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -o %t.1
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -o %t.2
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -o %t.3
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -o %t.4
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.3
// RUN: cmp %t.1 %t.4
// RUN: FileCheck %s < %t.1

// Named in program order, placed last-named first.
// CHECK: llvm.mlir.global private constant @__constant_4xf32_1(dense<[9.000000e+00,
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_0(dense<[5.000000e+00,
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32(dense<[1.000000e+00,
// CHECK-LABEL: llvm.func @a
// CHECK: llvm.mlir.addressof @__constant_4xf32 :
// CHECK-LABEL: llvm.func @b
// CHECK: llvm.mlir.addressof @__constant_4xf32_0 :
// CHECK-LABEL: llvm.func @c
// CHECK: llvm.mlir.addressof @__constant_4xf32_1 :

func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %y = arith.mulf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @c(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %y = arith.subf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
