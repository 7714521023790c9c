// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types | FileCheck %s

// A byte count cannot say how many values a dynamic dim holds, so each
// dynamic dim of a packed argument or result travels as an index after the
// others (DESIGN.md section 9): functions take and return them, calls pass
// and receive them, and the body's dims of such a buffer are those indices.

// CHECK-LABEL: func.func @count(
// CHECK-SAME: %{{.*}}: memref<?xi8>, %{{.*}}: memref<2x?xi8>, %[[N:.*]]: index) -> index
// CHECK-NEXT: return %[[N]] : index
func.func @count(%q: memref<?xi4>, %unpacked: memref<2x?xi8>) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %q, %c0 : memref<?xi4>
  return %n : index
}

// CHECK-LABEL: func.func @make(
// CHECK-SAME: %{{.*}}: index) -> (memref<?xi8>, index)
// CHECK: %[[BYTES:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: return %[[BYTES]], %arg0 : memref<?xi8>, index
func.func @make(%n: index) -> memref<?x4xi2> {
  %m = memref.alloc(%n) : memref<?x4xi2>
  return %m : memref<?x4xi2>
}

// CHECK-LABEL: func.func @caller(
// CHECK: %[[R:.*]]:2 = call @make(%{{.*}}) : (index) -> (memref<?xi8>, index)
// CHECK: %[[C:.*]] = call @count(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xi8>, memref<2x?xi8>, index) -> index
// CHECK: arith.addi %[[R]]#1, %[[C]]
func.func @caller(%n: index) -> index {
  %m = call @make(%n) : (index) -> memref<?x4xi2>
  %c0 = arith.constant 0 : index
  %rows = memref.dim %m, %c0 : memref<?x4xi2>
  %q = memref.alloc(%n) : memref<?xi4>
  %u = memref.alloc(%n) : memref<2x?xi8>
  %c = call @count(%q, %u) : (memref<?xi4>, memref<2x?xi8>) -> index
  %s = arith.addi %rows, %c : index
  return %s : index
}
