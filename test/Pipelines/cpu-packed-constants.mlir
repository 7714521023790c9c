// A folded int4 weight is emitted as its packed bytes: 15 values in
// ceil(15 / 2) = 8 bytes, two a byte, lower index in the lower bits, the last
// byte's upper half zero: 0 | -1 << 4 = 0xF0 = -16, 2 | 7 << 4 = 114, ...
// The dequantize reads them back (the run checks the values).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-fold-constants --quant-affine-cpu-pipeline | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=VALUES

// CHECK: llvm.mlir.global private constant @{{.*}}(dense<[-16, 114, 24, -30, 3, -60, -122, 0]> : tensor<8xi8>) {{.*}} : !llvm.array<8 x i8>

func.func @weight() -> tensor<3x5xi4> {
  %w = arith.constant dense<[[0.5, -1.0, 2.0, 7.0, -9.0], [1.0, 1.5, -2.5, 3.0, 0.0], [4.0, -4.0, 6.5, -7.5, 0.25]]> : tensor<3x5xf32>
  %s = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.quantize %w, %s range [-8, 7] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xi4>
  return %q : tensor<3x5xi4>
}

func.func private @printMemrefF32(tensor<*xf32>)

// VALUES: [0, -1, 2, 7, -8],
// VALUES-NEXT: [1, 2, -2, 3, 0],
// VALUES-NEXT: [4, -4, 6, -8, 0]]
func.func @main() {
  %q = call @weight() : () -> tensor<3x5xi4>
  %s = arith.constant dense<1.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-8, 7] : (tensor<3x5xi4>, tensor<f32>) -> tensor<3x5xf32>
  %u = tensor.cast %y : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
