// RUN: quant-affine-opt %s -split-input-file -verify-diagnostics
// float_qdq's verifier: one case per rule, each message naming the rule.

func.func @no_exponent(%x: tensor<4xf32>) {
  // expected-error @+1 {{exponent_bits must be 1 to 11 and mantissa_bits 0 to 52, got (0, 3)}}
  %y = quant_affine.float_qdq %x format [0, 3] : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_mantissa(%x: tensor<4xf32>) {
  // expected-error @+1 {{exponent_bits must be 1 to 11 and mantissa_bits 0 to 52, got (4, -1)}}
  %y = quant_affine.float_qdq %x format [4, -1] : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @wide_mantissa(%x: tensor<4xf64>) {
  // expected-error @+1 {{exponent_bits must be 1 to 11 and mantissa_bits 0 to 52, got (8, 53)}}
  %y = quant_affine.float_qdq %x format [8, 53] : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @finite_without_format(%x: tensor<4xf32>) {
  // expected-error @+1 {{'finite' and 'unsigned_zero' name real formats only: (4, 3) finite is f8E4M3FN, (4, 3) finite unsigned_zero f8E4M3FNUZ, (5, 2) finite unsigned_zero f8E5M2FNUZ; got (5, 2) finite}}
  %y = quant_affine.float_qdq %x format [5, 2] finite : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unsigned_zero_alone(%x: tensor<4xf32>) {
  // expected-error @+1 {{got (4, 3) unsigned_zero}}
  %y = quant_affine.float_qdq %x format [4, 3] unsigned_zero : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @finite_custom(%x: f16) {
  // expected-error @+1 {{got (3, 2) finite unsigned_zero}}
  %y = quant_affine.float_qdq %x format [3, 2] finite unsigned_zero : (f16) -> f16
  return
}

// -----

// AIMET's grid for E = 11 has quanta down to 2^-1026 - M: not normal in f64.
func.func @too_fine_for_f64(%x: tensor<4xf64>) {
  // expected-error @+1 {{format (11, 2) cannot round 'f64' exactly: its quanta 2^-1025 to 2^1021 and its largest value 2^1023 do not all fit f64 as normal numbers, so the rounding could not be exact}}
  %y = quant_affine.float_qdq %x format [11, 2] : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{all of {input, result} have same type}}
  %y = "quant_affine.float_qdq"(%x) <{exponent_bits = 4 : i64, mantissa_bits = 3 : i64}> : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @integer_input(%x: tensor<4xi8>) {
  // expected-error @+1 {{operand #0 must be}}
  %y = "quant_affine.float_qdq"(%x) <{exponent_bits = 4 : i64, mantissa_bits = 3 : i64}> : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @block_without_maxval(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'block_size' lays out a 'maxval': add one}}
  %y = quant_affine.float_qdq %x format [4, 3] finite block [1, 32] : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @maxval_shape(%x: tensor<4x64xf32>, %m: tensor<4x3xf32>) {
  // expected-error @+1 {{'maxval' of type 'tensor<4x3xf32>' does not encode input 'tensor<4x64xf32>': scale dim 1 has 3 elements but needs 1 or input dim 1 size 64}}
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite : (tensor<4x64xf32>, tensor<4x3xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @maxval_block(%x: tensor<4x64xf32>, %m: tensor<4x3xf32>) {
  // expected-error @+1 {{'maxval' of type 'tensor<4x3xf32>' does not encode input 'tensor<4x64xf32>': input dim 1 has 64 elements but block_size 32 x scale dim 1 size 3 needs 96}}
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite block [1, 32] : (tensor<4x64xf32>, tensor<4x3xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @scalar_block(%x: f32, %m: f32) {
  // expected-error @+1 {{'block_size' requires tensor operands; scalar and vector forms are elementwise}}
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite block [1] : (f32, f32) -> f32
  return
}

// -----

func.func @vector_maxval(%x: vector<8xf32>, %m: vector<4xf32>) {
  // expected-error @+1 {{'maxval' must have the shape of the input (a vector of type 'vector<8xf32>') when the input is a scalar or vector, got 'vector<4xf32>'}}
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite : (vector<8xf32>, vector<4xf32>) -> vector<8xf32>
  return
}

// -----

func.func @tensor_maxval_of_scalar(%x: f32, %m: tensor<f32>) {
  // expected-error @+1 {{'maxval' must have the shape of the input (a scalar of type 'f32') when the input is a scalar or vector, got 'tensor<f32>'}}
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite : (f32, tensor<f32>) -> f32
  return
}

// -----

// Float8 is storage: quantize's result and dequantize's input only.
func.func @float8_qdq(%x: tensor<4xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64}}
  %y = quant_affine.qdq %x, %s range [-448, 448] : (tensor<4xf8E4M3FN>, tensor<f32>) -> tensor<4xf8E4M3FN>
  return
}

// -----

func.func @float8_quantize_input(%x: tensor<4xf8E5M2>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar}}
  %y = quant_affine.quantize %x, %s range [-448, 448] : (tensor<4xf8E5M2>, tensor<f32>) -> tensor<4xf8E4M3FN>
  return
}

// -----

func.func @float8_scale(%q: tensor<4xf8E4M3FN>, %s: tensor<f8E4M3FN>) {
  // expected-error @+1 {{operand #1 must be f16, bf16, f32 or f64 scalar}}
  %y = quant_affine.dequantize %q, %s range [-448, 448] : (tensor<4xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<4xf32>
  return
}

// -----

func.func @float8_float_qdq(%x: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar}}
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return
}
