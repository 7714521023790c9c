// quant.qcast and quant.dcast executed after --convert-quant-to-quant-affine
// (the pipelines' from-quant=true), against the reference: the quant_affine
// formula with offset = -zero_point, clamp(roundeven(x / s) + zp, min, max).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline="from-quant=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
//
// Upstream's lower-quant-ops on the same program truncates x / s + zp
// toward zero (arith.fptosi), so every tie and every negative value differs;
// out of the storage range its fptosi is poison (no clamp), so those lanes
// are not compared (TRUNC).
// RUN: quant-affine-opt %s --lower-quant-ops -canonicalize --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=TRUNC

!i8zp3 = !quant.uniform<i8:f32, 0.5:3>
!narrow = !quant.uniform<i8<-127:127>:f32, 0.5:-1>
!u8 = !quant.uniform<u8:f32, 0.25:128>
!f16 = !quant.uniform<i8:f16, 0.1:-2>

// x / s = 0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5, 10.5, -10.5, 0.25,
// -0.75, 100.5, -100.5, 1, -1; zero point 3 (odd).
// CHECK-LABEL: ties
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [3,  5,  5,  7,  3,  1,  1,  -1,  13,  -7,  3,  2,  103,  -97,  4,  2]
// TRUNC-LABEL: ties
// TRUNC-NEXT: Unranked Memref
// TRUNC-NEXT: [3,  4,  5,  6,  2,  1,  0,  0,  13,  -7,  3,  2,  103,  -97,  4,  2]
func.func @ties(%x: tensor<16xf32>) -> tensor<16xi8> {
  %q = quant.qcast %x : tensor<16xf32> to tensor<16x!i8zp3>
  %i = quant.scast %q : tensor<16x!i8zp3> to tensor<16xi8>
  return %i : tensor<16xi8>
}

// Beyond the storage range [-127, 127] (zero point -1): x / s = 126, 128,
// 2000, -2000, inf, -inf, 127.5, -127.5 saturate.
// CHECK-LABEL: saturation
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [125,  127,  127,  -127,  127,  -127,  127,  -127]
func.func @saturation(%x: tensor<8xf32>) -> tensor<8xi8> {
  %q = quant.qcast %x : tensor<8xf32> to tensor<8x!narrow>
  %i = quant.scast %q : tensor<8x!narrow> to tensor<8xi8>
  return %i : tensor<8xi8>
}

// Unsigned, zero point 128: x / s = -0.5, 0.5, 1.5, -1.5, 160, -160, 127.5,
// -128.5. (Only the in-range ties are compared with lower-quant-ops.)
// CHECK-LABEL: unsigned
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [128,  128,  130,  126,  255,  0,  255,  0]
// TRUNC-LABEL: unsigned
// TRUNC-NEXT: Unranked Memref
// TRUNC-NEXT: [127,  128,  129,  126,
func.func @unsigned(%x: tensor<8xf32>) -> tensor<8xi8> {
  %q = quant.qcast %x : tensor<8xf32> to tensor<8x!u8>
  %i = quant.scast %q : tensor<8x!u8> to tensor<8xi8>
  return %i : tensor<8xi8>
}

// NaN has no integer: poison, as arith.fptosi makes it (both lowerings);
// the other lanes are exact.
// CHECK-LABEL: nan
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [{{-?[0-9]+}},  3,  {{-?[0-9]+}},  5]
func.func @nan(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!i8zp3>
  %i = quant.scast %q : tensor<4x!i8zp3> to tensor<4xi8>
  return %i : tensor<4xi8>
}

// f16: the scale 0.1 is 0.0999755859375 in f16 and (q + 2) * s is rounded
// in f16: q = 1 gives 0.2998046875 (0x3498, a tie rounded to even), not
// the 0.30004882812 of an exact 0.1.
// CHECK-LABEL: f16 dequantize
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [13516,  14336,  15564,  18713,  51788,  19059]
// TRUNC-LABEL: f16 dequantize
// TRUNC-NEXT: Unranked Memref
// TRUNC-NEXT: [13516,  14336,  15564,  18713,  51788,  19059]
func.func @dequantize_f16(%q: tensor<6xi8>) -> tensor<6xf16> {
  %s = quant.scast %q : tensor<6xi8> to tensor<6x!f16>
  %y = quant.dcast %s : tensor<6x!f16> to tensor<6xf16>
  return %y : tensor<6xf16>
}

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printString(!llvm.ptr)

func.func @print_i8(%t: tensor<?xi8>) {
  %w = arith.extsi %t : tensor<?xi8> to tensor<?xi32>
  %u = tensor.cast %w : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_u8(%t: tensor<?xi8>) {
  %w = arith.extui %t : tensor<?xi8> to tensor<?xi32>
  %u = tensor.cast %w : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

llvm.mlir.global internal constant @ties_label("ties\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @saturation_label("saturation\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @unsigned_label("unsigned\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @nan_label("nan\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @f16_label("f16 dequantize\0A\00") {addr_space = 0 : i32}

func.func @main() {
  %l0 = llvm.mlir.addressof @ties_label : !llvm.ptr
  call @printString(%l0) : (!llvm.ptr) -> ()
  %x0 = arith.constant dense<[0.25, 0.75, 1.25, 1.75, -0.25, -0.75, -1.25, -1.75, 5.25, -5.25, 0.125, -0.375, 50.25, -50.25, 0.5, -0.5]> : tensor<16xf32>
  %q0 = call @ties(%x0) : (tensor<16xf32>) -> tensor<16xi8>
  %d0 = tensor.cast %q0 : tensor<16xi8> to tensor<?xi8>
  call @print_i8(%d0) : (tensor<?xi8>) -> ()

  %l1 = llvm.mlir.addressof @saturation_label : !llvm.ptr
  call @printString(%l1) : (!llvm.ptr) -> ()
  %x1 = arith.constant dense<[63.0, 64.0, 1000.0, -1000.0, 0x7F800000, 0xFF800000, 63.75, -63.75]> : tensor<8xf32>
  %q1 = call @saturation(%x1) : (tensor<8xf32>) -> tensor<8xi8>
  %d1 = tensor.cast %q1 : tensor<8xi8> to tensor<?xi8>
  call @print_i8(%d1) : (tensor<?xi8>) -> ()

  %l2 = llvm.mlir.addressof @unsigned_label : !llvm.ptr
  call @printString(%l2) : (!llvm.ptr) -> ()
  %x2 = arith.constant dense<[-0.125, 0.125, 0.375, -0.375, 40.0, -40.0, 31.875, -32.125]> : tensor<8xf32>
  %q2 = call @unsigned(%x2) : (tensor<8xf32>) -> tensor<8xi8>
  %d2 = tensor.cast %q2 : tensor<8xi8> to tensor<?xi8>
  call @print_u8(%d2) : (tensor<?xi8>) -> ()

  %l3 = llvm.mlir.addressof @nan_label : !llvm.ptr
  call @printString(%l3) : (!llvm.ptr) -> ()
  %x3 = arith.constant dense<[0x7FC00000, 0.25, 0xFFC00000, 0.75]> : tensor<4xf32>
  %q3 = call @nan(%x3) : (tensor<4xf32>) -> tensor<4xi8>
  %d3 = tensor.cast %q3 : tensor<4xi8> to tensor<?xi8>
  call @print_i8(%d3) : (tensor<?xi8>) -> ()

  %l4 = llvm.mlir.addressof @f16_label : !llvm.ptr
  call @printString(%l4) : (!llvm.ptr) -> ()
  %x4 = arith.constant dense<[1, 3, 10, 100, -128, 127]> : tensor<6xi8>
  %y4 = call @dequantize_f16(%x4) : (tensor<6xi8>) -> tensor<6xf16>
  %b4 = arith.bitcast %y4 : tensor<6xf16> to tensor<6xi16>
  %w4 = arith.extui %b4 : tensor<6xi16> to tensor<6xi32>
  %u4 = tensor.cast %w4 : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
  return
}
