// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg="runtime-checks=true" -verify-diagnostics

// Another function of the name is in the way: an error, not a renamed
// declaration that would not link.
func.func private @dprintf(i32) -> i32
func.func @taken(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  // expected-error @below {{run-time checks call the C function 'dprintf', but the module defines another 'dprintf'}}
  // expected-error @below {{failed to legalize operation 'quant_affine.qdq'}}
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
