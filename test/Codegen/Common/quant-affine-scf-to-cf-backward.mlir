// quant-affine-scf-to-cf-backward applies convert-scf-to-cf's patterns to the
// ops of each block from the last to the first. Alone, it lowers every
// for, if, while, index_switch and execute_region nested only in such ops,
// leaving scf.parallel and scf.forall with what they hold (an scf.if in a
// parallel loop, lowered, would give its region blocks); followed by
// convert-scf-to-cf, its output is exactly upstream's (the diff), blocks in
// the same order.
// RUN: quant-affine-opt %s --pass-pipeline="builtin.module(func.func(quant-affine-scf-to-cf-backward))" | FileCheck %s
// RUN: quant-affine-opt %s --pass-pipeline="builtin.module(func.func(quant-affine-scf-to-cf-backward),convert-scf-to-cf)" -o %t.ours
// RUN: quant-affine-opt %s --convert-scf-to-cf -o %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: FileCheck %s --check-prefix=NONE < %t.ours

// CHECK-LABEL: func.func @sequence(
// CHECK-NOT: scf.
// CHECK: cf.cond_br
// CHECK-NOT: scf.{{if|while|index_switch|execute_region|for }}
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: scf.if
// NONE-LABEL: func.func @sequence(
// NONE-NOT: scf.
func.func @sequence(%m: memref<16xf32>, %n: index, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %v = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %v, %m[%i] : memref<16xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> f32 {
    %x = memref.load %m[%i] : memref<16xf32>
    %y = scf.if %c -> f32 {
      %t = arith.addf %acc, %x : f32
      scf.yield %t : f32
    } else {
      %inner = scf.for %j = %c0 to %c16 step %c1 iter_args(%a = %acc) -> f32 {
        %w = memref.load %m[%j] : memref<16xf32>
        %t = arith.mulf %a, %w : f32
        scf.yield %t : f32
      }
      scf.yield %inner : f32
    }
    scf.yield %y : f32
  }
  %w:2 = scf.while (%k = %c0, %a = %s) : (index, f32) -> (index, f32) {
    %lt = arith.cmpi slt, %k, %n : index
    scf.condition(%lt) %k, %a : index, f32
  } do {
  ^bb0(%k: index, %a: f32):
    %k1 = arith.addi %k, %c1 : index
    %a1 = arith.addf %a, %v : f32
    scf.yield %k1, %a1 : index, f32
  }
  %r = scf.index_switch %n -> f32
  case 2 {
    scf.yield %v : f32
  }
  default {
    scf.yield %w#1 : f32
  }
  %e = scf.execute_region -> f32 {
    %t = arith.addf %r, %v : f32
    scf.yield %t : f32
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    scf.if %c {
      memref.store %e, %m[%i] : memref<16xf32>
    }
    scf.reduce
  }
  scf.forall (%i) in (16) {
    scf.for %j = %c0 to %c16 step %c1 {
      scf.if %c {
        memref.store %v, %m[%j] : memref<16xf32>
      }
    }
  }
  return %e : f32
}
