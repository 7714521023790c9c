// Float8 and float4 storage, exhaustively: every f16 and every bf16 input
// quantized (scale 1) to f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ and
// f4E2M1FN (packed two a byte) with a saturating
// range (+-the largest value: ONNX's saturate = 1) and a wide one (values past
// the largest become inf or NaN: saturate = 0), and every code of each type
// dequantized, compiled by the CPU pipeline (quant-affine-expand-narrow-floats does
// the conversions) and compared with Inputs/narrow-float-storage-harness.cpp's
// reference, bit for bit.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/narrow-float-storage-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s

// CHECK: quantize f16 -> e4m3fn saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize f16 -> e4m3fn overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e4m3fn saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e4m3fn overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: dequantize e4m3fn: 256 codes, 0 mismatches
// CHECK: quantize f16 -> e4m3fnuz saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize f16 -> e4m3fnuz overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e4m3fnuz saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e4m3fnuz overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: dequantize e4m3fnuz: 256 codes, 0 mismatches
// CHECK: quantize f16 -> e5m2 saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize f16 -> e5m2 overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e5m2 saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e5m2 overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: dequantize e5m2: 256 codes, 0 mismatches
// CHECK: quantize f16 -> e5m2fnuz saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize f16 -> e5m2fnuz overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e5m2fnuz saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e5m2fnuz overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: dequantize e5m2fnuz: 256 codes, 0 mismatches
// CHECK: quantize f16 -> e2m1 saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize f16 -> e2m1 overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e2m1 saturating: 65536 inputs, 0 mismatches
// CHECK-NEXT: quantize bf16 -> e2m1 overflowing: 65536 inputs, 0 mismatches
// CHECK-NEXT: dequantize e2m1: 16 codes, 0 mismatches

func.func @q_f16_e4m3fn_sat(%x: tensor<65536xf16>, %out: memref<65536xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-448, 448] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E4M3FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FN>, memref<65536xf8E4M3FN>) -> ()
  return
}

func.func @q_f16_e4m3fn_nosat(%x: tensor<65536xf16>, %out: memref<65536xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E4M3FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FN>, memref<65536xf8E4M3FN>) -> ()
  return
}

func.func @q_f16_e4m3fnuz_sat(%x: tensor<65536xf16>, %out: memref<65536xf8E4M3FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-240, 240] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E4M3FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FNUZ>, memref<65536xf8E4M3FNUZ>) -> ()
  return
}

func.func @q_f16_e4m3fnuz_nosat(%x: tensor<65536xf16>, %out: memref<65536xf8E4M3FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E4M3FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FNUZ>, memref<65536xf8E4M3FNUZ>) -> ()
  return
}

func.func @q_f16_e5m2_sat(%x: tensor<65536xf16>, %out: memref<65536xf8E5M2>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-57344, 57344] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E5M2>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2>, memref<65536xf8E5M2>) -> ()
  return
}

func.func @q_f16_e5m2_nosat(%x: tensor<65536xf16>, %out: memref<65536xf8E5M2>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E5M2>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2>, memref<65536xf8E5M2>) -> ()
  return
}

func.func @q_f16_e5m2fnuz_sat(%x: tensor<65536xf16>, %out: memref<65536xf8E5M2FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-57344, 57344] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E5M2FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2FNUZ>, memref<65536xf8E5M2FNUZ>) -> ()
  return
}

func.func @q_f16_e5m2fnuz_nosat(%x: tensor<65536xf16>, %out: memref<65536xf8E5M2FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf8E5M2FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2FNUZ>, memref<65536xf8E5M2FNUZ>) -> ()
  return
}

func.func @q_bf16_e4m3fn_sat(%x: tensor<65536xbf16>, %out: memref<65536xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-448, 448] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E4M3FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FN>, memref<65536xf8E4M3FN>) -> ()
  return
}

func.func @q_bf16_e4m3fn_nosat(%x: tensor<65536xbf16>, %out: memref<65536xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E4M3FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FN>, memref<65536xf8E4M3FN>) -> ()
  return
}

func.func @q_bf16_e4m3fnuz_sat(%x: tensor<65536xbf16>, %out: memref<65536xf8E4M3FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-240, 240] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E4M3FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FNUZ>, memref<65536xf8E4M3FNUZ>) -> ()
  return
}

func.func @q_bf16_e4m3fnuz_nosat(%x: tensor<65536xbf16>, %out: memref<65536xf8E4M3FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E4M3FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E4M3FNUZ>, memref<65536xf8E4M3FNUZ>) -> ()
  return
}

func.func @q_bf16_e5m2_sat(%x: tensor<65536xbf16>, %out: memref<65536xf8E5M2>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-57344, 57344] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E5M2>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2>, memref<65536xf8E5M2>) -> ()
  return
}

func.func @q_bf16_e5m2_nosat(%x: tensor<65536xbf16>, %out: memref<65536xf8E5M2>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E5M2>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2>, memref<65536xf8E5M2>) -> ()
  return
}

func.func @q_bf16_e5m2fnuz_sat(%x: tensor<65536xbf16>, %out: memref<65536xf8E5M2FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-57344, 57344] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E5M2FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2FNUZ>, memref<65536xf8E5M2FNUZ>) -> ()
  return
}

func.func @q_bf16_e5m2fnuz_nosat(%x: tensor<65536xbf16>, %out: memref<65536xf8E5M2FNUZ>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf8E5M2FNUZ>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf8E5M2FNUZ>, memref<65536xf8E5M2FNUZ>) -> ()
  return
}

func.func @dq_e4m3fn(%q: tensor<256xf8E4M3FN>, %out: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-448, 448] : (tensor<256xf8E4M3FN>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

func.func @dq_e4m3fnuz(%q: tensor<256xf8E4M3FNUZ>, %out: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-240, 240] : (tensor<256xf8E4M3FNUZ>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

func.func @dq_e5m2(%q: tensor<256xf8E5M2>, %out: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-57344, 57344] : (tensor<256xf8E5M2>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

func.func @dq_e5m2fnuz(%q: tensor<256xf8E5M2FNUZ>, %out: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-57344, 57344] : (tensor<256xf8E5M2FNUZ>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

func.func @q_f16_e2m1_sat(%x: tensor<65536xf16>, %out: memref<65536xf4E2M1FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-6, 6] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf4E2M1FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf4E2M1FN>, memref<65536xf4E2M1FN>) -> ()
  return
}

func.func @q_f16_e2m1_nosat(%x: tensor<65536xf16>, %out: memref<65536xf4E2M1FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xf16>, tensor<f32>) -> tensor<65536xf4E2M1FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf4E2M1FN>, memref<65536xf4E2M1FN>) -> ()
  return
}

func.func @q_bf16_e2m1_sat(%x: tensor<65536xbf16>, %out: memref<65536xf4E2M1FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-6, 6] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf4E2M1FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf4E2M1FN>, memref<65536xf4E2M1FN>) -> ()
  return
}

func.func @q_bf16_e2m1_nosat(%x: tensor<65536xbf16>, %out: memref<65536xf4E2M1FN>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-1000000, 1000000] compute f32 : (tensor<65536xbf16>, tensor<f32>) -> tensor<65536xf4E2M1FN>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<65536xf4E2M1FN>, memref<65536xf4E2M1FN>) -> ()
  return
}

func.func @dq_e2m1(%q: tensor<256xf4E2M1FN>, %out: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-6, 6] : (tensor<256xf4E2M1FN>, tensor<f32>) -> tensor<256xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}
