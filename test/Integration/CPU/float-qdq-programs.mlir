// float_qdq inside whole programs: a loop carrying a tensor, a branch
// choosing the format, a call with a per-block maxval, a fake-quantized weight
// feeding linalg.matmul into a tensor argument as destination, and the same
// float_qdq applied twice (which -canonicalize folds: the second RUN line
// runs the folded program, the first the unfolded one, with the same bits).
// Expected bits from ref.py (aimet_float_qdq, profile 2025; the matmul sums
// are exact).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -canonicalize --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// RUN: quant-affine-opt %s -canonicalize | FileCheck %s --check-prefix=FOLDED

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print_f32(%t: tensor<8xf32>) {
  %b = arith.bitcast %t : tensor<8xf32> to tensor<8xi32>
  %u = tensor.cast %b : tensor<8xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_bf16(%t: tensor<2x8xbf16>) {
  %b = arith.bitcast %t : tensor<2x8xbf16> to tensor<2x8xi16>
  %w = arith.extui %b : tensor<2x8xi16> to tensor<2x8xi32>
  %f = tensor.collapse_shape %w [[0, 1]] : tensor<2x8xi32> into tensor<16xi32>
  %u = tensor.cast %f : tensor<16xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// y <- float_qdq(3 * y), three times.
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %three = arith.constant dense<3.0> : tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%y = %x) -> tensor<8xf32> {
    %t = arith.mulf %y, %three : tensor<8xf32>
    %q = quant_affine.float_qdq %t format [4, 3] finite : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %q : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

func.func @branch(%x: tensor<8xf32>, %e4m3: i1) -> tensor<8xf32> {
  %r = scf.if %e4m3 -> tensor<8xf32> {
    %a = quant_affine.float_qdq %x format [4, 3] finite : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    %b = quant_affine.float_qdq %x format [5, 2] finite unsigned_zero : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Per-block maxval (blocks of 4), applied twice: the second application
// changes nothing (E5M2 on bf16 passes the fold's condition).
func.func @scaled(%x: tensor<2x8xbf16>, %m: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  %a = quant_affine.float_qdq %x, %m format [5, 2] block [1, 4]
      : (tensor<2x8xbf16>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %a : tensor<2x8xbf16>
}

// FOLDED-LABEL: func.func @twice
// FOLDED: quant_affine.float_qdq
// FOLDED-NEXT: return
func.func @twice(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %m = arith.constant dense<[[2.5, 100.0], [1000.0, 7.5]]> : tensor<2x2xf32>
  %a = quant_affine.float_qdq %x, %m format [5, 2] block [1, 4]
      : (tensor<2x8xbf16>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  %b = quant_affine.float_qdq %a, %m format [5, 2] block [1, 4]
      : (tensor<2x8xbf16>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %b : tensor<2x8xbf16>
}

// A fake-quantized weight feeding a matmul, into the caller's tensor.
func.func @matmul(%a: tensor<2x8xf32>, %w: tensor<8x4xf32>, %out: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %wq = quant_affine.float_qdq %w format [4, 3] finite : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.matmul ins(%a, %wq : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// CHECK-LABEL: loop
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1089470464,  -1037041664,  1125122048,  1138753536,  -1123024896,  0,  1024458752,  1138753536]
// CHECK-LABEL: branch e4m3
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1050673152,  -1075838976,  1084227584,  1119879168,  -1157627904,  0,  989855744,  1138753536]
// CHECK-LABEL: branch e5m2fnuz
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1050673152,  -1075838976,  1084227584,  1119879168,  -1166016512,  0,  981467136,  1138753536]
// CHECK-LABEL: scaled
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [16032,  49125,  16416,  16416,  47759,  0,  14991,  17096,  16598,  49167,  15411,  17530,  49392,  16427,  16240,  32768]
// CHECK-LABEL: twice
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [16032,  49125,  16416,  16416,  47759,  0,  14991,  17096,  16598,  49167,  15411,  17530,  49392,  16427,  16240,  32768]
// CHECK-LABEL: matmul
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1146753472,  -995518464,  1107124224,  1098670080,  -1012796992,  1140076544,  -1046118400,  1090691072]
func.func @main() {
  %x = arith.constant dense<[0.3, -1.7, 5.2, 100.0, -0.001, 0.0, 1.0e-3, 449.0]> : tensor<8xf32>
  %l = call @loop(%x) : (tensor<8xf32>) -> tensor<8xf32>
  vector.print str "loop\n"
  call @print_f32(%l) : (tensor<8xf32>) -> ()
  %true = arith.constant true
  %false = arith.constant false
  %b1 = call @branch(%x, %true) : (tensor<8xf32>, i1) -> tensor<8xf32>
  vector.print str "branch e4m3\n"
  call @print_f32(%b1) : (tensor<8xf32>) -> ()
  %b2 = call @branch(%x, %false) : (tensor<8xf32>, i1) -> tensor<8xf32>
  vector.print str "branch e5m2fnuz\n"
  call @print_f32(%b2) : (tensor<8xf32>) -> ()

  %xb = arith.constant dense<[[0.3, -1.7, 5.2, 100.0, -0.001, 0.0, 1.0e-3, 449.0],
                              [7.0, -2.25, 0.01, 3.0e4, -1.0e5, 2.5, 1.0, -0.0]]> : tensor<2x8xbf16>
  %m = arith.constant dense<[[2.5, 100.0], [1000.0, 7.5]]> : tensor<2x2xf32>
  %s = call @scaled(%xb, %m) : (tensor<2x8xbf16>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  vector.print str "scaled\n"
  call @print_bf16(%s) : (tensor<2x8xbf16>) -> ()
  %t = call @twice(%xb) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  vector.print str "twice\n"
  call @print_bf16(%t) : (tensor<2x8xbf16>) -> ()

  %a = arith.constant dense<[[1.0, 2.0, -1.0, 0.0, 3.0, 1.0, -2.0, 1.0],
                             [0.0, 1.0, 1.0, 1.0, -1.0, 2.0, 1.0, -3.0]]> : tensor<2x8xf32>
  %w = arith.constant dense<[[0.3, 1.7, -2.2, 10.0], [0.11, -0.45, 3.3, 6.0], [1.0, 2.0, -0.9, 0.07],
                             [5.5, -7.1, 0.2, 0.6], [300.0, -500.0, 0.016, 1.01], [-3.3, 2.9, 9.9, -0.5],
                             [0.002, 0.8, -1.25, 4.4], [12.0, -13.0, 14.0, 0.333]]> : tensor<8x4xf32>
  %out = tensor.empty() : tensor<2x4xf32>
  %r = call @matmul(%a, %w, %out) : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %rf = tensor.collapse_shape %r [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  vector.print str "matmul\n"
  call @print_f32(%rf) : (tensor<8xf32>) -> ()
  return
}
