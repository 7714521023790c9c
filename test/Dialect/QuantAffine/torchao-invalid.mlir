// RUN: quant-affine-opt %s -split-input-file -verify-diagnostics
// torchao's properties: where they apply.

func.func @reciprocal_dequantize(%q: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{'reciprocal' applies to quantize and qdq: dequantize multiplies by the scale already}}
  %y = quant_affine.dequantize %q, %s range [-128, 127] reciprocal : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reciprocal_float_zero_point(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'reciprocal' and 'float_zero_point' do not combine: torchao's FLOAT zero-point domain divides by the scale}}
  %y = quant_affine.qdq %x, %s, %z range [0, 15] reciprocal float_zero_point : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}
