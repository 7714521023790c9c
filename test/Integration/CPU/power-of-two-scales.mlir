// Power-of-two constant scales multiply by the reciprocal (see
// docs/Canonicalization.md); the bits must equal true division's, including
// subnormal quotients and results, ties, infinities and NaN. Expected values
// were computed with NumPy's IEEE float32 division.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=IR
// IR-NOT: llvm.fdiv

// CHECK: [0, 0, 0, 2155872256, 0, 0, 0, 8388608, 67239936, 2214199296, 2143289344, 67239936, 0, 8388608, 16777216, 2164260864]
// CHECK: [0, 0, 0, 0, 0, 0, 0, 0, 1098776576, 3246391296, 2143289344, 1098776576, 0, 0, 0, 0]
// CHECK: [0, 0, 0, 0, 0, 0, 0, 0, 1962672128, 4110483456, 2143289344, 1962672128, 0, 0, 0, 0]
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})
func.func @k0(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = arith.constant dense<1.1754943508222875e-38> : tensor<f32>
  %o = arith.constant dense<3.0> : tensor<f32>
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<16xf32>, tensor<f32>, tensor<f32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
func.func @k1(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = arith.constant dense<0.125> : tensor<f32>
  %o = arith.constant dense<0.0> : tensor<f32>
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<16xf32>, tensor<f32>, tensor<f32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
func.func @k2(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = arith.constant dense<1.2676506002282294e+30> : tensor<f32>
  %o = arith.constant dense<-1.0> : tensor<f32>
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<16xf32>, tensor<f32>, tensor<f32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
func.func @main() {
  %x = arith.constant dense<"0x010000000200008005941F00D7667F80AFFE3F000000000000000080E655A3000000807F000080FF0000C07FE6B1617F0000400000006000000020010000C080"> : tensor<16xf32>
  %nan = arith.constant dense<2143289344> : tensor<16xi32>
  %y0 = call @k0(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %n0 = arith.cmpf uno, %y0, %y0 : tensor<16xf32>
  %b0 = arith.bitcast %y0 : tensor<16xf32> to tensor<16xi32>
  %c0 = arith.select %n0, %nan, %b0 : tensor<16xi1>, tensor<16xi32>
  %w0 = arith.extui %c0 : tensor<16xi32> to tensor<16xi64>
  %u0 = tensor.cast %w0 : tensor<16xi64> to tensor<*xi64>
  call @printMemrefI64(%u0) : (tensor<*xi64>) -> ()
  %y1 = call @k1(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %n1 = arith.cmpf uno, %y1, %y1 : tensor<16xf32>
  %b1 = arith.bitcast %y1 : tensor<16xf32> to tensor<16xi32>
  %c1 = arith.select %n1, %nan, %b1 : tensor<16xi1>, tensor<16xi32>
  %w1 = arith.extui %c1 : tensor<16xi32> to tensor<16xi64>
  %u1 = tensor.cast %w1 : tensor<16xi64> to tensor<*xi64>
  call @printMemrefI64(%u1) : (tensor<*xi64>) -> ()
  %y2 = call @k2(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %n2 = arith.cmpf uno, %y2, %y2 : tensor<16xf32>
  %b2 = arith.bitcast %y2 : tensor<16xf32> to tensor<16xi32>
  %c2 = arith.select %n2, %nan, %b2 : tensor<16xi1>, tensor<16xi32>
  %w2 = arith.extui %c2 : tensor<16xi32> to tensor<16xi64>
  %u2 = tensor.cast %w2 : tensor<16xi64> to tensor<*xi64>
  call @printMemrefI64(%u2) : (tensor<*xi64>) -> ()
  return
}
