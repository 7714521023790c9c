// compute_encoding in the CPU pipeline (docs/Calibration.md): the minimum
// and maximum of each token are computed in 16 lanes, as integer min/max of
// an ordered key (one vector load, the key, one vpminsd and one vpmaxsd per
// 16 values), the lanes combined once per token; the quantize of the same
// activations is vectorized too. Numbers:
// test/Integration/CPU/conformance-compute-encoding.mlir and
// dynamic-quantization.mlir.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.ll -o - | FileCheck %s --check-prefix=ASM

// CHECK-LABEL: define {{.*}} @per_token(
// CHECK-DAG: call <16 x i32> @llvm.smin.v16i32(
// CHECK-DAG: call <16 x i32> @llvm.smax.v16i32(
// CHECK-DAG: call i32 @llvm.vector.reduce.smin.v16i32(
// CHECK-DAG: call i32 @llvm.vector.reduce.smax.v16i32(
// CHECK-DAG: fdiv <{{16|64}} x float>
// ASM-LABEL: per_token:
// ASM-DAG: vpminsd {{.*}}%zmm
// ASM-DAG: vpmaxsd {{.*}}%zmm
func.func @per_token(%x: tensor<64x1024xf32>) -> tensor<64x1024xi8> {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<64x1024xf32> -> (tensor<64x1xf32>, tensor<64x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<64x1024xf32>, tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x1024xi8>
  return %q : tensor<64x1024xi8>
}
