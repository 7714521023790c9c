// The CPU pipeline for each target users have, compiled the way they compile
// it (mlir-translate, then clang -O3 for the triple; no hardware needed): the
// fused int4 decode and a qdq kernel stay vectorized in their inner loops,
// with no lane-by-lane extraction or insertion (a scalarized 16-lane table
// lookup on AVX2 was 384 vpextrd + 384 vinsertps, and 50x slower).
//
// The target is recorded on the module and its functions, with the wider
// vector extensions the CPU lacks turned off: a function's features replace
// the compiler's, so clang -march=<an AVX-512 CPU> (or -march=native on
// one) keeps the code to the CPU asked for.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3" \
// RUN: | FileCheck %s --check-prefix=ATTR
// ATTR: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"}
// ATTR: llvm.func @decode_i4({{.*}}) attributes {target_cpu = "x86-64-v3", target_features = #llvm.target_features<["-avx512f"]>}
// The requested changes come first, each missing extension matched whole
// (-avx512f asked for does not count as -avx).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64 features=-avx512f" \
// RUN: | FileCheck %s --check-prefix=ATTRSSE
// ATTRSSE: llvm.func @decode_i4({{.*}}) attributes {target_cpu = "x86-64", target_features = #llvm.target_features<["-avx512f", "-avx", "-avx2"]>}
// On AArch64 a NEON-only CPU turns SVE off the same way.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu cpu=neoverse-n1" \
// RUN: | FileCheck %s --check-prefix=ATTRARM
// ATTRARM: llvm.func @decode_i4({{.*}}) attributes {target_cpu = "neoverse-n1", target_features = #llvm.target_features<["-sve", "-sve2"]>}
//
// x86-64-v3 (AVX2 + FMA, 16 ymm): the int4 codes unpacked by per-lane shifts
// of broadcast words, then converted, scaled and summed with FMA on ymm.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v3" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.v3.ll
// RUN: clang --target=x86_64-unknown-linux-gnu -O3 -Wno-override-module -S %t.v3.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX2 --implicit-check-not=zmm
// RUN: clang --target=x86_64-unknown-linux-gnu -march=znver4 -O3 -Wno-override-module -S %t.v3.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX2 --implicit-check-not=zmm
// AVX2-LABEL: {{^}}decode_i4:
// AVX2: Inner Loop Header
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vpbroadcastd ({{.*}}), %ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vpsllvd {{.*}}%ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vcvtdq2ps {{.*}}%ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: {{^}}	j{{[a-z]+}} .LBB0_
// AVX2-LABEL: {{^}}qdq:
// AVX2: Inner Loop Header
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vdivps {{.*}}%ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: vroundps $8, {{.*}}%ymm
// AVX2-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX2: {{^}}	j{{[a-z]+}} .LBB1_
//
// x86-64-v4 (AVX-512, 32 zmm): the int4 codes looked up in a 16-entry table
// by one permute per 16 weights.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v4" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.v4.ll
// RUN: clang --target=x86_64-unknown-linux-gnu -O3 -Wno-override-module -S %t.v4.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX512
// AVX512-LABEL: {{^}}decode_i4:
// AVX512: Inner Loop Header
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: vperm{{d|ps}} {{.*}}%zmm
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: vfmadd{{[0-9]+}}ps {{.*}}%zmm
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: {{^}}	j{{[a-z]+}} .LBB0_
// AVX512-LABEL: {{^}}qdq:
// AVX512: Inner Loop Header
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: vdivps {{.*}}%zmm
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: vrndscaleps $8, {{.*}}%zmm
// AVX512-NOT: {{vpextr[bwdq]|vinsertps|vpinsr[bwdq]|vextractps}}
// AVX512: {{^}}	j{{[a-z]+}} .LBB1_
//
// AArch64 with NEON (32 q registers): broadcast loads (ld1r), per-lane shifts
// (ushl), conversion and fmla on .4s vectors; no single lane moved.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.neon.ll
// RUN: clang --target=aarch64-unknown-linux-gnu -O3 -Wno-override-module -S %t.neon.ll -o - \
// RUN: | FileCheck %s --check-prefix=NEON
// NEON-LABEL: {{^}}decode_i4:
// NEON: Inner Loop Header
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: ld1r { v{{[0-9]+}}.4s }
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: ushl v{{[0-9]+}}.4s
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: scvtf v{{[0-9]+}}.4s
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: fmla v{{[0-9]+}}.4s
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: {{^}}	b.{{[a-z]+}} .LBB0_
// NEON-LABEL: {{^}}qdq:
// NEON: Inner Loop Header
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: ldr q
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: frintn v{{[0-9]+}}.4s
// NEON-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// NEON: {{^}}	b.{{[a-z]+}} .LBB1_
//
// AArch64 with SVE, elementwise ops on scalable vectors (vector<[4]xf32>,
// one binary for every vector length: ld1w/st1w under a predicate, z
// registers); the fused decode keeps NEON's fixed vectors (its register
// tiles are planned in whole registers), which SVE machines run as well.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=aarch64-unknown-linux-gnu features=+sve" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.sve.ll
// RUN: clang --target=aarch64-unknown-linux-gnu -O3 -Wno-override-module -S %t.sve.ll -o - \
// RUN: | FileCheck %s --check-prefix=SVE
// SVE-LABEL: {{^}}decode_i4:
// SVE: Inner Loop Header
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: fmla v{{[0-9]+}}.4s
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: {{^}}	b.{{[a-z]+}} .LBB0_
// SVE-LABEL: {{^}}qdq:
// SVE: cntw
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: ld1w { z{{[0-9]+}}.s }, p{{[0-9]+}}/z
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: fdiv z{{[0-9]+}}.s
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: frintn z{{[0-9]+}}.s
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: st1w { z{{[0-9]+}}.s }, p{{[0-9]+}}
// SVE-NOT: {{(mov|umov|smov|ins)[[:space:]]+.*\.[bhsd]\[[0-9]+\]}}
// SVE: {{^}}	b.{{[a-z]+}} .LBB1_

func.func @decode_i4(%x: tensor<1x256xf32>, %q: tensor<64x256xi4>, %s: tensor<64x8xf32>, %out: memref<1x64xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<64x256xi4>, tensor<64x8xf32>) -> tensor<64x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<1x256xf32>, tensor<64x256xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1x64xf32>, memref<1x64xf32>) -> ()
  return
}

func.func @qdq(%x: tensor<64x256xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<64x256xf32>) {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] : (tensor<64x256xf32>, tensor<f32>, tensor<f32>) -> tensor<64x256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}
