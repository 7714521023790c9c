// What the compute_encoding lowering does not handle yet is an error at the
// op, through the conversion and both pipelines: a wildcard block (-1) over
// a dynamic size, whose block size is known only at run time.
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa" -verify-diagnostics

func.func @wildcard_over_dynamic(%x: tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  // expected-error @below {{'quant_affine.compute_encoding' op with a wildcard block over a dynamic size is not lowered yet (give the block size)}}
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] block [1, -1] : tensor<4x?xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %s, %o : tensor<4x2xf32>, tensor<4x2xf32>
}
