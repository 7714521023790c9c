// Without libdevice the pipeline stops with one error at the code, instead
// of failing in gpu-module-to-binary with the device module dumped (that pass
// links libdevice into every module; gpu-libdevice.mlir has the functions
// that call into it).
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%t.no-cuda" 2>&1 \
// RUN: | FileCheck %s --check-prefix=LIBDEVICE
// LIBDEVICE: error: device code is linked with libdevice, but {{.*}}no-cuda/nvvm/libdevice/libdevice.10.bc does not exist; point the pipeline's cuda-path option at a CUDA toolkit
// LIBDEVICE-NEXT: quant_affine.quantize
// LIBDEVICE-NOT: error
// LIBDEVICE-NOT: see current operation

// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa vector-width=0" 2>&1 \
// RUN: | FileCheck %s --check-prefix=WIDTH
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=-3" 2>&1 \
// RUN: | FileCheck %s --check-prefix=CPUWIDTH
// Option values are checked once, when the pipeline is parsed: one error,
// no IR dump, whatever the number of functions. (The CPU pipeline takes 0:
// a width chosen by the size of each op.)
// WIDTH: error: quant-affine-gpu-pipeline: vector-width must be at least 1, got 0
// WIDTH-NOT: error
// WIDTH-NOT: see current operation
// CPUWIDTH: error: quant-affine-cpu-pipeline: vector-width must be at least 1, or 0 for auto, got -3
// CPUWIDTH-NOT: error
// CPUWIDTH-NOT: see current operation
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="llc-bytes=-1" 2>&1 \
// RUN: | FileCheck %s --check-prefix=LLC
// LLC: error: quant-affine-cpu-pipeline: llc-bytes must be at least 0 (0: the host's last-level cache), got -1
// LLC-NOT: see current operation
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="nontemporal-stores=maybe" 2>&1 \
// RUN: | FileCheck %s --check-prefix=NT
// NT: error: invalid options 'nontemporal-stores=maybe' for quant-affine-cpu-pipeline

// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=foo" -o %t.foo 2>&1 \
// RUN: | FileCheck %s --check-prefix=FORMAT
// RUN: not test -e %t.foo
// FORMAT: error: quant-affine-gpu-pipeline: format must be isa, bin or fatbin, got 'foo'
// FORMAT-NOT: see current operation
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="opt-level=7" 2>&1 \
// RUN: | FileCheck %s --check-prefix=OPT
// OPT: error: quant-affine-gpu-pipeline: opt-level must be in [0, 3], got 7
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=abc" 2>&1 \
// RUN: | FileCheck %s --check-prefix=BADINT
// BADINT: error: invalid options 'vector-width=abc' for quant-affine-cpu-pipeline

// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa block-size=2048" 2>&1 \
// RUN: | FileCheck %s --check-prefix=BLOCK
// BLOCK: error: {{.*}}block-size must be in [1, 1024], got 2048
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa reduction-threads=-1" 2>&1 \
// RUN: | FileCheck %s --check-prefix=THREADS
// THREADS: error: quant-affine-gpu-pipeline: reduction-threads must be at least 0, got -1
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa reduction-width=0" 2>&1 \
// RUN: | FileCheck %s --check-prefix=RWIDTH
// RWIDTH: error: quant-affine-gpu-pipeline: reduction-width must be at least 1, got 0

// A PTX version too old for the chip, or an unknown chip, is an error rather
// than an abort inside LLVM.
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa chip=sm_90 features=+ptx60 cuda-path=%cuda_path" 2>&1 \
// RUN: | FileCheck %s --check-prefix=PTXVERSION
// PTXVERSION: error: PTX 6.0 (features '+ptx60') cannot target sm_90, which needs PTX 7.8 or newer
// PTXVERSION-NEXT: quant_affine.quantize
// RUN: not quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa chip=sm_91 cuda-path=%cuda_path" 2>&1 \
// RUN: | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown NVIDIA chip 'sm_91' (expected sm_80, sm_90, ...)

func.func @quantize(%x: tensor<256xf32>, %s: tensor<f32>, %out: memref<256xi8>) {
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<256xf32>, tensor<f32>) -> tensor<256xi8>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<256xi8>, memref<256xi8>) -> ()
  return
}
