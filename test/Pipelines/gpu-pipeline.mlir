// The device code the GPU pipeline makes, read as PTX text (format=isa needs
// no ptxas). Every division is IEEE (div.rn), rounding is cvt.rni (from
// LLVM's roundeven, not a libdevice call: no call or extern is left), nothing is
// approximate or flushed to zero, and global accesses are 16-byte vectors for
// f32 and 4-byte packs for i8.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s --implicit-check-not=div.approx \
// RUN:   --implicit-check-not=div.full --implicit-check-not=rcp.approx \
// RUN:   --implicit-check-not=.ftz --implicit-check-not=.extern --implicit-check-not=call
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | FileCheck %s --check-prefix=HOST
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa chip=sm_80 features=+ptx70 cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s --check-prefix=SM80
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa block-size=128 vector-width=8 cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s --check-prefix=TUNED

// CHECK: .target sm_90

// 64 x 128 with blocks of 32: (64, 4, 8) vector tiles, 256 threads a block.
// CHECK-LABEL: .entry quantize_block32_kernel(
// CHECK: .maxntid 8, 4, 8
// CHECK: ld.global.v4.{{[bf]}}32
// CHECK: div.rn.f32
// CHECK: cvt.rni.f32.f32
// CHECK: st.global.{{[bu]}}32
// CHECK: ret;

// CHECK-LABEL: .entry dequantize_block32_kernel(
// CHECK: ld.global.{{[bu]}}32
// CHECK: st.global.v4.{{[bf]}}32
// CHECK: ret;

// CHECK-LABEL: .entry qdq_per_channel_kernel(
// CHECK: .maxntid 32, 8, 1
// CHECK: ld.global.v4.{{[bf]}}32
// CHECK: div.rn.f32
// CHECK: cvt.rni.f32.f32
// CHECK: st.global.v4.{{[bf]}}32
// CHECK: ret;

// Rows of 6 f32 start 8-byte aligned: 2-element vectors, never a 16-byte
// access that would straddle a row start.
// CHECK-LABEL: .entry rows_of_six_kernel(
// CHECK-NOT: .v4.
// CHECK: ld.global.v2.{{[bf]}}32
// CHECK-NOT: .v4.
// CHECK: st.global.v2.{{[bf]}}32
// CHECK: ret;

// i4 is stored packed: the 4 values of a thread in one 2-byte vector store,
// no atomics.
// CHECK-LABEL: .entry int4_kernel(
// CHECK-NOT: atom.
// CHECK: div.rn.f32
// CHECK-NOT: atom.
// CHECK: st.global.v2.b8
// CHECK-NOT: atom.
// CHECK: ret;

// Dynamic shapes: bounds checked in the kernel.
// CHECK-LABEL: .entry dynamic_qdq_kernel(
// CHECK: div.rn.f32
// CHECK: cvt.rni.f32.f32
// CHECK: ret;

// The kernels' binary comes first (merged kernel modules go to the top).
// HOST-NOT: scf.parallel
// HOST-NOT: memref.alloc
// HOST: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// HOST-LABEL: llvm.func @quantize_block32(
// HOST: gpu.launch_func @kernels::@quantize_block32_kernel blocks in ({{.*}}) threads in ({{.*}})

// A rank-0 op has no loop, but still runs on the device (one thread), never
// on the host on device memory.
// HOST-LABEL: llvm.func @rank_zero(
// HOST-NOT: llvm.load
// HOST: gpu.launch_func @kernels::@rank_zero_kernel
// HOST-NOT: llvm.store
// HOST: llvm.return

// A per-tensor scale argument is read once per kernel, in the kernel, even
// with an op between the function's entry and the kernels that may write
// memory (vector.print): the host never reads it.
// HOST-LABEL: llvm.func @scale_after_print(
// HOST-NOT: llvm.load
// HOST: gpu.launch_func @kernels::@scale_after_print_kernel
// HOST-NOT: llvm.load
// HOST: llvm.return

// A result that is not written into a destination is allocated by the host
// code as managed memory (the kernel could not write malloc memory).
// HOST-LABEL: llvm.func @returns_new_tensor(
// HOST-NOT: @malloc
// HOST: llvm.call @mgpuMemAlloc
// HOST: gpu.launch_func @kernels::@returns_new_tensor_kernel
// HOST: llvm.return

// SM80: .version 7.0
// SM80: .target sm_80
// SM80-LABEL: .entry quantize_block32_kernel(
// SM80: ld.global.v4.{{[bf]}}32
// SM80: div.rn.f32

// 8 f32 a thread: two 16-byte accesses each way.
// TUNED-LABEL: .entry qdq_per_channel_kernel(
// TUNED: .maxntid 16, 8, 1
// TUNED-COUNT-2: ld.global.v4.{{[bf]}}32
// TUNED-COUNT-2: st.global.v4.{{[bf]}}32

func.func @quantize_block32(%w: tensor<64x128xf32>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>,
                            %out: memref<64x128xi8>) {
  %q = quant_affine.quantize %w, %s, %o range [-128, 127] block [1, 32]
      : (tensor<64x128xf32>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xi8>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<64x128xi8>, memref<64x128xi8>) -> ()
  return
}

func.func @dequantize_block32(%q: tensor<64x128xi8>, %s: tensor<64x4xf32>, %o: tensor<64x4xf32>,
                              %out: memref<64x128xf32>) {
  %y = quant_affine.dequantize %q, %s, %o range [-128, 127] block [1, 32]
      : (tensor<64x128xi8>, tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @qdq_per_channel(%x: tensor<64x128xf32>, %s: tensor<64x1xf32>, %o: tensor<64x1xf32>,
                           %out: memref<64x128xf32>) {
  %y = quant_affine.qdq %x, %s, %o range [0, 255]
      : (tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func @rows_of_six(%x: tensor<8x6xf32>, %s: tensor<f32>, %out: memref<8x6xf32>) {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8x6xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<8x6xf32>, memref<8x6xf32>) -> ()
  return
}

func.func @int4(%x: tensor<64x64xf32>, %s: tensor<64x2xf32>, %out: memref<64x64xi4>) {
  %y = quant_affine.quantize %x, %s range [-8, 7] block [1, 32] : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x64xi4>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64x64xi4>, memref<64x64xi4>) -> ()
  return
}

func.func @rank_zero(%x: tensor<f32>, %s: tensor<f32>, %out: memref<f32>) {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<f32>, memref<f32>) -> ()
  return
}

func.func @scale_after_print(%x: tensor<64xf32>, %s: tensor<f32>, %out: memref<64xf32>) {
  vector.print str "before\n"
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}

func.func @returns_new_tensor(%x: tensor<64x128xf32>, %s: tensor<64x1xf32>) -> tensor<64x128xi8> {
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<64x128xf32>, tensor<64x1xf32>) -> tensor<64x128xi8>
  return %q : tensor<64x128xi8>
}

func.func @dynamic_qdq(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>, %out: memref<?x?xf32>) {
  %y = quant_affine.qdq %x, %s range [0, 255] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
