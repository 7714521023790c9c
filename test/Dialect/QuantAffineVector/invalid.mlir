// quant_affine_vector.lookup's operands: 1-D fixed-length vectors, the table
// of integers or floats, the indices signless integers or index.
// RUN: quant-affine-opt %s --split-input-file --verify-diagnostics

func.func @scalable_table(%t: vector<[4]xf32>, %i: vector<4xi32>) -> vector<4xf32> {
  // expected-error @+1 {{'quant_affine_vector.lookup' op needs fixed-length vectors, got 'vector<[4]xf32>' and 'vector<4xi32>'}}
  %0 = quant_affine_vector.lookup %t[%i] : vector<[4]xf32>, vector<4xi32>
  return %0 : vector<4xf32>
}

// -----

func.func @float_indices(%t: vector<16xf32>, %i: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{'quant_affine_vector.lookup' op operand #1 must be vector of signless integer or index values of ranks 1}}
  %0 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

func.func @table_of_rank_two(%t: vector<4x4xf32>, %i: vector<16xi32>) -> vector<16xf32> {
  // expected-error @+1 {{'quant_affine_vector.lookup' op operand #0 must be vector of integer or floating-point values of ranks 1}}
  %0 = quant_affine_vector.lookup %t[%i] : vector<4x4xf32>, vector<16xi32>
  return %0 : vector<16xf32>
}

// -----

func.func @scalar_indices(%t: vector<16xf32>, %i: i32) -> vector<16xf32> {
  // expected-error @+1 {{'quant_affine_vector.lookup' op operand #1 must be vector of signless integer or index values of ranks 1}}
  %0 = "quant_affine_vector.lookup"(%t, %i) : (vector<16xf32>, i32) -> vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

func.func @scalar_indices_custom(%t: vector<16xf32>, %i: i32) -> vector<16xf32> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.vector, but found 'i32'}}
  %0 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, i32
  return %0 : vector<16xf32>
}

// -----

func.func @wrong_result(%t: vector<16xf32>, %i: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+2 {{'quant_affine_vector.lookup' op inferred type(s) 'vector<16xf32>' are incompatible with return type(s) of operation 'vector<16xi32>'}}
  // expected-error @+1 {{'quant_affine_vector.lookup' op failed to infer returned types}}
  %0 = "quant_affine_vector.lookup"(%t, %i) : (vector<16xf32>, vector<16xi32>) -> vector<16xi32>
  return %0 : vector<16xi32>
}
