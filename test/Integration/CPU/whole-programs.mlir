// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true reciprocal-division=true vector-width=4" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s -canonicalize --quant-affine-fold-constants --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true nontemporal-stores=true vector-width=64" \
// RUN: | mlir-translate --mlir-to-llvmir -o /dev/null
// Whole programs: our ops among constants, returned values, tensor
// arguments as destinations, loops, branches, calls and other linalg/math
// code. Each function is a class of program that once compiled wrongly or
// not at all (issue 10); main prints every result's bits.

// A quantize of constants that folds: the result is a constant buffer the
// function returns (a copy the caller owns).
func.func @folded_constant() -> tensor<4xi8> {
  %x = arith.constant dense<[1.0, 2.5, -3.5, 300.0]> : tensor<4xf32>
  %s = arith.constant dense<0.5> : tensor<f32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// linalg.fill + linalg.matmul into a tensor argument, then a qdq.
func.func @matmul_into_argument(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %d: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = arith.constant dense<2.0> : tensor<f32>
  %y = quant_affine.qdq %m, %s range [-8, 7] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// A returned argument, and an scf.if that yields one of two arguments.
func.func @returned_argument(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @select_argument(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// linalg.softmax (decomposed) feeding a qdq.
func.func @softmax_qdq(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %p = linalg.softmax dimension(1) ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = arith.constant dense<0.0625> : tensor<f32>
  %y = quant_affine.qdq %p, %s range [0, 15] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// A qdq on a loop-carried tensor: each iteration doubles, then rounds.
func.func @loop_carried(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant dense<0.75> : tensor<f32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    %d = arith.addf %a, %a : tensor<4xf32>
    %y = quant_affine.qdq %d, %s range [-128, 127] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// cf branches carrying tensors.
func.func @branches(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.25> : tensor<f32>
  cf.cond_br %c, ^quant(%x : tensor<4xf32>), ^done(%x : tensor<4xf32>)
^quant(%p: tensor<4xf32>):
  %y = quant_affine.qdq %p, %s range [-2, 1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  cf.br ^done(%y : tensor<4xf32>)
^done(%r: tensor<4xf32>):
  return %r : tensor<4xf32>
}

// Calls, and math on tensors around our ops (tanh goes to libm).
func.func private @dequantize_weight(%q: tensor<4xi8>) -> tensor<4xf32> {
  %s = arith.constant dense<[0.5, 0.25, 2.0, 1.0]> : tensor<4xf32>
  %o = arith.constant dense<[0.0, 1.0, -1.0, 0.0]> : tensor<4xf32>
  %w = quant_affine.dequantize %q, %s, %o range [-128, 127] : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}

func.func @call_and_math(%q: tensor<4xi8>) -> tensor<4xf32> {
  %w = func.call @dequantize_weight(%q) : (tensor<4xi8>) -> tensor<4xf32>
  %t = math.tanh %w : tensor<4xf32>
  %a = math.absf %t : tensor<4xf32>
  %s = arith.constant dense<0.125> : tensor<f32>
  %y = quant_affine.qdq %a, %s range [0, 7] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)

func.func @print_bits(%t: tensor<?xf32>) {
  %b = arith.bitcast %t : tensor<?xf32> to tensor<?xi32>
  %u = tensor.cast %b : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_i8(%t: tensor<4xi8>) {
  %w = arith.extsi %t : tensor<4xi8> to tensor<4xi32>
  %u = tensor.cast %w : tensor<4xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c3 = arith.constant 3 : index

  %q = call @folded_constant() : () -> tensor<4xi8>
  call @print_i8(%q) : (tensor<4xi8>) -> ()

  %a = arith.constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %d = arith.constant dense<7.0> : tensor<2x2xf32>
  %m = call @matmul_into_argument(%a, %b, %d) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %mf = tensor.collapse_shape %m [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %md = tensor.cast %mf : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%md) : (tensor<?xf32>) -> ()

  %v = arith.constant dense<[1.0, -2.0, 3.5, 0x7FC00000]> : tensor<4xf32>
  %w = arith.constant dense<[-0.0, 5.0, 0x7F800000, 1.5]> : tensor<4xf32>
  %r = call @returned_argument(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %rd = tensor.cast %r : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%rd) : (tensor<?xf32>) -> ()
  %s1 = call @select_argument(%true, %v, %w) : (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s1d = tensor.cast %s1 : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%s1d) : (tensor<?xf32>) -> ()
  %s2 = call @select_argument(%false, %v, %w) : (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s2d = tensor.cast %s2 : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%s2d) : (tensor<?xf32>) -> ()

  %sm_in = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 3.0]]> : tensor<2x4xf32>
  %sm = call @softmax_qdq(%sm_in) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %smf = tensor.collapse_shape %sm [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %smd = tensor.cast %smf : tensor<8xf32> to tensor<?xf32>
  call @print_bits(%smd) : (tensor<?xf32>) -> ()

  %l_in = arith.constant dense<[0.3, -1.1, 2.0, 50.0]> : tensor<4xf32>
  %l = call @loop_carried(%l_in, %c3) : (tensor<4xf32>, index) -> tensor<4xf32>
  %ld = tensor.cast %l : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%ld) : (tensor<?xf32>) -> ()

  %br_in = arith.constant dense<[0.1, -0.375, 0.125, 9.0]> : tensor<4xf32>
  %b1 = call @branches(%true, %br_in) : (i1, tensor<4xf32>) -> tensor<4xf32>
  %b1d = tensor.cast %b1 : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%b1d) : (tensor<?xf32>) -> ()
  %b2 = call @branches(%false, %br_in) : (i1, tensor<4xf32>) -> tensor<4xf32>
  %b2d = tensor.cast %b2 : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%b2d) : (tensor<?xf32>) -> ()

  %cq = arith.constant dense<[2, -3, 1, 127]> : tensor<4xi8>
  %c = call @call_and_math(%cq) : (tensor<4xi8>) -> tensor<4xf32>
  %cd = tensor.cast %c : tensor<4xf32> to tensor<?xf32>
  call @print_bits(%cd) : (tensor<?xf32>) -> ()
  return
}

// folded_constant: [1, 2.5, -3.5, 300] / 0.5, saturated at 127.
// CHECK: [2,  5,  -7,  127]
// matmul_into_argument: [[4, 5], [3, 4.5]] on a grid of 2: every value
// rounds (half to even) to 2 x 2 = 4.0.
// CHECK: [1082130432,  1082130432,  1082130432,  1082130432]
// returned_argument and select_argument (true): 1, -2, 3.5, NaN.
// CHECK: [1065353216,  -1073741824,  1080033280,  2143289344]
// CHECK: [1065353216,  -1073741824,  1080033280,  2143289344]
// select_argument (false): -0.0, 5, +Inf, 1.5.
// CHECK: [-2147483648,  1084227584,  2139095040,  1069547520]
// softmax_qdq: 0.25 x 4; softmax(0, 1, 2, 3) / 0.0625 rounds to 1, 1, 4, 10.
// CHECK: [1048576000,  1048576000,  1048576000,  1048576000,  1031798784,  1031798784,  1048576000,  1059061760]
// loop_carried, 3 iterations: 3, -9, 15 and 127 x 0.75 = 95.25.
// CHECK: [1077936128,  -1055916032,  1097859072,  1119780864]
// branches (true): [0.1, -0.375, 0.125, 9] / 0.25 on [-2, 1]: 0, -0.5, 0, 0.25.
// CHECK: [0,  -1090519040,  0,  1048576000]
// branches (false): the input unchanged.
// CHECK: [1036831949,  -1094713344,  1040187392,  1091567616]
// call_and_math: |tanh(1, -0.5, 0, 127)| / 0.125 on [0, 7]: 0.75, 0.5, 0, 0.875.
// CHECK: [1061158912,  1056964608,  0,  1063256064]
