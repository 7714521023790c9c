// quant_affine -> quant -> quant_affine computes the same bits: each program
// runs directly and after --convert-quant-affine-to-quant, then the
// pipelines' from-quant=true; both must print the same lines.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked > %t.direct
// RUN: FileCheck %s < %t.direct
// RUN: quant-affine-opt %s --convert-quant-affine-to-quant \
// RUN: | quant-affine-opt --quant-affine-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked > %t.round-trip
// RUN: diff %t.direct %t.round-trip
// RUN: quant-affine-opt %s --convert-quant-affine-to-quant \
// RUN: | quant-affine-opt --quant-affine-test-gpu-on-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked > %t.gpu-round-trip
// RUN: diff %t.direct %t.gpu-round-trip
// Every quantize and dequantize went through quant casts:
// RUN: quant-affine-opt %s --convert-quant-affine-to-quant | FileCheck %s --check-prefix=QUANT
// QUANT-NOT: quant_affine.quantize
// QUANT-NOT: quant_affine.dequantize

// The direct run (the bf16 dequantize has an f32 offset beside bf16 scales,
// which the linalg lowering once cast to the scale's type):
// CHECK: [27,  23,  19,  16,  13,  10,  7,  5,  3,  1,  -1,  -2,  -3,  -4,  -5,  -5,  -5,  -5,  -5,  -4,  -3,  -2,  -1,  1,  3,  5,  7,  10,  13,  16,  19,  23]
// CHECK-NEXT: [119,  100,  81,  65,  49,  35,  21,  10,  -1,  -10,  -19,  -25,  -31,  -35,  -39,  -40,  -11,  -11,  -10,  -9,  -8,  -6,  -4,  -1,  2,  6,  10,  14,  19,  24,  30,  36]
// CHECK-NEXT: [7,  7,  7,  7,  7,  7,  7,  4,  -1,  -3,  -5,  -6,  -7,  -8,  -8,  -8,  -3,  -3,  -3,  -2,  -2,  -1,  -1,  0,  0,  7,  7,  7,  7,  7,  7,  7]
// CHECK-NEXT: [16352,  16352,  16352,  16352,  16352,  16352,  16352,  16256,  0,  49024,  49152,  49184,  49216,  49248,  49248,  49248,  49280,  49280,  49280,  49216,  49216,  49152,  49152,  49024,  0,  16224,  16224,  16224,  16224,  16224,  16224,  16224]
// CHECK-NEXT: [-1031798784,  -1043988480,  1086324736,  0,  0,  1087897600,  1133903872,  -1110651699,  -1034027008,  -1098907648,  1091567616,  -1043595264]

// Per-tensor, odd offset (x / s has ties at every other element).
func.func @per_tensor(%x: tensor<32xf32>) -> tensor<32xi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %o = arith.constant dense<-3.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<32xf32>, tensor<f32>, tensor<f32>) -> tensor<32xi8>
  return %q : tensor<32xi8>
}

// Per-channel rows, narrow range, f16 with scales f16 cannot hold exactly
// in f32 terms (0.1, 0.3 as f16 values).
func.func @per_channel_f16(%x: tensor<2x16xf16>) -> tensor<2x16xi8> {
  %s = arith.constant dense<[[0.1], [0.3]]> : tensor<2x1xf16>
  %o = arith.constant dense<[[1.0], [-2.0]]> : tensor<2x1xf16>
  %q = quant_affine.quantize %x, %s, %o range [-127, 127] : (tensor<2x16xf16>, tensor<2x1xf16>, tensor<2x1xf16>) -> tensor<2x16xi8>
  return %q : tensor<2x16xi8>
}

// Blocks of 8 along the row, int4, then dequantized to bf16.
func.func @blocks(%x: tensor<2x16xf32>) -> (tensor<2x16xi4>, tensor<2x16xbf16>) {
  %s = arith.constant dense<[[0.25, 0.5], [1.0, 0.125]]> : tensor<2x2xf32>
  %o = arith.constant dense<[[0.0, 1.0], [-1.0, 0.0]]> : tensor<2x2xf32>
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 8] : (tensor<2x16xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x16xi4>
  %sb = arith.constant dense<[[0.25, 0.5], [1.0, 0.125]]> : tensor<2x2xbf16>
  %y = quant_affine.dequantize %q, %sb, %o range [-8, 7] block [1, 8] : (tensor<2x16xi4>, tensor<2x2xbf16>, tensor<2x2xf32>) -> tensor<2x16xbf16>
  return %q, %y : tensor<2x16xi4>, tensor<2x16xbf16>
}

// Unsigned per-column dequantize of a dynamic number of rows.
func.func @per_column(%q: tensor<?x4xi8>) -> tensor<?x4xf32> {
  %s = arith.constant dense<[0.5, 0.25, 3.0, 0.1]> : tensor<4xf32>
  %o = arith.constant dense<[-128.0, -100.0, 0.0, -255.0]> : tensor<4xf32>
  %y = quant_affine.dequantize %q, %s, %o range [0, 255] : (tensor<?x4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)

func.func @print_i32(%t: tensor<?xi32>) {
  %u = tensor.cast %t : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %xs = tensor.empty() : tensor<32xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%xs : tensor<32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %c = arith.constant 0.25 : f32
    %c8 = arith.constant 4.0 : f32
    %v = arith.mulf %f, %c : f32
    %w = arith.subf %v, %c8 : f32
    %w2 = arith.mulf %w, %w : f32
    %r = arith.subf %w2, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>

  %q0 = call @per_tensor(%x) : (tensor<32xf32>) -> tensor<32xi8>
  %p0 = arith.extsi %q0 : tensor<32xi8> to tensor<32xi32>
  %d0 = tensor.cast %p0 : tensor<32xi32> to tensor<?xi32>
  call @print_i32(%d0) : (tensor<?xi32>) -> ()

  %x2 = tensor.expand_shape %x [[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  %xh = arith.truncf %x2 : tensor<2x16xf32> to tensor<2x16xf16>
  %q1 = call @per_channel_f16(%xh) : (tensor<2x16xf16>) -> tensor<2x16xi8>
  %p1 = arith.extsi %q1 : tensor<2x16xi8> to tensor<2x16xi32>
  %f1 = tensor.collapse_shape %p1 [[0, 1]] : tensor<2x16xi32> into tensor<32xi32>
  %d1 = tensor.cast %f1 : tensor<32xi32> to tensor<?xi32>
  call @print_i32(%d1) : (tensor<?xi32>) -> ()

  %q2, %y2 = call @blocks(%x2) : (tensor<2x16xf32>) -> (tensor<2x16xi4>, tensor<2x16xbf16>)
  %p2 = arith.extsi %q2 : tensor<2x16xi4> to tensor<2x16xi32>
  %f2 = tensor.collapse_shape %p2 [[0, 1]] : tensor<2x16xi32> into tensor<32xi32>
  %d2 = tensor.cast %f2 : tensor<32xi32> to tensor<?xi32>
  call @print_i32(%d2) : (tensor<?xi32>) -> ()
  %b2 = arith.bitcast %y2 : tensor<2x16xbf16> to tensor<2x16xi16>
  %e2 = arith.extui %b2 : tensor<2x16xi16> to tensor<2x16xi32>
  %g2 = tensor.collapse_shape %e2 [[0, 1]] : tensor<2x16xi32> into tensor<32xi32>
  %h2 = tensor.cast %g2 : tensor<32xi32> to tensor<?xi32>
  call @print_i32(%h2) : (tensor<?xi32>) -> ()

  %qi = arith.constant dense<[[0, 1, 2, 255], [128, 127, 100, 254], [17, 99, 3, 0]]> : tensor<3x4xi8>
  %qd = tensor.cast %qi : tensor<3x4xi8> to tensor<?x4xi8>
  %y3 = call @per_column(%qd) : (tensor<?x4xi8>) -> tensor<?x4xf32>
  %y3s = tensor.cast %y3 : tensor<?x4xf32> to tensor<3x4xf32>
  %b3 = arith.bitcast %y3s : tensor<3x4xf32> to tensor<3x4xi32>
  %f3 = tensor.collapse_shape %b3 [[0, 1]] : tensor<3x4xi32> into tensor<12xi32>
  %d3 = tensor.cast %f3 : tensor<12xi32> to tensor<?xi32>
  call @print_i32(%d3) : (tensor<?xi32>) -> ()
  return
}
