// Vectorization must not break silently: for 4096x4096 quantize, dequantize
// and qdq at each granularity, the hot loop of the LLVM IR works on vectors of
// 16 lanes, and the Sapphire Rapids asm divides with vdivps on zmm registers
// (a true division, never a reciprocal multiply). These ops move 80 MB or
// more: the 16 lanes are asked for explicitly, and with the defaults and a
// 32 MiB last-level cache (WIDE) they get 64 lanes and streaming stores.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids vector-width=16" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.ll -o - | FileCheck %s --check-prefix=ASM
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=33554432" | mlir-translate --mlir-to-llvmir -o %t.wide.ll
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.wide.ll -o - | FileCheck %s --check-prefix=WIDEASM

// LLVM-LABEL: define void @quantize_per_tensor(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fptosi <16 x float> {{.*}} to <16 x i8>
// LLVM: store <16 x i8>
// ASM-LABEL: quantize_per_tensor:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: ret
func.func @quantize_per_tensor(%x: tensor<4096x4096xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<4096x4096xi8>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.quantize %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xf32>, tensor<f32>, tensor<f32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  return
}

// LLVM-LABEL: define void @quantize_per_channel(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fptosi <16 x float> {{.*}} to <16 x i8>
// LLVM: store <16 x i8>
// ASM-LABEL: quantize_per_channel:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: ret
func.func @quantize_per_channel(%x: tensor<4096x4096xf32>, %s: tensor<4096x1xf32>, %o: tensor<4096x1xf32>, %out: memref<4096x4096xi8>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.quantize %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xf32>, tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  return
}

// LLVM-LABEL: define void @quantize_block32(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fptosi <16 x float> {{.*}} to <16 x i8>
// LLVM: store <16 x i8>
// ASM-LABEL: quantize_block32:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: ret
// Two blocks of 32 a tile, stored as one streamed 64-byte line.
// WIDE-LABEL: define void @quantize_block32(
// WIDE: fdiv <32 x float>
// WIDE: fptosi <32 x float> {{.*}} to <32 x i8>
// WIDE: store <64 x i8> {{.*}}, align 64, !nontemporal
// WIDEASM-LABEL: quantize_block32:
// WIDEASM: vdivps {{.*}}%zmm
// WIDEASM: vmovntdq %zmm
// WIDEASM: ret
func.func @quantize_block32(%x: tensor<4096x4096xf32>, %s: tensor<4096x128xf32>, %o: tensor<4096x128xf32>, %out: memref<4096x4096xi8>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.quantize %x, %s, %o range [-128, 127] block [1, 32]
      : (tensor<4096x4096xf32>, tensor<4096x128xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  return
}

// LLVM-LABEL: define void @dequantize_per_tensor(
// LLVM: load <16 x i8>
// LLVM: sitofp <16 x i8> {{.*}} to <16 x float>
// LLVM: fmul <16 x float>
// ASM-LABEL: dequantize_per_tensor:
// ASM: vcvtdq2ps {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @dequantize_per_tensor(%x: tensor<4096x4096xi8>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xi8>, tensor<f32>, tensor<f32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @dequantize_per_channel(
// LLVM: load <16 x i8>
// LLVM: sitofp <16 x i8> {{.*}} to <16 x float>
// LLVM: fmul <16 x float>
// ASM-LABEL: dequantize_per_channel:
// ASM: vcvtdq2ps {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @dequantize_per_channel(%x: tensor<4096x4096xi8>, %s: tensor<4096x1xf32>, %o: tensor<4096x1xf32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xi8>, tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @dequantize_block32(
// LLVM: load <16 x i8>
// LLVM: sitofp <16 x i8> {{.*}} to <16 x float>
// LLVM: fmul <16 x float>
// ASM-LABEL: dequantize_block32:
// ASM: vcvtdq2ps {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @dequantize_block32(%x: tensor<4096x4096xi8>, %s: tensor<4096x128xf32>, %o: tensor<4096x128xf32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.dequantize %x, %s, %o range [-128, 127] block [1, 32]
      : (tensor<4096x4096xi8>, tensor<4096x128xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// WIDE-LABEL: define void @qdq_per_tensor(
// WIDE: fdiv <64 x float>
// WIDE: store <64 x float> {{.*}}, !nontemporal
// LLVM-LABEL: define void @qdq_per_tensor(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fmul <16 x float>
// LLVM: store <16 x float>
// ASM-LABEL: qdq_per_tensor:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @qdq_per_tensor(%x: tensor<4096x4096xf32>, %s: tensor<f32>, %o: tensor<f32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xf32>, tensor<f32>, tensor<f32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @qdq_per_channel(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fmul <16 x float>
// LLVM: store <16 x float>
// ASM-LABEL: qdq_per_channel:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @qdq_per_channel(%x: tensor<4096x4096xf32>, %s: tensor<4096x1xf32>, %o: tensor<4096x1xf32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127]
      : (tensor<4096x4096xf32>, tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @qdq_block32(
// LLVM: fdiv <16 x float>
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: fmul <16 x float>
// LLVM: store <16 x float>
// ASM-LABEL: qdq_block32:
// ASM: vdivps {{.*}}%zmm
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: vmulps {{.*}}%zmm
// ASM: ret
func.func @qdq_block32(%x: tensor<4096x4096xf32>, %s: tensor<4096x128xf32>, %o: tensor<4096x128xf32>, %out: memref<4096x4096xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.qdq %x, %s, %o range [-128, 127] block [1, 32]
      : (tensor<4096x4096xf32>, tensor<4096x128xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}
