// RUN: quant-affine-opt %s --convert-quant-to-quant-affine -split-input-file | FileCheck %s

// Per-tensor: the zero point becomes offset = -zero_point, the storage
// range the grid.
// CHECK-LABEL: func.func @per_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> tensor<4xi8>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[O:.*]] = arith.constant dense<-3.000000e+00> : tensor<f32>
// CHECK: %[[Q:.*]] = quant_affine.quantize %[[X]], %[[S]], %[[O]] range [-128, 127] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
// CHECK: return %[[Q]]
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %i = quant.scast %q : tensor<4x!quant.uniform<i8:f32, 0.5:3>> to tensor<4xi8>
  return %i : tensor<4xi8>
}

// -----

// Unsigned storage reads the integers as unsigned; a zero zero point gives
// no offset; narrow storage ranges are the grid.
// CHECK-LABEL: func.func @storage_ranges
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %{{.*}} range [0, 255] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
// CHECK: quant_affine.quantize %{{.*}}, %{{[^,]*}} range [-127, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
// CHECK: quant_affine.quantize %{{.*}}, %{{[^,]*}} range [-8, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi4>
// CHECK: quant_affine.quantize %{{.*}}, %{{[^,]*}} range [1, 14] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi4>
// CHECK: quant_affine.quantize %{{.*}}, %{{[^,]*}} range [-2147483648, 2147483647] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi32>
func.func @storage_ranges(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi4>, tensor<4xi4>, tensor<4xi32>) {
  %a = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 0.5:128>>
  %b = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>>
  %c = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i4:f32, 0.5>>
  %d = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u4<1:14>:f32, 0.5>>
  %e = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i32:f32, 0.5>>
  %ai = quant.scast %a : tensor<4x!quant.uniform<u8:f32, 0.5:128>> to tensor<4xi8>
  %bi = quant.scast %b : tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>> to tensor<4xi8>
  %ci = quant.scast %c : tensor<4x!quant.uniform<i4:f32, 0.5>> to tensor<4xi4>
  %di = quant.scast %d : tensor<4x!quant.uniform<u4<1:14>:f32, 0.5>> to tensor<4xi4>
  %ei = quant.scast %e : tensor<4x!quant.uniform<i32:f32, 0.5>> to tensor<4xi32>
  return %ai, %bi, %ci, %di, %ei : tensor<4xi8>, tensor<4xi8>, tensor<4xi4>, tensor<4xi4>, tensor<4xi32>
}

// -----

// The scale is a double in the type; the expressed type holds it rounded to
// nearest even: 0.1 is 0x2E66 in f16 (0.0999755859375) and 0x3DCD in bf16
// (0.10009765625). An f16 cannot hold the offset -40001 exactly, so the
// offsets of that type are f32 (the arithmetic happens in f32 anyway: a
// 16-bit grid on f16 is computed in f32).
// CHECK-LABEL: func.func @expressed_types
// CHECK: %[[S:.*]] = arith.constant dense<9.997550e-02> : tensor<f16>
// CHECK: %[[O:.*]] = arith.constant dense<-2.000000e+00> : tensor<f16>
// CHECK: quant_affine.quantize %{{.*}}, %[[S]], %[[O]] range [-128, 127] : (tensor<4xf16>, tensor<f16>, tensor<f16>) -> tensor<4xi8>
// CHECK: %[[S2:.*]] = arith.constant dense<1.000980e-01> : tensor<bf16>
// CHECK: quant_affine.dequantize %{{.*}}, %[[S2]] range [-128, 127] : (tensor<4xi8>, tensor<bf16>) -> tensor<4xbf16>
// CHECK: %[[S3:.*]] = arith.constant dense<9.997550e-02> : tensor<f16>
// CHECK: %[[O3:.*]] = arith.constant dense<-4.000100e+04> : tensor<f32>
// CHECK: quant_affine.quantize %{{.*}}, %[[S3]], %[[O3]] range [0, 65535] : (tensor<4xf16>, tensor<f16>, tensor<f32>) -> tensor<4xi16>
func.func @expressed_types(%x: tensor<4xf16>, %y: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xbf16>, tensor<4xi16>) {
  %a = quant.qcast %x : tensor<4xf16> to tensor<4x!quant.uniform<i8:f16, 0.1:2>>
  %ai = quant.scast %a : tensor<4x!quant.uniform<i8:f16, 0.1:2>> to tensor<4xi8>
  %yq = quant.scast %y : tensor<4xi8> to tensor<4x!quant.uniform<i8:bf16, 0.1>>
  %b = quant.dcast %yq : tensor<4x!quant.uniform<i8:bf16, 0.1>> to tensor<4xbf16>
  %c = quant.qcast %x : tensor<4xf16> to tensor<4x!quant.uniform<u16:f16, 0.1:40001>>
  %ci = quant.scast %c : tensor<4x!quant.uniform<u16:f16, 0.1:40001>> to tensor<4xi16>
  return %ai, %b, %ci : tensor<4xi8>, tensor<4xbf16>, tensor<4xi16>
}

// -----

// Per-axis: scales (C, 1, ..., 1) over the trailing dims from the axis.
// CHECK-LABEL: func.func @per_axis
// CHECK: %[[S0:.*]] = arith.constant dense<{{\[}}[2.000000e+00], [3.000000e+00]]> : tensor<2x1xf32>
// CHECK: %[[O0:.*]] = arith.constant dense<{{\[}}[-1.000000e+01], [2.000000e+01]]> : tensor<2x1xf32>
// CHECK: quant_affine.quantize %{{.*}}, %[[S0]], %[[O0]] range [-128, 127] : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x3xi8>
// CHECK: %[[S1:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK: quant_affine.dequantize %{{.*}}, %[[S1]] range [0, 255] : (tensor<?x3xi8>, tensor<3xf32>) -> tensor<?x3xf32>
func.func @per_axis(%x: tensor<2x3xf32>, %y: tensor<?x3xi8>) -> (tensor<2x3xi8>, tensor<?x3xf32>) {
  %a = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!quant.uniform<i8:f32:0, {2.0:10, 3.0:-20}>>
  %ai = quant.scast %a : tensor<2x3x!quant.uniform<i8:f32:0, {2.0:10, 3.0:-20}>> to tensor<2x3xi8>
  %yq = quant.scast %y : tensor<?x3xi8> to tensor<?x3x!quant.uniform<u8:f32:1, {2.0, 3.0, 4.0}>>
  %b = quant.dcast %yq : tensor<?x3x!quant.uniform<u8:f32:1, {2.0, 3.0, 4.0}>> to tensor<?x3xf32>
  return %ai, %b : tensor<2x3xi8>, tensor<?x3xf32>
}

// -----

// Sub-channel: the type's scale tensor and block sizes; dims it does not
// list are one block (-1: X_d / 1). Unsigned zero points are read unsigned.
// CHECK-LABEL: func.func @sub_channel
// CHECK: %[[S:.*]] = arith.constant dense<{{\[}}[5.000000e-01, 2.500000e-01], [1.250000e-01, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK: %[[O:.*]] = arith.constant dense<{{\[}}[-2.000000e+02, 0.000000e+00], [-1.000000e+00, -3.000000e+00]]> : tensor<2x2xf32>
// CHECK: quant_affine.dequantize %{{.*}}, %[[S]], %[[O]] range [0, 255] block [4, 2] : (tensor<8x4xi8>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<8x4xf32>
// CHECK: %[[S2:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK: quant_affine.quantize %{{.*}}, %[[S2]] range [-8, 7] block [-1, 2] : (tensor<8x4xf32>, tensor<1x2xf32>) -> tensor<8x4xi4>
func.func @sub_channel(%w: tensor<8x4xi8>, %x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xi4>) {
  %wq = quant.scast %w : tensor<8x4xi8> to tensor<8x4x!quant.uniform<u8:f32:{0:4, 1:2}, {{0.5:200, 0.25:0}, {0.125:1, 1.0:3}}>>
  %wf = quant.dcast %wq : tensor<8x4x!quant.uniform<u8:f32:{0:4, 1:2}, {{0.5:200, 0.25:0}, {0.125:1, 1.0:3}}>> to tensor<8x4xf32>
  %q = quant.qcast %x : tensor<8x4xf32> to tensor<8x4x!quant.uniform<i4:f32:{1:2}, {{1.0, 2.0}}>>
  %qi = quant.scast %q : tensor<8x4x!quant.uniform<i4:f32:{1:2}, {{1.0, 2.0}}>> to tensor<8x4xi4>
  return %wf, %qi : tensor<8x4xf32>, tensor<8x4xi4>
}

// -----

// Scalars: scalar constants.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: (%[[X:.*]]: f32) -> f32
// CHECK-DAG: %[[S:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[O:.*]] = arith.constant -7.000000e+00 : f32
// CHECK: %[[Q:.*]] = quant_affine.quantize %[[X]], %[[S]], %[[O]] range [0, 255] : (f32, f32, f32) -> i8
// CHECK: quant_affine.dequantize %[[Q]], %{{.*}}, %{{.*}} range [0, 255] : (i8, f32, f32) -> f32
func.func @scalars(%x: f32) -> f32 {
  %q = quant.qcast %x : f32 to !quant.uniform<u8:f32, 0.25:7>
  %d = quant.dcast %q : !quant.uniform<u8:f32, 0.25:7> to f32
  return %d : f32
}

// -----

// Boundaries: signatures, calls, returns, branches, scf loops and tensor ops
// carrying !quant types take the storage integers; nothing quantized is
// left.
// CHECK-NOT: !quant
// CHECK-LABEL: func.func private @external
// CHECK-SAME: (tensor<4xi8>) -> tensor<4xi8>
func.func private @external(tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>

// CHECK-LABEL: func.func @boundaries
// CHECK-SAME: (%[[X:.*]]: tensor<8xi8>, %[[N:.*]]: index, %[[FLAG:.*]]: i1) -> tensor<4xi8>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[X]][2] [4] [1] : tensor<8xi8> to tensor<4xi8>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[SLICE]]) -> (tensor<4xi8>)
// CHECK:   %[[D:.*]] = quant_affine.dequantize %[[ACC]]
// CHECK:   %[[A:.*]] = arith.addf %[[D]], %[[D]]
// CHECK:   %[[Q:.*]] = quant_affine.quantize %[[A]]
// CHECK:   %[[E:.*]] = func.call @external(%[[Q]]) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK:   scf.yield %[[E]] : tensor<4xi8>
// CHECK: cf.cond_br %[[FLAG]], ^[[BB:.*]](%[[R]] : tensor<4xi8>), ^[[BB]](%[[SLICE]] : tensor<4xi8>)
// CHECK: ^[[BB]](%[[OUT:.*]]: tensor<4xi8>):
// CHECK: return %[[OUT]] : tensor<4xi8>
// CHECK-NOT: !quant
func.func @boundaries(%x: tensor<8x!quant.uniform<i8:f32, 0.5>>, %n: index, %flag: i1) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %slice = tensor.extract_slice %x[2] [4] [1] : tensor<8x!quant.uniform<i8:f32, 0.5>> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %slice) -> (tensor<4x!quant.uniform<i8:f32, 0.5>>) {
    %d = quant.dcast %acc : tensor<4x!quant.uniform<i8:f32, 0.5>> to tensor<4xf32>
    %a = arith.addf %d, %d : tensor<4xf32>
    %q = quant.qcast %a : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5>>
    %e = func.call @external(%q) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
    scf.yield %e : tensor<4x!quant.uniform<i8:f32, 0.5>>
  }
  cf.cond_br %flag, ^bb1(%r : tensor<4x!quant.uniform<i8:f32, 0.5>>), ^bb1(%slice : tensor<4x!quant.uniform<i8:f32, 0.5>>)
^bb1(%out: tensor<4x!quant.uniform<i8:f32, 0.5>>):
  return %out : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A zero point that only f64 holds exactly (2^53 - 1) gives an f64 offset;
// one more (2^53 + 1) has no exact float and is refused (errors.mlir).
// CHECK-LABEL: func.func @zero_point_in_f64
// CHECK: %[[O:.*]] = arith.constant dense<0xC33FFFFFFFFFFFFF> : tensor<f64>
// CHECK: quant_affine.quantize %{{.*}}, %{{.*}}, %[[O]] range [-2147483648, 2147483647] : (tensor<4xf32>, tensor<f32>, tensor<f64>) -> tensor<4xi32>
func.func @zero_point_in_f64(%x: tensor<4xf32>) -> tensor<4xi32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i32:f32, 0.5:9007199254740991>>
  %i = quant.scast %q : tensor<4x!quant.uniform<i32:f32, 0.5:9007199254740991>> to tensor<4xi32>
  return %i : tensor<4xi32>
}
