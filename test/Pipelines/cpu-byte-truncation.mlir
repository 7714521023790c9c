// MXFP8 codes, computed in 32-bit lanes, truncated to bytes by byte permutes
// of register pairs where the target has one (vpermt2b with AVX-512's VBMI
// extension, quant-affine-truncate-by-permutes) instead of a vpmovdb per
// register, two micro-ops each on AMD's cores (the 16 scale bytes of a
// block tree, one register, keep theirs). bench/mxquant's quantization at
// its size (128-element tiles of 4 blocks; the last-level cache is named,
// 32 MiB, so that any host plans the same); the bench checks its codes bit
// for bit, and test/Integration/CPU/block-reductions.test runs them on the
// host.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4 llc-bytes=33554432" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 -o - \
// RUN: | FileCheck %s --check-prefix=VBMI
// Four per 128-element tile of codes (two 32-lane register pairs), in each
// of the two versions of the body.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4 llc-bytes=33554432" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 -o - \
// RUN: | grep -c vpermt2b | FileCheck %s --check-prefix=VBMI-PERMUTES
// VBMI-PERMUTES: {{^8$}}
// The two vpmovdb left there truncate the 16 scale bytes of a block tree
// (one register), in each of the two versions of the body (streamed and
// plain stores); none is left for the codes.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4 llc-bytes=33554432" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 -o - \
// RUN: | grep -c vpmovdb | FileCheck %s --check-prefix=VBMI-MOVES
// VBMI-MOVES: {{^2$}}
// Without that extension (skylake-avx512) the truncation is LLVM's.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=skylake-avx512 llc-bytes=33554432" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=skylake-avx512 -o - \
// RUN: | FileCheck %s --check-prefix=NOVBMI --implicit-check-not=vpermt2b
// Nor with the extension turned off on a CPU that has it.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4 features=-avx512vbmi llc-bytes=33554432" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -o - \
// RUN: | FileCheck %s --check-prefix=NOVBMI --implicit-check-not=vpermt2b
// VBMI-LABEL: mxfp8:
// VBMI-COUNT-8: vpermt2b
// NOVBMI-LABEL: mxfp8:
// NOVBMI: vpmovdb
func.func @mxfp8(%x: tensor<4096x4096xf32>, %q: memref<4096x4096xf8E4M3FN>, %s: memref<4096x128xf8E8M0FNU>) {
  %e = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 32] : (tensor<4096x4096xf32>) -> tensor<4096x128xf8E8M0FNU>
  %sf = arith.extf %e : tensor<4096x128xf8E8M0FNU> to tensor<4096x128xf32>
  %y = quant_affine.quantize %x, %sf range [-448, 448] block [1, 32] : (tensor<4096x4096xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xf8E4M3FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xf8E4M3FN>, memref<4096x4096xf8E4M3FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<4096x128xf8E8M0FNU>, memref<4096x128xf8E8M0FNU>) -> ()
  return
}
