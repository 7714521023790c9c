// ptxas accepts the PTX for sm_80 and sm_90, and the pipeline's cubin and
// fatbin formats (which run ptxas and fatbinary themselves) succeed.
// REQUIRES: ptxas, libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa chip=sm_80 cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa chip=sm_90 cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary -o %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=bin cuda-path=%cuda_path" | FileCheck %s --check-prefix=BIN
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=fatbin cuda-path=%cuda_path" | FileCheck %s --check-prefix=FATBIN
// A cubin is an ELF file; a fatbin starts with the fatbin magic 0xBA55ED50.
// BIN: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{{.*}}}, bin = "\7FELF
// FATBIN: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{{.*}}}, "P\EDU\BA

func.func @qdq_block128(%x: tensor<4x512xf32>, %s: tensor<4x4xf32>, %o: tensor<4x4xf32>, %out: memref<4x512xf32>) {
  %y = quant_affine.qdq %x, %s, %o range [-8, 7] block [1, 128]
      : (tensor<4x512xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x512xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<4x512xf32>, memref<4x512xf32>) -> ()
  return
}

func.func @dequantize_u8_dynamic(%q: tensor<?x?xi8>, %s: tensor<?x1xf32>, %out: memref<?x?xf32>) {
  %y = quant_affine.dequantize %q, %s range [0, 255] : (tensor<?x?xi8>, tensor<?x1xf32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
