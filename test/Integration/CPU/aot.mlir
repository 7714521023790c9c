// Ahead-of-time use: compile to an object with mlir-translate and clang, link
// it into a C++ program that calls the llvm.emit_c_interface wrappers with its
// own buffers, and compare with the program's scalar reference (true
// division, round half to even, clamp, then the integer conversion).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/aot-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s

// CHECK: quantize_block32: 8192 elements, 0 mismatches
// CHECK: dequantize_block32: 8192 elements, 0 mismatches
// CHECK: qdq_per_channel: 8192 elements, 0 mismatches
// NaN (index 5) into an integer is poison; +Inf and -Inf saturate.
// CHECK: q[0][0..8] = -123 116 106 95 85 {{-?[0-9]+}} 127 -128

func.func @quantize_block32(%w: tensor<64x128xf32>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>,
                            %out: memref<64x128xi8>) attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %w, %s, %o range [-128, 127] block [1, 32]
      : (tensor<64x128xf32>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xi8>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<64x128xi8>, memref<64x128xi8>) -> ()
  return
}

func.func @dequantize_block32(%q: tensor<64x128xi8>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>,
                              %out: memref<64x128xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-128, 127] block [1, 32]
      : (tensor<64x128xi8>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @qdq_per_channel(%x: tensor<64x128xf32>, %s: tensor<64x1xf32>, %o: tensor<64x1xf32>,
                           %out: memref<64x128xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.qdq %x, %s, %o range [0, 255]
      : (tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}
