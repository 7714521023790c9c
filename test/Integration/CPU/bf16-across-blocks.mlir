// A bf16 scale read before a branch (here the reciprocal-division check)
// and used after it: at -O0 the x86 backend keeps it in an f32 register and
// rounds it back with VCVTNEPS2BF16 on AVX512-BF16 hosts, which flushed the
// subnormal scale 0x0001 to zero (output 0 instead of 4095 * 2^-133).
// quant-affine-carry-bf16-as-i16 carries it as i16. Found by
// utils/progtest.py (seed 777, program 1672).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="reciprocal-division=true vector-width=1" -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: llc -O0 -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512bf16,+avx512vl %t.ll -o - \
// RUN: | FileCheck %s --check-prefix=ASM --implicit-check-not=vcvtneps2bf16
// RUN: mlir-runner %t.mlir -O0 -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// ASM-LABEL: kernel:
// 24 / 2^-133 overflows to inf and clamps to 4095; 4095 * 2^-133 (bits
// 50327552). The other rows have normal scales.
// CHECK: [1077936128,  50327552,  1061158912,  1115684096]
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})
func.func @kernel(%x: tensor<?x?xf32>, %s1: tensor<1x1xf32>, %o1: tensor<1x1xf32>, %s2: tensor<4x1xbf16>, %o2: tensor<4x1xbf16>) -> tensor<?x?xf32> {
  %q1 = quant_affine.qdq %x, %s1, %o1 range [0, 20] : (tensor<?x?xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<?x?xf32>
  %q2 = quant_affine.qdq %q1, %s2, %o2 range [0, 4095] block [1, 1] : (tensor<?x?xf32>, tensor<4x1xbf16>, tensor<4x1xbf16>) -> tensor<?x?xf32>
  return %q2 : tensor<?x?xf32>
}
func.func @main() {
  %x_s = arith.constant dense<"0x757A9DC28E72C841BDA716C100008242"> : tensor<4x1xf32>
  %x = tensor.cast %x_s : tensor<4x1xf32> to tensor<?x?xf32>
  %s1 = arith.constant dense<4.0> : tensor<1x1xf32>
  %o1 = arith.constant dense<-4.0> : tensor<1x1xf32>
  %s2 = arith.constant dense<"0x403F0100403F8E3C"> : tensor<4x1xbf16>
  %o2 = arith.constant dense<"0x80400000803F0000"> : tensor<4x1xbf16>
  %r = call @kernel(%x, %s1, %o1, %s2, %o2) : (tensor<?x?xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<4x1xbf16>, tensor<4x1xbf16>) -> tensor<?x?xf32>
  %r_s = tensor.cast %r : tensor<?x?xf32> to tensor<4x1xf32>
  %f = tensor.collapse_shape %r_s [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  %b = arith.bitcast %f : tensor<4xf32> to tensor<4xi32>
  %w = arith.extui %b : tensor<4xi32> to tensor<4xi64>
  %u = tensor.cast %w : tensor<4xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}
