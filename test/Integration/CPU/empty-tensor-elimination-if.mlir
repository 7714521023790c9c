// A dequantize whose result is returned and also, through one branch of an
// scf.if, written to a memref argument; the other branch writes sin of it.
// Upstream eliminate-empty-tensors could compute the returned value in the
// memref argument (which of the two uses of the shared tensor.empty it took
// varied from run to run), and the sin branch then overwrote it
// (progtest seed 20261124 program 224). The guard follows scf.if yields.
// Each RUN line compiles afresh: the old failure showed in about 1 run in 4.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// memref argument: sin of the dequantized values (f16 bits); the returned
// tensor: the dequantized values q * 0.125 = 1, 2, -3, 1024.
// CHECK: [15035,  15174,  45188,  45331]
// CHECK: [15360,  16384,  49664,  25600]
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})
func.func @kernel(%q: tensor<?xi32>, %c: i1, %out: memref<?xf16>) -> tensor<?xf16> {
  %s = arith.constant dense<0.125> : tensor<f32>
  %d = quant_affine.dequantize %q, %s range [-32768, 32767] : (tensor<?xi32>, tensor<f32>) -> tensor<?xf16>
  %r = scf.if %c -> (tensor<?xf16>) {
    scf.yield %d : tensor<?xf16>
  } else {
    %m = math.sin %d : tensor<?xf16>
    scf.yield %m : tensor<?xf16>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf16>, memref<?xf16>) -> ()
  return %d : tensor<?xf16>
}
func.func @main() {
  %q_s = arith.constant dense<[8, 16, -24, 8192]> : tensor<4xi32>
  %q = tensor.cast %q_s : tensor<4xi32> to tensor<?xi32>
  %false = arith.constant false
  %out_s = memref.alloc() : memref<4xf16>
  %out = memref.cast %out_s : memref<4xf16> to memref<?xf16>
  %d = func.call @kernel(%q, %false, %out) : (tensor<?xi32>, i1, memref<?xf16>) -> tensor<?xf16>
  %o = bufferization.to_tensor %out_s restrict : memref<4xf16> to tensor<4xf16>
  %ob = arith.bitcast %o : tensor<4xf16> to tensor<4xi16>
  %ow = arith.extui %ob : tensor<4xi16> to tensor<4xi64>
  %ou = tensor.cast %ow : tensor<4xi64> to tensor<*xi64>
  func.call @printMemrefI64(%ou) : (tensor<*xi64>) -> ()
  %ds = tensor.cast %d : tensor<?xf16> to tensor<4xf16>
  %db = arith.bitcast %ds : tensor<4xf16> to tensor<4xi16>
  %dw = arith.extui %db : tensor<4xi16> to tensor<4xi64>
  %du = tensor.cast %dw : tensor<4xi64> to tensor<*xi64>
  func.call @printMemrefI64(%du) : (tensor<*xi64>) -> ()
  return
}
