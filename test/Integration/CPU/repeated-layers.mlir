// Repeated layers in a whole program: an MLP of four identical layers (int4
// weights with per-channel scales of 1 and 0.5, dequantize -> matmul into a
// zero-filled tensor, each result fake-quantized by quant_affine.qdq with
// scale 4 in [-8, 7] into the next layer), weights passed as arguments from
// @main's constants. quant-affine-outline-repeated-sums makes the four
// matmuls that are the same calls of one function (compiled once); the
// numbers are the same as inline: every value is an integer or a half
// below 2^12, so every order of the sums is exact, and the expected bits
// come from a Fraction model (round half to even, clamp; ties at -10, 18
// and 26 among the first layer's results). Under the pipeline's option
// sets.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline="runtime-checks=true reciprocal-division=true target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// The three layers after the first are one function: the qdq of the
// previous result is fused into each of their bodies (the first reads x as
// it is). Inlined into @main, the weights are constants, dequantized at
// compile time into f32 weights that differ from layer to layer: those are
// passed to one function too.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=IR
// IR: llvm.func @[[SUM:mlp_sum]](
// IR: vector<16xf32>
// IR: llvm.func @mlp(
// IR-COUNT-3: llvm.call @[[SUM]](
// IR-NOT: llvm.call @[[SUM]](
// IR: llvm.func @main(
// RUN: quant-affine-opt %s -inline --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=INLINED
// INLINED: llvm.func @main_sum(
// INLINED-LABEL: llvm.func @main(
// INLINED-COUNT-3: llvm.call @main_sum(
// INLINED-NOT: llvm.call @main_sum(
// CHECK-LABEL: layer 0
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [-1054867456,  -1054343168,  -1053818880,  1099431936,  1099956224,  1065353216,  1090519040,  0,  1065353216,  1104150528,  1107558400,  -1045954560,  1104674816,  1094713344,  -1061158912,  1109655552]
// CHECK-LABEL: layer 1
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [-1026293760,  -1028128768,  -1021050880,  -1046478848,  -1044381696,  1129054208,  1136263168,  1131151360,  1141702656,  1111490560,  -1011613696,  -1020002304,  -1026555904,  1134821376,  -1012793344,  1135476736]
// CHECK-LABEL: layer 2
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [-1009647616,  1141506048,  1125384192,  1122500608,  -1026555904,  1142423552,  1115684864,  -1037565952,  1132724224,  1137967104,  -1023148032,  -1007812608,  -1010827264,  1134821376,  1136328704,  -1013710848]
// CHECK-LABEL: layer 3
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1138425856,  1128267776,  1125384192,  -1011220480,  1131413504,  -1005649920,  1121452032,  -1029177344,  -1016070144,  1123287040,  1108869120,  1112539136,  -1050673152,  1127612416,  1138556928,  -1013448704]

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print(%t: tensor<1x16xf32>) {
  %b = arith.bitcast %t : tensor<1x16xf32> to tensor<1x16xi32>
  %u = tensor.cast %b : tensor<1x16xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @mlp(%x: tensor<1x16xf32>, %w0: tensor<16x16xi4>, %s0: tensor<16x1xf32>, %w1: tensor<16x16xi4>, %s1: tensor<16x1xf32>, %w2: tensor<16x16xi4>, %s2: tensor<16x1xf32>, %w3: tensor<16x16xi4>, %s3: tensor<16x1xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant dense<4.0> : tensor<f32>
  %d0 = quant_affine.dequantize %w0, %s0 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e0 = tensor.empty() : tensor<1x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %y0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %d0 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %x1 = quant_affine.qdq %y0, %four range [-8, 7] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %d1 = quant_affine.dequantize %w1, %s1 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %y1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x1, %d1 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %x2 = quant_affine.qdq %y1, %four range [-8, 7] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %d2 = quant_affine.dequantize %w2, %s2 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<1x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %y2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x2, %d2 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %x3 = quant_affine.qdq %y2, %four range [-8, 7] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %d3 = quant_affine.dequantize %w3, %s3 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<1x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %y3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x3, %d3 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f3 : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %y0, %y1, %y2, %y3 : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 2.0, -2.0, -1.0, 0.0, -1.0, -1.0, 0.0, 0.0, 1.0, -2.0, 2.0, -1.0, -2.0, -1.0]]> : tensor<1x16xf32>
  %w0 = arith.constant dense<[[6, -7, -3, 2, -5, 0, 2, -4, -5, 5, -7, 2, 2, -1, -4, 1], [-3, 1, 1, 6, -3, -2, 7, 5, -6, -3, -2, -8, -6, 6, 1, -5], [-2, -1, 6, 6, -5, 7, 2, 6, 1, -1, -6, -7, -4, 4, -3, 6], [-5, 5, -2, -8, 5, 7, -1, -1, 6, -2, -3, -3, 1, 0, -6, -3], [2, -3, -1, -7, -1, -3, -7, -1, -2, 5, 5, 7, 1, 1, -1, -7], [4, -7, -3, -3, 1, -8, 1, 3, 4, 5, 2, -7, 0, 7, 0, -8], [-2, -7, 3, 1, -5, -7, -8, 1, -8, 0, -5, -3, -3, -8, -8, 3], [-2, 2, 5, 7, -7, -3, 1, -8, 7, -5, -1, 6, 7, 0, 7, -1], [6, 4, 2, 6, 7, -8, -2, 5, 3, -4, 4, 5, -7, -2, -8, -8], [-3, 2, -5, -2, 2, 5, 3, -8, -2, -5, -4, -3, 4, -5, -6, -1], [5, 7, -6, -8, -6, 1, 1, -8, -1, 7, 3, -4, 5, -1, -6, 4], [-3, -6, -7, 6, -1, 6, 4, -5, 1, 7, 7, -1, 7, -4, 1, 7], [6, 3, 5, -1, -7, -5, -6, -8, -5, -6, -2, 7, 1, -1, 4, -3], [7, -2, 7, 5, 1, -6, -8, -3, -5, 5, 3, 7, 5, -2, 2, 2], [4, -4, -5, 5, -6, 0, -8, -7, 3, -2, -4, 2, 5, -5, 7, 2], [6, 7, 3, -2, 7, -1, 2, -2, 2, 6, -3, -7, 0, 6, -3, -7]]> : tensor<16x16xi4>
  %s0 = arith.constant dense<[[1.0], [0.5], [1.0], [0.5], [1.0], [0.5], [0.5], [1.0], [0.5], [1.0], [0.5], [1.0], [1.0], [1.0], [0.5], [1.0]]> : tensor<16x1xf32>
  %w1 = arith.constant dense<[[-4, 4, 1, 4, -4, -3, 1, -8, -2, -7, -3, -3, -3, 5, -3, 0], [-6, 4, 2, -6, -6, -8, 3, 2, 6, -3, 0, -5, -5, 3, -1, 6], [-7, 4, -8, -4, -1, -1, -1, 6, -1, -2, -7, 6, 7, 6, 3, -8], [-3, 6, -4, 0, -3, 1, -5, 7, -2, 3, 6, 6, -1, -2, -7, -2], [0, 1, 7, -6, -6, -1, -8, -7, 5, 0, 6, -1, -6, 7, -7, 6], [5, -2, 1, 5, 1, -6, 7, -5, -2, 7, -5, 1, 6, 5, 2, -5], [-4, -8, -8, 4, -6, -5, 6, 4, -8, 5, 6, 5, 3, 5, -3, -8], [2, 6, 0, -4, -5, -8, 6, -4, 1, -4, 7, -3, 3, 5, 3, 5], [0, 5, -3, 7, 6, 1, -1, -2, -5, 2, 5, -1, -3, 5, -1, 7], [4, 4, -3, -1, -4, 2, -2, 2, -4, -4, 7, 0, 6, -4, -2, 0], [3, -5, -2, 3, -8, 5, 7, -7, 1, -8, -7, 4, 5, 3, -1, -4], [4, -3, -4, 2, 4, 2, 6, -8, -3, 5, -8, -5, -3, -6, 6, -6], [-5, -7, -3, -7, -5, -7, 5, 6, 0, 2, 3, -5, -7, 4, 0, -7], [-5, -4, -8, 2, -3, -6, 4, 4, -2, -5, 4, -6, -4, 3, -1, 3], [1, 6, 6, 0, 0, -5, -4, -8, 4, -6, 4, 3, -3, -7, 6, 6], [-6, 1, 0, 2, 7, -8, -5, -5, -2, 7, 0, -7, -6, 0, -5, 1]]> : tensor<16x16xi4>
  %s1 = arith.constant dense<[[0.5], [1.0], [0.5], [1.0], [1.0], [1.0], [1.0], [1.0], [1.0], [0.5], [1.0], [1.0], [1.0], [1.0], [1.0], [1.0]]> : tensor<16x1xf32>
  %w2 = arith.constant dense<[[-5, 5, -3, -2, -7, 3, -5, -6, -7, -3, 3, 2, 3, -5, -2, 4], [3, 5, -4, -5, 2, 7, -7, 7, -4, -1, 4, -7, -6, 7, -8, -6], [-8, 5, -4, 5, -3, -4, -6, 6, 5, -7, -7, 5, 4, 1, -6, 4], [-7, -4, -5, 5, -6, -7, 0, -6, 7, 2, 6, 4, 3, -7, -8, 1], [-3, 3, 4, -3, -1, 2, 3, -7, -6, -1, 2, -8, 0, -4, 0, 4], [-7, -5, 7, -2, -4, -7, -2, 2, -1, 4, -8, 3, -3, 4, 0, 2], [-1, -3, 1, 7, -8, 0, 2, -4, -2, 0, 7, 5, 1, 4, -6, 5], [6, 6, 3, -3, -5, 3, 1, 3, -1, -1, -5, 7, -4, -8, -3, 5], [6, -5, -3, -5, -6, 4, 0, 3, -1, -1, 1, 1, -7, -2, 6, 6], [-8, 5, 0, -7, 3, -2, 5, -6, 6, 6, -6, -3, 4, 4, -5, 0], [7, 2, 5, -2, 5, -6, 5, 0, -7, -6, 2, -5, -8, 2, -6, 2], [3, -4, 2, 3, 0, -1, 6, -4, -8, -8, -4, -5, 6, 6, 1, -7], [4, -3, -8, -6, -5, -1, -7, -8, -5, -8, 4, 6, -1, -2, -2, -5], [3, 5, -2, 1, -7, 1, 0, -8, 0, 4, -6, 0, -7, 7, -8, -3], [-4, -3, -4, -8, -8, 5, -1, 6, 7, -7, 2, 0, -5, -8, 6, 3], [-6, 3, 4, -1, -6, -4, -2, -2, 4, -4, -1, -4, 6, 0, 1, -5]]> : tensor<16x16xi4>
  %s2 = arith.constant dense<[[1.0], [1.0], [0.5], [1.0], [1.0], [1.0], [1.0], [0.5], [0.5], [0.5], [0.5], [1.0], [0.5], [0.5], [0.5], [1.0]]> : tensor<16x1xf32>
  %w3 = arith.constant dense<[[2, 3, 3, -2, -8, 4, 2, 0, 7, 7, 0, -4, -2, -7, -4, -4], [5, 0, 2, 2, 0, -1, 4, -8, 7, 5, 3, -1, 0, -3, -8, -4], [-4, -2, -1, 5, -1, 2, 0, -5, -2, -6, 3, -5, 0, 3, -4, 3], [1, 6, -8, -3, 0, -6, -2, 7, -7, -8, 0, -7, -8, 6, -8, 4], [0, 6, -4, 6, 5, -7, -7, -4, 7, 5, -3, -5, -3, 4, -6, 6], [0, 2, 7, 5, -5, -4, -8, 5, 7, -6, 7, -1, 1, -6, -6, 3], [1, 6, 7, 3, 7, 1, -5, -7, -6, 3, -4, 7, -1, 5, -4, -1], [0, 2, 7, 4, 5, -5, 6, -3, -4, -3, 4, 7, -7, 2, -4, 1], [3, -2, -6, -3, -2, -7, -3, 5, 3, -1, -1, -8, 7, 1, 2, -3], [2, -1, 6, 6, -4, -5, -8, 6, 3, -4, -1, -8, 1, -4, 2, -8], [0, -8, 4, 6, -5, 4, -2, 5, -8, 4, 6, -4, 7, 1, 4, -7], [-3, -1, 6, -7, -2, 0, 1, 6, -2, -3, 1, -5, 2, 6, 6, 3], [-7, 6, -3, 4, 2, 4, 2, 4, 6, -4, 6, 2, 0, -6, 6, 7], [-2, 4, -7, -5, 0, 6, -7, 5, 4, -8, -8, -4, -2, 5, 5, -3], [2, 1, 5, -2, -5, -7, 6, -6, 5, -4, -4, -1, -6, -6, 5, -5], [-2, -4, 1, 0, 3, 1, -8, 4, 0, -1, -5, 2, 3, 0, 7, 1]]> : tensor<16x16xi4>
  %s3 = arith.constant dense<[[0.5], [0.5], [1.0], [0.5], [1.0], [1.0], [0.5], [1.0], [0.5], [0.5], [0.5], [0.5], [0.5], [0.5], [0.5], [1.0]]> : tensor<16x1xf32>
  %y:4 = call @mlp(%x, %w0, %s0, %w1, %s1, %w2, %s2, %w3, %s3) : (tensor<1x16xf32>, tensor<16x16xi4>, tensor<16x1xf32>, tensor<16x16xi4>, tensor<16x1xf32>, tensor<16x16xi4>, tensor<16x1xf32>, tensor<16x16xi4>, tensor<16x1xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  vector.print str "layer 0\n"
  call @print(%y#0) : (tensor<1x16xf32>) -> ()
  vector.print str "layer 1\n"
  call @print(%y#1) : (tensor<1x16xf32>) -> ()
  vector.print str "layer 2\n"
  call @print(%y#2) : (tensor<1x16xf32>) -> ()
  vector.print str "layer 3\n"
  call @print(%y#3) : (tensor<1x16xf32>) -> ()
  return
}
