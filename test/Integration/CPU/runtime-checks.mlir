// With runtime-checks, shapes that only turn out wrong at run time stop the
// program with a message on stderr naming the op, its location, the rule
// and the sizes, instead of reading out of bounds
// (runtime-check-report.mlir has one test per rule).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true" \
// RUN: | not --crash mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 \
// RUN: | FileCheck %s

// (The op is in a function of its own: where the wrong sizes are visible
// next to it, as through tensor.cast in one function, compiling fails
// instead; see test/Conversion/QuantAffineToLinalg/shape-errors.mlir.)
// CHECK: runtime-checks.mlir:[[# @LINE + 2]]:8: error: quant_affine.qdq run-time check failed: input dim 1 has 64 elements but block_size 32 x scale dim 1 size 3 needs 96
func.func @kernel(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = quant_affine.qdq %x, %s range [0, 255] block [1, 32] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @main() {
  %x = arith.constant dense<1.0> : tensor<2x64xf32>
  %s = arith.constant dense<0.5> : tensor<2x3xf32>
  %xd = tensor.cast %x : tensor<2x64xf32> to tensor<?x?xf32>
  %sd = tensor.cast %s : tensor<2x3xf32> to tensor<?x?xf32>
  %y = call @kernel(%xd, %sd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?x?xf32>
  vector.print %d : index
  return
}
