// float_qdq vectorized by the CPU pipeline, not only correct: the hot loop of
// the LLVM IR rounds 16 lanes at a time with the shifter (the exponent field
// by an integer `and`, (c + S) - S as vector fadd/fsub, c's sign bit or'ed
// back), and the Sapphire Rapids asm does it on zmm registers without a
// vrndscaleps; with a maxval, one IEEE vdivps per 16 values. A format the
// shifter cannot take ([7, 22] on f32) scales and rounds with vrndscaleps,
// vectorized too. bf16 inputs widen to f32 lanes.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids vector-width=16" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.ll -o - | FileCheck %s --check-prefix=ASM

// LLVM-LABEL: define void @e4m3(
// LLVM: and <16 x i32> {{.*}}, splat (i32 2139095040)
// LLVM: fadd <16 x float>
// LLVM: fsub <16 x float>
// LLVM: or <16 x i32>
// LLVM: store <16 x float>
// ASM-LABEL: e4m3:
// ASM-NOT: vrndscaleps
// ASM: vaddps {{.*}}%zmm
// ASM: vsubps {{.*}}%zmm
// ASM: vpternlogd {{.*}}%zmm
// ASM-NOT: vrndscaleps
// ASM: ret
func.func @e4m3(%x: tensor<1024x4096xf32>, %out: memref<1024x4096xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1024x4096xf32>, memref<1024x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @e5m2_channel(
// LLVM: fdiv <16 x float>
// LLVM: fadd <16 x float>
// LLVM: fsub <16 x float>
// LLVM: fmul <16 x float>
// LLVM: store <16 x float>
// ASM-LABEL: e5m2_channel:
// ASM-NOT: vrndscaleps
// ASM: vdivps {{.*}}%zmm
// ASM: vaddps {{.*}}%zmm
// ASM: vsubps {{.*}}%zmm
// ASM-NOT: vrndscaleps
// ASM: ret
func.func @e5m2_channel(%x: tensor<1024x4096xf32>, %m: tensor<1024x1xf32>, %out: memref<1024x4096xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x, %m format [5, 2] : (tensor<1024x4096xf32>, tensor<1024x1xf32>) -> tensor<1024x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1024x4096xf32>, memref<1024x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @grid_7_22(
// LLVM: call <16 x float> @llvm.roundeven.v16f32
// LLVM: store <16 x float>
// ASM-LABEL: grid_7_22:
// ASM: vrndscaleps $8, {{.*}}%zmm
// ASM: ret
func.func @grid_7_22(%x: tensor<1024x4096xf32>, %out: memref<1024x4096xf32>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [7, 22] : (tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1024x4096xf32>, memref<1024x4096xf32>) -> ()
  return
}

// LLVM-LABEL: define void @bf16_e4m3fnuz(
// LLVM: fadd <16 x float>
// LLVM: fsub <16 x float>
// LLVM: store <16 x i16>
// ASM-LABEL: bf16_e4m3fnuz:
// ASM: vaddps {{.*}}%zmm
// ASM: vsubps {{.*}}%zmm
// ASM: ret
func.func @bf16_e4m3fnuz(%x: tensor<1024x4096xbf16>, %out: memref<1024x4096xbf16>) attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite unsigned_zero : (tensor<1024x4096xbf16>) -> tensor<1024x4096xbf16>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<1024x4096xbf16>, memref<1024x4096xbf16>) -> ()
  return
}
