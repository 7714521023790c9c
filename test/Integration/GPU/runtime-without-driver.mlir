// Where no GPU driver is installed, a compiled module still loads with our
// runtime (every mgpu* symbol the host code calls resolves), and the runtime
// stops with the failing driver call and its error instead of crashing. The
// toolkit's stub driver stands in for libcuda.so.1 here.
// REQUIRES: cuda-runtime, cuda-stub, libdevice
// UNSUPPORTED: cuda-gpu
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" -o %t.mlir
// RUN: env LD_LIBRARY_PATH=%cuda_stub_dir not mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%cuda_runtime_lib \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so 2>&1 | FileCheck %s
// CHECK: quant-affine CUDA runtime: cuInit(0) failed with CUresult {{[0-9]+}}

func.func @qdq(%x: tensor<8xf32>, %s: tensor<f32>, %out: memref<8xf32>) {
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}

func.func @main() {
  %x = gpu.alloc host_shared () : memref<8xf32>
  %s = gpu.alloc host_shared () : memref<f32>
  %out = gpu.alloc host_shared () : memref<8xf32>
  %xt = bufferization.to_tensor %x restrict : memref<8xf32> to tensor<8xf32>
  %st = bufferization.to_tensor %s restrict : memref<f32> to tensor<f32>
  call @qdq(%xt, %st, %out) : (tensor<8xf32>, tensor<f32>, memref<8xf32>) -> ()
  return
}
