// quant_affine_vector.lookup prints and parses back; its result type is
// inferred (the indices' lanes, the table's elements), and its lanes follow
// the indices: a narrower or wider index vector than the table is valid.
// RUN: quant-affine-opt %s | quant-affine-opt | FileCheck %s
// RUN: quant-affine-opt %s --mlir-print-op-generic | quant-affine-opt | FileCheck %s

// CHECK-LABEL: func.func @lookups(
// CHECK-SAME: %[[T:.*]]: vector<16xf32>, %[[I:.*]]: vector<16xi32>, %[[J:.*]]: vector<8xi8>, %[[K:.*]]: vector<32xindex>, %[[B:.*]]: vector<4xi8>
// CHECK: %{{.*}} = quant_affine_vector.lookup %[[T]][%[[I]]] : vector<16xf32>, vector<16xi32>
// CHECK: %{{.*}} = quant_affine_vector.lookup %[[T]][%[[J]]] : vector<16xf32>, vector<8xi8>
// CHECK: %{{.*}} = quant_affine_vector.lookup %[[T]][%[[K]]] : vector<16xf32>, vector<32xindex>
// CHECK: %{{.*}} = quant_affine_vector.lookup %[[B]][%[[I]]] : vector<4xi8>, vector<16xi32>
func.func @lookups(%t: vector<16xf32>, %i: vector<16xi32>, %j: vector<8xi8>, %k: vector<32xindex>, %b: vector<4xi8>)
    -> (vector<16xf32>, vector<8xf32>, vector<32xf32>, vector<16xi8>) {
  %0 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<16xi32>
  %1 = quant_affine_vector.lookup %t[%j] : vector<16xf32>, vector<8xi8>
  %2 = quant_affine_vector.lookup %t[%k] : vector<16xf32>, vector<32xindex>
  %3 = quant_affine_vector.lookup %b[%i] : vector<4xi8>, vector<16xi32>
  return %0, %1, %2, %3 : vector<16xf32>, vector<8xf32>, vector<32xf32>, vector<16xi8>
}

// -----

// Pure: an unused lookup is erased, two equal ones are one.
// RUN: quant-affine-opt %s --split-input-file --canonicalize --cse | FileCheck %s --check-prefix=PURE
// PURE-LABEL: func.func @pure(
// PURE-COUNT-1: quant_affine_vector.lookup
// PURE-NOT: quant_affine_vector.lookup
func.func @pure(%t: vector<16xf32>, %i: vector<16xi32>) -> (vector<16xf32>, vector<16xf32>) {
  %unused = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<16xi32>
  %0 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<16xi32>
  %1 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<16xi32>
  return %0, %1 : vector<16xf32>, vector<16xf32>
}
