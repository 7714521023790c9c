// RUN: quant-affine-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule; every message names the operand and the rule.

// qmin > qmax
func.func @case0(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{requires qmin <= qmax, got qmin = 5 and qmax = 3}}
  %r = quant_affine.quantize %x, %s range [5, 3] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

// qmin > qmax on dequantize
func.func @case1(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{requires qmin <= qmax, got qmin = 0 and qmax = -1}}
  %r = quant_affine.dequantize %x, %s range [0, -1] : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// signed range too wide for i4
func.func @case2(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{range [-8, 8] does not fit result element type 'i4', which holds [-8, 7] when read as signed (qmin < 0)}}
  %r = quant_affine.quantize %x, %s range [-8, 8] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi4>
  return
}

// -----

// unsigned range too wide for i8
func.func @case3(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{range [0, 256] does not fit result element type 'i8', which holds [0, 255] when read as unsigned (qmin >= 0)}}
  %r = quant_affine.quantize %x, %s range [0, 256] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

// signed range [-1, 1] in i1
func.func @case4(%x: f32, %s: f32) {
  // expected-error @+1 {{range [-1, 1] does not fit result element type 'i1', which holds [-1, 0] when read as signed (qmin < 0)}}
  %r = quant_affine.quantize %x, %s range [-1, 1] : (f32, f32) -> i1
  return
}

// -----

// integer input of dequantize too narrow
func.func @case5(%x: tensor<4xi4>, %s: tensor<f32>) {
  // expected-error @+1 {{range [-128, 127] does not fit input element type 'i4', which holds [-8, 7] when read as signed (qmin < 0)}}
  %r = quant_affine.dequantize %x, %s range [-128, 127] : (tensor<4xi4>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// result wider than 32 bits
func.func @case6(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{result #0 must be f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type scalar, or vector or ranked tensor of f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type, but got 'tensor<4xi64>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi64>
  return
}

// -----

// signed integer type
func.func @case7(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{result #0 must be f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type scalar, or vector or ranked tensor of f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type, but got 'tensor<4xui8>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xui8>
  return
}

// -----

// integer input to quantize
func.func @case8(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<4xi8>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xi8>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

// integer input to qdq
func.func @case9(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<4xi8>'}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4xi8>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

// integer result of dequantize
func.func @case10(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{result #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<4xi32>'}}
  %r = quant_affine.dequantize %x, %s range [0, 255] : (tensor<4xi8>, tensor<f32>) -> tensor<4xi32>
  return
}

// -----

// unsupported float input
func.func @case11(%x: tensor<4xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<4xf8E4M3FN>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf8E4M3FN>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

// dequantize input wider than 32 bits
func.func @case12(%x: tensor<4xi64>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type scalar, or vector or ranked tensor of f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 type, but got 'tensor<4xi64>'}}
  %r = quant_affine.dequantize %x, %s range [0, 255] : (tensor<4xi64>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// integer scale
func.func @case13(%x: tensor<4xf32>, %s: tensor<i32>) {
  // expected-error @+1 {{operand #1 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<i32>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

// unranked input
func.func @case14(%x: tensor<*xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<*xf32>'}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

// integer compute type
func.func @case15(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{attribute 'compute_type' failed to satisfy constraint: type attribute of f16, bf16, f32 or f64}}
  %r = quant_affine.qdq %x, %s range [0, 255] compute i32 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// f8 compute type
func.func @case16(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{attribute 'compute_type' failed to satisfy constraint: type attribute of f16, bf16, f32 or f64}}
  %r = quant_affine.qdq %x, %s range [0, 255] compute f8E5M2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// tensor input, vector result
func.func @case17(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{result must be a ranked tensor like the input, got 'vector<4xi8>'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf32>, tensor<f32>) -> vector<4xi8>
  return
}

// -----

// result shape differs
func.func @case18(%x: tensor<4x8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{result shape [8, 4] must equal input shape [4, 8]}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8x4xi8>
  return
}

// -----

// dynamic input, static result
func.func @case19(%x: tensor<?xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{result shape [4] must equal input shape [?]}}
  %r = quant_affine.dequantize %x, %s range [0, 255] : (tensor<?xi8>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// qdq result type differs
func.func @case20(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf16>
  return
}

// -----

// vector input, scalar result
func.func @case21(%x: vector<4xf32>, %s: vector<4xf32>) {
  // expected-error @+1 {{result must be a vector like the input, got 'i8'}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (vector<4xf32>, vector<4xf32>) -> i8
  return
}

// -----

// scale rank above input rank
func.func @case22(%x: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<1x4xf32>' does not encode input 'tensor<4xf32>': scale has rank 2 but the input only rank 1; an encoding covers the trailing input dims}}
  %r = quant_affine.quantize %x, %s range [0, 255] : (tensor<4xf32>, tensor<1x4xf32>) -> tensor<4xi8>
  return
}

// -----

// (C) scale pairs with the last axis
func.func @case23(%x: tensor<4x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4xf32>' does not encode input 'tensor<4x8xf32>': scale dim 0 has 4 elements but needs 1 or input dim 1 size 8}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// broadcast dim neither 1 nor input size
func.func @case24(%x: tensor<4x8xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<2x1xf32>' does not encode input 'tensor<4x8xf32>': scale dim 0 has 2 elements but needs 1 or input dim 0 size 4}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4x8xf32>, tensor<2x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

// offset shape differs from scale
func.func @case25(%x: tensor<4x8xf32>, %s: tensor<4x1xf32>, %o: tensor<1x8xf32>) {
  // expected-error @+1 {{'offset' of type 'tensor<1x8xf32>' must have the shape of 'scale' ('tensor<4x1xf32>')}}
  %r = quant_affine.qdq %x, %s, %o range [0, 255] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// offset dynamic where scale is static
func.func @case26(%x: tensor<4x8xf32>, %s: tensor<4x1xf32>, %o: tensor<?x1xf32>) {
  // expected-error @+1 {{'offset' of type 'tensor<?x1xf32>' must have the shape of 'scale' ('tensor<4x1xf32>')}}
  %r = quant_affine.qdq %x, %s, %o range [0, 255] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<?x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

// scalar scale with a tensor input
func.func @case27(%x: tensor<4xf32>, %s: f32) {
  // expected-error @+1 {{'scale' must be a ranked tensor when the input is a tensor, got 'f32'}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4xf32>, f32) -> tensor<4xf32>
  return
}

// -----

// vector scale with a tensor input
func.func @case28(%x: tensor<4xf32>, %s: vector<4xf32>) {
  // expected-error @+1 {{'scale' must be a ranked tensor when the input is a tensor, got 'vector<4xf32>'}}
  %r = quant_affine.qdq %x, %s range [0, 255] : (tensor<4xf32>, vector<4xf32>) -> tensor<4xf32>
  return
}

// -----

// block_size length differs from scale rank
func.func @case29(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xf32>': block_size has 1 entry but scale has rank 2; it needs one entry per scale dim}}
  %r = quant_affine.quantize %x, %s range [-8, 7] block [32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return
}

// -----

// block size 0
func.func @case30(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xf32>': block_size[1] = 0 is invalid; block sizes are positive or -1 (wildcard)}}
  %r = quant_affine.quantize %x, %s range [-8, 7] block [1, 0] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return
}

// -----

// block size below -1
func.func @case31(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xf32>': block_size[0] = -2 is invalid; block sizes are positive or -1 (wildcard)}}
  %r = quant_affine.quantize %x, %s range [-8, 7] block [-2, 32] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return
}

// -----

// partial blocks
func.func @case32(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xf32>': input dim 1 has 64 elements but block_size 16 x scale dim 1 size 2 needs 32}}
  %r = quant_affine.quantize %x, %s range [-8, 7] block [1, 16] : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
  return
}

// -----

// blocks overrun the input
func.func @case33(%x: tensor<4x64xi4>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x2xf32>' does not encode input 'tensor<4x64xi4>': input dim 0 has 4 elements but block_size 2 x scale dim 0 size 4 needs 8}}
  %r = quant_affine.dequantize %x, %s range [-8, 7] block [2, 32] : (tensor<4x64xi4>, tensor<4x2xf32>) -> tensor<4x64xf32>
  return
}

// -----

// wildcard that does not divide
func.func @case34(%x: tensor<4x64xf32>, %s: tensor<4x3xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4x3xf32>' does not encode input 'tensor<4x64xf32>': input dim 1 has 64 elements but block_size -1 needs a multiple of scale dim 1 size 3}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [1, -1] : (tensor<4x64xf32>, tensor<4x3xf32>) -> tensor<4x64xf32>
  return
}

// -----

// wildcard over a zero-size scale dim
func.func @case35(%x: tensor<4x64xf32>, %s: tensor<0x2xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<0x2xf32>' does not encode input 'tensor<4x64xf32>': input dim 0 has 4 elements but block_size -1 needs a multiple of scale dim 0 size 0}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [-1, 32] : (tensor<4x64xf32>, tensor<0x2xf32>) -> tensor<4x64xf32>
  return
}

// -----

// block times scale overflows
func.func @case36(%x: tensor<4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4xf32>' does not encode input 'tensor<4xf32>': block_size[0] = 4611686018427387904 times scale dim 0 of size 4 overflows int64, so it matches no input dim}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [4611686018427387904] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// block_size on the vector form
func.func @case37(%x: vector<4xf32>, %s: vector<4xf32>) {
  // expected-error @+1 {{'block_size' requires tensor operands; scalar and vector forms are elementwise}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [4] : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

// block_size on the scalar form
func.func @case38(%x: f32, %s: f32) {
  // expected-error @+1 {{'block_size' requires tensor operands; scalar and vector forms are elementwise}}
  %r = quant_affine.quantize %x, %s range [-8, 7] block [] : (f32, f32) -> i8
  return
}

// -----

// vector scale of another shape
func.func @case39(%x: vector<4xf32>, %s: vector<8xf32>) {
  // expected-error @+1 {{'scale' must have the shape of the input (a vector of type 'vector<4xf32>') when the input is a scalar or vector, got 'vector<8xf32>'}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (vector<4xf32>, vector<8xf32>) -> vector<4xf32>
  return
}

// -----

// scalar scale with a vector input
func.func @case40(%x: vector<4xf32>, %s: f32) {
  // expected-error @+1 {{'scale' must have the shape of the input (a vector of type 'vector<4xf32>') when the input is a scalar or vector, got 'f32'}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (vector<4xf32>, f32) -> vector<4xf32>
  return
}

// -----

// tensor scale with a scalar input
func.func @case41(%x: f32, %s: tensor<f32>) {
  // expected-error @+1 {{'scale' must have the shape of the input (a scalar of type 'f32') when the input is a scalar or vector, got 'tensor<f32>'}}
  %r = quant_affine.quantize %x, %s range [-8, 7] : (f32, tensor<f32>) -> i8
  return
}

// -----

// vector offset of another shape
func.func @case42(%x: vector<4xf32>, %s: vector<4xf32>, %o: vector<2xf32>) {
  // expected-error @+1 {{'offset' of type 'vector<2xf32>' must have the shape of 'scale' ('vector<4xf32>')}}
  %r = quant_affine.qdq %x, %s, %o range [-8, 7] : (vector<4xf32>, vector<4xf32>, vector<2xf32>) -> vector<4xf32>
  return
}

// -----

// tensor scale with a vector input (crashed the verifier in haveSameShape)
func.func @case43(%x: vector<8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'scale' must have the shape of the input (a vector of type 'vector<8xf32>') when the input is a scalar or vector, got 'tensor<8xf32>'}}
  %r = quant_affine.quantize %x, %s range [-128, 127] : (vector<8xf32>, tensor<8xf32>) -> vector<8xi8>
  return
}

// -----

// tensor offset with a vector input and scale
func.func @case44(%x: vector<8xf32>, %s: vector<8xf32>, %o: tensor<8xf32>) {
  // expected-error @+1 {{'offset' must be a vector like 'scale' ('vector<8xf32>'), got 'tensor<8xf32>'}}
  %r = quant_affine.quantize %x, %s, %o range [-128, 127] : (vector<8xf32>, vector<8xf32>, tensor<8xf32>) -> vector<8xi8>
  return
}

// -----

// vector offset with a tensor input and scale of the same shape
func.func @case45(%x: tensor<8xf32>, %s: tensor<8xf32>, %o: vector<8xf32>) {
  // expected-error @+1 {{'offset' must be a ranked tensor like 'scale' ('tensor<8xf32>'), got 'vector<8xf32>'}}
  %r = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<8xf32>, tensor<8xf32>, vector<8xf32>) -> tensor<8xf32>
  return
}

// -----

// vector scale with a tensor input of the same shape
func.func @case46(%x: tensor<8xf32>, %s: vector<8xf32>) {
  // expected-error @+1 {{'scale' must be a ranked tensor when the input is a tensor, got 'vector<8xf32>'}}
  %r = quant_affine.dequantize %x, %s range [-128, 127] : (tensor<8xf32>, vector<8xf32>) -> tensor<8xf32>
  return
}

// -----

// vector offset with a scalar input and scale
func.func @case47(%x: f32, %s: f32, %o: vector<1xf32>) {
  // expected-error @+1 {{'offset' must be a scalar like 'scale' ('f32'), got 'vector<1xf32>'}}
  %r = quant_affine.quantize %x, %s, %o range [-128, 127] : (f32, f32, vector<1xf32>) -> i8
  return
}

// -----

// tensor result of a vector input
func.func @case48(%x: vector<8xf32>, %s: vector<8xf32>) {
  // expected-error @+1 {{result must be a vector like the input, got 'tensor<8xi8>'}}
  %r = quant_affine.quantize %x, %s range [-128, 127] : (vector<8xf32>, vector<8xf32>) -> tensor<8xi8>
  return
}

// -----

// scalable scale with a fixed-size vector input
func.func @case49(%x: vector<8xf32>, %s: vector<[8]xf32>) {
  // expected-error @+1 {{'scale' must have the shape of the input (a vector of type 'vector<8xf32>') when the input is a scalar or vector, got 'vector<[8]xf32>'}}
  %r = quant_affine.qdq %x, %s range [-128, 127] : (vector<8xf32>, vector<[8]xf32>) -> vector<8xf32>
  return
}

// -----

// scalable result of a fixed-size vector input
func.func @case50(%x: vector<8xf32>, %s: vector<8xf32>) {
  // expected-error @+1 {{result type 'vector<[8]xi8>' must have the shape of input type 'vector<8xf32>'}}
  %r = quant_affine.quantize %x, %s range [-128, 127] : (vector<8xf32>, vector<8xf32>) -> vector<[8]xi8>
  return
}

// -----

// memref scale (ODS admits scalars, vectors and ranked tensors only)
func.func @case51(%x: tensor<8xf32>, %s: memref<8xf32>) {
  // expected-error @+1 {{operand #1 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'memref<8xf32>'}}
  %r = quant_affine.qdq %x, %s range [-128, 127] : (tensor<8xf32>, memref<8xf32>) -> tensor<8xf32>
  return
}

// -----

// unranked offset
func.func @case52(%x: tensor<8xf32>, %s: tensor<f32>, %o: tensor<*xf32>) {
  // expected-error @+1 {{operand #2 must be f16, bf16, f32 or f64 scalar, or vector or ranked tensor of f16, bf16, f32 or f64, but got 'tensor<*xf32>'}}
  %r = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<8xf32>, tensor<f32>, tensor<*xf32>) -> tensor<8xf32>
  return
}

// -----

// explicit compute type that rounds qmax, with an integer result
func.func @case53(%x: tensor<8xbf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'compute_type' 'bf16' cannot hold the grid [-32768, 32767] of integer result 'i16': qmax = 32767 is not exactly representable in it (it rounds to 32768); with an integer result an explicit compute_type must represent qmin and qmax exactly}}
  %r = quant_affine.quantize %x, %s range [-32768, 32767] compute bf16 : (tensor<8xbf16>, tensor<f32>) -> tensor<8xi16>
  return
}

// -----

// explicit compute type that rounds qmin (and overflows at qmax), scalar form
func.func @case54(%x: f16, %s: f16) {
  // expected-error @+1 {{'compute_type' 'f16' cannot hold the grid [-65535, 0] of integer result 'i17': qmin = -65535 is not exactly representable in it (it rounds to -inf)}}
  %r = quant_affine.quantize %x, %s range [-65535, 0] compute f16 : (f16, f16) -> i17
  return
}

// -----

// explicit f32 compute type for a full 32-bit grid
func.func @case55(%x: vector<4xf64>, %s: vector<4xf64>) {
  // expected-error @+1 {{qmax = 2147483647 is not exactly representable in it (it rounds to 2147483648)}}
  %r = quant_affine.quantize %x, %s range [-2147483648, 2147483647] compute f32 : (vector<4xf64>, vector<4xf64>) -> vector<4xi32>
  return
}

// -----

// block times scale overflows where the input dim is dynamic
func.func @case56(%x: tensor<?xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4xf32>' does not encode input 'tensor<?xf32>': block_size[0] = 4611686018427387904 times scale dim 0 of size 4 overflows int64, so it matches no input dim}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [4611686018427387904] : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

// a static input dim that the block does not divide, with a dynamic scale dim
func.func @case57(%x: tensor<6xf32>, %s: tensor<?xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<?xf32>' does not encode input 'tensor<6xf32>': input dim 0 has 6 elements, not a multiple of block_size 4}}
  %r = quant_affine.qdq %x, %s range [-8, 7] block [4] : (tensor<6xf32>, tensor<?xf32>) -> tensor<6xf32>
  return
}

// -----

// element count of the input overflows int64
func.func @case58(%x: tensor<4294967296x4294967296xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'input' of type 'tensor<4294967296x4294967296xf32>' is too large: its element count overflows int64 (at most 9223372036854775807 elements)}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (tensor<4294967296x4294967296xf32>, tensor<f32>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

// static dims of a dynamic input overflow int64
func.func @case59(%x: tensor<?x4294967296x4294967296xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'input' of type 'tensor<?x4294967296x4294967296xf32>' is too large: its static dims' element count overflows int64}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (tensor<?x4294967296x4294967296xf32>, tensor<f32>) -> tensor<?x4294967296x4294967296xf32>
  return
}

// -----

// byte size of the input overflows int64 (2^61 f32 elements)
func.func @case60(%x: tensor<2305843009213693952xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'input' of type 'tensor<2305843009213693952xf32>' is too large: its 2305843009213693952 elements of 4 bytes overflow int64 in bytes (at most 9223372036854775807 bytes)}}
  %r = quant_affine.quantize %x, %s range [-8, 7] : (tensor<2305843009213693952xf32>, tensor<f32>) -> tensor<2305843009213693952xi8>
  return
}

// -----

// the result's byte size overflows where the input's does not
func.func @case61(%x: tensor<2305843009213693952xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{'result' of type 'tensor<2305843009213693952xf64>' is too large}}
  %r = quant_affine.dequantize %x, %s range [-8, 7] : (tensor<2305843009213693952xi8>, tensor<f32>) -> tensor<2305843009213693952xf64>
  return
}

// -----

// a scale too large, on a dynamic input
func.func @case62(%x: tensor<?x?xf32>, %s: tensor<4294967296x4294967296xf32>) {
  // expected-error @+1 {{'scale' of type 'tensor<4294967296x4294967296xf32>' is too large: its element count overflows int64}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (tensor<?x?xf32>, tensor<4294967296x4294967296xf32>) -> tensor<?x?xf32>
  return
}

// -----

// a vector too large
func.func @case63(%x: vector<4294967296x4294967296xf32>, %s: vector<4294967296x4294967296xf32>) {
  // expected-error @+1 {{'input' of type 'vector<4294967296x4294967296xf32>' is too large: its element count overflows int64}}
  %r = quant_affine.qdq %x, %s range [-8, 7] : (vector<4294967296x4294967296xf32>, vector<4294967296x4294967296xf32>) -> vector<4294967296x4294967296xf32>
  return
}
