// With from-quant=true, what the conversion cannot express stops the
// pipelines with an error at the op (never an output that is not lowered).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="from-quant=true" -split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="from-quant=true format=isa" -split-input-file -verify-diagnostics

func.func @any(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @below {{'quant.qcast' op cannot convert 'tensor<4x!quant.any<i8:f32>>' to quant_affine: !quant.any has no scale or zero point to quantize with}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.any<i8:f32>>
  %i = quant.scast %q : tensor<4x!quant.any<i8:f32>> to tensor<4xi8>
  return %i : tensor<4xi8>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xi8> {
  // expected-error @below {{'quant.qcast' op cannot convert 'tensor<*x!quant.uniform<i8:f32, 5.000000e-01>>' to quant_affine: quant_affine ops take scalars and ranked tensors}}
  %q = quant.qcast %x : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 0.5>>
  %i = quant.scast %q : tensor<*x!quant.uniform<i8:f32, 0.5>> to tensor<*xi8>
  return %i : tensor<*xi8>
}
