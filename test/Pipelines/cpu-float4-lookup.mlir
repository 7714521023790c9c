// MXFP4 decode (f4E2M1FN weights, blocks of 32 under f32 scales) dequantized
// by table inside the fused x @ W^T (LookupTables.cpp, docs/FusedMatmul.md):
// the target's permute of f32 decides the tables (CPUTarget's
// f32PermuteLanes).
//
// On AVX2 (8 lanes), per 8 codes: one broadcast word, a per-lane shift that puts
// each code at the top of its lane, its low 3 bits as the index into two
// tables of 8 (the codes with the sign bit clear, and set), and a blend on
// the sign bit; no arithmetic decode (its vcvtdq2ps for the subnormal code)
// and no lane-by-lane extraction.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.v3.ll
// RUN: clang --target=x86_64-unknown-linux-gnu -O3 -Wno-override-module -S %t.v3.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX2 --implicit-check-not=zmm
// AVX2-LABEL: {{^}}mxfp4_decode:
// AVX2: Inner Loop Header
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vpbroadcastd ({{.*}}), %ymm
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vpsllvd {{.*}}%ymm
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vperm{{d|ps}} {{.*}}%ymm
// AVX2-NEXT: vperm{{d|ps}} {{.*}}%ymm
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vblendvps {{.*}}%ymm
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: {{^}}	j{{[a-z]+}} .LBB0_
//
// AVX-512 (16 lanes): one table of the 16 codes per zmm, as for int4.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v4" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.v4.ll
// RUN: clang --target=x86_64-unknown-linux-gnu -O3 -Wno-override-module -S %t.v4.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX512
// AVX512-LABEL: {{^}}mxfp4_decode:
// AVX512: Inner Loop Header
// AVX512-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps|vblendvps}}
// AVX512: vperm{{d|ps}} {{.*}}%zmm
// AVX512-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps|vblendvps}}
// AVX512: vfmadd{{[0-9]+}}ps {{.*}}%zmm
// AVX512-NOT: {{vcvtdq2ps|vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps|vblendvps}}
// AVX512: {{^}}	j{{[a-z]+}} .LBB0_
//
// SSE (no permute of f32 by index) and AArch64 NEON (tbl permutes bytes):
// decoded arithmetically, as before (its uitofp of the subnormal code); with
// the tables, no decode is left.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64" \
// RUN: | FileCheck %s --check-prefix=DECODE
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu cpu=generic" \
// RUN: | FileCheck %s --check-prefix=DECODE
// DECODE-LABEL: llvm.func @mxfp4_decode(
// DECODE: llvm.uitofp
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3" \
// RUN: | FileCheck %s --check-prefix=TABLE
// TABLE-LABEL: llvm.func @mxfp4_decode(
// TABLE-NOT: llvm.uitofp
// TABLE: llvm.call_intrinsic "llvm.x86.avx2.permps"({{.*}}) : (vector<8xf32>, vector<8xi32>) -> vector<8xf32>
// TABLE-NOT: llvm.uitofp
// TABLE: llvm.return
func.func @mxfp4_decode(%x: tensor<1x256xf32>, %q: tensor<64x256xf4E2M1FN>, %s: tensor<64x8xf32>, %out: memref<1x64xf32>) {
  %w = quant_affine.dequantize %q, %s range [-6, 6] block [1, 32] : (tensor<64x256xf4E2M1FN>, tensor<64x8xf32>) -> tensor<64x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x256xf32>, tensor<64x256xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1x64xf32>, memref<1x64xf32>) -> ()
  return
}
