// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// cf branches on tensors that an scf.for produced (found by utils/progtest.py):
// ownership-based buffer deallocation (MLIR 22.1) read the erased loop's
// results from its liveness sets, and crashed or freed a live buffer. The
// pipeline lifts the branches to scf first. main prints every result's bits.

// The loop floors -x n times; one branch negates, the other truncates.
func.func @branch_on_loop(%x: tensor<12xf32>, %n: index, %c: i1, %out: memref<12xf32>) {
  %q = arith.negf %x : tensor<12xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %q) -> (tensor<12xf32>) {
    %f = math.floor %acc : tensor<12xf32>
    scf.yield %f : tensor<12xf32>
  }
  cf.cond_br %c, ^bb1(%l : tensor<12xf32>), ^bb2(%l : tensor<12xf32>)
^bb1(%a: tensor<12xf32>):
  %d = arith.negf %a : tensor<12xf32>
  cf.br ^bb3(%d : tensor<12xf32>)
^bb2(%b: tensor<12xf32>):
  %t = math.trunc %b : tensor<12xf32>
  cf.br ^bb3(%t : tensor<12xf32>)
^bb3(%r: tensor<12xf32>):
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<12xf32>, memref<12xf32>) -> ()
  return
}

// The same after a qdq, in bf16, with a second result (progtest seed 500,
// program 326): garbage in some runs that compiled.
func.func @branch_on_qdq_loop(%arg0: memref<12xbf16>, %n: index, %k: index, %out0: memref<12xbf16>, %out1: memref<12xbf16>) {
  %x = bufferization.to_tensor %arg0 restrict : memref<12xbf16> to tensor<12xbf16>
  %s = arith.constant dense<0.015625> : tensor<f32>
  %o = arith.constant dense<1.0> : tensor<f32>
  %q = quant_affine.qdq %x, %s, %o range [3, 4] : (tensor<12xbf16>, tensor<f32>, tensor<f32>) -> tensor<12xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %q) -> (tensor<12xbf16>) {
    %f = math.floor %acc : tensor<12xbf16>
    %a = math.absf %f : tensor<12xbf16>
    scf.yield %a : tensor<12xbf16>
  }
  %c2 = arith.constant 2 : index
  %cond = arith.cmpi ult, %k, %c2 : index
  cf.cond_br %cond, ^bb1(%l : tensor<12xbf16>), ^bb2(%l : tensor<12xbf16>)
^bb1(%b1: tensor<12xbf16>):
  %m1 = arith.constant dense<-1.0> : tensor<12xbf16>
  %d = arith.divf %b1, %m1 : tensor<12xbf16>
  cf.br ^bb3(%d : tensor<12xbf16>)
^bb2(%b2: tensor<12xbf16>):
  %t = math.trunc %b2 : tensor<12xbf16>
  cf.br ^bb3(%t : tensor<12xbf16>)
^bb3(%r: tensor<12xbf16>):
  bufferization.materialize_in_destination %r in restrict writable %out0 : (tensor<12xbf16>, memref<12xbf16>) -> ()
  bufferization.materialize_in_destination %q in restrict writable %out1 : (tensor<12xbf16>, memref<12xbf16>) -> ()
  return
}

// A cf loop carrying a tensor (ownership-based deallocation accepts no cf
// loops; lifted, it is an scf.while): floor(2 t) n times.
func.func @cf_loop(%x: tensor<12xf32>, %n: index) -> tensor<12xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0, %x : index, tensor<12xf32>)
^head(%i: index, %t: tensor<12xf32>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %u = arith.addf %t, %t : tensor<12xf32>
  %f = math.floor %u : tensor<12xf32>
  %j = arith.addi %i, %c1 : index
  cf.br ^head(%j, %f : index, tensor<12xf32>)
^exit:
  return %t : tensor<12xf32>
}

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print_f32(%m: memref<12xf32>) {
  %t = bufferization.to_tensor %m restrict : memref<12xf32> to tensor<12xf32>
  %b = arith.bitcast %t : tensor<12xf32> to tensor<12xi32>
  %u = tensor.cast %b : tensor<12xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_bf16(%m: memref<12xbf16>) {
  %t = bufferization.to_tensor %m restrict : memref<12xbf16> to tensor<12xbf16>
  %b = arith.bitcast %t : tensor<12xbf16> to tensor<12xi16>
  %w = arith.extui %b : tensor<12xi16> to tensor<12xi32>
  %u = tensor.cast %w : tensor<12xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x = arith.constant dense<[0.5, -0.5, 1.25, -1.25, 2.0, -2.0, 3.75, -3.75, 0.0, -0.0, 7.5, -7.5]> : tensor<12xf32>
  %out = memref.alloc() : memref<12xf32>
  call @branch_on_loop(%x, %c3, %true, %out) : (tensor<12xf32>, index, i1, memref<12xf32>) -> ()
  call @print_f32(%out) : (memref<12xf32>) -> ()
  call @branch_on_loop(%x, %c3, %false, %out) : (tensor<12xf32>, index, i1, memref<12xf32>) -> ()
  call @print_f32(%out) : (memref<12xf32>) -> ()

  %in = memref.alloc() : memref<12xbf16>
  %xb = arith.constant dense<"0x663FB6403F4175412BC17AC12FC11A41A141883F9A3EC0C0"> : tensor<12xbf16>
  bufferization.materialize_in_destination %xb in restrict writable %in : (tensor<12xbf16>, memref<12xbf16>) -> ()
  %o0 = memref.alloc() : memref<12xbf16>
  %o1 = memref.alloc() : memref<12xbf16>
  call @branch_on_qdq_loop(%in, %c3, %c1, %o0, %o1) : (memref<12xbf16>, index, index, memref<12xbf16>, memref<12xbf16>) -> ()
  call @print_bf16(%o0) : (memref<12xbf16>) -> ()
  call @print_bf16(%o1) : (memref<12xbf16>) -> ()
  call @branch_on_qdq_loop(%in, %c3, %c3, %o0, %o1) : (memref<12xbf16>, index, index, memref<12xbf16>, memref<12xbf16>) -> ()
  call @print_bf16(%o0) : (memref<12xbf16>) -> ()

  %y = call @cf_loop(%x, %c3) : (tensor<12xf32>, index) -> tensor<12xf32>
  %yb = arith.bitcast %y : tensor<12xf32> to tensor<12xi32>
  %yu = tensor.cast %yb : tensor<12xi32> to tensor<*xi32>
  call @printMemrefI32(%yu) : (tensor<*xi32>) -> ()
  return
}
// branch_on_loop (true): -floor(-x) = 1, -0, 2, -1, 2, -2, 4, -3, 0, -0, 8, -7.
// CHECK: [1065353216,  -2147483648,  1073741824,  -1082130432,  1073741824,  -1073741824,  1082130432,  -1069547520,  0,  -2147483648,  1090519040,  -1059061760]
// branch_on_loop (false): trunc(floor(-x)) = -1, 0, -2, 1, -2, 2, -4, 3, -0, 0, -8, 7.
// CHECK: [-1082130432,  0,  -1073741824,  1065353216,  -1073741824,  1073741824,  -1065353216,  1077936128,  -2147483648,  0,  -1056964608,  1088421888]
// branch_on_qdq_loop (k = 1): floor and abs make every qdq result 0; 0 / -1 = -0.
// CHECK: [32768,  32768,  32768,  32768,  32768,  32768,  32768,  32768,  32768,  32768,  32768,  32768]
// The qdq on [3, 4] with offset 1: 5 or 4 x 2^-6 (bf16 0.078125 or 0.0625).
// CHECK: [15776,  15776,  15776,  15776,  15744,  15744,  15744,  15776,  15776,  15776,  15776,  15744]
// branch_on_qdq_loop (k = 3): trunc(0) = 0.
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// cf_loop, 3 times floor(2 t): 4, -4, 8, -12, 16, -16, 28, -32, 0, -0, 60, -60.
// CHECK: [1082130432,  -1065353216,  1090519040,  -1052770304,  1098907648,  -1048576000,  1105199104,  -1040187392,  0,  -2147483648,  1114636288,  -1032847360]
