// arith.truncf from f32 to each float8, float6 and float4 type, expanded by
// quant-affine-expand-narrow-floats (integer rounding of the f32 bits for
// normal results, an f32 addition for subnormal ones), on the inputs where
// it can go wrong: every tie of the subnormal binade, three ties in every
// normal binade (to even down, to even up, and the one whose carry moves
// into the exponent), the values next to the first and last subnormal ties,
// the smallest normal and the largest value, the overflow tie, 2^(emax + 1),
// FLT_MAX, +-inf, NaNs of both signs and payloads, +-0 and f32 subnormals;
// the negatives of all but the middle binades' ties. Each input is an f32
// bit pattern; each result the code, zero-extended. The expected codes come
// from an exact reference (rounding of the exact value to the grid, ties to
// even; NaN to the type's NaN code or a zero of its sign, overflow to inf,
// else NaN, else the largest value; float6/float4 take +-inf to a zero of
// its sign; FNUZ types have no -0). Every f32 input:
// utils/narrow-encode-f32/run.sh.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @codes_f8E4M3FN(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f8E4M3FN
    %b = arith.bitcast %t : f8E4M3FN to i8
    %c = arith.extui %b : i8 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f8E5M2(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f8E5M2
    %b = arith.bitcast %t : f8E5M2 to i8
    %c = arith.extui %b : i8 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f8E4M3FNUZ(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f8E4M3FNUZ
    %b = arith.bitcast %t : f8E4M3FNUZ to i8
    %c = arith.extui %b : i8 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f8E5M2FNUZ(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f8E5M2FNUZ
    %b = arith.bitcast %t : f8E5M2FNUZ to i8
    %c = arith.extui %b : i8 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f6E2M3FN(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f6E2M3FN
    %b = arith.bitcast %t : f6E2M3FN to i6
    %c = arith.extui %b : i6 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f6E3M2FN(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f6E3M2FN
    %b = arith.bitcast %t : f6E3M2FN to i6
    %c = arith.extui %b : i6 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

func.func @codes_f4E2M1FN(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %t = arith.truncf %v : f32 to f4E2M1FN
    %b = arith.bitcast %t : f4E2M1FN to i4
    %c = arith.extui %b : i4 to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %codes : tensor<?xi32>
}

// CHECK-LABEL: f8E4M3FN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 4, 4, 6, 6, 7, 8, 8,
// CHECK-SAME: 8, 8, 8, 8, 10, 16, 16, 18, 24, 24, 26, 32, 32, 34, 40, 40,
// CHECK-SAME: 42, 48, 48, 50, 56, 56, 58, 64, 64, 66, 72, 72, 74, 80, 80, 82,
// CHECK-SAME: 88, 88, 90, 96, 96, 98, 104, 104, 106, 112, 112, 114, 120, 120, 122, 127,
// CHECK-SAME: 126, 126, 126, 126, 126, 127, 127, 127, 127, 127, 127, 127, 127, 127, 128, 128,
// CHECK-SAME: 128, 128, 128, 128, 129, 130, 130, 132, 132, 134, 134, 135, 136, 136, 136, 136,
// CHECK-SAME: 136, 136, 138, 144, 248, 250, 127, 254, 254, 254, 254, 254, 127, 127, 127, 127,
// CHECK-SAME: 127, 127, 127, 127, 127]
// CHECK-LABEL: f8E5M2
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 4, 4, 4, 4, 4, 4,
// CHECK-SAME: 6, 8, 8, 10, 12, 12, 14, 16, 16, 18, 20, 20, 22, 24, 24, 26,
// CHECK-SAME: 28, 28, 30, 32, 32, 34, 36, 36, 38, 40, 40, 42, 44, 44, 46, 48,
// CHECK-SAME: 48, 50, 52, 52, 54, 56, 56, 58, 60, 60, 62, 64, 64, 66, 68, 68,
// CHECK-SAME: 70, 72, 72, 74, 76, 76, 78, 80, 80, 82, 84, 84, 86, 88, 88, 90,
// CHECK-SAME: 92, 92, 94, 96, 96, 98, 100, 100, 102, 104, 104, 106, 108, 108, 110, 112,
// CHECK-SAME: 112, 114, 116, 116, 118, 120, 120, 122, 124, 123, 123, 123, 123, 124, 124, 124,
// CHECK-SAME: 124, 124, 126, 126, 126, 128, 128, 128, 128, 128, 128, 129, 130, 130, 131, 132,
// CHECK-SAME: 132, 132, 132, 132, 132, 134, 136, 248, 250, 252, 251, 251, 251, 251, 252, 252,
// CHECK-SAME: 252, 252, 252, 126, 126, 126]
// CHECK-LABEL: f8E4M3FNUZ
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 4, 4, 6, 6, 7, 8, 8,
// CHECK-SAME: 8, 8, 8, 8, 10, 16, 16, 18, 24, 24, 26, 32, 32, 34, 40, 40,
// CHECK-SAME: 42, 48, 48, 50, 56, 56, 58, 64, 64, 66, 72, 72, 74, 80, 80, 82,
// CHECK-SAME: 88, 88, 90, 96, 96, 98, 104, 104, 106, 112, 112, 114, 120, 120, 122, 128,
// CHECK-SAME: 127, 127, 127, 127, 128, 128, 128, 128, 128, 128, 128, 128, 0, 0, 0, 0,
// CHECK-SAME: 0, 0, 129, 130, 130, 132, 132, 134, 134, 135, 136, 136, 136, 136, 136, 136,
// CHECK-SAME: 138, 144, 248, 250, 128, 255, 255, 255, 255, 128, 128, 128, 128, 128, 128, 128,
// CHECK-SAME: 128]
// CHECK-LABEL: f8E5M2FNUZ
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 4, 4, 4, 4, 4, 4,
// CHECK-SAME: 6, 8, 8, 10, 12, 12, 14, 16, 16, 18, 20, 20, 22, 24, 24, 26,
// CHECK-SAME: 28, 28, 30, 32, 32, 34, 36, 36, 38, 40, 40, 42, 44, 44, 46, 48,
// CHECK-SAME: 48, 50, 52, 52, 54, 56, 56, 58, 60, 60, 62, 64, 64, 66, 68, 68,
// CHECK-SAME: 70, 72, 72, 74, 76, 76, 78, 80, 80, 82, 84, 84, 86, 88, 88, 90,
// CHECK-SAME: 92, 92, 94, 96, 96, 98, 100, 100, 102, 104, 104, 106, 108, 108, 110, 112,
// CHECK-SAME: 112, 114, 116, 116, 118, 120, 120, 122, 124, 124, 126, 128, 127, 127, 127, 127,
// CHECK-SAME: 128, 128, 128, 128, 128, 128, 128, 128, 0, 0, 0, 0, 0, 0, 129, 130,
// CHECK-SAME: 130, 131, 132, 132, 132, 132, 132, 132, 134, 136, 252, 254, 128, 255, 255, 255,
// CHECK-SAME: 255, 128, 128, 128, 128, 128, 128, 128, 128]
// CHECK-LABEL: f6E2M3FN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 4, 4, 6, 6, 7, 8, 8,
// CHECK-SAME: 8, 8, 8, 8, 10, 16, 16, 18, 24, 24, 26, 31, 31, 31, 31, 31,
// CHECK-SAME: 31, 31, 31, 31, 0, 0, 0, 0, 32, 32, 32, 32, 32, 32, 33, 34,
// CHECK-SAME: 34, 36, 36, 38, 38, 39, 40, 40, 40, 40, 40, 40, 42, 48, 56, 58,
// CHECK-SAME: 63, 63, 63, 63, 63, 63, 63, 63, 63, 32, 32, 32, 32]
// CHECK-LABEL: f6E3M2FN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 4, 4, 4, 4, 4, 4,
// CHECK-SAME: 6, 8, 8, 10, 12, 12, 14, 16, 16, 18, 20, 20, 22, 24, 24, 26,
// CHECK-SAME: 28, 28, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 0, 0, 0, 0,
// CHECK-SAME: 32, 32, 32, 32, 32, 32, 33, 34, 34, 35, 36, 36, 36, 36, 36, 36,
// CHECK-SAME: 38, 40, 60, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 32, 32, 32,
// CHECK-SAME: 32]
// CHECK-LABEL: f4E2M1FN
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 4, 4,
// CHECK-SAME: 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 8,
// CHECK-SAME: 8, 8, 8, 8, 8, 9, 9, 10, 10, 10, 10, 10, 10, 12, 14, 15,
// CHECK-SAME: 15, 15, 15, 15, 15, 15, 15, 15, 8, 8, 8, 8]

func.func @main() {
  vector.print str "f8E4M3FN\n"
  %x_f8E4M3FN = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3A7FFFFF, 0x3A800000, 0x3A800001, 0x3B400000,
      0x3BA00000, 0x3BE00000, 0x3C100000, 0x3C300000, 0x3C500000, 0x3C6FFFFF, 0x3C700000, 0x3C700001,
      0x3C7FFFFF, 0x3C800000, 0x3C800001, 0x3C880000, 0x3C980000, 0x3CF80000, 0x3D080000, 0x3D180000,
      0x3D780000, 0x3D880000, 0x3D980000, 0x3DF80000, 0x3E080000, 0x3E180000, 0x3E780000, 0x3E880000,
      0x3E980000, 0x3EF80000, 0x3F080000, 0x3F180000, 0x3F780000, 0x3F880000, 0x3F980000, 0x3FF80000,
      0x40080000, 0x40180000, 0x40780000, 0x40880000, 0x40980000, 0x40F80000, 0x41080000, 0x41180000,
      0x41780000, 0x41880000, 0x41980000, 0x41F80000, 0x42080000, 0x42180000, 0x42780000, 0x42880000,
      0x42980000, 0x42F80000, 0x43080000, 0x43180000, 0x43780000, 0x43880000, 0x43980000, 0x43F80000,
      0x43DFFFFF, 0x43E00000, 0x43E00001, 0x43E7FFFF, 0x43E80000, 0x43E80001, 0x43F00000, 0x44000000,
      0x7149F2CA, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x80000000, 0x80000001,
      0x807FFFFF, 0x80800000, 0xBA7FFFFF, 0xBA800000, 0xBA800001, 0xBB400000, 0xBBA00000, 0xBBE00000,
      0xBC100000, 0xBC300000, 0xBC500000, 0xBC6FFFFF, 0xBC700000, 0xBC700001, 0xBC7FFFFF, 0xBC800000,
      0xBC800001, 0xBC880000, 0xBC980000, 0xBCF80000, 0xC3880000, 0xC3980000, 0xC3F80000, 0xC3DFFFFF,
      0xC3E00000, 0xC3E00001, 0xC3E7FFFF, 0xC3E80000, 0xC3E80001, 0xC3F00000, 0xC4000000, 0xF149F2CA,
      0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000, 0xFFFFFFFF]> : tensor<117xf32>
  %d_f8E4M3FN = tensor.cast %x_f8E4M3FN : tensor<117xf32> to tensor<?xf32>
  %c_f8E4M3FN = call @codes_f8E4M3FN(%d_f8E4M3FN) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f8E4M3FN = tensor.cast %c_f8E4M3FN : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f8E4M3FN) : (tensor<*xi32>) -> ()
  vector.print str "f8E5M2\n"
  %x_f8E5M2 = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x36FFFFFF, 0x37000000, 0x37000001, 0x37C00000,
      0x38200000, 0x385FFFFF, 0x38600000, 0x38600001, 0x387FFFFF, 0x38800000, 0x38800001, 0x38900000,
      0x38B00000, 0x38F00000, 0x39100000, 0x39300000, 0x39700000, 0x39900000, 0x39B00000, 0x39F00000,
      0x3A100000, 0x3A300000, 0x3A700000, 0x3A900000, 0x3AB00000, 0x3AF00000, 0x3B100000, 0x3B300000,
      0x3B700000, 0x3B900000, 0x3BB00000, 0x3BF00000, 0x3C100000, 0x3C300000, 0x3C700000, 0x3C900000,
      0x3CB00000, 0x3CF00000, 0x3D100000, 0x3D300000, 0x3D700000, 0x3D900000, 0x3DB00000, 0x3DF00000,
      0x3E100000, 0x3E300000, 0x3E700000, 0x3E900000, 0x3EB00000, 0x3EF00000, 0x3F100000, 0x3F300000,
      0x3F700000, 0x3F900000, 0x3FB00000, 0x3FF00000, 0x40100000, 0x40300000, 0x40700000, 0x40900000,
      0x40B00000, 0x40F00000, 0x41100000, 0x41300000, 0x41700000, 0x41900000, 0x41B00000, 0x41F00000,
      0x42100000, 0x42300000, 0x42700000, 0x42900000, 0x42B00000, 0x42F00000, 0x43100000, 0x43300000,
      0x43700000, 0x43900000, 0x43B00000, 0x43F00000, 0x44100000, 0x44300000, 0x44700000, 0x44900000,
      0x44B00000, 0x44F00000, 0x45100000, 0x45300000, 0x45700000, 0x45900000, 0x45B00000, 0x45F00000,
      0x46100000, 0x46300000, 0x46700000, 0x46900000, 0x46B00000, 0x46F00000, 0x47100000, 0x47300000,
      0x47700000, 0x475FFFFF, 0x47600000, 0x47600001, 0x476FFFFF, 0x47700001, 0x47800000, 0x7149F2CA,
      0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x807FFFFF,
      0x80800000, 0xB6FFFFFF, 0xB7000000, 0xB7000001, 0xB7C00000, 0xB8200000, 0xB85FFFFF, 0xB8600000,
      0xB8600001, 0xB87FFFFF, 0xB8800000, 0xB8800001, 0xB8900000, 0xB8B00000, 0xB8F00000, 0xC7100000,
      0xC7300000, 0xC7700000, 0xC75FFFFF, 0xC7600000, 0xC7600001, 0xC76FFFFF, 0xC7700001, 0xC7800000,
      0xF149F2CA, 0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000, 0xFFFFFFFF]> : tensor<150xf32>
  %d_f8E5M2 = tensor.cast %x_f8E5M2 : tensor<150xf32> to tensor<?xf32>
  %c_f8E5M2 = call @codes_f8E5M2(%d_f8E5M2) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f8E5M2 = tensor.cast %c_f8E5M2 : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f8E5M2) : (tensor<*xi32>) -> ()
  vector.print str "f8E4M3FNUZ\n"
  %x_f8E4M3FNUZ = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x39FFFFFF, 0x3A000000, 0x3A000001, 0x3AC00000,
      0x3B200000, 0x3B600000, 0x3B900000, 0x3BB00000, 0x3BD00000, 0x3BEFFFFF, 0x3BF00000, 0x3BF00001,
      0x3BFFFFFF, 0x3C000000, 0x3C000001, 0x3C080000, 0x3C180000, 0x3C780000, 0x3C880000, 0x3C980000,
      0x3CF80000, 0x3D080000, 0x3D180000, 0x3D780000, 0x3D880000, 0x3D980000, 0x3DF80000, 0x3E080000,
      0x3E180000, 0x3E780000, 0x3E880000, 0x3E980000, 0x3EF80000, 0x3F080000, 0x3F180000, 0x3F780000,
      0x3F880000, 0x3F980000, 0x3FF80000, 0x40080000, 0x40180000, 0x40780000, 0x40880000, 0x40980000,
      0x40F80000, 0x41080000, 0x41180000, 0x41780000, 0x41880000, 0x41980000, 0x41F80000, 0x42080000,
      0x42180000, 0x42780000, 0x42880000, 0x42980000, 0x42F80000, 0x43080000, 0x43180000, 0x43780000,
      0x436FFFFF, 0x43700000, 0x43700001, 0x4377FFFF, 0x43780001, 0x43800000, 0x7149F2CA, 0x7F7FFFFF,
      0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x807FFFFF, 0x80800000,
      0xB9FFFFFF, 0xBA000000, 0xBA000001, 0xBAC00000, 0xBB200000, 0xBB600000, 0xBB900000, 0xBBB00000,
      0xBBD00000, 0xBBEFFFFF, 0xBBF00000, 0xBBF00001, 0xBBFFFFFF, 0xBC000000, 0xBC000001, 0xBC080000,
      0xBC180000, 0xBC780000, 0xC3080000, 0xC3180000, 0xC3780000, 0xC36FFFFF, 0xC3700000, 0xC3700001,
      0xC377FFFF, 0xC3780001, 0xC3800000, 0xF149F2CA, 0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000,
      0xFFFFFFFF]> : tensor<113xf32>
  %d_f8E4M3FNUZ = tensor.cast %x_f8E4M3FNUZ : tensor<113xf32> to tensor<?xf32>
  %c_f8E4M3FNUZ = call @codes_f8E4M3FNUZ(%d_f8E4M3FNUZ) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f8E4M3FNUZ = tensor.cast %c_f8E4M3FNUZ : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f8E4M3FNUZ) : (tensor<*xi32>) -> ()
  vector.print str "f8E5M2FNUZ\n"
  %x_f8E5M2FNUZ = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x367FFFFF, 0x36800000, 0x36800001, 0x37400000,
      0x37A00000, 0x37DFFFFF, 0x37E00000, 0x37E00001, 0x37FFFFFF, 0x38000000, 0x38000001, 0x38100000,
      0x38300000, 0x38700000, 0x38900000, 0x38B00000, 0x38F00000, 0x39100000, 0x39300000, 0x39700000,
      0x39900000, 0x39B00000, 0x39F00000, 0x3A100000, 0x3A300000, 0x3A700000, 0x3A900000, 0x3AB00000,
      0x3AF00000, 0x3B100000, 0x3B300000, 0x3B700000, 0x3B900000, 0x3BB00000, 0x3BF00000, 0x3C100000,
      0x3C300000, 0x3C700000, 0x3C900000, 0x3CB00000, 0x3CF00000, 0x3D100000, 0x3D300000, 0x3D700000,
      0x3D900000, 0x3DB00000, 0x3DF00000, 0x3E100000, 0x3E300000, 0x3E700000, 0x3E900000, 0x3EB00000,
      0x3EF00000, 0x3F100000, 0x3F300000, 0x3F700000, 0x3F900000, 0x3FB00000, 0x3FF00000, 0x40100000,
      0x40300000, 0x40700000, 0x40900000, 0x40B00000, 0x40F00000, 0x41100000, 0x41300000, 0x41700000,
      0x41900000, 0x41B00000, 0x41F00000, 0x42100000, 0x42300000, 0x42700000, 0x42900000, 0x42B00000,
      0x42F00000, 0x43100000, 0x43300000, 0x43700000, 0x43900000, 0x43B00000, 0x43F00000, 0x44100000,
      0x44300000, 0x44700000, 0x44900000, 0x44B00000, 0x44F00000, 0x45100000, 0x45300000, 0x45700000,
      0x45900000, 0x45B00000, 0x45F00000, 0x46100000, 0x46300000, 0x46700000, 0x46900000, 0x46B00000,
      0x46F00000, 0x47100000, 0x47300000, 0x47700000, 0x475FFFFF, 0x47600000, 0x47600001, 0x476FFFFF,
      0x47700001, 0x47800000, 0x7149F2CA, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,
      0x80000000, 0x80000001, 0x807FFFFF, 0x80800000, 0xB67FFFFF, 0xB6800000, 0xB6800001, 0xB7400000,
      0xB7A00000, 0xB7DFFFFF, 0xB7E00000, 0xB7E00001, 0xB7FFFFFF, 0xB8000000, 0xB8000001, 0xB8100000,
      0xB8300000, 0xB8700000, 0xC7100000, 0xC7300000, 0xC7700000, 0xC75FFFFF, 0xC7600000, 0xC7600001,
      0xC76FFFFF, 0xC7700001, 0xC7800000, 0xF149F2CA, 0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000,
      0xFFFFFFFF]> : tensor<153xf32>
  %d_f8E5M2FNUZ = tensor.cast %x_f8E5M2FNUZ : tensor<153xf32> to tensor<?xf32>
  %c_f8E5M2FNUZ = call @codes_f8E5M2FNUZ(%d_f8E5M2FNUZ) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f8E5M2FNUZ = tensor.cast %c_f8E5M2FNUZ : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f8E5M2FNUZ) : (tensor<*xi32>) -> ()
  vector.print str "f6E2M3FN\n"
  %x_f6E2M3FN = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3D7FFFFF, 0x3D800000, 0x3D800001, 0x3E400000,
      0x3EA00000, 0x3EE00000, 0x3F100000, 0x3F300000, 0x3F500000, 0x3F6FFFFF, 0x3F700000, 0x3F700001,
      0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x3F880000, 0x3F980000, 0x3FF80000, 0x40080000, 0x40180000,
      0x40780000, 0x40880000, 0x40980000, 0x40F80000, 0x40EFFFFF, 0x40F00000, 0x40F00001, 0x40F7FFFF,
      0x40F80001, 0x41000000, 0x7149F2CA, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,
      0x80000000, 0x80000001, 0x807FFFFF, 0x80800000, 0xBD7FFFFF, 0xBD800000, 0xBD800001, 0xBE400000,
      0xBEA00000, 0xBEE00000, 0xBF100000, 0xBF300000, 0xBF500000, 0xBF6FFFFF, 0xBF700000, 0xBF700001,
      0xBF7FFFFF, 0xBF800000, 0xBF800001, 0xBF880000, 0xBF980000, 0xBFF80000, 0xC0880000, 0xC0980000,
      0xC0F80000, 0xC0EFFFFF, 0xC0F00000, 0xC0F00001, 0xC0F7FFFF, 0xC0F80001, 0xC1000000, 0xF149F2CA,
      0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000, 0xFFFFFFFF]> : tensor<77xf32>
  %d_f6E2M3FN = tensor.cast %x_f6E2M3FN : tensor<77xf32> to tensor<?xf32>
  %c_f6E2M3FN = call @codes_f6E2M3FN(%d_f6E2M3FN) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f6E2M3FN = tensor.cast %c_f6E2M3FN : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f6E2M3FN) : (tensor<*xi32>) -> ()
  vector.print str "f6E3M2FN\n"
  %x_f6E3M2FN = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3CFFFFFF, 0x3D000000, 0x3D000001, 0x3DC00000,
      0x3E200000, 0x3E5FFFFF, 0x3E600000, 0x3E600001, 0x3E7FFFFF, 0x3E800000, 0x3E800001, 0x3E900000,
      0x3EB00000, 0x3EF00000, 0x3F100000, 0x3F300000, 0x3F700000, 0x3F900000, 0x3FB00000, 0x3FF00000,
      0x40100000, 0x40300000, 0x40700000, 0x40900000, 0x40B00000, 0x40F00000, 0x41100000, 0x41300000,
      0x41700000, 0x41900000, 0x41B00000, 0x41F00000, 0x41DFFFFF, 0x41E00000, 0x41E00001, 0x41EFFFFF,
      0x41F00001, 0x42000000, 0x7149F2CA, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,
      0x80000000, 0x80000001, 0x807FFFFF, 0x80800000, 0xBCFFFFFF, 0xBD000000, 0xBD000001, 0xBDC00000,
      0xBE200000, 0xBE5FFFFF, 0xBE600000, 0xBE600001, 0xBE7FFFFF, 0xBE800000, 0xBE800001, 0xBE900000,
      0xBEB00000, 0xBEF00000, 0xC1900000, 0xC1B00000, 0xC1F00000, 0xC1DFFFFF, 0xC1E00000, 0xC1E00001,
      0xC1EFFFFF, 0xC1F00001, 0xC2000000, 0xF149F2CA, 0xFF7FFFFF, 0xFF800000, 0xFF800001, 0xFFC00000,
      0xFFFFFFFF]> : tensor<81xf32>
  %d_f6E3M2FN = tensor.cast %x_f6E3M2FN : tensor<81xf32> to tensor<?xf32>
  %c_f6E3M2FN = call @codes_f6E3M2FN(%d_f6E3M2FN) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f6E3M2FN = tensor.cast %c_f6E3M2FN : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f6E3M2FN) : (tensor<*xi32>) -> ()
  vector.print str "f4E2M1FN\n"
  %x_f4E2M1FN = arith.constant dense<[0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3E7FFFFF, 0x3E800000, 0x3E800001, 0x3F3FFFFF,
      0x3F400000, 0x3F400001, 0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x3FA00000, 0x3FE00000, 0x40200000,
      0x40600000, 0x40A00000, 0x40E00000, 0x40BFFFFF, 0x40C00000, 0x40C00001, 0x40DFFFFF, 0x40E00001,
      0x41000000, 0x7149F2CA, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x80000000,
      0x80000001, 0x807FFFFF, 0x80800000, 0xBE7FFFFF, 0xBE800000, 0xBE800001, 0xBF3FFFFF, 0xBF400000,
      0xBF400001, 0xBF7FFFFF, 0xBF800000, 0xBF800001, 0xBFA00000, 0xBFE00000, 0xC0A00000, 0xC0E00000,
      0xC0BFFFFF, 0xC0C00000, 0xC0C00001, 0xC0DFFFFF, 0xC0E00001, 0xC1000000, 0xF149F2CA, 0xFF7FFFFF,
      0xFF800000, 0xFF800001, 0xFFC00000, 0xFFFFFFFF]> : tensor<60xf32>
  %d_f4E2M1FN = tensor.cast %x_f4E2M1FN : tensor<60xf32> to tensor<?xf32>
  %c_f4E2M1FN = call @codes_f4E2M1FN(%d_f4E2M1FN) : (tensor<?xf32>) -> tensor<?xi32>
  %u_f4E2M1FN = tensor.cast %c_f4E2M1FN : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u_f4E2M1FN) : (tensor<*xi32>) -> ()
  return
}
