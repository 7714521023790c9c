// With runtime-checks, shapes that only turn out wrong at run time stop the
// program with a message naming the op and the rule, instead of reading out
// of bounds. (stdbuf: the message goes to stdout, which abort() would not
// flush.)
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true" \
// RUN: | not --crash stdbuf -o0 mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 \
// RUN: | FileCheck %s

// CHECK: quant_affine.qdq: scale dim 1 and input dim 1: block_size times the scale size must equal the input size
func.func @main() {
  %x = arith.constant dense<1.0> : tensor<2x64xf32>
  %s = arith.constant dense<0.5> : tensor<2x3xf32>
  %xd = tensor.cast %x : tensor<2x64xf32> to tensor<?x?xf32>
  %sd = tensor.cast %s : tensor<2x3xf32> to tensor<?x?xf32>
  %y = quant_affine.qdq %xd, %sd range [0, 255] block [1, 32] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?x?xf32>
  vector.print %d : index
  return
}
