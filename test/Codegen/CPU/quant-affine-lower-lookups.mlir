// quant-affine-lower-lookups: a lookup whose table shape has an intrinsic in
// permute-intrinsics, with as many i32 indices, becomes a call of it; any
// other lookup (no intrinsic, other lanes, other index types) becomes one
// extract per lane. Without the option, every lookup is extracts.
// RUN: quant-affine-opt %s --split-input-file --quant-affine-lower-lookups="permute-intrinsics=16xf32:llvm.x86.avx512.permvar.sf.512,8xf32:llvm.x86.avx2.permps" | FileCheck %s
// RUN: quant-affine-opt %s --split-input-file --quant-affine-lower-lookups | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @permutes(
// CHECK-SAME: %[[T16:.*]]: vector<16xf32>, %[[I16:.*]]: vector<16xi32>, %[[T8:.*]]: vector<8xf32>, %[[I8:.*]]: vector<8xi32>
// CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[T16]], %[[I16]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// CHECK: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx2.permps"(%[[T8]], %[[I8]]) : (vector<8xf32>, vector<8xi32>) -> vector<8xf32>
// CHECK: return %[[A]], %[[B]]
// NONE-LABEL: func.func @permutes(
// NONE-NOT: llvm.call_intrinsic
// NONE-COUNT-16: vector.extract %{{.*}}[%{{.*}}] : f32 from vector<16xf32>
// NONE: vector.from_elements {{.*}} : vector<16xf32>
// NONE-COUNT-8: vector.extract %{{.*}}[%{{.*}}] : f32 from vector<8xf32>
// NONE: vector.from_elements {{.*}} : vector<8xf32>
func.func @permutes(%t16: vector<16xf32>, %i16: vector<16xi32>, %t8: vector<8xf32>, %i8: vector<8xi32>) -> (vector<16xf32>, vector<8xf32>) {
  %0 = quant_affine_vector.lookup %t16[%i16] : vector<16xf32>, vector<16xi32>
  %1 = quant_affine_vector.lookup %t8[%i8] : vector<8xf32>, vector<8xi32>
  return %0, %1 : vector<16xf32>, vector<8xf32>
}

// -----

// Four lanes of a 16-lane table: no 4-lane permute; i8 indices: cast to
// index per lane; index indices: used as they are.
// CHECK-LABEL: func.func @extracts(
// CHECK-SAME: %[[T:.*]]: vector<16xf32>, %[[I:.*]]: vector<4xi32>, %[[J:.*]]: vector<16xi8>, %[[K:.*]]: vector<2xindex>
// CHECK-NOT: llvm.call_intrinsic
// CHECK: %[[I0:.*]] = vector.extract %[[I]][0] : i32 from vector<4xi32>
// CHECK: %[[P0:.*]] = arith.index_castui %[[I0]] : i32 to index
// CHECK: %[[V0:.*]] = vector.extract %[[T]][%[[P0]]] : f32 from vector<16xf32>
// CHECK-COUNT-3: vector.extract %[[T]][%{{.*}}] : f32 from vector<16xf32>
// CHECK: vector.from_elements %[[V0]], {{.*}} : vector<4xf32>
// CHECK: %[[J0:.*]] = vector.extract %[[J]][0] : i8 from vector<16xi8>
// CHECK: arith.index_castui %[[J0]] : i8 to index
// CHECK-COUNT-16: vector.extract %[[T]][%{{.*}}] : f32 from vector<16xf32>
// CHECK: %[[K0:.*]] = vector.extract %[[K]][0] : index from vector<2xindex>
// CHECK-NOT: arith.index_castui
// CHECK: vector.extract %[[T]][%[[K0]]] : f32 from vector<16xf32>
func.func @extracts(%t: vector<16xf32>, %i: vector<4xi32>, %j: vector<16xi8>, %k: vector<2xindex>) -> (vector<4xf32>, vector<16xf32>, vector<2xf32>) {
  %0 = quant_affine_vector.lookup %t[%i] : vector<16xf32>, vector<4xi32>
  %1 = quant_affine_vector.lookup %t[%j] : vector<16xf32>, vector<16xi8>
  %2 = quant_affine_vector.lookup %t[%k] : vector<16xf32>, vector<2xindex>
  return %0, %1, %2 : vector<4xf32>, vector<16xf32>, vector<2xf32>
}
