// The whole programs of the CPU execution test compile through the GPU
// pipeline too, to host code mlir-translate takes (kernels in a gpu.binary).
// REQUIRES: libdevice
// RUN: quant-affine-opt %S/../Integration/CPU/whole-programs.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// The fused matmul programs (weights a branch picks, calls in a loop, panels
// in column blocks) with warp sums and with a thread per result, and the
// harness-driven matmul and convolution kernels:
// RUN: quant-affine-opt %S/../Integration/CPU/fused-matmul-programs.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: quant-affine-opt %S/../Integration/CPU/fused-matmul-programs.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path reduction-threads=0" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: quant-affine-opt %S/../Integration/CPU/fused-matmul-panel-blocks.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: quant-affine-opt %S/../Integration/CPU/fused-matmul-panel-blocks.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path reduction-threads=0 reduction-width=1" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: quant-affine-opt %S/../Integration/CPU/fused-matmul.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=MATMUL
// RUN: quant-affine-opt %S/../Integration/CPU/fused-conv.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=CONV
// CHECK: define void @main()
// MATMUL: define {{.*}} @_mlir_ciface_k1(
// CONV: define {{.*}} @_mlir_ciface_nhwc(
