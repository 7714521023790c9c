// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of every form: both RUN lines must print the custom syntax back.

// CHECK-LABEL: func.func @block_int4
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] block [1, 32] : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] block [1, -1] : (tensor<4x64xi4>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
// GENERIC-LABEL: sym_name = "block_int4"
// GENERIC: "quant_affine.quantize"(%{{.*}}, %{{.*}}, %{{.*}}) <{block_size = array<i64: 1, 32>, qmax = 7 : i64, qmin = -8 : i64}> : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
func.func @block_int4(%w: tensor<4x64xf32>, %s: tensor<4x2xf32>, %o: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %q = quant_affine.quantize %w, %s, %o range [-8, 7] block [1, 32]
      : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, -1]
      : (tensor<4x64xi4>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// The generic form of DESIGN.md parses and prints in custom form.
// CHECK-LABEL: func.func @generic_form
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] block [1, 32]
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 255] : (tensor<?x16xf16>, tensor<f32>) -> tensor<?x16xf16>
// GENERIC-LABEL: sym_name = "generic_form"
// GENERIC: "quant_affine.qdq"(%{{.*}}, %{{.*}}) <{qmax = 255 : i64, qmin = 0 : i64}> : (tensor<?x16xf16>, tensor<f32>) -> tensor<?x16xf16>
func.func @generic_form(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>, %o: tensor<4x2xf32>,
                        %h: tensor<?x16xf16>, %t: tensor<f32>) -> (tensor<4x64xi4>, tensor<?x16xf16>) {
  %q = "quant_affine.quantize"(%x, %s, %o) <{qmin = -8 : i64, qmax = 7 : i64, block_size = array<i64: 1, 32>}>
       : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  %y = "quant_affine.qdq"(%h, %t) <{qmin = 0 : i64, qmax = 255 : i64}> : (tensor<?x16xf16>, tensor<f32>) -> tensor<?x16xf16>
  return %q, %y : tensor<4x64xi4>, tensor<?x16xf16>
}

// CHECK-LABEL: func.func @granularities
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-128, 127] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-128, 127] : (tensor<16x8xf32>, tensor<1x1xf32>) -> tensor<16x8xf32>
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-128, 127] : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] : (tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x8xf32>
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [-8, 7] block [4, -1] : (tensor<2x16x8xf32>, tensor<4x2xf32>) -> tensor<2x16x8xf32>
func.func @granularities(%x: tensor<16x8xf32>, %x3: tensor<2x16x8xf32>, %t: tensor<f32>, %t11: tensor<1x1xf32>,
                         %c8: tensor<8xf32>, %c16: tensor<16x1xf32>, %b: tensor<4x2xf32>) {
  %0 = quant_affine.qdq %x, %t range [-128, 127] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
  %1 = quant_affine.qdq %x, %t11 range [-128, 127] : (tensor<16x8xf32>, tensor<1x1xf32>) -> tensor<16x8xf32>
  %2 = quant_affine.qdq %x, %c8 range [-128, 127] : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %3 = quant_affine.qdq %x, %c16, %c16 range [0, 255] : (tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x8xf32>
  %4 = quant_affine.qdq %x3, %b range [-8, 7] block [4, -1] : (tensor<2x16x8xf32>, tensor<4x2xf32>) -> tensor<2x16x8xf32>
  return
}

// Dynamic dims in input, scale and offset.
// CHECK-LABEL: func.func @dynamic
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] block [1, 32] : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi8>
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}} range [0, 255] : (tensor<?x?xi8>, tensor<?x1xf32>) -> tensor<?x?xbf16>
func.func @dynamic(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>, %r: tensor<?x1xf32>) -> tensor<?x?xbf16> {
  %q = quant_affine.quantize %x, %s, %s range [0, 255] block [1, 32]
      : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi8>
  %y = quant_affine.dequantize %q, %r range [0, 255] : (tensor<?x?xi8>, tensor<?x1xf32>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// Integer results from i1 to i32, float results, explicit compute types.
// CHECK-LABEL: func.func @result_types
// CHECK: range [-1, 0] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi1>
// CHECK: range [0, 1] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi1>
// CHECK: range [0, 7] : (tensor<8xf16>, tensor<f32>) -> tensor<8xi3>
// CHECK: range [-32768, 32767] : (tensor<8xbf16>, tensor<f32>) -> tensor<8xi16>
// CHECK: range [-2147483648, 2147483647] : (tensor<8xf64>, tensor<f32>) -> tensor<8xi32>
// CHECK: range [0, 4294967295] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi32>
// CHECK: range [-8, 7] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK: range [-8, 7] compute f64 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xf16>
// CHECK: range [-128, 127] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
// CHECK: range [-128, 127] compute f32 : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf32>
func.func @result_types(%x: tensor<8xf32>, %h: tensor<8xf16>, %b: tensor<8xbf16>, %d: tensor<8xf64>, %s: tensor<f32>, %sh: tensor<8xf16>) {
  %0 = quant_affine.quantize %x, %s range [-1, 0] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi1>
  %1 = quant_affine.quantize %x, %s range [0, 1] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi1>
  %2 = quant_affine.quantize %h, %s range [0, 7] : (tensor<8xf16>, tensor<f32>) -> tensor<8xi3>
  %3 = quant_affine.quantize %b, %s range [-32768, 32767] : (tensor<8xbf16>, tensor<f32>) -> tensor<8xi16>
  %4 = quant_affine.quantize %d, %s range [-2147483648, 2147483647] : (tensor<8xf64>, tensor<f32>) -> tensor<8xi32>
  %5 = quant_affine.quantize %x, %s range [0, 4294967295] : (tensor<8xf32>, tensor<f32>) -> tensor<8xi32>
  %6 = quant_affine.quantize %x, %s range [-8, 7] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = quant_affine.quantize %b, %s range [-8, 7] compute f64 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xf16>
  %8 = quant_affine.qdq %b, %s range [-128, 127] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xbf16>
  %9 = quant_affine.dequantize %h, %sh range [-128, 127] compute f32 : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf32>
  return
}

// Scalar and vector forms: elementwise, encodings shaped like the input.
// CHECK-LABEL: func.func @scalar_and_vector
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-128, 127] : (f32, f32, f32) -> i8
// CHECK: quant_affine.dequantize %{{.*}}, %{{.*}} range [-128, 127] : (i8, f32) -> f32
// CHECK: quant_affine.qdq %{{.*}}, %{{.*}} range [0, 15] : (vector<16xf16>, vector<16xf32>) -> vector<16xf16>
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}} range [0, 15] : (vector<4x8xbf16>, vector<4x8xbf16>) -> vector<4x8xi4>
func.func @scalar_and_vector(%x: f32, %s: f32, %o: f32, %v: vector<16xf16>, %vs: vector<16xf32>,
                             %m: vector<4x8xbf16>) {
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (f32, f32, f32) -> i8
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (i8, f32) -> f32
  %z = quant_affine.qdq %v, %vs range [0, 15] : (vector<16xf16>, vector<16xf32>) -> vector<16xf16>
  %w = quant_affine.quantize %m, %m range [0, 15] : (vector<4x8xbf16>, vector<4x8xbf16>) -> vector<4x8xi4>
  return
}

// A one-point grid (qmin == qmax) is allowed, as in AIMET's functional API.
// CHECK-LABEL: func.func @one_point_grid
// CHECK: range [3, 3]
func.func @one_point_grid(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %0 = quant_affine.qdq %x, %s range [3, 3] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
