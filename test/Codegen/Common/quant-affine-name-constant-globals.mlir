// RUN: quant-affine-opt %s --split-input-file \
// RUN:   --quant-affine-name-constant-globals | FileCheck %s

// Bufferization met @second's constant first (as LLVM 22 may): the globals
// are renamed and placed as if it had met them in program order, first
// use first named, last placed first.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xi8 : memref<2xi8> = dense<[1, 2]>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_4xf32 :
// CHECK: memref.get_global @__constant_2xi8 :
// CHECK-LABEL: func.func @second
// CHECK: memref.get_global @__constant_4xf32_0 :
// CHECK: memref.get_global @__constant_4xf32 :
module {
  memref.global "private" constant @__constant_2xi8 : memref<2xi8> = dense<[1, 2]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]> {alignment = 64 : i64}
  func.func @first() -> (memref<4xf32>, memref<2xi8>) {
    %0 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %1 = memref.get_global @__constant_2xi8 : memref<2xi8>
    return %0, %1 : memref<4xf32>, memref<2xi8>
  }
  func.func @second() -> (memref<4xf32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %0, %1 : memref<4xf32>, memref<4xf32>
  }
}

// -----

// Names taken by other symbols are skipped, as bufferization's symbol table
// skips them: one counter for the module.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<3.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: func.func private @__constant_4xf32_0()
// CHECK-LABEL: func.func @uses
// CHECK-NEXT: memref.get_global @__constant_4xf32 :
// CHECK-NEXT: memref.get_global @__constant_4xf32_1 :
// CHECK-NEXT: memref.get_global @__constant_xf32 :
module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<1.0>
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<3.0>
  func.func private @__constant_4xf32_0()
  func.func @uses() -> (memref<4xf32>, memref<4xf32>, memref<f32>) {
    %0 = memref.get_global @__constant_4xf32_1 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %2 = memref.get_global @__constant_xf32 : memref<f32>
    return %0, %1, %2 : memref<4xf32>, memref<4xf32>, memref<f32>
  }
}

// -----

// Globals that bufferization did not make (public, mutable, named
// otherwise) are not touched; nor are the constants when one is unused.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<3.000000e+00>
// CHECK-NEXT: memref.global @__constant_8xf32 : memref<8xf32> = dense<4.000000e+00>
// CHECK-NEXT: memref.global "private" @weights : memref<4xf32> = dense<5.000000e+00>
module {
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<3.0>
  memref.global @__constant_8xf32 : memref<8xf32> = dense<4.0>
  memref.global "private" @weights : memref<4xf32> = dense<5.0>
  func.func @uses() -> (memref<4xf32>, memref<4xf32>, memref<8xf32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %2 = memref.get_global @__constant_8xf32 : memref<8xf32>
    %3 = memref.get_global @weights : memref<4xf32>
    return %0, %1, %2, %3 : memref<4xf32>, memref<4xf32>, memref<8xf32>, memref<4xf32>
  }
}

// -----

// A nested module's constants and uses are its own: only the outer ones are
// renamed.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK: module @inner
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<3.000000e+00>
// CHECK-NEXT: func.func @inner_use
// CHECK-NEXT: memref.get_global @__constant_4xf32 :
// CHECK-LABEL: func.func @outer_uses
// CHECK-NEXT: memref.get_global @__constant_4xf32 :
// CHECK-NEXT: memref.get_global @__constant_4xf32_0 :
module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  module @inner {
    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<3.0>
    func.func @inner_use() -> memref<4xf32> {
      %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
      return %0 : memref<4xf32>
    }
  }
  func.func @outer_uses() -> (memref<4xf32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32 : memref<4xf32>
    return %0, %1 : memref<4xf32>, memref<4xf32>
  }
}
