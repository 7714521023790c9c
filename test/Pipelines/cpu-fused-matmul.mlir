// Dequantize fused into matmuls, vectorized (docs/FusedMatmul.md): the
// dequantized weight never reaches memory (no buffer of its size, no f32
// store in the loop), the packed int4 codes are read as whole bytes and
// prefetched some rows ahead, the block's scale once per block and row, and
// the products are summed with
// FMAs on 16-lane f32 vectors; int4 codes are looked up in a 16-entry table
// of their dequantized values. The numbers are checked by
// test/Integration/CPU/fused-matmul.mlir.
//
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=MLIR
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
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
