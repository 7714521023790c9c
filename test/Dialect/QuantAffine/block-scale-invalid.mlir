// RUN: quant-affine-opt %s -split-input-file -verify-diagnostics
// block_scale's verifier: one case per rule, each message naming the rule.

func.func @not_an_element(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{element 'f16' is not a block-float element format (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2, or i8 for MXINT8)}}
  %0 = quant_affine.block_scale %x element f16 rounding "floor" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @unknown_rounding(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'rounding' must be "floor", "rceil", "ceil", "even" or "nearest", got "up"}}
  %0 = quant_affine.block_scale %x element f4E2M1FN rounding "up" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @e8m0_without_rounding(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{an f8E8M0FNU scale is a power of two: it needs 'rounding'}}
  %0 = quant_affine.block_scale %x element f4E2M1FN block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @rounding_to_e4m3(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'rounding' makes a power-of-two scale, held in f8E8M0FNU or f32, not 'f8E4M3FN'}}
  %0 = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [1, 16] : (tensor<4x64xf32>) -> tensor<4x4xf8E4M3FN>
  return
}

// -----

func.func @tensor_scale_of_f32(%x: tensor<4x64xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'tensor_scale' is the per-tensor level of an f8E4M3FN (NVFP4) scale, not of 'f32'}}
  %0 = quant_affine.block_scale %x, %t element f8E4M3FN block [1, 32] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @partial_block(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf8E8M0FNU>' does not encode input 'tensor<4x64xf32>': input dim 1 has 64 elements, not a multiple of block_size 48}}
  %0 = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [1, 48] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @scale_shape(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{input dim 1 has 64 elements but block_size 32 x scale dim 1 size 3 needs 96}}
  %0 = quant_affine.block_scale %x element f4E2M1FN rounding "floor" block [1, 32] : (tensor<4x64xf32>) -> tensor<4x3xf8E8M0FNU>
  return
}
