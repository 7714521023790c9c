// RUN: quant-affine-opt %s -split-input-file -verify-diagnostics
// compute_encoding's verifier: one case per rule, each message naming the
// operand and the rule.

func.func @empty_grid(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires qmin < qmax (a grid of at least one step), got qmin = 3 and qmax = 3}}
  %s, %o = quant_affine.compute_encoding %x range [3, 3] : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @reversed_grid(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires qmin < qmax (a grid of at least one step), got qmin = 7 and qmax = -8}}
  %s, %o = quant_affine.compute_encoding %x range [7, -8] : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @too_wide(%x: tensor<4xf32>) {
  // expected-error @+1 {{grid [-9223372036854775807, 9223372036854775807] is too wide: qmax - qmin and -qmin must fit int64}}
  %s, %o = quant_affine.compute_encoding %x range [-9223372036854775807, 9223372036854775807] : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @int64_min(%x: tensor<4xf32>) {
  // expected-error @+1 {{grid [-9223372036854775808, -1] is too wide: qmax - qmin and -qmin must fit int64}}
  %s, %o = quant_affine.compute_encoding %x range [-9223372036854775808, -1] : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @no_elements(%x: tensor<0x4xf32>) {
  // expected-error @+1 {{input of type 'tensor<0x4xf32>' has no elements: an encoding needs at least one value to take its minimum and maximum}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<0x4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @offset_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'offset' of type 'tensor<4xf32>' must have the shape of 'scale' ('tensor<4x1xf32>')}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<4x8xf32> -> (tensor<4x1xf32>, tensor<4xf32>)
  return
}

// -----

func.func @scale_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<2x8xf32>' does not encode input 'tensor<8xf32>': scale has rank 2 but the input only rank 1}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<8xf32> -> (tensor<2x8xf32>, tensor<2x8xf32>)
  return
}

// -----

func.func @broadcast(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x3xf32>' does not encode input 'tensor<4x8xf32>'}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<4x8xf32> -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return
}

// -----

func.func @block_mismatch(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xf32>'}}
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 16] : tensor<4x64xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @block_length(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{block_size has 1 entry but scale has rank 2; it needs one entry per scale dim}}
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] block [32] : tensor<4x64xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @block_zero(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{block_size[1] = 0 is invalid; block sizes are positive or -1 (wildcard)}}
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] block [1, 0] : tensor<4x64xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @integer_input(%x: tensor<4xi8>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of f16, bf16, f32 or f64 values}}
  %s, %o = "quant_affine.compute_encoding"(%x) <{qmin = 0 : i64, qmax = 255 : i64}> : (tensor<4xi8>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @integer_scale(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of f16, bf16, f32 or f64 values}}
  %s, %o = "quant_affine.compute_encoding"(%x) <{qmin = 0 : i64, qmax = 255 : i64}> : (tensor<4xf32>) -> (tensor<i32>, tensor<f32>)
  return
}

// -----

func.func @too_large(%x: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'input' of type 'tensor<4611686018427387904x4xf32>' is too large}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<4611686018427387904x4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @torchao_only(%x: tensor<4xf32>) {
  // expected-error @+1 {{'eps' is a property of torchao's convention: add 'torchao'}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] eps 1.0e-05 : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @no_clipping_asymmetric(%x: tensor<4xf32>) {
  // expected-error @+1 {{'no_clipping_err' is a symmetric mapping: add 'symmetric'}}
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] torchao no_clipping_err : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @float_domain_symmetric(%x: tensor<4xf32>) {
  // expected-error @+1 {{'float_zero_point' (torchao's FLOAT domain) takes the asymmetric mapping only}}
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric torchao float_zero_point : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @no_preserve_int_domain(%x: tensor<4xf32>) {
  // expected-error @+1 {{'no_preserve_zero' is defined for torchao's FLOAT zero-point domain only: add 'float_zero_point'}}
  %s, %o = quant_affine.compute_encoding %x range [0, 15] torchao no_preserve_zero : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @negative_eps(%x: tensor<4xf32>) {
  // expected-error @+1 {{'eps' must be a non-negative number, got -1.000000e+00}}
  %s, %o = quant_affine.compute_encoding %x range [0, 255] torchao eps -1.0 : tensor<4xf32> -> (tensor<f32>, tensor<f32>)
  return
}
