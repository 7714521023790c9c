// Dynamic quantization with dynamic shapes: compute_encoding feeding
// quantize of the same activations, whose token count (dim 0) or row length
// (dim 1, blocks of 4) is only known at run time. Expected bits from ref.py
// (aimet_compute_encoding and aimet_quantize, 2025). Under every CPU option
// set, and with the calls inlined and the shapes made static.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

// Per token, asymmetric 8-bit.
func.func @per_token(%x: tensor<?x8xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x8xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<?x8xf32> -> (tensor<?x1xf32>, tensor<?x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<?x8xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x8xi8>
  return %s, %o, %q : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x8xi8>
}

// Symmetric 4-bit grid per block of 4 along a dynamic row (i8 storage: a
// packed i4 buffer of dynamic size is not supported, docs/Packing.md).
func.func @per_block(%x: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x?xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 4] : tensor<3x?xf32> -> (tensor<3x?xf32>, tensor<3x?xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 4] : (tensor<3x?xf32>, tensor<3x?xf32>, tensor<3x?xf32>) -> tensor<3x?xi8>
  return %s, %q : tensor<3x?xf32>, tensor<3x?xi8>
}

func.func @show_bits(%v: tensor<?x?xf32>) {
  %b = arith.bitcast %v : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[0.5, -1.25, 3.0, 0.0, 2.5, -0.75, 1.0, 0.125],
                             [-4.0, -2.0, -1.0, -0.5, 0.25, 0.75, 1.5, 2.0],
                             [7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]]> : tensor<3x8xf32>

  // CHECK: [1015580809],
  // CHECK-NEXT: [1019265217],
  // CHECK-NEXT: [1021370593]]
  // CHECK: [53],
  // CHECK-NEXT: [-42],
  // CHECK-NEXT: [128]]
  // CHECK: {{\[}}[-23,   -128,   127,   -53,   97,   -98,   7,   -46],
  // CHECK-NEXT: [-128,   -43,   0,   21,   53,   74,   106,   127],
  // CHECK-NEXT: [127,   127,   127,   127,   127,   127,   127,   127]]
  %xt = tensor.cast %x : tensor<3x8xf32> to tensor<?x8xf32>
  %s, %o, %q = call @per_token(%xt) : (tensor<?x8xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x8xi8>)
  %sd = tensor.cast %s : tensor<?x1xf32> to tensor<?x?xf32>
  call @show_bits(%sd) : (tensor<?x?xf32>) -> ()
  %oi = arith.fptosi %o : tensor<?x1xf32> to tensor<?x1xi32>
  %ou = tensor.cast %oi : tensor<?x1xi32> to tensor<*xi32>
  call @printMemrefI32(%ou) : (tensor<*xi32>) -> ()
  %qi = arith.extsi %q : tensor<?x8xi8> to tensor<?x8xi32>
  %qu = tensor.cast %qi : tensor<?x8xi32> to tensor<*xi32>
  call @printMemrefI32(%qu) : (tensor<*xi32>) -> ()

  // CHECK: {{\[}}[1054567863,   1052171118],
  // CHECK-NEXT: [1056964608,   1049774372],
  // CHECK-NEXT: [1065353216,   1065353216]]
  // CHECK: {{\[}}[1,   -3,   7,   0,   7,   -2,   3,   0],
  // CHECK-NEXT: [-8,   -4,   -2,   -1,   1,   3,   5,   7],
  // CHECK-NEXT: [7,   7,   7,   7,   7,   7,   7,   7]]
  %xr = tensor.cast %x : tensor<3x8xf32> to tensor<3x?xf32>
  %s2, %q2 = call @per_block(%xr) : (tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x?xi8>)
  %s2d = tensor.cast %s2 : tensor<3x?xf32> to tensor<?x?xf32>
  call @show_bits(%s2d) : (tensor<?x?xf32>) -> ()
  %q2i = arith.extsi %q2 : tensor<3x?xi8> to tensor<3x?xi32>
  %q2u = tensor.cast %q2i : tensor<3x?xi32> to tensor<*xi32>
  call @printMemrefI32(%q2u) : (tensor<*xi32>) -> ()
  return
}
