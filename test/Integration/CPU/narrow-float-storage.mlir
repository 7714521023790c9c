// Float8 and float4 storage: quantize to and dequantize from f8E4M3FN,
// f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ and f4E2M1FN, with the values of ONNX's own
// operator tests (QuantizeLinear e4m3fn, e5m2 and float4e2m1;
// DequantizeLinear e4m3fn, e4m3fn with an f16 scale, e4m3fn with a zero
// point, e5m2, float4e2m1), saturate = 0 expressed with a
// range past the largest value, the FNUZ types, and fp8 weights dequantized
// into a matmul. Each result is printed as the bits of its value in f32
// (NaN as 0x7FC00000); the second RUN line folds everything on constants
// (APFloat, as arith.truncf folds), the first and third compute it.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s --check-prefix=ROUNDTRIP

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print(%t: tensor<?xf32>) {
  %nan = arith.constant 0x7FC00000 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %t, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %bits = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%t : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %isnan = arith.cmpf uno, %v, %v : f32
    %c = arith.select %isnan, %nan, %v : f32
    %b = arith.bitcast %c : f32 to i32
    linalg.yield %b : i32
  } -> tensor<?xi32>
  %u = tensor.cast %bits : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// Codes read back as values (scale 1): the code is the value's encoding.
func.func @values_e4m3fn(%q: tensor<?xf8E4M3FN>) -> tensor<?xf32> {
  %one = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %one range [-448, 448] : (tensor<?xf8E4M3FN>, tensor<f32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// ROUNDTRIP-LABEL: func.func @quantizelinear_e4m3fn
// ROUNDTRIP: quant_affine.quantize %{{.*}}, %{{.*}} range [-448, 448] : (tensor<5xf32>, tensor<f32>) -> tensor<5xf8E4M3FN>
func.func @quantizelinear_e4m3fn(%x: tensor<5xf32>, %s: tensor<f32>) -> tensor<5xf8E4M3FN> {
  %q = quant_affine.quantize %x, %s range [-448, 448] : (tensor<5xf32>, tensor<f32>) -> tensor<5xf8E4M3FN>
  return %q : tensor<5xf8E4M3FN>
}

func.func @quantizelinear_e5m2(%x: tensor<5xf32>, %s: tensor<f32>) -> tensor<5xf32> {
  %q = quant_affine.quantize %x, %s range [-57344, 57344] : (tensor<5xf32>, tensor<f32>) -> tensor<5xf8E5M2>
  %one = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %one range [-57344, 57344] : (tensor<5xf8E5M2>, tensor<f32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// saturate = 0: a range past the largest value lets values overflow:
// f8E4M3FN has no inf, so 465, 500, -1e6 and +-inf become NaN; 464 is a tie
// that rounds (to even) to 448. f8E5M2 rounds 465 to 448 and 500 to 512
// and overflows to +-inf.
func.func @overflow(%x: tensor<8xf32>) -> (tensor<8xf8E4M3FN>, tensor<8xf32>) {
  %one = arith.constant dense<1.0> : tensor<f32>
  %a = quant_affine.quantize %x, %one range [-1000000, 1000000] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf8E4M3FN>
  %b = quant_affine.quantize %x, %one range [-1000000, 1000000] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf8E5M2>
  %bv = quant_affine.dequantize %b, %one range [-57344, 57344] : (tensor<8xf8E5M2>, tensor<f32>) -> tensor<8xf32>
  return %a, %bv : tensor<8xf8E4M3FN>, tensor<8xf32>
}

// The FNUZ types: no -0 (it becomes +0), one NaN, other largest values.
func.func @fnuz(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %one = arith.constant dense<1.0> : tensor<f32>
  %a = quant_affine.quantize %x, %one range [-240, 240] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf8E4M3FNUZ>
  %av = quant_affine.dequantize %a, %one range [-240, 240] : (tensor<8xf8E4M3FNUZ>, tensor<f32>) -> tensor<8xf32>
  %b = quant_affine.quantize %x, %one range [-57344, 57344] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf8E5M2FNUZ>
  %bv = quant_affine.dequantize %b, %one range [-57344, 57344] : (tensor<8xf8E5M2FNUZ>, tensor<f32>) -> tensor<8xf32>
  return %av, %bv : tensor<8xf32>, tensor<8xf32>
}

func.func @dequantizelinear_e4m3fn(%q: tensor<5xf8E4M3FN>, %s: tensor<f32>) -> tensor<5xf32> {
  %y = quant_affine.dequantize %q, %s range [-448, 448] : (tensor<5xf8E4M3FN>, tensor<f32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

func.func @dequantizelinear_e4m3fn_float16(%q: tensor<5xf8E4M3FN>, %s: tensor<f16>) -> tensor<5xf32> {
  %y = quant_affine.dequantize %q, %s range [-448, 448] : (tensor<5xf8E4M3FN>, tensor<f16>) -> tensor<5xf16>
  %w = arith.extf %y : tensor<5xf16> to tensor<5xf32>
  return %w : tensor<5xf32>
}

// ONNX's zero point 0 is AIMET's offset 0.
func.func @dequantizelinear_e4m3fn_zero_point(%q: tensor<5xf8E4M3FN>, %s: tensor<f32>, %o: tensor<f32>) -> tensor<5xf32> {
  %y = quant_affine.dequantize %q, %s, %o range [-448, 448] : (tensor<5xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

func.func @dequantizelinear_e5m2(%q: tensor<5xf8E5M2>, %s: tensor<f32>) -> tensor<5xf32> {
  %y = quant_affine.dequantize %q, %s range [-57344, 57344] : (tensor<5xf8E5M2>, tensor<f32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// ONNX QuantizeLinear to float4e2m1, per row (axis 0), zero point 0.
func.func @quantizelinear_float4e2m1(%x: tensor<3x4xf32>, %s: tensor<3x1xf32>) -> tensor<12xf32> {
  %q = quant_affine.quantize %x, %s range [-6, 6] : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf4E2M1FN>
  %one = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %one range [-6, 6] : (tensor<3x4xf4E2M1FN>, tensor<f32>) -> tensor<3x4xf32>
  %f = tensor.collapse_shape %y [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  return %f : tensor<12xf32>
}

func.func @dequantizelinear_float4e2m1(%q: tensor<5xf4E2M1FN>, %s: tensor<f32>, %o: tensor<f32>) -> tensor<5xf32> {
  %y = quant_affine.dequantize %q, %s, %o range [-6, 6] : (tensor<5xf4E2M1FN>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// fp8 weights, per-channel scales, dequantized into a matmul (exact sums).
func.func @fp8_matmul(%x: tensor<1x8xf32>, %w: tensor<4x8xf8E4M3FN>, %s: tensor<4x1xf32>) -> tensor<4xf32> {
  %wd = quant_affine.dequantize %w, %s range [-448, 448] : (tensor<4x8xf8E4M3FN>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wd : tensor<1x8xf32>, tensor<4x8xf32>) outs(%z : tensor<1x4xf32>) -> tensor<1x4xf32>
  %r = tensor.collapse_shape %y [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: quantizelinear_e4m3fn
// 0, 0.5, 1, 448, 96
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1056964608,  1065353216,  1138753536,  1119879168]
// CHECK-LABEL: quantizelinear_e5m2
// 0, 0.5, 1, 49152, 96
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1056964608,  1065353216,  1195376640,  1119879168]
// CHECK-LABEL: overflow
// 448, NaN, NaN, NaN, NaN, -0, 2^-9, NaN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [1138753536,  2143289344,  2143289344,  2143289344,  2143289344,  -2147483648,  989855744,  2143289344]
// 448, 448, 512, -inf, inf, -0, 2^-9, NaN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [1138753536,  1138753536,  1140850688,  -8388608,  2139095040,  -2147483648,  989855744,  2143289344]
// CHECK-LABEL: fnuz
// 240, 240, 240, -240, 240, +0, 2^-9, NaN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [1131413504,  1131413504,  1131413504,  -1016070144,  1131413504,  0,  989855744,  2143289344]
// 448, 448, 512, -57344, 57344, +0, 2^-9, NaN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [1138753536,  1138753536,  1140850688,  -950009856,  1197473792,  0,  989855744,  2143289344]
// CHECK-LABEL: dequantizelinear_e4m3fn
// 0, 1, 2, 896, -208
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1065353216,  1073741824,  1147142144,  -1018167296]
// CHECK-LABEL: dequantizelinear_e4m3fn_float16
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1065353216,  1073741824,  1147142144,  -1018167296]
// CHECK-LABEL: dequantizelinear_e4m3fn_zero_point
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1065353216,  1073741824,  1147142144,  -1018167296]
// CHECK-LABEL: dequantizelinear_e5m2
// 0, 1, 2, 98304, -192
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1065353216,  1073741824,  1203765248,  -1019215872]
// CHECK-LABEL: quantizelinear_float4e2m1
// 0, 1, 2, 4, -6, -6, 2, 3, -0 (ONNX's 0: -0.0 / 4), -0.5, -1, -2
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1065353216,  1073741824,  1082130432,  -1061158912,  -1061158912,  1073741824,  1077936128,  -2147483648,  -1090519040,  -1082130432,  -1073741824]
// CHECK-LABEL: dequantizelinear_float4e2m1
// 0, 2, -2, 3, -8
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1073741824,  -1073741824,  1077936128,  -1056964608]
// CHECK-LABEL: fp8_matmul
// -3.0234375, 44, 164.5, -1.75
// CHECK-NEXT: Unranked
// CHECK-NEXT: [-1069449216,  1110441984,  1126465536,  -1075838976]
func.func @main() {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 100000.0, 200.0]> : tensor<5xf32>
  %two = arith.constant dense<2.0> : tensor<f32>
  vector.print str "quantizelinear_e4m3fn\n"
  %q1 = call @quantizelinear_e4m3fn(%x, %two) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf8E4M3FN>
  %q1d = tensor.cast %q1 : tensor<5xf8E4M3FN> to tensor<?xf8E4M3FN>
  %v1 = call @values_e4m3fn(%q1d) : (tensor<?xf8E4M3FN>) -> tensor<?xf32>
  call @print(%v1) : (tensor<?xf32>) -> ()
  vector.print str "quantizelinear_e5m2\n"
  %v2 = call @quantizelinear_e5m2(%x, %two) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  %v2d = tensor.cast %v2 : tensor<5xf32> to tensor<?xf32>
  call @print(%v2d) : (tensor<?xf32>) -> ()

  %edges = arith.constant dense<[464.0, 465.0, 500.0, -1.0e6, 0x7F800000, -0.0, 0.002, 0x7FC00000]> : tensor<8xf32>
  vector.print str "overflow\n"
  %o1, %o2 = call @overflow(%edges) : (tensor<8xf32>) -> (tensor<8xf8E4M3FN>, tensor<8xf32>)
  %o1d = tensor.cast %o1 : tensor<8xf8E4M3FN> to tensor<?xf8E4M3FN>
  %o1v = call @values_e4m3fn(%o1d) : (tensor<?xf8E4M3FN>) -> tensor<?xf32>
  call @print(%o1v) : (tensor<?xf32>) -> ()
  %o2d = tensor.cast %o2 : tensor<8xf32> to tensor<?xf32>
  call @print(%o2d) : (tensor<?xf32>) -> ()
  vector.print str "fnuz\n"
  %f1, %f2 = call @fnuz(%edges) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %f1d = tensor.cast %f1 : tensor<8xf32> to tensor<?xf32>
  call @print(%f1d) : (tensor<?xf32>) -> ()
  %f2d = tensor.cast %f2 : tensor<8xf32> to tensor<?xf32>
  call @print(%f2d) : (tensor<?xf32>) -> ()

  %codes = arith.constant dense<[0.0, 0.5, 1.0, 448.0, -104.0]> : tensor<5xf8E4M3FN>
  vector.print str "dequantizelinear_e4m3fn\n"
  %d1 = call @dequantizelinear_e4m3fn(%codes, %two) : (tensor<5xf8E4M3FN>, tensor<f32>) -> tensor<5xf32>
  %d1d = tensor.cast %d1 : tensor<5xf32> to tensor<?xf32>
  call @print(%d1d) : (tensor<?xf32>) -> ()
  %two16 = arith.constant dense<2.0> : tensor<f16>
  vector.print str "dequantizelinear_e4m3fn_float16\n"
  %d2 = call @dequantizelinear_e4m3fn_float16(%codes, %two16) : (tensor<5xf8E4M3FN>, tensor<f16>) -> tensor<5xf32>
  %d2d = tensor.cast %d2 : tensor<5xf32> to tensor<?xf32>
  call @print(%d2d) : (tensor<?xf32>) -> ()
  %zero = arith.constant dense<0.0> : tensor<f32>
  vector.print str "dequantizelinear_e4m3fn_zero_point\n"
  %d3 = call @dequantizelinear_e4m3fn_zero_point(%codes, %two, %zero) : (tensor<5xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  %d3d = tensor.cast %d3 : tensor<5xf32> to tensor<?xf32>
  call @print(%d3d) : (tensor<?xf32>) -> ()
  %codes5 = arith.constant dense<[0.0, 0.5, 1.0, 49152.0, -96.0]> : tensor<5xf8E5M2>
  vector.print str "dequantizelinear_e5m2\n"
  %d4 = call @dequantizelinear_e5m2(%codes5, %two) : (tensor<5xf8E5M2>, tensor<f32>) -> tensor<5xf32>
  %d4d = tensor.cast %d4 : tensor<5xf32> to tensor<?xf32>
  call @print(%d4d) : (tensor<?xf32>) -> ()

  %x4 = arith.constant dense<[[0.0, 2.5, 4.8, 8.6], [-30.0, -20.0, 6.0, 9.0], [-0.0, -2.5, -4.8, -8.6]]> : tensor<3x4xf32>
  %s4 = arith.constant dense<[[2.0], [3.0], [4.0]]> : tensor<3x1xf32>
  vector.print str "quantizelinear_float4e2m1\n"
  %f4 = call @quantizelinear_float4e2m1(%x4, %s4) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<12xf32>
  %f4d = tensor.cast %f4 : tensor<12xf32> to tensor<?xf32>
  call @print(%f4d) : (tensor<?xf32>) -> ()
  %c4 = arith.constant dense<[0.0, 1.0, -1.0, 1.5, -4.0]> : tensor<5xf4E2M1FN>
  vector.print str "dequantizelinear_float4e2m1\n"
  %g4 = call @dequantizelinear_float4e2m1(%c4, %two, %zero) : (tensor<5xf4E2M1FN>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  %g4d = tensor.cast %g4 : tensor<5xf32> to tensor<?xf32>
  call @print(%g4d) : (tensor<?xf32>) -> ()

  %a = arith.constant dense<[[1.0, 2.0, -1.0, 0.0, 3.0, 1.0, -2.0, 1.0]]> : tensor<1x8xf32>
  %w = arith.constant dense<[[1.0, -2.0, 0.5, 448.0, -0.015625, 3.5, 0.0, -6.0],
                             [0.25, 0.75, -1.5, 2.0, 10.0, -12.0, 0.125, 1.0],
                             [-0.5, 0.5, 4.0, -4.0, 8.0, 16.0, -32.0, 64.0],
                             [1.125, -1.25, 1.375, -1.75, 2.25, -2.5, 2.75, -3.0]]> : tensor<4x8xf8E4M3FN>
  %ws = arith.constant dense<[[0.5], [2.0], [1.0], [0.25]]> : tensor<4x1xf32>
  vector.print str "fp8_matmul\n"
  %m = call @fp8_matmul(%a, %w, %ws) : (tensor<1x8xf32>, tensor<4x8xf8E4M3FN>, tensor<4x1xf32>) -> tensor<4xf32>
  %md = tensor.cast %m : tensor<4xf32> to tensor<?xf32>
  call @print(%md) : (tensor<?xf32>) -> ()
  return
}
