// RUN: quant-affine-opt %s \
// RUN:   --pass-pipeline="builtin.module(func.func(quant-affine-truncate-by-permutes{register-bytes=6}))" \
// RUN:   -verify-diagnostics -split-input-file
// RUN: not quant-affine-opt %s \
// RUN:   --pass-pipeline="builtin.module(func.func(quant-affine-truncate-by-permutes{register-bytes=-64}))" \
// RUN:   2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: register-bytes must be a power of two of at least 4, got -64

// A register that holds no whole number of i32 lanes is refused, not divided
// by.
// expected-error @below {{quant-affine-truncate-by-permutes: register-bytes must be a power of two of at least 4, got 6}}
func.func @odd_register(%x: vector<32xi32>) -> vector<32xi8> {
  %0 = arith.trunci %x : vector<32xi32> to vector<32xi8>
  return %0 : vector<32xi8>
}
