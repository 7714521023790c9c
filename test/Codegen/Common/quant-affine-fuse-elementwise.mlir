// RUN: quant-affine-opt %s --convert-elementwise-to-linalg --quant-affine-fuse-elementwise | FileCheck %s
// RUN: quant-affine-opt %s --convert-elementwise-to-linalg --quant-affine-fuse-elementwise="max-body-ops=4" | FileCheck %s --check-prefix=BOUND

// Without a tight bound the chain fuses into one generic, as upstream's
// linalg-fuse-elementwise-ops does.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-COUNT-4: arith.addf
// CHECK: return

// A fusion whose body would exceed the bound is not done: each body of
// (addf, yield) joins the next while the sum stays within 4 ops.
// BOUND-LABEL: func.func @chain
// BOUND-COUNT-2: linalg.generic
// BOUND-NOT: linalg.generic
// BOUND: return
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = arith.addf %x, %x : tensor<64xf32>
  %b = arith.addf %a, %a : tensor<64xf32>
  %c = arith.addf %b, %b : tensor<64xf32>
  %d = arith.addf %c, %c : tensor<64xf32>
  return %d : tensor<64xf32>
}
