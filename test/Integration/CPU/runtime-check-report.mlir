// A failed run-time check writes the op's location, its name, the rule and
// the sizes it compared (run-time values) to stderr, then aborts. stdout goes
// to /dev/null in every run: the report does not depend on it.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true" -o %t.mlir
// RUN: not --crash mlir-runner %t.mlir -e block -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=BLOCK
// RUN: not --crash mlir-runner %t.mlir -e wildcard -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=WILDCARD
// RUN: not --crash mlir-runner %t.mlir -e broadcast -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=BROADCAST
// RUN: not --crash mlir-runner %t.mlir -e offset -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=OFFSET
// Shapes that fit pass every check and compute.
// RUN: mlir-runner %t.mlir -e fits -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=FITS
//
// With OpenMP threads the checks still run on the calling thread first.
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true openmp=true" \
// RUN: | not --crash mlir-runner -e block -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=BLOCK %}
//
// The host code of the GPU pipeline reports the same way (the check runs
// before any launch).
// RUN: %if libdevice %{ quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa runtime-checks=true" \
// RUN: | FileCheck %s --check-prefix=GPU %}

// BLOCK: runtime-check-report.mlir:[[# @LINE + 3]]:8: error: quant_affine.qdq run-time check failed: input dim 0 has 16 elements but block_size 4 x scale dim 0 size 3 needs 12
// BLOCK-NOT: run-time check failed
func.func @qdq_block(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// WILDCARD: runtime-check-report.mlir:[[# @LINE + 2]]:8: error: quant_affine.quantize run-time check failed: input dim 1 has 13 elements but block_size -1 needs a multiple of scale dim 1 size 3
func.func @quantize_wildcard(%x: tensor<2x?xf32>, %s: tensor<2x?xf32>) -> tensor<2x?xi8> {
  %q = quant_affine.quantize %x, %s range [-128, 127] block [1, -1] : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xi8>
  return %q : tensor<2x?xi8>
}

// BROADCAST: runtime-check-report.mlir:[[# @LINE + 2]]:8: error: quant_affine.dequantize run-time check failed: scale dim 0 has 3 elements but needs 1 or input dim 0 size 5
func.func @dequantize_broadcast(%q: tensor<?xi8>, %s: tensor<?xf32>) -> tensor<?xf32> {
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<?xi8>, tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// OFFSET: runtime-check-report.mlir:[[# @LINE + 2]]:8: error: quant_affine.qdq run-time check failed: offset dim 0 has 4 elements but needs scale dim 0 size 3
func.func @qdq_offset(%x: tensor<12xf32>, %s: tensor<?xf32>, %o: tensor<?xf32>) -> tensor<12xf32> {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] block [4] : (tensor<12xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<12xf32>
  return %y : tensor<12xf32>
}

// GPU-DAG: llvm.mlir.global private constant @{{.*}}("{{.*}}runtime-check-report.mlir:{{[0-9]+}}:8: error: quant_affine.qdq run-time check failed: input dim 0 has %lld elements but block_size 4 x scale dim 0 size %lld needs %lld\0A\00")
// GPU-DAG: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// GPU-DAG: llvm.func @abort()
// GPU-DAG: gpu.binary
// GPU: llvm.call @dprintf
// GPU-NEXT: llvm.call @abort()

func.func @block() {
  %x = arith.constant dense<1.0> : tensor<16xf32>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %xd = tensor.cast %x : tensor<16xf32> to tensor<?xf32>
  %y = call @qdq_block(%xd, %s) : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?xf32>
  vector.print %d : index
  return
}

func.func @wildcard() {
  %x = arith.constant dense<1.0> : tensor<2x13xf32>
  %s = arith.constant dense<0.5> : tensor<2x3xf32>
  %xd = tensor.cast %x : tensor<2x13xf32> to tensor<2x?xf32>
  %sd = tensor.cast %s : tensor<2x3xf32> to tensor<2x?xf32>
  %q = call @quantize_wildcard(%xd, %sd) : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xi8>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %q, %c1 : tensor<2x?xi8>
  vector.print %d : index
  return
}

func.func @broadcast() {
  %q = arith.constant dense<3> : tensor<5xi8>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %qd = tensor.cast %q : tensor<5xi8> to tensor<?xi8>
  %sd = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  %y = call @dequantize_broadcast(%qd, %sd) : (tensor<?xi8>, tensor<?xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?xf32>
  vector.print %d : index
  return
}

func.func @offset() {
  %x = arith.constant dense<1.0> : tensor<12xf32>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %o = arith.constant dense<1.0> : tensor<4xf32>
  %sd = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  %od = tensor.cast %o : tensor<4xf32> to tensor<?xf32>
  %y = call @qdq_offset(%x, %sd, %od) : (tensor<12xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<12xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %y[%c0] : tensor<12xf32>
  vector.print %e : f32
  return
}

// FITS: 12
// FITS-NEXT: 2
// FITS-NEXT: 5
// FITS-NEXT: 1
func.func @fits() {
  %x = arith.constant dense<1.0> : tensor<12xf32>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %xd = tensor.cast %x : tensor<12xf32> to tensor<?xf32>
  %y = call @qdq_block(%xd, %s) : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?xf32>
  vector.print %d : index
  %x2 = arith.constant dense<1.0> : tensor<2x12xf32>
  %s2 = arith.constant dense<0.5> : tensor<2x3xf32>
  %x2d = tensor.cast %x2 : tensor<2x12xf32> to tensor<2x?xf32>
  %s2d = tensor.cast %s2 : tensor<2x3xf32> to tensor<2x?xf32>
  %q = call @quantize_wildcard(%x2d, %s2d) : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xi8>
  %d0 = tensor.dim %q, %c0 : tensor<2x?xi8>
  vector.print %d0 : index
  %qi = arith.constant dense<3> : tensor<5xi8>
  %s1 = arith.constant dense<0.5> : tensor<1xf32>
  %qid = tensor.cast %qi : tensor<5xi8> to tensor<?xi8>
  %s1d = tensor.cast %s1 : tensor<1xf32> to tensor<?xf32>
  %z = call @dequantize_broadcast(%qid, %s1d) : (tensor<?xi8>, tensor<?xf32>) -> tensor<?xf32>
  %dz = tensor.dim %z, %c0 : tensor<?xf32>
  vector.print %dz : index
  %o = arith.constant dense<1.0> : tensor<3xf32>
  %sd = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  %od = tensor.cast %o : tensor<3xf32> to tensor<?xf32>
  %w = call @qdq_offset(%x, %sd, %od) : (tensor<12xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<12xf32>
  %e = tensor.extract %w[%c0] : tensor<12xf32>
  vector.print %e : f32
  return
}
