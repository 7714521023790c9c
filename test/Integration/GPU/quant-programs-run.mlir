// RUN: quant-affine-opt %S/../CPU/Inputs/quant-programs-direct.mlir --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked > %t.direct
// RUN: quant-affine-opt %S/../CPU/quant-programs.mlir --quant-affine-gpu-pipeline="from-quant=true chip=%gpu_chip format=fatbin" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%cuda_runtime_lib \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// REQUIRES: cuda-gpu

// The !quant.uniform program of ../CPU/quant-programs.mlir on a GPU: the same
// bits as the program written directly in quant_affine, run on the CPU.
