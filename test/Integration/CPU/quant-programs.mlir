// A program written with !quant.uniform types alone: quantized arguments
// and results, calls, a loop and a branch carrying quantized tensors, and a
// sub-channel int4 weight dequantized into a linalg.matmul. Converted by the
// pipelines' from-quant=true, it must print exactly what the same program
// written directly in quant_affine (Inputs/quant-programs-direct.mlir)
// prints, on the CPU under several option sets and through the GPU mapping
// run on the CPU.
// RUN: quant-affine-opt %S/Inputs/quant-programs-direct.mlir --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked > %t.direct
// RUN: FileCheck %s < %t.direct
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="from-quant=true vector-width=4 runtime-checks=true reciprocal-division=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="from-quant=true cpu=x86-64" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline="from-quant=true reduction-threads=0 vector-width=1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | grep -v Unranked | diff %t.direct -
// The conversion alone leaves nothing quantized:
// RUN: quant-affine-opt %s --convert-quant-to-quant-affine | FileCheck %s --check-prefix=CONVERTED
// CONVERTED-NOT: !quant
// CONVERTED-NOT: quant.

// quantize_input(x), then refined twice (tanh(x + 0.3), requantized), then
// the int4 layer, requantized per output channel (unsigned, zero points
// 128, 120, 128, 100):
// CHECK:      {{\[}}[-3,   -3,   -3,   -1,   13,   -19,   37,   -43,   125,   -128,   5,   -1,   -7,   50,   -78,   -2],
// CHECK-NEXT:  [77,   127,   -128,   -1,   0,   2,   -9,   21,   -27,   33,   9,   -15,   93,   -99,   -2,   -3]]
// CHECK:      {{\[}}[6,   6,   6,   6,   10,   -8,   11,   -13,   11,   -13,   9,   6,   3,   11,   -13,   6],
// CHECK-NEXT:  [11,   11,   -13,   6,   7,   8,   1,   11,   -11,   11,   10,   -5,   11,   -13,   6,   6]]
// CHECK:      {{\[}}[128,   120,   122,   0],
// CHECK-NEXT:  [114,   127,   103,   0]]

!act = !quant.uniform<i8:f32, 0.0625:-3>
!w = !quant.uniform<i4:f32:{0:8, 1:1}, {{0.5, 0.25, 0.125, 1.0}, {0.5:1, 0.25:-1, 2.0, 0.0625}}>
!out = !quant.uniform<u8:f32:1, {0.25:128, 0.5:120, 1.0:128, 0.125:100}>

func.func @quantize_input(%x: tensor<2x16xf32>) -> tensor<2x16x!act> {
  %q = quant.qcast %x : tensor<2x16xf32> to tensor<2x16x!act>
  return %q : tensor<2x16x!act>
}

func.func @refine(%x: tensor<2x16x!act>, %n: index, %flag: i1) -> tensor<2x16x!act> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bias = arith.constant dense<0.3> : tensor<2x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2x16x!act>) {
    %f = quant.dcast %acc : tensor<2x16x!act> to tensor<2x16xf32>
    %h = arith.addf %f, %bias : tensor<2x16xf32>
    %t = math.tanh %h : tensor<2x16xf32>
    %q = quant.qcast %t : tensor<2x16xf32> to tensor<2x16x!act>
    scf.yield %q : tensor<2x16x!act>
  }
  %out = scf.if %flag -> tensor<2x16x!act> {
    scf.yield %r : tensor<2x16x!act>
  } else {
    scf.yield %x : tensor<2x16x!act>
  }
  return %out : tensor<2x16x!act>
}

func.func @layer(%x: tensor<2x16x!act>, %w: tensor<16x4x!w>) -> tensor<2x4x!out> {
  %xf = quant.dcast %x : tensor<2x16x!act> to tensor<2x16xf32>
  %wf = quant.dcast %w : tensor<16x4x!w> to tensor<16x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%xf, %wf : tensor<2x16xf32>, tensor<16x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  %q = quant.qcast %y : tensor<2x4xf32> to tensor<2x4x!out>
  return %q : tensor<2x4x!out>
}

func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %true = arith.constant true
  %c2 = arith.constant 2 : index
  %x = arith.constant dense<[[0.0, 0.03125, -0.03125, 0.09375, 1.0, -1.0, 2.5, -2.5, 7.96875, -8.0, 0.5, 0.15625, -0.21875, 3.3, -4.7, 0.0625],
                             [5.0, 9.0, -9.0, 0.1, 0.2, 0.3, -0.4, 1.5, -1.5, 2.25, 0.71875, -0.71875, 6.0, -6.0, 0.09, 0.01]]> : tensor<2x16xf32>
  %xq = call @quantize_input(%x) : (tensor<2x16xf32>) -> tensor<2x16x!act>
  %xr = call @refine(%xq, %c2, %true) : (tensor<2x16x!act>, index, i1) -> tensor<2x16x!act>
  %wi = arith.constant dense<[[1, -2, 3, -4], [5, -6, 7, -8], [0, 1, 2, 3], [-1, -2, -3, -4], [7, 7, -8, -8], [2, 0, -2, 0], [1, 1, 1, 1], [-5, 4, -3, 2],
                              [3, -3, 6, -6], [0, 0, 0, 0], [-8, 7, -8, 7], [1, 2, 3, 4], [-1, 5, -1, 5], [2, -2, 2, -2], [6, 5, 4, 3], [-7, -6, -5, -4]]> : tensor<16x4xi4>
  %w = quant.scast %wi : tensor<16x4xi4> to tensor<16x4x!w>
  %y = call @layer(%xr, %w) : (tensor<2x16x!act>, tensor<16x4x!w>) -> tensor<2x4x!out>

  %xqi = quant.scast %xq : tensor<2x16x!act> to tensor<2x16xi8>
  %pxq = arith.extsi %xqi : tensor<2x16xi8> to tensor<2x16xi32>
  %uxq = tensor.cast %pxq : tensor<2x16xi32> to tensor<*xi32>
  call @printMemrefI32(%uxq) : (tensor<*xi32>) -> ()
  %xri = quant.scast %xr : tensor<2x16x!act> to tensor<2x16xi8>
  %pxr = arith.extsi %xri : tensor<2x16xi8> to tensor<2x16xi32>
  %uxr = tensor.cast %pxr : tensor<2x16xi32> to tensor<*xi32>
  call @printMemrefI32(%uxr) : (tensor<*xi32>) -> ()
  %yi = quant.scast %y : tensor<2x4x!out> to tensor<2x4xi8>
  %py = arith.extui %yi : tensor<2x4xi8> to tensor<2x4xi32>
  %uy = tensor.cast %py : tensor<2x4xi32> to tensor<*xi32>
  call @printMemrefI32(%uy) : (tensor<*xi32>) -> ()
  return
}
