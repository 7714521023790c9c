// bf16 results that are subnormal must keep their value (IEEE, and PyTorch's
// software rounding). On AVX512-BF16 CPUs LLVM turns arith.truncf f32 -> bf16
// into VCVTNEPS2BF16, which flushes them to zero; the lowering rounds in
// integer arithmetic instead. Found by utils/difftest.py.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// (q * 1e-40) in f32, rounded to bf16 bits:
// CHECK: [1, 32771, 109, 32907, 0, 138, 2, 32769]
// The same with the default compute type bf16 (scale rounded to bf16 first),
// where LLVM's own bf16 arithmetic would narrow with the same instruction:
// CHECK: [1, 32771, 100, 32896, 0, 127, 2, 32769]
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})
func.func @dequantize(%q: tensor<8xi8>, %s: tensor<f32>) -> tensor<8xbf16> {
  %y = quant_affine.dequantize %q, %s range [-128, 127] compute f32 : (tensor<8xi8>, tensor<f32>) -> tensor<8xbf16>
  return %y : tensor<8xbf16>
}
func.func @dequantize_bf16(%q: tensor<8xi8>, %s: tensor<f32>) -> tensor<8xbf16> {
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<8xi8>, tensor<f32>) -> tensor<8xbf16>
  return %y : tensor<8xbf16>
}
func.func @main() {
  %q = arith.constant dense<"0x01FD6480007F02FF"> : tensor<8xi8>
  %s = arith.constant dense<1.0e-40> : tensor<f32>
  %y = call @dequantize(%q, %s) : (tensor<8xi8>, tensor<f32>) -> tensor<8xbf16>
  %b = arith.bitcast %y : tensor<8xbf16> to tensor<8xi16>
  %w = arith.extui %b : tensor<8xi16> to tensor<8xi64>
  %u = tensor.cast %w : tensor<8xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  %y2 = call @dequantize_bf16(%q, %s) : (tensor<8xi8>, tensor<f32>) -> tensor<8xbf16>
  %b2 = arith.bitcast %y2 : tensor<8xbf16> to tensor<8xi16>
  %w2 = arith.extui %b2 : tensor<8xi16> to tensor<8xi64>
  %u2 = tensor.cast %w2 : tensor<8xi64> to tensor<*xi64>
  call @printMemrefI64(%u2) : (tensor<*xi64>) -> ()
  return
}
