// A permute-intrinsics entry without its shape or its name is reported at the
// function, and the pass fails.
// RUN: not quant-affine-opt %s --quant-affine-lower-lookups="permute-intrinsics=llvm.x86.avx2.permps" 2>&1 | FileCheck %s
// CHECK: error: permute-intrinsics entries are LANESxTYPE:NAME, got 'llvm.x86.avx2.permps'
func.func @f(%t: vector<8xf32>, %i: vector<8xi32>) -> vector<8xf32> {
  %0 = quant_affine_vector.lookup %t[%i] : vector<8xf32>, vector<8xi32>
  return %0 : vector<8xf32>
}
