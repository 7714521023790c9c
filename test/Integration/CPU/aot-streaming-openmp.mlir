// The kernels of aot.mlir compiled with OpenMP threads and non-temporal
// stores, run on outputs that start on a 64-byte boundary (the streaming
// version runs) and one element past it (the plain version runs): the same
// bits either way, and the same as the scalar reference.
// REQUIRES: libomp
// RUN: quant-affine-opt %S/aot.mlir --quant-affine-cpu-pipeline="nontemporal-stores=true openmp=true" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 -fopenmp %S/Inputs/aot-harness.cpp %t.o -o %t.exe -Wl,-rpath,%mlir_lib_dir
// RUN: %t.exe | FileCheck %s
// RUN: quant-affine-opt %S/aot.mlir --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4 nontemporal-stores=true openmp=true" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -o - | FileCheck %s --check-prefix=ASM

// CHECK: outputs 0 elements past a 64-byte boundary
// CHECK-NEXT: quantize_block32: 8192 elements, 0 mismatches
// CHECK-NEXT: dequantize_block32: 8192 elements, 0 mismatches
// CHECK-NEXT: qdq_per_channel: 8192 elements, 0 mismatches
// CHECK: outputs 1 elements past a 64-byte boundary
// CHECK-NEXT: quantize_block32: 8192 elements, 0 mismatches
// CHECK-NEXT: dequantize_block32: 8192 elements, 0 mismatches
// CHECK-NEXT: qdq_per_channel: 8192 elements, 0 mismatches

// The threads: each kernel forks through the OpenMP runtime.
// ASM-LABEL: dequantize_block32:
// ASM: __kmpc_fork_call
// The streaming version: 64-byte non-temporal stores.
// ASM: vmovntps %zmm
