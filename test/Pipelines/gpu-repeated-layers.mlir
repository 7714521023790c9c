// Repeated layers (int4 dequantize -> matmul into a zero-filled tensor, the
// same in each) launch one kernel: outlining makes a copy per launch, and
// quant-affine-deduplicate-kernels keeps the first, so the back end compiles
// it once. The zero fill and the last layer (which writes the caller's
// buffer) are kernels of their own: three, for five launches.
// REQUIRES: libdevice
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | %extract_gpu_binary | FileCheck %s --check-prefix=PTX
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="format=isa cuda-path=%cuda_path" \
// RUN: | FileCheck %s --check-prefix=HOST

// PTX-COUNT-3: .entry
// PTX-NOT: .entry

// HOST: gpu.binary @kernels
// HOST-LABEL: llvm.func @mlp(
// HOST: gpu.launch_func @kernels::@[[FILL:[a-z_0-9]+]] blocks
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func @kernels::@[[LAYER:[a-z_0-9]+]] blocks
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func @kernels::@[[LAYER]] blocks
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func @kernels::@[[LAYER]] blocks
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func @kernels::@[[LAST:[a-z_0-9]+]] blocks
// HOST-NOT: gpu.launch_func
func.func @mlp(%x: tensor<1x16xf32>, %w0: tensor<16x16xi4>, %s0: tensor<16x1xf32>, %w1: tensor<16x16xi4>, %s1: tensor<16x1xf32>, %w2: tensor<16x16xi4>, %s2: tensor<16x1xf32>, %w3: tensor<16x16xi4>, %s3: tensor<16x1xf32>, %out: memref<1x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %d0 = quant_affine.dequantize %w0, %s0 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e0 = tensor.empty() : tensor<1x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %d0 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %d1 = quant_affine.dequantize %w1, %s1 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%m0, %d1 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %d2 = quant_affine.dequantize %w2, %s2 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<1x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%m1, %d2 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %d3 = quant_affine.dequantize %w3, %s3 range [-8, 7] : (tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<1x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %m3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%m2, %d3 : tensor<1x16xf32>, tensor<16x16xf32>) outs(%f3 : tensor<1x16xf32>) -> tensor<1x16xf32>
  bufferization.materialize_in_destination %m3 in restrict writable %out : (tensor<1x16xf32>, memref<1x16xf32>) -> ()
  return
}
