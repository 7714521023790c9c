// RUN: quant-affine-opt %s --quant-affine-managed-constants | FileCheck %s

// A host memref.get_global of a constant becomes a managed copy, made the
// first time and kept in a pointer slot: kernels (here, through a call) and
// the host read the copy. Mutable globals are left (the host-access check
// reports them where they reach a kernel).

memref.global "private" constant @scales : memref<2x1xf32> = dense<[[1.0], [2.0]]>
memref.global "private" @state : memref<4xf32> = dense<0.0>

func.func private @use(memref<2x1xf32>)

// CHECK-LABEL: func.func @main
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @__quant_affine_managed_scales : !llvm.ptr
// CHECK: %[[KEPT:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[KEPT]]
// CHECK: %[[PTR:.*]] = scf.if %[[FIRST]] -> (!llvm.ptr) {
// CHECK:   %[[COPY:.*]] = gpu.alloc host_shared () : memref<2x1xf32>
// CHECK:   %[[ORIG:.*]] = memref.get_global @scales : memref<2x1xf32>
// CHECK:   memref.copy %[[ORIG]], %[[COPY]]
// CHECK:   llvm.store
// CHECK: } else {
// CHECK:   scf.yield %[[KEPT]] : !llvm.ptr
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<2x1xf32>
// CHECK: call @use(%[[M]])
// CHECK: memref.get_global @state
// The slot, null until the first copy:
// CHECK: llvm.mlir.global internal @__quant_affine_managed_scales() {{.*}} : !llvm.ptr {
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.return %[[NULL]] : !llvm.ptr
func.func @main() -> memref<4xf32> {
  %g = memref.get_global @scales : memref<2x1xf32>
  call @use(%g) : (memref<2x1xf32>) -> ()
  %s = memref.get_global @state : memref<4xf32>
  return %s : memref<4xf32>
}
