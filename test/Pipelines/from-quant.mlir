// Without from-quant=true the pipelines refuse quant dialect programs at
// the first op that uses it, saying what to do; with it, what the
// conversion cannot express is an error at its op.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline -split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline -split-input-file -verify-diagnostics
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa" -split-input-file -verify-diagnostics

// expected-error @below {{'func.func' op uses the quant dialect: pass from-quant=true to the pipeline (or run --convert-quant-to-quant-affine first)}}
func.func @signature(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) {
  return
}

// -----

func.func @cast(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @below {{'quant.qcast' op uses the quant dialect: pass from-quant=true to the pipeline (or run --convert-quant-to-quant-affine first)}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  %i = quant.scast %q : tensor<4x!quant.uniform<i8:f32, 0.5>> to tensor<4xi8>
  return %i : tensor<4xi8>
}
