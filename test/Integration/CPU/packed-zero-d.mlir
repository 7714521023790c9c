// 0-D packed values (i4, i2): a function argument, constants, and a result
// computed and returned, through the CPU pipeline and through the GPU
// mapping run as loops, executed. A 0-D packed buffer is one byte (memref<i8>)
// with the value in its low bits. (Both pipelines failed here: a load with
// one index of the 0-D byte, and a constant's bytes as a tensor<1xi8>.)
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -o %t.mlir
// RUN: mlir-runner %t.mlir -O0 -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})

// -7 * 0.5 = -3.5 (bits 3227516928, as unsigned); 5.2 / 0.5 = 10.4 clamps
// to 7; 1 * 0.25 = 0.25 (1048576000); true sign-extended is -1.
// CHECK: [3227516928,  7,  1048576000,  -1]
func.func @kernel(%q: tensor<i4>, %s: tensor<f32>, %x: tensor<f32>) -> (tensor<f32>, tensor<i4>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] : (tensor<i4>, tensor<f32>) -> tensor<f32>
  %r = quant_affine.quantize %x, %s range [-8, 7] : (tensor<f32>, tensor<f32>) -> tensor<i4>
  return %w, %r : tensor<f32>, tensor<i4>
}

func.func @main() {
  %q = arith.constant dense<-7> : tensor<i4>
  %s = arith.constant dense<0.5> : tensor<f32>
  %x = arith.constant dense<5.2> : tensor<f32>
  %w, %r = call @kernel(%q, %s, %x) : (tensor<i4>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i4>)
  %one = arith.constant dense<1> : tensor<i2>
  %quarter = arith.constant dense<0.25> : tensor<f32>
  %v = quant_affine.dequantize %one, %quarter range [-2, 1] : (tensor<i2>, tensor<f32>) -> tensor<f32>
  %flag = arith.constant dense<true> : tensor<i1>
  %wb = arith.bitcast %w : tensor<f32> to tensor<i32>
  %vb = arith.bitcast %v : tensor<f32> to tensor<i32>
  %w64 = arith.extui %wb : tensor<i32> to tensor<i64>
  %r64 = arith.extsi %r : tensor<i4> to tensor<i64>
  %v64 = arith.extui %vb : tensor<i32> to tensor<i64>
  %f64 = arith.extsi %flag : tensor<i1> to tensor<i64>
  %w1 = tensor.expand_shape %w64 [] output_shape [1] : tensor<i64> into tensor<1xi64>
  %r1 = tensor.expand_shape %r64 [] output_shape [1] : tensor<i64> into tensor<1xi64>
  %v1 = tensor.expand_shape %v64 [] output_shape [1] : tensor<i64> into tensor<1xi64>
  %f1 = tensor.expand_shape %f64 [] output_shape [1] : tensor<i64> into tensor<1xi64>
  %all = tensor.concat dim(0) %w1, %r1, %v1, %f1 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %u = tensor.cast %all : tensor<4xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}
