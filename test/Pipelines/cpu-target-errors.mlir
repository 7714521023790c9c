// An unknown target is one clear error when the pipeline is parsed, before
// any function is compiled.
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=riscv64-unknown-linux-gnu" 2>&1 \
// RUN: | FileCheck %s --check-prefix=TRIPLE --implicit-check-not=llvm.func --implicit-check-not=error:
// TRIPLE: error: quant-affine-cpu-pipeline: unsupported target triple 'riscv64-unknown-linux-gnu': the CPU pipeline compiles for x86_64 and aarch64
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=zen9" 2>&1 \
// RUN: | FileCheck %s --check-prefix=X86CPU
// X86CPU: error: quant-affine-cpu-pipeline: unknown x86-64 CPU 'zen9' (LLVM's -mcpu names: x86-64-v3, znver4, sapphirerapids, ...)
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu cpu=znver4" 2>&1 \
// RUN: | FileCheck %s --check-prefix=ARMCPU
// ARMCPU: error: quant-affine-cpu-pipeline: unknown AArch64 CPU 'znver4'
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3 features=avx512f" 2>&1 \
// RUN: | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: quant-affine-cpu-pipeline: features must be a comma-separated list of +name or -name, got 'avx512f'
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3 features=+avx1024" 2>&1 \
// RUN: | FileCheck %s --check-prefix=FEATURE
// FEATURE: error: quant-affine-cpu-pipeline: unknown x86-64 feature 'avx1024'
// RUN: not quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu features=+avx2" 2>&1 \
// RUN: | FileCheck %s --check-prefix=ARMFEATURE
// ARMFEATURE: error: quant-affine-cpu-pipeline: unknown AArch64 feature 'avx2'
//
// Features change what the CPU implies: AVX-512 turned off on an AVX-512 CPU
// gives the AVX2 plan (8 lanes of f32), turned on for x86-64-v3 the AVX-512
// one (16 lanes).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids features=-avx512f" \
// RUN: | FileCheck %s --check-prefix=OFF
// OFF: llvm.func @qdq
// OFF-SAME: target_cpu = "sapphirerapids", target_features = #llvm.target_features<["-avx512f"]>
// OFF: vector<8xf32>
// OFF-NOT: vector<16xf32>
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3 features=+avx512f" \
// RUN: | FileCheck %s --check-prefix=ON
// ON: vector<16xf32>
//
// AArch64 CPUs imply their extensions: Neoverse V2 has SVE (scalable
// vectors), Neoverse N1 only NEON.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu cpu=neoverse-v2" \
// RUN: | FileCheck %s --check-prefix=V2
// V2: vector<[4]xf32>
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu cpu=neoverse-n1" \
// RUN: | FileCheck %s --check-prefix=N1 --implicit-check-not=vscale
// N1: vector<4xf32>

func.func @qdq(%x: tensor<64x256xf32>, %s: tensor<f32>, %out: memref<64x256xf32>) {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64x256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}
