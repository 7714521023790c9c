// RUN: quant-affine-opt %s --pass-pipeline='builtin.module(llvm.func(quant-affine-carry-bf16-as-i16))' | FileCheck %s

// Loads, constants, phis, vector moves and stores carry bf16 as i16; calls,
// fpext/fptrunc and the signature keep bf16, with a bitcast beside them.
llvm.func @callee(bf16) -> bf16

// CHECK-LABEL: llvm.func @moves(
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[ARG:.*]]: bf16, %[[C:.*]]: i1) -> bf16
// CHECK:         %[[ARG16:.*]] = llvm.bitcast %[[ARG]] : bf16 to i16
// CHECK:         %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK:         %[[V:.*]] = llvm.load %[[Q]] : !llvm.ptr -> vector<4xi16>
// CHECK:         %[[K:.*]] = llvm.mlir.constant(dense<[16256, -16384, 16128, 16448]> : vector<4xi16>) : vector<4xi16>
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(16256 : i16) : i16
// CHECK:         llvm.cond_br %[[C]], ^[[BB:.*]](%[[X]] : i16), ^[[BB]](%[[ONE]] : i16)
// CHECK:       ^[[BB]](%[[PHI:.*]]: i16):
// CHECK:         %[[INS:.*]] = llvm.insertelement %[[PHI]], %[[V]][%{{.*}} : i32] : vector<4xi16>
// CHECK:         %[[SEL:.*]] = llvm.select %[[C]], %[[INS]], %[[K]] : i1, vector<4xi16>
// CHECK:         llvm.store %[[SEL]], %[[Q]] : vector<4xi16>, !llvm.ptr
// CHECK:         %[[IN:.*]] = llvm.bitcast %[[ARG16]] : i16 to bf16
// CHECK:         %[[R:.*]] = llvm.call @callee(%[[IN]]) : (bf16) -> bf16
// CHECK:         %[[R16:.*]] = llvm.bitcast %[[R]] : bf16 to i16
// CHECK:         %[[RB:.*]] = llvm.bitcast %[[R16]] : i16 to bf16
// CHECK:         %[[E:.*]] = llvm.fpext %[[RB]] : bf16 to f32
// CHECK:         %[[T:.*]] = llvm.fptrunc %[[E]] : f32 to bf16
// CHECK:         %[[T16:.*]] = llvm.bitcast %[[T]] : bf16 to i16
// CHECK:         llvm.store %[[T16]], %[[P]] : i16, !llvm.ptr
// CHECK:         %[[OUT:.*]] = llvm.bitcast %[[PHI]] : i16 to bf16
// CHECK:         llvm.return %[[OUT]] : bf16
llvm.func @moves(%p: !llvm.ptr, %q: !llvm.ptr, %arg: bf16, %c: i1) -> bf16 {
  %0 = llvm.load %p : !llvm.ptr -> bf16
  %1 = llvm.load %q : !llvm.ptr -> vector<4xbf16>
  %k = llvm.mlir.constant(dense<[1.0, -2.0, 0.5, 3.0]> : vector<4xbf16>) : vector<4xbf16>
  %s = llvm.mlir.constant(1.0 : bf16) : bf16
  llvm.cond_br %c, ^a(%0 : bf16), ^a(%s : bf16)
^a(%x: bf16):
  %i = llvm.mlir.constant(0 : i32) : i32
  %v = llvm.insertelement %x, %1[%i : i32] : vector<4xbf16>
  %w = llvm.select %c, %v, %k : i1, vector<4xbf16>
  %b = llvm.bitcast %w : vector<4xbf16> to vector<4xi16>
  llvm.store %b, %q : vector<4xi16>, !llvm.ptr
  %r = llvm.call @callee(%arg) : (bf16) -> bf16
  %e = llvm.fpext %r : bf16 to f32
  %t = llvm.fptrunc %e : f32 to bf16
  llvm.store %t, %p : bf16, !llvm.ptr
  llvm.return %x : bf16
}

// Functions without bf16 are untouched.
// CHECK-LABEL: llvm.func @no_bf16(
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NEXT:    llvm.return
llvm.func @no_bf16(%p: !llvm.ptr) -> f32 {
  %0 = llvm.load %p : !llvm.ptr -> f32
  llvm.return %0 : f32
}
