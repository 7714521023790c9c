// Tensors with a zero-size dim compute nothing; every pipeline compiles them
// (upstream tiling crashed on the zero-size dim once rows went to threads).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true nontemporal-stores=true vector-width=64" | FileCheck %s
// CHECK: llvm.func @empty_qdq
// CHECK: llvm.func @empty_block_quantize

func.func @empty_qdq(%x: tensor<16x0xf32>, %s: tensor<1x1xf32>) -> tensor<16x0xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<16x0xf32>, tensor<1x1xf32>) -> tensor<16x0xf32>
  return %y : tensor<16x0xf32>
}

func.func @empty_block_quantize(%x: tensor<0x64xf32>, %s: tensor<0x2xf32>, %out: memref<0x64xi8>) {
  %q = quant_affine.quantize %x, %s range [-8, 7] block [1, 32] : (tensor<0x64xf32>, tensor<0x2xf32>) -> tensor<0x64xi8>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<0x64xi8>, memref<0x64xi8>) -> ()
  return
}
