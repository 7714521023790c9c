// bf16 arithmetic the user writes around our ops keeps subnormals: it is
// computed in f32 and rounded to bf16 in integer arithmetic, not with
// VCVTNEPS2BF16 (which flushes them on AVX512-BF16 hosts).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// x = [0x0003, 0x0001, 0x8002, 0x0080]: three subnormals and the smallest
// normal. x * 2 and x + x double them exactly; min(x, 1) is x; 2^-130 in f32
// is the bf16 subnormal 0x0008.
// CHECK: [6,  2,  32772,  256]
// CHECK: [6,  2,  32772,  256]
// CHECK: [3,  1,  32770,  128]
// CHECK: [8,  8,  8,  8]
func.func @mul(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %c = arith.constant dense<2.0> : tensor<4xbf16>
  %m = arith.mulf %x, %c : tensor<4xbf16>
  return %m : tensor<4xbf16>
}

func.func @add(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %m = arith.addf %x, %x : tensor<4xbf16>
  return %m : tensor<4xbf16>
}

func.func @min(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %c = arith.constant dense<1.0> : tensor<4xbf16>
  %m = arith.minimumf %x, %c : tensor<4xbf16>
  return %m : tensor<4xbf16>
}

func.func @trunc(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %t = arith.truncf %x : tensor<4xf32> to tensor<4xbf16>
  return %t : tensor<4xbf16>
}

func.func private @printMemrefI64(tensor<*xi64>)

func.func @print(%r: tensor<4xbf16>) {
  %b = arith.bitcast %r : tensor<4xbf16> to tensor<4xi16>
  %w = arith.extui %b : tensor<4xi16> to tensor<4xi64>
  %u = tensor.cast %w : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[3, 1, 32770, 128]> : tensor<4xi16>
  %xb = arith.bitcast %x : tensor<4xi16> to tensor<4xbf16>
  %m = call @mul(%xb) : (tensor<4xbf16>) -> tensor<4xbf16>
  call @print(%m) : (tensor<4xbf16>) -> ()
  %a = call @add(%xb) : (tensor<4xbf16>) -> tensor<4xbf16>
  call @print(%a) : (tensor<4xbf16>) -> ()
  %n = call @min(%xb) : (tensor<4xbf16>) -> tensor<4xbf16>
  call @print(%n) : (tensor<4xbf16>) -> ()
  %f = arith.constant dense<0x00080000> : tensor<4xf32>
  %t = call @trunc(%f) : (tensor<4xf32>) -> tensor<4xbf16>
  call @print(%t) : (tensor<4xbf16>) -> ()
  return
}
