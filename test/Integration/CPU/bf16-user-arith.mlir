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
// maximumf/minimumf order -0.0 below +0.0, in bf16 and in f64 (a compare
// and select expansion once gave maximumf(+0.0, -0.0) = -0.0):
// max = [+0, +0, +0, -0], min = [-0, -0, +0, -0].
// CHECK: [0,  0,  0,  32768]
// CHECK: [32768,  32768,  0,  32768]
// CHECK: [0,  0,  0,  -9223372036854775808]
// CHECK: [-9223372036854775808,  -9223372036854775808,  0,  -9223372036854775808]
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

func.func @max_min_zero(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %x = arith.maximumf %a, %b : tensor<4xbf16>
  %n = arith.minimumf %a, %b : tensor<4xbf16>
  return %x, %n : tensor<4xbf16>, tensor<4xbf16>
}

func.func @max_min_zero_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %x = arith.maximumf %a, %b : tensor<4xf64>
  %n = arith.minimumf %a, %b : tensor<4xf64>
  %xb = arith.bitcast %x : tensor<4xf64> to tensor<4xi64>
  %nb = arith.bitcast %n : tensor<4xf64> to tensor<4xi64>
  return %xb, %nb : tensor<4xi64>, tensor<4xi64>
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
  %za = arith.constant dense<[0.0, -0.0, 0.0, -0.0]> : tensor<4xbf16>
  %zb = arith.constant dense<[-0.0, 0.0, 0.0, -0.0]> : tensor<4xbf16>
  %mx, %mn = call @max_min_zero(%za, %zb) : (tensor<4xbf16>, tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xbf16>)
  call @print(%mx) : (tensor<4xbf16>) -> ()
  call @print(%mn) : (tensor<4xbf16>) -> ()
  %da = arith.constant dense<[0.0, -0.0, 0.0, -0.0]> : tensor<4xf64>
  %db = arith.constant dense<[-0.0, 0.0, 0.0, -0.0]> : tensor<4xf64>
  %dx, %dn = call @max_min_zero_f64(%da, %db) : (tensor<4xf64>, tensor<4xf64>) -> (tensor<4xi64>, tensor<4xi64>)
  %dxu = tensor.cast %dx : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%dxu) : (tensor<*xi64>) -> ()
  %dnu = tensor.cast %dn : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%dnu) : (tensor<*xi64>) -> ()
  return
}
