// RUN: quant-affine-opt %s --convert-quant-affine-to-quant -split-input-file -verify-diagnostics | FileCheck %s
// Round trip: back to quant_affine gives the ops the file started from.
// RUN: quant-affine-opt %s --convert-quant-affine-to-quant --convert-quant-to-quant-affine -canonicalize -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=BACK

// Per-tensor, with an offset: zero_point = -offset.
// CHECK-LABEL: func.func @per_tensor
// CHECK: %[[C:.*]] = quant.qcast %{{.*}} : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
// CHECK: %[[I:.*]] = quant.scast %[[C]] : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>> to tensor<4xi8>
// CHECK: return %[[I]]
// BACK-LABEL: func.func @per_tensor
// BACK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-128, 127] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %o = arith.constant dense<-3.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// Ranges: unsigned and narrow storage.
// CHECK-LABEL: func.func @ranges
// CHECK: quant.scast %{{.*}} : tensor<4xi8> to tensor<4x!quant.uniform<u8:f32, 2.500000e-01:128>>
// CHECK: quant.dcast
// CHECK: quant.qcast %{{.*}} : tensor<4xf32> to tensor<4x!quant.uniform<i8<-127:127>:f32, 2.500000e-01>>
// CHECK: quant.qcast %{{.*}} : tensor<4xf32> to tensor<4x!quant.uniform<u4<0:9>:f32, 2.500000e-01>>
// BACK-LABEL: func.func @ranges
// BACK: quant_affine.dequantize %{{.*}} range [0, 255] :
// BACK: quant_affine.quantize %{{.*}} range [-127, 127] :
// BACK: quant_affine.quantize %{{.*}} range [0, 9] :
func.func @ranges(%x: tensor<4xf32>, %y: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>, tensor<4xi4>) {
  %s = arith.constant dense<0.25> : tensor<f32>
  %o = arith.constant dense<-128.0> : tensor<f32>
  %a = quant_affine.dequantize %y, %s, %o range [0, 255] : (tensor<4xi8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %b = quant_affine.quantize %x, %s range [-127, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  %c = quant_affine.quantize %x, %s range [0, 9] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi4>
  return %a, %b, %c : tensor<4xf32>, tensor<4xi8>, tensor<4xi4>
}

// -----

// Per-channel: one varying dim with blocks of 1 is a per-axis type.
// CHECK-LABEL: func.func @per_axis
// CHECK: quant.qcast %{{.*}} : tensor<3x4xf32> to tensor<3x4x!quant.uniform<i8:f32:0, {1.000000e+00:1,2.000000e+00:-2,4.000000e+00}>>
// CHECK: quant.dcast %{{.*}} : tensor<?x4x!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00,4.000000e+00,8.000000e+00}>> to tensor<?x4xf32>
// BACK-LABEL: func.func @per_axis
// BACK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [-128, 127] : (tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x4xi8>
// BACK: quant_affine.dequantize %{{.*}}, %{{[^,]*}} range [-128, 127] : (tensor<?x4xi8>, tensor<4xf32>) -> tensor<?x4xf32>
func.func @per_axis(%x: tensor<3x4xf32>, %y: tensor<?x4xi8>) -> (tensor<3x4xi8>, tensor<?x4xf32>) {
  %s = arith.constant dense<[[1.0], [2.0], [4.0]]> : tensor<3x1xf32>
  %o = arith.constant dense<[[-1.0], [2.0], [0.0]]> : tensor<3x1xf32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x4xi8>
  %s2 = arith.constant dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>
  %d = quant_affine.dequantize %y, %s2 range [-128, 127] : (tensor<?x4xi8>, tensor<4xf32>) -> tensor<?x4xf32>
  return %q, %d : tensor<3x4xi8>, tensor<?x4xf32>
}

// -----

// Blocks: a sub-channel type; f16 scales and zero points in the storage type.
// CHECK-LABEL: func.func @blocks
// CHECK: quant.scast %{{.*}} : tensor<4x64xi4> to tensor<4x64x!quant.uniform<i4:f16:{0:1, 1:32}, {{\{}}{5.000000e-01:1, 2.500000e-01}, {1.250000e-01, 6.250000e-02}, {1.000000e+00, 2.000000e+00:-3}, {4.000000e+00, 8.000000e+00}}>>
// BACK-LABEL: func.func @blocks
// BACK: quant_affine.dequantize %{{.*}}, %{{.*}}, %{{.*}} range [-8, 7] block [1, 32] : (tensor<4x64xi4>, tensor<4x2xf16>, tensor<4x2xf16>) -> tensor<4x64xf16>
func.func @blocks(%w: tensor<4x64xi4>) -> tensor<4x64xf16> {
  %s = arith.constant dense<[[0.5, 0.25], [0.125, 0.0625], [1.0, 2.0], [4.0, 8.0]]> : tensor<4x2xf16>
  %o = arith.constant dense<[[-1.0, 0.0], [0.0, 0.0], [0.0, 3.0], [0.0, 0.0]]> : tensor<4x2xf16>
  %d = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<4x64xi4>, tensor<4x2xf16>, tensor<4x2xf16>) -> tensor<4x64xf16>
  return %d : tensor<4x64xf16>
}

// -----

// Scalars.
// CHECK-LABEL: func.func @scalar
// CHECK: quant.qcast %{{.*}} : f32 to !quant.uniform<u8:f32, 1.250000e-01:7>
// BACK-LABEL: func.func @scalar
// BACK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] : (f32, f32, f32) -> i8
func.func @scalar(%x: f32) -> i8 {
  %s = arith.constant 0.125 : f32
  %o = arith.constant -7.0 : f32
  %q = quant_affine.quantize %x, %s, %o range [0, 255] : (f32, f32, f32) -> i8
  return %q : i8
}

// -----

// An explicit compute type equal to the default rule's is the default.
// CHECK-LABEL: func.func @explicit_default_compute_type
// CHECK: quant.qcast
func.func @explicit_default_compute_type(%x: tensor<4xbf16>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] compute f32 : (tensor<4xbf16>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// What quant types cannot say stays, with a remark.

func.func @qdq(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{not converted to quant: qdq keeps NaN and never leaves floating point; quant has no fake-quantize op, and qcast + dcast would make a NaN input poison}}
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @reciprocal(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{not converted to quant: 'reciprocal' multiplies by 1 / s, quant casts divide by s}}
  %q = quant_affine.quantize %x, %s range [-128, 127] reciprocal : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @float_zero_point(%q: tensor<4xi8>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %z = arith.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{not converted to quant: 'float_zero_point' is torchao's FLOAT domain; quant zero points are integers on the grid}}
  %y = quant_affine.dequantize %q, %s, %z range [0, 255] float_zero_point : (tensor<4xi8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @float_grid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{not converted to quant: the grid values are held in tensor<4xf32>, not in an integer storage type}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %q : tensor<4xf32>
}

// -----

func.func @compute_type(%x: tensor<4xf16>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f16>
  // expected-remark @below {{not converted to quant: 'compute_type' f32 is not the default rule's f16, which is what quant casts compute in}}
  %q = quant_affine.quantize %x, %s range [-128, 127] compute f32 : (tensor<4xf16>, tensor<f16>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @dynamic_scale(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xi8> {
  // expected-remark @below {{not converted to quant: the scale is not a constant}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @fractional_offset(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %o = arith.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{not converted to quant: offset 0.5 is not an integer zero point (quant zero points are int64)}}
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// bf16 input, 8-bit grid: the op computes in f32 with the f32 scale 0.1; a
// quant type would hold it in bf16 (0.10009765625).
func.func @inexact_scale(%x: tensor<4xbf16>) -> tensor<4xi8> {
  %s = arith.constant dense<0.1> : tensor<f32>
  // expected-remark @below {{not converted to quant: scale 0.100000001 is not exact in the expressed type bf16 and the op computes in f32}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xbf16>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// An f16 op with an f64 scale converts it as the generated code does,
// through f32: 1 + 2^-11 + 2^-40 becomes 1 + 2^-11 in f32, then 1.0 in f16
// (a tie, to even); rounded straight to f16, as a quant type would hold it,
// it is 1 + 2^-10.
func.func @double_rounding(%x: tensor<4xf16>) -> tensor<4xi8> {
  %s = arith.constant dense<0x3FF0020000001000> : tensor<f64>
  // expected-remark @below {{not converted to quant: scale 1.0004882812509095 is not exact in the expressed type f16 and the op computes in f16}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf16>, tensor<f64>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @vector(%x: vector<4xf32>) -> vector<4xi8> {
  %s = arith.constant dense<0.5> : vector<4xf32>
  // expected-remark @below {{not converted to quant: quant casts take scalars and tensors, not vector<4xf32>}}
  %q = quant_affine.quantize %x, %s range [-128, 127] : (vector<4xf32>, vector<4xf32>) -> vector<4xi8>
  return %q : vector<4xi8>
}

// -----

// A block size that depends on a dynamic dim.
func.func @dynamic_blocks(%x: tensor<4x?xf32>) -> tensor<4x?xi8> {
  %s = arith.constant dense<[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0], [1.0, 4.0]]> : tensor<4x2xf32>
  // expected-remark @below {{not converted to quant: the block size along dim 1 depends on a dynamic size; quant sub-channel types need it static}}
  %q = quant_affine.quantize %x, %s range [-128, 127] block [1, -1] : (tensor<4x?xf32>, tensor<4x2xf32>) -> tensor<4x?xi8>
  return %q : tensor<4x?xi8>
}

// -----

// Zero points of sub-channel types live in the storage type.
func.func @wide_zero_point(%w: tensor<2x8xi4>) -> tensor<2x8xf32> {
  %s = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %o = arith.constant dense<[[-100.0, 0.0], [0.0, 0.0]]> : tensor<2x2xf32>
  // expected-remark @below {{not converted to quant: zero point 100 does not fit the 4-bit storage, where sub-channel types keep their zero points}}
  %d = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 4] : (tensor<2x8xi4>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x8xf32>
  return %d : tensor<2x8xf32>
}
