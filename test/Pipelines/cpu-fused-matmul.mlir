// Dequantize fused into matmuls, vectorized (docs/FusedMatmul.md): the
// dequantized weight never reaches memory (no buffer of its size, no f32
// store in the loop), the packed int4 codes are read as whole bytes and
// prefetched some rows ahead, the block's scale once per block and row, and
// the products are summed with
// FMAs on 16-lane f32 vectors; int4 codes are looked up in a 16-entry table
// of their dequantized values. The numbers are checked by
// test/Integration/CPU/fused-matmul.mlir.
//
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids" | FileCheck %s --check-prefix=MLIR
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.ll -o - | FileCheck %s --check-prefix=ASM

// MLIR-LABEL: llvm.func @decode_int4
// No buffer for the 256 x 512 dequantized weight (131072 values); the one
// allocation is the returned copy of the 1 x 256 result (an argument's
// buffer is returned as a copy, docs/Pipelines.md).
// MLIR-NOT: 131072
// The activation, shuffled once to the lookups' lane order into a copy
// before the loops; no f32 store after it.
// MLIR: llvm.shufflevector
// MLIR: llvm.store %{{.*}} : vector<32xf32>, !llvm.ptr
// MLIR-NOT: llvm.store {{.*}} vector<{{[0-9]+}}xf32>
// MLIR: llvm.load %{{.*}} : !llvm.ptr -> vector<16xi8>
// MLIR-NOT: llvm.shufflevector {{.*}} : vector<32xf32>
// MLIR-NOT: llvm.store {{.*}} vector<{{[0-9]+}}xf32>
// MLIR: llvm.fmul %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : vector<{{16|32}}xf32>
// MLIR: llvm.fadd %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : vector<{{16|32}}xf32>
// MLIR-LABEL: llvm.func @_mlir_ciface_decode_int4
// LLVM-LABEL: define {{.*}} @decode_int4(
// LLVM: call void @llvm.prefetch.p0(ptr %{{.*}}, i32 0, i32 3, i32 1)
// LLVM: load <16 x i8>
// LLVM: fmul contract <{{16|32}} x float>
// LLVM: fadd contract <{{16|32}} x float>
// The int4 weights by table: one permute per 16 codes (docs/FusedMatmul.md).
// ASM-LABEL: decode_int4:
// ASM-DAG: prefetcht0
// ASM-DAG: vperm{{d|ps}} {{.*}}%zmm
// ASM-DAG: vfmadd{{[0-9]+}}ps {{.*}}%zmm
func.func @decode_int4(%x: tensor<1x512xf32>, %q: tensor<256x512xi4>, %s: tensor<256x16xf32>, %d: tensor<1x256xf32>) -> tensor<1x256xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<256x512xi4>, tensor<256x16xf32>) -> tensor<256x512xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x512xf32>, tensor<256x512xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %m : tensor<1x256xf32>
}

// MLIR-LABEL: llvm.func @prefill_int8
// MLIR-NOT: 65536
// MLIR-NOT: llvm.store {{.*}} vector<{{[0-9]+}}xf32>
// MLIR: llvm.load %{{.*}} : !llvm.ptr -> vector<{{16|32}}xi8>
// MLIR: llvm.sitofp %{{.*}} : vector<[[N:16|32]]xi8> to vector<[[N]]xf32>
// MLIR: llvm.fadd %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : vector<[[N]]xf32>
// LLVM-LABEL: define {{.*}} @prefill_int8(
// LLVM: sitofp <{{16|32}} x i8> %{{.*}} to <{{16|32}} x float>
// ASM-LABEL: prefill_int8:
// ASM: vcvtdq2ps {{.*}}%zmm
// ASM: vfmadd{{[0-9]+}}ps {{.*}}%zmm
func.func @prefill_int8(%x: tensor<16x512xf32>, %q: tensor<128x512xi8>, %s: tensor<128x1xf32>, %d: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<128x512xi8>, tensor<128x1xf32>) -> tensor<128x512xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<16x128xf32>) -> tensor<16x128xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<16x512xf32>, tensor<128x512xf32>) outs(%f : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %m : tensor<16x128xf32>
}

// Prefill through panels (64 rows of x; docs/FusedMatmul.md "Prefill through
// panels"), written into the caller's buffer: no buffer of the dequantized
// weight (64 x 512 values) and no copy of the result. Two allocations: the
// copy of a chunk of x (64 x 256 floats, copied a row of 1 KiB at a time)
// and one 8 x 32 x 32 panel (32 KiB), transposed by shuffles. The
// micro-kernel: one loop of 256 steps, each 8 broadcasts from the copy (its
// rows 1 KiB apart) and 16 FMAs on 16 lanes.
// MLIR-LABEL: llvm.func @prefill_panels
// MLIR-NOT: 32768
// MLIR-LABEL: llvm.func @_mlir_ciface_prefill_panels
// LLVM-LABEL: define {{.*}} @prefill_panels(
// LLVM-NOT: @malloc
// LLVM: call ptr @malloc(i64 65600)
// LLVM: call void @llvm.memcpy.p0.p0.i64(ptr %{{.*}}, ptr %{{.*}}, i64 1024, i1 false)
// LLVM: call ptr @malloc(i64 32832)
// LLVM-NOT: @malloc
// LLVM: ret void
// ASM-LABEL: prefill_panels:
// ASM: vunpcklps {{.*}}%zmm
// ASM: vbroadcastss -7168(%[[X:[a-z0-9]+]],%[[K:[a-z0-9]+]],4), %zmm
// ASM-NEXT: vbroadcastss -6144(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss -5120(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss -4096(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss -3072(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss -2048(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss -1024(%[[X]],%[[K]],4), %zmm
// ASM-NEXT: vbroadcastss (%[[X]],%[[K]],4), %zmm
// ASM-COUNT-16: vfmadd231ps {{.*}}%zmm
// ASM: cmpq $255, %[[K]]
func.func @prefill_panels(%x: tensor<64x512xf32>, %q: tensor<64x512xi4>, %s: tensor<64x16xf32>, %out: memref<64x64xf32>) attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<64x512xi4>, tensor<64x16xf32>) -> tensor<64x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<64x512xf32>, tensor<64x512xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  return
}
