// float_qdq at the edges of its two roundings (FloatFormula.h): the shifter
// (c + S) - S where it is exact (M <= p - 2) and the scaling where it is not,
// for f32 inputs (p = 23: formats up to M = 21 shift, [7, 22] scales; [8, 3]
// rounds in f64) and f64 inputs (p = 52: [8, 50] shifts, [8, 51] scales), the
// named fp8 formats with and without unsigned zeros, the smallest grids
// ([1, 0], [2, 1]) and a per-channel maxval. Inputs/float-qdq-edges-harness.cpp
// generates values at, one and two ulps around every grid midpoint and grid
// value of each binade (subnormal binades and the clamp included), zeros,
// infinities and NaN, then random bit patterns; it compares each output bit
// for bit (NaN equals NaN) with Inputs/float_grid_reference.h. Both vector
// widths, and the scalar lowering (vector-width=1).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 -I %S/Inputs %S/Inputs/float-qdq-edges-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=64" | mlir-translate --mlir-to-llvmir -o %t64.ll
// RUN: clang -O2 -Wno-override-module -c %t64.ll -o %t64.o
// RUN: clang++ -O2 -I %S/Inputs %S/Inputs/float-qdq-edges-harness.cpp %t64.o -o %t64.exe
// RUN: %t64.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=1" | mlir-translate --mlir-to-llvmir -o %t1.ll
// RUN: clang -O2 -Wno-override-module -c %t1.ll -o %t1.o
// RUN: clang++ -O2 -I %S/Inputs %S/Inputs/float-qdq-edges-harness.cpp %t1.o -o %t1.exe
// RUN: %t1.exe | FileCheck %s
// CHECK: f32 e4m3fn: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 e4m3fnuz: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 e5m2: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 e5m2fnuz: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g1m0: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g2m1: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g6m16: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g5m20: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g7m21: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g7m22: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 g8m3: 262144 inputs, 0 mismatches
// CHECK-NEXT: f64 e4m3fn: 262144 inputs, 0 mismatches
// CHECK-NEXT: f64 g10m40: 262144 inputs, 0 mismatches
// CHECK-NEXT: f64 g8m50: 262144 inputs, 0 mismatches
// CHECK-NEXT: f64 g8m51: 262144 inputs, 0 mismatches
// CHECK-NEXT: f32 e5m2 maxval: 262144 inputs, 0 mismatches
// CHECK-NEXT: 0 failures

func.func @f32_e4m3fn(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_e4m3fnuz(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite unsigned_zero : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_e5m2(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [5, 2] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_e5m2fnuz(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [5, 2] finite unsigned_zero : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g1m0(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [1, 0] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g2m1(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [2, 1] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g6m16(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [6, 16] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g5m20(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [5, 20] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g7m21(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [7, 21] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g7m22(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [7, 22] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f32_g8m3(%x: tensor<65536xf32>, %out: memref<65536xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [8, 3] : (tensor<65536xf32>) -> tensor<65536xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf32>, memref<65536xf32>) -> ()
  return
}

func.func @f64_e4m3fn(%x: tensor<65536xf64>, %out: memref<65536xf64>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<65536xf64>) -> tensor<65536xf64>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf64>, memref<65536xf64>) -> ()
  return
}

func.func @f64_g10m40(%x: tensor<65536xf64>, %out: memref<65536xf64>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [10, 40] : (tensor<65536xf64>) -> tensor<65536xf64>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf64>, memref<65536xf64>) -> ()
  return
}

func.func @f64_g8m50(%x: tensor<65536xf64>, %out: memref<65536xf64>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [8, 50] : (tensor<65536xf64>) -> tensor<65536xf64>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf64>, memref<65536xf64>) -> ()
  return
}

func.func @f64_g8m51(%x: tensor<65536xf64>, %out: memref<65536xf64>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [8, 51] : (tensor<65536xf64>) -> tensor<65536xf64>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<65536xf64>, memref<65536xf64>) -> ()
  return
}

func.func @f32_e5m2_maxval(%x: tensor<16x4096xf32>, %m: tensor<16x1xf32>, %out: memref<16x4096xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x, %m format [5, 2] : (tensor<16x4096xf32>, tensor<16x1xf32>) -> tensor<16x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16x4096xf32>, memref<16x4096xf32>) -> ()
  return
}
