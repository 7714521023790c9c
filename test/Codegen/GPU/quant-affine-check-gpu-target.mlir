// RUN: quant-affine-opt %s --quant-affine-check-gpu-target="cuda-path=%t.no-cuda" --split-input-file -verify-diagnostics
// A toolkit that has libdevice (only its path is looked at):
// RUN: rm -rf %t.cuda && mkdir -p %t.cuda/nvvm/libdevice && touch %t.cuda/nvvm/libdevice/libdevice.10.bc
// RUN: sed -e 's/expected-error/expected/' %s \
// RUN: | not quant-affine-opt --quant-affine-check-gpu-target="cuda-path=%t.cuda" --split-input-file 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=LIBDEVICE
// With libdevice, its functions are fine; the other errors stay.
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}
// LIBDEVICE: error: PTX 6.0
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}
// LIBDEVICE: error: unknown NVIDIA chip 'sm_91'
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}
// LIBDEVICE: error: external function 'helper'
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}
// LIBDEVICE: error: device code would hold a copy of @huge of 8589934592 bytes
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}
// LIBDEVICE: error: 'math.ctlz' is left in the device code
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice|unrealized}}
// LIBDEVICE: error: a value of type 'i64' is left unconverted
// LIBDEVICE-NOT: {{__nv_rintf|linked with libdevice}}

// What gpu-module-to-binary would crash on, or turn into a broken binary,
// is an error at the module or function that causes it.

// A module that compiles and links: nothing to report with libdevice (the
// second run). gpu-module-to-binary links libdevice into every module, so
// without it even this module fails, here rather than with the module dumped.
// expected-error-re @below {{device code is linked with libdevice, but {{.*}}.no-cuda/nvvm/libdevice/libdevice.10.bc does not exist; point the pipeline's cuda-path option at a CUDA toolkit}}
gpu.module @fine [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  llvm.func @kernel() {
    llvm.return
  }
}

// -----

// expected-error @below {{PTX 6.0 (features '+ptx60') cannot target sm_90, which needs PTX 7.8 or newer}}
gpu.module @old_ptx [#nvvm.target<chip = "sm_90", features = "+ptx60">] {
}

// -----

// sm_80 needs PTX 7.0; +ptx70 is enough.
// expected-error-re @below {{device code is linked with libdevice, but {{.*}} does not exist}}
gpu.module @oldest_ptx [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
}

// -----

// expected-error @below {{unknown NVIDIA chip 'sm_91' (expected sm_80, sm_90, ...)}}
gpu.module @unknown_chip [#nvvm.target<chip = "sm_91">] {
}

// -----

// Calls into libdevice need libdevice.
gpu.module @libdevice [#nvvm.target<chip = "sm_90">] {
  // expected-error-re @below {{'__nv_rintf' comes from libdevice, but {{.*}}.no-cuda/nvvm/libdevice/libdevice.10.bc does not exist; point the pipeline's cuda-path option at a CUDA toolkit}}
  llvm.func @__nv_rintf(f32) -> f32
  llvm.func @kernel(%x: f32) -> f32 {
    %r = llvm.call @__nv_rintf(%x) : (f32) -> f32
    llvm.return %r : f32
  }
}

// -----

// Nothing resolves any other external function.
gpu.module @unresolved [#nvvm.target<chip = "sm_90">] {
  // expected-error @below {{external function 'helper' would stay unresolved in the device code}}
  llvm.func @helper(f32) -> f32
  llvm.func @kernel(%x: f32) -> f32 {
    %r = llvm.call @helper(%x) : (f32) -> f32
    llvm.return %r : f32
  }
}

// -----

// LLVM would materialize this splat whole (2^33 bytes) and run out of
// memory; 2^32 bytes is as much as the pipeline puts into a module.
gpu.module @huge_global [#nvvm.target<chip = "sm_90">] {
  // expected-error @below {{device code would hold a copy of @huge of 8589934592 bytes, more than the 2^32 bytes the GPU pipeline puts into a device module}}
  llvm.mlir.global private constant @huge(dense<2> : tensor<2x4294967296xi8>) : !llvm.array<2 x array<4294967296 x i8>>
  llvm.mlir.global private constant @largest(dense<2.0> : tensor<1073741824xf32>) : !llvm.array<1073741824 x f32>
}

// -----

// An op no device lowering took (here an n-D bit count, as upstream's math
// conversion leaves it) is reported at the op, not as a translation failure
// with the whole module dumped; the casts around it are not reported.
gpu.module @left_over [#nvvm.target<chip = "sm_90">] {
  llvm.func @kernel(%x: !llvm.array<1 x vector<2xi32>>) -> !llvm.array<1 x vector<2xi32>> {
    %v = builtin.unrealized_conversion_cast %x : !llvm.array<1 x vector<2xi32>> to vector<1x2xi32>
    // expected-error @below {{'math.ctlz' is left in the device code: the GPU pipeline has no lowering for it on 'vector<1x2xi32>'}}
    %c = math.ctlz %v : vector<1x2xi32>
    %r = builtin.unrealized_conversion_cast %c : vector<1x2xi32> to !llvm.array<1 x vector<2xi32>>
    llvm.return %r : !llvm.array<1 x vector<2xi32>>
  }
}

// -----

// A cast alone (a value some conversion left in its old type).
gpu.module @left_cast [#nvvm.target<chip = "sm_90">] {
  llvm.func @kernel(%x: i64) {
    // expected-error @below {{a value of type 'i64' is left unconverted in the device code}}
    %i = builtin.unrealized_conversion_cast %x : i64 to index
    llvm.return
  }
}
