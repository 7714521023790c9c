// RUN: quant-affine-opt %s --quant-affine-check-lowered="pipeline=the-test" -split-input-file -verify-diagnostics

// What mlir-translate takes passes.
llvm.func @ok(%a: f32) -> f32 {
  %b = llvm.fadd %a, %a : f32
  llvm.return %b : f32
}

// -----

// Anything else is an error at the op, once per op name.
llvm.func @left_over(%a: !llvm.ptr) {
  // expected-error @below {{'builtin.unrealized_conversion_cast' is not lowered by the-test: its output must hold only LLVM dialect and OpenMP ops}}
  %m = builtin.unrealized_conversion_cast %a : !llvm.ptr to memref<4xi8>
  // expected-error @below {{'bufferization.clone' is not lowered by the-test}}
  %c = bufferization.clone %m : memref<4xi8> to memref<4xi8>
  %n = builtin.unrealized_conversion_cast %a : !llvm.ptr to memref<8xi8>
  llvm.return
}

// -----

// expected-error @below {{'func.func' is not lowered by the-test}}
func.func @not_lowered() {
  return
}
