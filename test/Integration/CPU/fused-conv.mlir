// Dequantize fused into convolutions (docs/FusedMatmul.md): int8 filters
// with a scale per output channel, dequantized inside
// linalg.conv_2d_nhwc_hwcf and linalg.conv_2d_nchw_fchw; @*_weights is the
// dequantize alone. Inputs/fused-conv-harness.cpp checks, for both layouts
// and an unquantized f32 convolution: one-hot inputs give exactly the
// dequantized filter's values, and random inputs agree with a float64
// reference within K 2^-24 sum |x w| (K = 3 x 3 x channels).
//
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/fused-conv-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" | mlir-translate --mlir-to-llvmir -o %t.omp.ll %}
// RUN: %if libomp %{ clang -O2 -Wno-override-module -c %t.omp.ll -o %t.omp.o %}
// RUN: %if libomp %{ clang++ -O2 -fopenmp %S/Inputs/fused-conv-harness.cpp %t.omp.o -o %t.omp.exe -Wl,-rpath,%mlir_lib_dir %}
// RUN: %if libomp %{ %t.omp.exe | FileCheck %s %}
// The fused filter is read as int8 vectors inside the vectorized loops.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v4" | FileCheck %s --check-prefix=VEC

// CHECK: nhwc: one-hot exact, within bound
// CHECK: nchw: one-hot exact, within bound
// CHECK: f32: one-hot exact, within bound

// VEC-LABEL: llvm.func @nhwc(
// VEC: llvm.sitofp {{.*}} : vector<{{16|32}}xi8> to vector<{{16|32}}xf32>
// VEC: llvm.fadd {{.*}}contract{{.*}} : vector<{{16|32}}xf32>
// VEC-LABEL: llvm.func @nchw(
// VEC: llvm.fadd {{.*}}contract{{.*}} : vector<{{8|16|32}}xf32>

func.func @nhwc(%x: tensor<1x10x10x16xf32>, %q: tensor<3x3x16x32xi8>, %s: tensor<1x1x1x32xf32>, %d: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<3x3x16x32xi8>, tensor<1x1x1x32xf32>) -> tensor<3x3x16x32xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}
func.func @nhwc_weights(%q: tensor<3x3x16x32xi8>, %s: tensor<1x1x1x32xf32>) -> tensor<3x3x16x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<3x3x16x32xi8>, tensor<1x1x1x32xf32>) -> tensor<3x3x16x32xf32>
  return %w : tensor<3x3x16x32xf32>
}

func.func @nchw(%x: tensor<1x16x10x10xf32>, %q: tensor<32x16x3x3xi8>, %s: tensor<32x1x1x1xf32>, %d: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x16x3x3xi8>, tensor<32x1x1x1xf32>) -> tensor<32x16x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x10x10xf32>, tensor<32x16x3x3xf32>) outs(%f : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %c : tensor<1x32x8x8xf32>
}
func.func @nchw_weights(%q: tensor<32x16x3x3xi8>, %s: tensor<32x1x1x1xf32>) -> tensor<32x16x3x3xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x16x3x3xi8>, tensor<32x1x1x1xf32>) -> tensor<32x16x3x3xf32>
  return %w : tensor<32x16x3x3xf32>
}

// The same convolution on f32 filters, by the same pipeline.
func.func @f32(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16x32xf32>, %d: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}
