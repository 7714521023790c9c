// The same as empty-tensor-elimination-alias.mlir through a call: the callee
// inserts into its argument, and the caller returns the value it passed
// (progtest seed 20261123 program 3754, not inlined). The returned tensor
// must keep its own buffer.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// CHECK: [1,  1,  1,  1]
// CHECK: [100,  1,  1,  1]
func.func @h(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %v = arith.constant 100.0 : f32
  %i = tensor.insert %v into %a[%c0] : tensor<4xf32>
  return %i : tensor<4xf32>
}
func.func @k(%x: tensor<4x8xf32>, %out: memref<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %c = func.call @h(%r) : (tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return %r : tensor<4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = arith.constant dense<1.0> : tensor<4x8xf32>
  %m = memref.alloc() : memref<4xf32>
  %r = call @k(%x, %m) : (tensor<4x8xf32>, memref<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %tu = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%tu) : (tensor<*xf32>) -> ()
  return
}
