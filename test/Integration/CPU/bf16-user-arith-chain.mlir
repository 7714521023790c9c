// bf16 arithmetic chained in one fused generic still rounds to bf16 after
// every op. arith-emulate-unsupported-floats computes each op in f32 between
// extf/truncf marked fastmath<contract>, and arith's folder drops such an
// extf(truncf(x)) pair, which would round a - b - c once instead of twice.
// Found by utils/progtest.py (seed 20261125, program 2877, after -inline
// -canonicalize brought two subf into one function).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// 1 - 2^-9 is a tie between 0x3F7F and 0x3F80 and rounds to even, 1.0; so
// does the second subtraction: 16256 (1.0), not 16255 (0.99609375, the single
// rounding of 1 - 2^-8). -3 - 2^-7 ties to -3.0 twice, not -3.015625 once.
// CHECK: [16256,  16256,  49216,  0]
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})
func.func @chain(%a: tensor<4xbf16>, %b: tensor<4xbf16>, %c: tensor<4xbf16>) -> tensor<4xbf16> {
  %1 = arith.subf %a, %b : tensor<4xbf16>
  %2 = arith.subf %1, %c : tensor<4xbf16>
  return %2 : tensor<4xbf16>
}
func.func @main() {
  %a = arith.constant dense<[1.0, 1.0, -3.0, 0.0]> : tensor<4xbf16>
  %b = arith.constant dense<[0.001953125, 0.001953125, 0.0078125, 0.0]> : tensor<4xbf16>
  %c = arith.constant dense<[0.001953125, 0.001953125, 0.0078125, 0.0]> : tensor<4xbf16>
  %r = call @chain(%a, %b, %c) : (tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %i = arith.bitcast %r : tensor<4xbf16> to tensor<4xi16>
  %w = arith.extui %i : tensor<4xi16> to tensor<4xi64>
  %u = tensor.cast %w : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}
