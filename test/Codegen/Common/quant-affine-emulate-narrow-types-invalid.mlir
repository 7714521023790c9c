// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types -split-input-file -verify-diagnostics

// The bytes keep no shape: an inner dynamic dim leaves no stride to address
// by. (An argument's logical sizes give it one, DESIGN.md section 9; a buffer
// a branch picks has none.)
func.func @inner_dynamic(%a: memref<4x?xi4>, %b: memref<4x?xi4>, %p: i1, %i: index) -> i4 {
  %m = scf.if %p -> memref<4x?xi4> {
    scf.yield %a : memref<4x?xi4>
  } else {
    scf.yield %b : memref<4x?xi4>
  }
  // expected-error @+1 {{'memref.load' op cannot address a packed buffer of dynamic strides: only its outermost dim may be dynamic, got 'memref<4x?xi4>'}}
  %v = memref.load %m[%i, %i] : memref<4x?xi4>
  return %v : i4
}

// -----

// Arguments and call results carry their logical sizes (DESIGN.md section
// 9); a buffer a branch picks does not.
func.func @dim(%a: memref<?x8xi4>, %b: memref<?x8xi4>, %p: i1) -> index {
  %c0 = arith.constant 0 : index
  %m = scf.if %p -> memref<?x8xi4> {
    scf.yield %a : memref<?x8xi4>
  } else {
    scf.yield %b : memref<?x8xi4>
  }
  // expected-error @+1 {{the size of a dynamic dim of 'memref<?x8xi4>' is not known once it is packed into bytes: give the op an operand or destination of the same shape in another type, or a static shape}}
  %d = memref.dim %m, %c0 : memref<?x8xi4>
  return %d : index
}

// -----

// i3 is not packed (8 is no multiple of 3): untouched.
func.func @odd_width(%m: memref<4x?xi3>, %i: index) -> i3 {
  %v = memref.load %m[%i, %i] : memref<4x?xi3>
  return %v : i3
}

// -----

// A dense_resource of i4 must hold the packed bytes: 3 for 2x3 values.
// expected-error @below {{'memref.global' op dense_resource of 'memref<2x3xi4>' must hold 3 packed bytes}}
memref.global "private" constant @short_blob : memref<2x3xi4> = dense_resource<short_w>
func.func @short_resource() -> memref<2x3xi4> {
  %w = memref.get_global @short_blob : memref<2x3xi4>
  return %w : memref<2x3xi4>
}

{-#
  dialect_resources: {
    builtin: {
      short_w: "0x01000000E183"
    }
  }
#-}
