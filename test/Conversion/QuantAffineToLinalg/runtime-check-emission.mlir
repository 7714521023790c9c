// How run-time checks reach the C functions that report a failure.
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg="runtime-checks=true" --split-input-file -verify-diagnostics | FileCheck %s
// Scheduled on each function the pass cannot declare them in the module:
// cf.assert instead, with the run-time sizes as `?`.
// RUN: quant-affine-opt %s --pass-pipeline="builtin.module(func.func(convert-quant-affine-to-linalg{runtime-checks=true}))" \
// RUN:   --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=NESTED

// One declaration of each function, one format string per rule and op (the
// message holds the op's location): a block of 4 over a dynamic dim checks
// that 4 divides it and that it has 4 x 3 elements.
// CHECK-LABEL: module
// CHECK-COUNT-4: llvm.mlir.global private constant
// CHECK-NOT: llvm.mlir.global
// CHECK: llvm.func @abort()
// CHECK-NEXT: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// CHECK-NOT: llvm.func
// CHECK-LABEL: func.func @two_ops
// CHECK-COUNT-4: llvm.call @dprintf
// CHECK-NOT: cf.assert
// NESTED-LABEL: func.func @two_ops
// NESTED-NOT: llvm.
// NESTED: cf.assert %{{.*}}, "{{.*}}runtime-check-emission.mlir:[[# @LINE + 4]]:8: error: quant_affine.qdq run-time check failed: input dim 0 has ? elements, not a multiple of block_size 4"
// NESTED: cf.assert %{{.*}}, "{{.*}}runtime-check-emission.mlir:[[# @LINE + 3]]:8: error: quant_affine.qdq run-time check failed: input dim 0 has ? elements but block_size 4 x scale dim 0 size 3 needs 12"
// NESTED: cf.assert
func.func @two_ops(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %a = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  %b = quant_affine.qdq %a, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %b : tensor<?xf32>
}

// -----

// A user's own declaration of abort() is called as it is.
// CHECK-LABEL: module
// CHECK: llvm.func @dprintf
// CHECK: func.func private @abort()
// CHECK-NOT: llvm.func @abort
// CHECK: llvm.call @dprintf
// CHECK-NEXT: func.call @abort() : () -> ()
func.func private @abort()
func.func @own_abort(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
