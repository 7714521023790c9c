// The whole programs of the CPU execution test compile through the GPU
// pipeline too, to host code mlir-translate takes (kernels in a gpu.binary).
// REQUIRES: libdevice
// RUN: quant-affine-opt %S/../Integration/CPU/whole-programs.mlir \
// RUN:   --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s
// CHECK: define void @main()
