// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s -canonicalize --quant-affine-cpu-pipeline="vector-width=4 nontemporal-stores=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --convert-elementwise-to-linalg --quant-affine-vectorize \
// RUN: | FileCheck %s --check-prefix=SCALAR
// Integers that are a whole number of bytes but not a power of two of them
// (i24, i40, i48, i56) in memory: LLVM packs a vector<12xi24> into 36 bytes
// while a memref<12xi24> gives each element 4, so the vectorized dequantize
// of an i24 argument once read garbage. quant-affine-vectorize keeps ops on
// such types scalar, as it does for i1..i7.

// SCALAR-LABEL: func.func @dequantize_i24
// SCALAR-NOT: vector.
// SCALAR: linalg.generic
func.func @dequantize_i24(%q: tensor<?x12xi24>) -> tensor<?x12xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-8388608, 8388607] : (tensor<?x12xi24>, tensor<f32>) -> tensor<?x12xf32>
  return %y : tensor<?x12xf32>
}

// i24 results, and i40, i48 and i56 ones from a user's arith.extsi.
// SCALAR-LABEL: func.func @quantize_wide
// SCALAR-NOT: vector.
// SCALAR: return
func.func @quantize_wide(%x: tensor<12xf32>) -> (tensor<12xi24>, tensor<12xi40>, tensor<12xi48>, tensor<12xi56>) {
  %s = arith.constant dense<0.25> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-8388608, 8388607] : (tensor<12xf32>, tensor<f32>) -> tensor<12xi24>
  %a = arith.extsi %q : tensor<12xi24> to tensor<12xi40>
  %b = arith.extsi %q : tensor<12xi24> to tensor<12xi48>
  %c = arith.extsi %q : tensor<12xi24> to tensor<12xi56>
  return %q, %a, %b, %c : tensor<12xi24>, tensor<12xi40>, tensor<12xi48>, tensor<12xi56>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(tensor<*xi64>)
func.func @main() {
  %q = arith.constant dense<[[8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, -8388608],
                             [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, 8388607]]> : tensor<2x12xi24>
  %d = tensor.cast %q : tensor<2x12xi24> to tensor<?x12xi24>
  %y = call @dequantize_i24(%d) : (tensor<?x12xi24>) -> tensor<?x12xf32>
  %u = tensor.cast %y : tensor<?x12xf32> to tensor<*xf32>
  // CHECK: [4,   8,   12,   16,   20,   24,   28,   32,   36,   40,   44,   -4.1943e+06],
  // CHECK-NEXT: [-0.5,   -1,   -1.5,   -2,   -2.5,   -3,   -3.5,   -4,   -4.5,   -5,   -5.5,   4.1943e+06]
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()

  %x = arith.constant dense<[0.25, -0.5, 1.0e6, -1.0e6, 2097151.75, -2097152.0, 1.0e20, -1.0e20, 0.0, 7.75, 0.375, -0.375]> : tensor<12xf32>
  %q24, %a, %b, %c = call @quantize_wide(%x) : (tensor<12xf32>) -> (tensor<12xi24>, tensor<12xi40>, tensor<12xi48>, tensor<12xi56>)
  %q64 = arith.extsi %q24 : tensor<12xi24> to tensor<12xi64>
  %a64 = arith.extsi %a : tensor<12xi40> to tensor<12xi64>
  %b64 = arith.extsi %b : tensor<12xi48> to tensor<12xi64>
  %c64 = arith.extsi %c : tensor<12xi56> to tensor<12xi64>
  %qu = tensor.cast %q64 : tensor<12xi64> to tensor<*xi64>
  %au = tensor.cast %a64 : tensor<12xi64> to tensor<*xi64>
  %bu = tensor.cast %b64 : tensor<12xi64> to tensor<*xi64>
  %cu = tensor.cast %c64 : tensor<12xi64> to tensor<*xi64>
  // CHECK-COUNT-4: [1,  -2,  4000000,  -4000000,  8388607,  -8388608,  8388607,  -8388608,  0,  31,  2,  -2]
  call @printMemrefI64(%qu) : (tensor<*xi64>) -> ()
  call @printMemrefI64(%au) : (tensor<*xi64>) -> ()
  call @printMemrefI64(%bu) : (tensor<*xi64>) -> ()
  call @printMemrefI64(%cu) : (tensor<*xi64>) -> ()
  return
}
