// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline="vector-width=64 nontemporal-stores=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// Vectors of integers narrower than a byte (or i12) that the program itself
// writes and reads (vector forms of our ops, vector.transfer_write/read):
// LLVM lays such vectors out bit by bit while a memref gives each element its
// own bytes, so a whole-vector store once left packed bits (vector<8xi2> in 2
// bytes) that the caller read as garbage. quant-affine-flatten-transfers now
// accesses them element by element.

// In bounds: i2, i4 and i12.
func.func @store_i2(%x: vector<8xf32>) -> tensor<8xi2> {
  %s = arith.constant dense<1.0> : vector<8xf32>
  %q = quant_affine.quantize %x, %s range [0, 3] : (vector<8xf32>, vector<8xf32>) -> vector<8xi2>
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xi2>
  %w = vector.transfer_write %q, %e[%c0] {in_bounds = [true]} : vector<8xi2>, tensor<8xi2>
  return %w : tensor<8xi2>
}
func.func @store_i4(%x: vector<8xf32>) -> tensor<8xi4> {
  %s = arith.constant dense<1.0> : vector<8xf32>
  %q = quant_affine.quantize %x, %s range [-8, 7] : (vector<8xf32>, vector<8xf32>) -> vector<8xi4>
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xi4>
  %w = vector.transfer_write %q, %e[%c0] {in_bounds = [true]} : vector<8xi4>, tensor<8xi4>
  return %w : tensor<8xi4>
}
func.func @store_i12(%x: vector<8xf32>) -> tensor<8xi12> {
  %s = arith.constant dense<0.5> : vector<8xf32>
  %q = quant_affine.quantize %x, %s range [-2048, 2047] : (vector<8xf32>, vector<8xf32>) -> vector<8xi12>
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xi12>
  %w = vector.transfer_write %q, %e[%c0] {in_bounds = [true]} : vector<8xi12>, tensor<8xi12>
  return %w : tensor<8xi12>
}

// Out of bounds: 8 lanes at offset 4 of 10 elements write 6, the rest stays.
func.func @store_i4_partial(%x: vector<8xf32>, %d: tensor<10xi4>) -> tensor<10xi4> {
  %s = arith.constant dense<1.0> : vector<8xf32>
  %q = quant_affine.quantize %x, %s range [-8, 7] : (vector<8xf32>, vector<8xf32>) -> vector<8xi4>
  %c4 = arith.constant 4 : index
  %w = vector.transfer_write %q, %d[%c4] : vector<8xi4>, tensor<10xi4>
  return %w : tensor<10xi4>
}

// A read of 8 lanes at offset 4 of 10 (the last two get the padding, 5).
func.func @load_i4_partial(%q: tensor<10xi4>) -> vector<8xf32> {
  %c4 = arith.constant 4 : index
  %pad = arith.constant 5 : i4
  %v = vector.transfer_read %q[%c4], %pad : tensor<10xi4>, vector<8xi4>
  %s = arith.constant dense<0.25> : vector<8xf32>
  %y = quant_affine.dequantize %v, %s range [-8, 7] : (vector<8xi4>, vector<8xf32>) -> vector<8xf32>
  return %y : vector<8xf32>
}

func.func private @printMemrefI64(tensor<*xi64>)
func.func @main() {
  %x = arith.constant dense<[1.0, 1.0, 0.0, 0.0, 3.0, 3.0, 2.0, 2.0]> : vector<8xf32>
  %t2 = call @store_i2(%x) : (vector<8xf32>) -> tensor<8xi2>
  %w2 = arith.extui %t2 : tensor<8xi2> to tensor<8xi64>
  %u2 = tensor.cast %w2 : tensor<8xi64> to tensor<*xi64>
  // CHECK: [1,  1,  0,  0,  3,  3,  2,  2]
  call @printMemrefI64(%u2) : (tensor<*xi64>) -> ()

  %y = arith.constant dense<[-8.0, -3.0, -1.0, 0.0, 1.0, 5.0, 7.0, 100.0]> : vector<8xf32>
  %t4 = call @store_i4(%y) : (vector<8xf32>) -> tensor<8xi4>
  %w4 = arith.extsi %t4 : tensor<8xi4> to tensor<8xi64>
  %u4 = tensor.cast %w4 : tensor<8xi64> to tensor<*xi64>
  // CHECK: [-8,  -3,  -1,  0,  1,  5,  7,  7]
  call @printMemrefI64(%u4) : (tensor<*xi64>) -> ()

  %z = arith.constant dense<[-1024.0, -1.5, 0.0, 1.0, 99.5, 1000.0, 1023.5, 5000.0]> : vector<8xf32>
  %t12 = call @store_i12(%z) : (vector<8xf32>) -> tensor<8xi12>
  %w12 = arith.extsi %t12 : tensor<8xi12> to tensor<8xi64>
  %u12 = tensor.cast %w12 : tensor<8xi64> to tensor<*xi64>
  // CHECK: [-2048,  -3,  0,  2,  199,  2000,  2047,  2047]
  call @printMemrefI64(%u12) : (tensor<*xi64>) -> ()

  %d = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, -1, -2, -3]> : tensor<10xi4>
  %p = call @store_i4_partial(%y, %d) : (vector<8xf32>, tensor<10xi4>) -> tensor<10xi4>
  %wp = arith.extsi %p : tensor<10xi4> to tensor<10xi64>
  %up = tensor.cast %wp : tensor<10xi64> to tensor<*xi64>
  // CHECK: [1,  2,  3,  4,  -8,  -3,  -1,  0,  1,  5]
  call @printMemrefI64(%up) : (tensor<*xi64>) -> ()

  // The dequantized lanes as f32 bits: 5, 6, 7, -1, -2, -3, then the padding
  // 5 twice, times 0.25.
  %r = call @load_i4_partial(%d) : (tensor<10xi4>) -> vector<8xf32>
  %rb = arith.bitcast %r : vector<8xf32> to vector<8xi32>
  %rt = tensor.empty() : tensor<8xi32>
  %c0 = arith.constant 0 : index
  %rw = vector.transfer_write %rb, %rt[%c0] {in_bounds = [true]} : vector<8xi32>, tensor<8xi32>
  %rx = arith.extui %rw : tensor<8xi32> to tensor<8xi64>
  %ru = tensor.cast %rx : tensor<8xi64> to tensor<*xi64>
  // 1.25 = 0x3FA00000, 1.5 = 0x3FC00000, 1.75 = 0x3FE00000,
  // -0.25 = 0xBE800000, -0.5 = 0xBF000000, -0.75 = 0xBF400000.
  // CHECK: [1067450368,  1069547520,  1071644672,  3196059648,  3204448256,  3208642560,  1067450368,  1067450368]
  call @printMemrefI64(%ru) : (tensor<*xi64>) -> ()
  return
}
