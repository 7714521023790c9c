// Packed i1/i2/i4 storage (docs/Packing.md, DESIGN.md section 9) ahead of
// time: the kernels are compiled to an object and called from C++, which
// passes and receives the packed bytes as rank-1 i8 descriptors
// (memref<3x125xi4> is 188 bytes). Inputs/packed-harness.cpp computes the
// reference itself (true division in f32, round half to even, clamp), packs
// it with its own packer (lower index in the lower bits, two's complement for
// signed grids, no padding between rows, last byte padded with zeros) and
// compares byte for byte, with outputs filled with 0x00 beforehand (padding
// compared too) and with 0xFF (the values' bits compared; the padding's state
// is printed). Dequantize reads independently packed random codes, with ones
// in the padding bits, and must match (q + offset) * scale bit for bit.
// Signed and unsigned grids, odd counts (3x125 i4, 7x13 i2, 5x11 i1), blocks
// that split a byte (i4 block 3 and 5, i2 block 3 and 5, i1 block 3), blocks
// over rows and columns, per-tensor, per-row and per-column encodings, NaN,
// +-Inf, ties and values that clamp; outputs on and off a 64-byte boundary,
// followed by guard bytes that must stay untouched.
//
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/packed-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" | mlir-translate --mlir-to-llvmir -o %t.vw8.ll
// RUN: clang -O2 -Wno-override-module -c %t.vw8.ll -o %t.vw8.o
// RUN: clang++ -O2 %S/Inputs/packed-harness.cpp %t.vw8.o -o %t.vw8.exe
// RUN: %t.vw8.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=64 nontemporal-stores=true" | mlir-translate --mlir-to-llvmir -o %t.vw64.ll
// RUN: clang -O2 -Wno-override-module -c %t.vw64.ll -o %t.vw64.o
// RUN: clang++ -O2 %S/Inputs/packed-harness.cpp %t.vw64.o -o %t.vw64.exe
// RUN: %t.vw64.exe | FileCheck %s
// Threads: rows that share a byte are written by different threads.
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" | mlir-translate --mlir-to-llvmir -o %t.omp.ll %}
// RUN: %if libomp %{ clang -O2 -Wno-override-module -c %t.omp.ll -o %t.omp.o %}
// RUN: %if libomp %{ clang++ -O2 -fopenmp %S/Inputs/packed-harness.cpp %t.omp.o -o %t.omp.exe -Wl,-rpath,%mlir_lib_dir %}
// RUN: %if libomp %{ %t.omp.exe | FileCheck %s %}
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true vector-width=8" | mlir-translate --mlir-to-llvmir -o %t.omp8.ll %}
// RUN: %if libomp %{ clang -O2 -Wno-override-module -c %t.omp8.ll -o %t.omp8.o %}
// RUN: %if libomp %{ clang++ -O2 -fopenmp %S/Inputs/packed-harness.cpp %t.omp8.o -o %t.omp8.exe -Wl,-rpath,%mlir_lib_dir %}
// RUN: %if libomp %{ %t.omp8.exe | FileCheck %s %}

// A static shape: the kernel stores the last value and zeroes the padding
// bits above it. A dynamic outer dim (its size taken from the float input):
// the padding bits stay as the caller had them (docs/Packing.md).
// CHECK: quantize i4s_tensor: 3x125 i4, 188 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i4s_tensor: 3x125 i4, 375 values, 0 mismatches
// CHECK-NEXT: quantize i4u_rows: 3x125 i4, 188 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i4u_rows: 3x125 i4, 375 values, 0 mismatches
// CHECK-NEXT: quantize i4s_block5: 3x125 i4, 188 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i4s_block5: 3x125 i4, 375 values, 0 mismatches
// CHECK-NEXT: quantize i4s_block3: 4x126 i4, 252 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4s_block3: 4x126 i4, 504 values, 0 mismatches
// CHECK-NEXT: quantize i4u_block3: 5x63 i4, 158 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i4u_block3: 5x63 i4, 315 values, 0 mismatches
// CHECK-NEXT: quantize i4s_block3x5: 6x25 i4, 75 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4s_block3x5: 6x25 i4, 150 values, 0 mismatches
// CHECK-NEXT: quantize i4s_block32: 64x128 i4, 4096 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4s_block32: 64x128 i4, 8192 values, 0 mismatches
// CHECK-NEXT: quantize i4u_cols: 64x128 i4, 4096 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4u_cols: 64x128 i4, 8192 values, 0 mismatches
// CHECK-NEXT: quantize i4s_block5_tall: 64x125 i4, 4000 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4s_block5_tall: 64x125 i4, 8000 values, 0 mismatches
// CHECK-NEXT: quantize i2s_rows: 7x13 i2, 23 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i2s_rows: 7x13 i2, 91 values, 0 mismatches
// CHECK-NEXT: quantize i2u_block3: 7x15 i2, 27 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i2u_block3: 7x15 i2, 105 values, 0 mismatches
// CHECK-NEXT: quantize i2s_block5: 7x15 i2, 27 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i2s_block5: 7x15 i2, 105 values, 0 mismatches
// CHECK-NEXT: quantize i2u_block32: 64x128 i2, 2048 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i2u_block32: 64x128 i2, 8192 values, 0 mismatches
// CHECK-NEXT: quantize i2u_rows_tall: 64x13 i2, 208 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i2u_rows_tall: 64x13 i2, 832 values, 0 mismatches
// CHECK-NEXT: quantize i1u_tensor: 5x11 i1, 7 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i1u_tensor: 5x11 i1, 55 values, 0 mismatches
// CHECK-NEXT: quantize i1u_cols: 5x11 i1, 7 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i1u_cols: 5x11 i1, 55 values, 0 mismatches
// CHECK-NEXT: quantize i1u_block3: 5x12 i1, 8 bytes, 0 mismatches, padding after 0xFF: zeroed
// CHECK-NEXT: dequantize i1u_block3: 5x12 i1, 60 values, 0 mismatches
// CHECK-NEXT: quantize i1u_block64: 16x128 i1, 256 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i1u_block64: 16x128 i1, 2048 values, 0 mismatches
// CHECK-NEXT: quantize i4s_dyn_block32: 5x128 i4, 320 bytes, 0 mismatches, padding after 0xFF: none
// CHECK-NEXT: dequantize i4s_dyn_block32: 5x128 i4, 640 values, 0 mismatches
// CHECK-NEXT: quantize i4u_dyn_rows: 3x125 i4, 188 bytes, 0 mismatches, padding after 0xFF: kept
// CHECK-NEXT: dequantize i4u_dyn_rows: 3x125 i4, 375 values, 0 mismatches
// CHECK-NEXT: quantize i2s_dyn_tensor: 7x13 i2, 23 bytes, 0 mismatches, padding after 0xFF: kept
// CHECK-NEXT: dequantize i2s_dyn_tensor: 7x13 i2, 91 values, 0 mismatches
// CHECK-NEXT: quantize i1u_dyn_cols: 5x11 i1, 7 bytes, 0 mismatches, padding after 0xFF: kept
// CHECK-NEXT: dequantize i1u_dyn_cols: 5x11 i1, 55 values, 0 mismatches

// Dynamic outer dims: a quantize takes the size from its float input, a
// dequantize from its scale or destination (the packed input keeps none).

func.func @q_i4s_tensor(%x: tensor<3x125xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<3x125xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7]
      : (tensor<3x125xf32>, tensor<f32>, tensor<f32>) -> tensor<3x125xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<3x125xi4>, memref<3x125xi4>) -> ()
  return
}

func.func @d_i4s_tensor(%q: tensor<3x125xi4>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<3x125xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7]
      : (tensor<3x125xi4>, tensor<f32>, tensor<f32>) -> tensor<3x125xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<3x125xf32>, memref<3x125xf32>) -> ()
  return
}

func.func @q_i4u_rows(%x: tensor<3x125xf32>, %s: tensor<3x1xf32>, %o: tensor<3x1xf32>, %out: memref<3x125xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 15]
      : (tensor<3x125xf32>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x125xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<3x125xi4>, memref<3x125xi4>) -> ()
  return
}

func.func @d_i4u_rows(%q: tensor<3x125xi4>, %s: tensor<3x1xf32>, %o: tensor<3x1xf32>, %out: memref<3x125xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 15]
      : (tensor<3x125xi4>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x125xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<3x125xf32>, memref<3x125xf32>) -> ()
  return
}

func.func @q_i4s_block5(%x: tensor<3x125xf32>, %s: tensor<3x25xf32>, %o: tensor<3x25xf32>, %out: memref<3x125xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 5]
      : (tensor<3x125xf32>, tensor<3x25xf32>, tensor<3x25xf32>) -> tensor<3x125xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<3x125xi4>, memref<3x125xi4>) -> ()
  return
}

func.func @d_i4s_block5(%q: tensor<3x125xi4>, %s: tensor<3x25xf32>, %o: tensor<3x25xf32>, %out: memref<3x125xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 5]
      : (tensor<3x125xi4>, tensor<3x25xf32>, tensor<3x25xf32>) -> tensor<3x125xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<3x125xf32>, memref<3x125xf32>) -> ()
  return
}

func.func @q_i4s_block3(%x: tensor<4x126xf32>, %s: tensor<4x42xf32>, %o: tensor<4x42xf32>, %out: memref<4x126xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 3]
      : (tensor<4x126xf32>, tensor<4x42xf32>, tensor<4x42xf32>) -> tensor<4x126xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<4x126xi4>, memref<4x126xi4>) -> ()
  return
}

func.func @d_i4s_block3(%q: tensor<4x126xi4>, %s: tensor<4x42xf32>, %o: tensor<4x42xf32>, %out: memref<4x126xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 3]
      : (tensor<4x126xi4>, tensor<4x42xf32>, tensor<4x42xf32>) -> tensor<4x126xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4x126xf32>, memref<4x126xf32>) -> ()
  return
}

func.func @q_i4u_block3(%x: tensor<5x63xf32>, %s: tensor<5x21xf32>, %o: tensor<5x21xf32>, %out: memref<5x63xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 15] block [1, 3]
      : (tensor<5x63xf32>, tensor<5x21xf32>, tensor<5x21xf32>) -> tensor<5x63xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<5x63xi4>, memref<5x63xi4>) -> ()
  return
}

func.func @d_i4u_block3(%q: tensor<5x63xi4>, %s: tensor<5x21xf32>, %o: tensor<5x21xf32>, %out: memref<5x63xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 15] block [1, 3]
      : (tensor<5x63xi4>, tensor<5x21xf32>, tensor<5x21xf32>) -> tensor<5x63xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<5x63xf32>, memref<5x63xf32>) -> ()
  return
}

func.func @q_i4s_block3x5(%x: tensor<6x25xf32>, %s: tensor<2x5xf32>, %o: tensor<2x5xf32>, %out: memref<6x25xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [3, 5]
      : (tensor<6x25xf32>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<6x25xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<6x25xi4>, memref<6x25xi4>) -> ()
  return
}

func.func @d_i4s_block3x5(%q: tensor<6x25xi4>, %s: tensor<2x5xf32>, %o: tensor<2x5xf32>, %out: memref<6x25xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [3, 5]
      : (tensor<6x25xi4>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<6x25xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<6x25xf32>, memref<6x25xf32>) -> ()
  return
}

func.func @q_i4s_block32(%x: tensor<64x128xf32>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>, %out: memref<64x128xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32]
      : (tensor<64x128xf32>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<64x128xi4>, memref<64x128xi4>) -> ()
  return
}

func.func @d_i4s_block32(%q: tensor<64x128xi4>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>, %out: memref<64x128xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 32]
      : (tensor<64x128xi4>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @q_i4u_cols(%x: tensor<64x128xf32>, %s: tensor<128xf32>, %o: tensor<128xf32>, %out: memref<64x128xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 15]
      : (tensor<64x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<64x128xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<64x128xi4>, memref<64x128xi4>) -> ()
  return
}

func.func @d_i4u_cols(%q: tensor<64x128xi4>, %s: tensor<128xf32>, %o: tensor<128xf32>, %out: memref<64x128xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 15]
      : (tensor<64x128xi4>, tensor<128xf32>, tensor<128xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @q_i4s_block5_tall(%x: tensor<64x125xf32>, %s: tensor<64x25xf32>, %o: tensor<64x25xf32>, %out: memref<64x125xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 5]
      : (tensor<64x125xf32>, tensor<64x25xf32>, tensor<64x25xf32>) -> tensor<64x125xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<64x125xi4>, memref<64x125xi4>) -> ()
  return
}

func.func @d_i4s_block5_tall(%q: tensor<64x125xi4>, %s: tensor<64x25xf32>, %o: tensor<64x25xf32>, %out: memref<64x125xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 5]
      : (tensor<64x125xi4>, tensor<64x25xf32>, tensor<64x25xf32>) -> tensor<64x125xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<64x125xf32>, memref<64x125xf32>) -> ()
  return
}

func.func @q_i2s_rows(%x: tensor<7x13xf32>, %s: tensor<7x1xf32>, %o: tensor<7x1xf32>, %out: memref<7x13xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-2, 1]
      : (tensor<7x13xf32>, tensor<7x1xf32>, tensor<7x1xf32>) -> tensor<7x13xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<7x13xi2>, memref<7x13xi2>) -> ()
  return
}

func.func @d_i2s_rows(%q: tensor<7x13xi2>, %s: tensor<7x1xf32>, %o: tensor<7x1xf32>, %out: memref<7x13xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-2, 1]
      : (tensor<7x13xi2>, tensor<7x1xf32>, tensor<7x1xf32>) -> tensor<7x13xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<7x13xf32>, memref<7x13xf32>) -> ()
  return
}

func.func @q_i2u_rows_tall(%x: tensor<64x13xf32>, %s: tensor<64x1xf32>, %o: tensor<64x1xf32>, %out: memref<64x13xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 3]
      : (tensor<64x13xf32>, tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x13xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<64x13xi2>, memref<64x13xi2>) -> ()
  return
}

func.func @d_i2u_rows_tall(%q: tensor<64x13xi2>, %s: tensor<64x1xf32>, %o: tensor<64x1xf32>, %out: memref<64x13xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 3]
      : (tensor<64x13xi2>, tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x13xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<64x13xf32>, memref<64x13xf32>) -> ()
  return
}

func.func @q_i2u_block3(%x: tensor<7x15xf32>, %s: tensor<7x5xf32>, %o: tensor<7x5xf32>, %out: memref<7x15xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 3] block [1, 3]
      : (tensor<7x15xf32>, tensor<7x5xf32>, tensor<7x5xf32>) -> tensor<7x15xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<7x15xi2>, memref<7x15xi2>) -> ()
  return
}

func.func @d_i2u_block3(%q: tensor<7x15xi2>, %s: tensor<7x5xf32>, %o: tensor<7x5xf32>, %out: memref<7x15xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 3] block [1, 3]
      : (tensor<7x15xi2>, tensor<7x5xf32>, tensor<7x5xf32>) -> tensor<7x15xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<7x15xf32>, memref<7x15xf32>) -> ()
  return
}

func.func @q_i2s_block5(%x: tensor<7x15xf32>, %s: tensor<7x3xf32>, %o: tensor<7x3xf32>, %out: memref<7x15xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-2, 1] block [1, 5]
      : (tensor<7x15xf32>, tensor<7x3xf32>, tensor<7x3xf32>) -> tensor<7x15xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<7x15xi2>, memref<7x15xi2>) -> ()
  return
}

func.func @d_i2s_block5(%q: tensor<7x15xi2>, %s: tensor<7x3xf32>, %o: tensor<7x3xf32>, %out: memref<7x15xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-2, 1] block [1, 5]
      : (tensor<7x15xi2>, tensor<7x3xf32>, tensor<7x3xf32>) -> tensor<7x15xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<7x15xf32>, memref<7x15xf32>) -> ()
  return
}

func.func @q_i2u_block32(%x: tensor<64x128xf32>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>, %out: memref<64x128xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 3] block [1, 32]
      : (tensor<64x128xf32>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<64x128xi2>, memref<64x128xi2>) -> ()
  return
}

func.func @d_i2u_block32(%q: tensor<64x128xi2>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>, %out: memref<64x128xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 3] block [1, 32]
      : (tensor<64x128xi2>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @q_i1u_tensor(%x: tensor<5x11xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<5x11xi1>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 1]
      : (tensor<5x11xf32>, tensor<f32>, tensor<f32>) -> tensor<5x11xi1>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<5x11xi1>, memref<5x11xi1>) -> ()
  return
}

func.func @d_i1u_tensor(%q: tensor<5x11xi1>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<5x11xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 1]
      : (tensor<5x11xi1>, tensor<f32>, tensor<f32>) -> tensor<5x11xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<5x11xf32>, memref<5x11xf32>) -> ()
  return
}

func.func @q_i1u_cols(%x: tensor<5x11xf32>, %s: tensor<11xf32>, %o: tensor<11xf32>, %out: memref<5x11xi1>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 1]
      : (tensor<5x11xf32>, tensor<11xf32>, tensor<11xf32>) -> tensor<5x11xi1>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<5x11xi1>, memref<5x11xi1>) -> ()
  return
}

func.func @d_i1u_cols(%q: tensor<5x11xi1>, %s: tensor<11xf32>, %o: tensor<11xf32>, %out: memref<5x11xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 1]
      : (tensor<5x11xi1>, tensor<11xf32>, tensor<11xf32>) -> tensor<5x11xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<5x11xf32>, memref<5x11xf32>) -> ()
  return
}

func.func @q_i1u_block3(%x: tensor<5x12xf32>, %s: tensor<5x4xf32>, %o: tensor<5x4xf32>, %out: memref<5x12xi1>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 1] block [1, 3]
      : (tensor<5x12xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x12xi1>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<5x12xi1>, memref<5x12xi1>) -> ()
  return
}

func.func @d_i1u_block3(%q: tensor<5x12xi1>, %s: tensor<5x4xf32>, %o: tensor<5x4xf32>, %out: memref<5x12xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 1] block [1, 3]
      : (tensor<5x12xi1>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x12xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<5x12xf32>, memref<5x12xf32>) -> ()
  return
}

func.func @q_i1u_block64(%x: tensor<16x128xf32>, %s: tensor<16x2xf32>, %o: tensor<16x2xf32>, %out: memref<16x128xi1>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 1] block [1, 64]
      : (tensor<16x128xf32>, tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x128xi1>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<16x128xi1>, memref<16x128xi1>) -> ()
  return
}

func.func @d_i1u_block64(%q: tensor<16x128xi1>, %s: tensor<16x2xf32>, %o: tensor<16x2xf32>, %out: memref<16x128xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 1] block [1, 64]
      : (tensor<16x128xi1>, tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<16x128xf32>, memref<16x128xf32>) -> ()
  return
}

func.func @q_i4s_dyn_block32(%x: tensor<?x128xf32>, %s: tensor<?x4xf32>, %o: tensor<?x4xf32>, %out: memref<?x128xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32]
      : (tensor<?x128xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x128xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<?x128xi4>, memref<?x128xi4>) -> ()
  return
}

func.func @q_i4u_dyn_rows(%x: tensor<?x125xf32>, %s: tensor<?x1xf32>, %o: tensor<?x1xf32>, %out: memref<?x125xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 15]
      : (tensor<?x125xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x125xi4>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<?x125xi4>, memref<?x125xi4>) -> ()
  return
}

func.func @q_i2s_dyn_tensor(%x: tensor<?x13xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<?x13xi2>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [-2, 1]
      : (tensor<?x13xf32>, tensor<f32>, tensor<f32>) -> tensor<?x13xi2>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<?x13xi2>, memref<?x13xi2>) -> ()
  return
}

func.func @q_i1u_dyn_cols(%x: tensor<?x11xf32>, %s: tensor<11xf32>, %o: tensor<11xf32>, %out: memref<?x11xi1>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s, %o range [0, 1]
      : (tensor<?x11xf32>, tensor<11xf32>, tensor<11xf32>) -> tensor<?x11xi1>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<?x11xi1>, memref<?x11xi1>) -> ()
  return
}

func.func @d_i4s_dyn_block32(%q: tensor<?x128xi4>, %s: tensor<?x4xf32>, %o: tensor<?x4xf32>, %out: memref<?x128xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 32]
      : (tensor<?x128xi4>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<?x128xf32>, memref<?x128xf32>) -> ()
  return
}

func.func @d_i4u_dyn_rows(%q: tensor<?x125xi4>, %s: tensor<?x1xf32>, %o: tensor<?x1xf32>, %out: memref<?x125xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 15]
      : (tensor<?x125xi4>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x125xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<?x125xf32>, memref<?x125xf32>) -> ()
  return
}

func.func @d_i2s_dyn_tensor(%q: tensor<?x13xi2>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<?x13xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [-2, 1]
      : (tensor<?x13xi2>, tensor<f32>, tensor<f32>) -> tensor<?x13xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<?x13xf32>, memref<?x13xf32>) -> ()
  return
}

func.func @d_i1u_dyn_cols(%q: tensor<?x11xi1>, %s: tensor<11xf32>, %o: tensor<11xf32>, %out: memref<?x11xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %q, %s, %o range [0, 1]
      : (tensor<?x11xi1>, tensor<11xf32>, tensor<11xf32>) -> tensor<?x11xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<?x11xf32>, memref<?x11xf32>) -> ()
  return
}
