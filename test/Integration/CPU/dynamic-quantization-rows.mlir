// Dynamic quantization fused by rows (quant-affine-fuse-reduction-rows):
// compute_encoding feeding quantize of the same activations in one
// function, against the same two ops compiled apart (the encodings computed
// by a function the quantize cannot see into), bit for bit: the codes and
// the encodings. Per token (three tiles of 16 rows of 256 f32, 1 KiB each),
// per block of 32 (symmetric and asymmetric) and per block of f16. The rows
// hold NaN, +inf, -inf, all-equal, all-zero, negative-zero, subnormal and
// tie values. Under every CPU option set.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true runtime-checks=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// The fusion happens (and not in the functions compiled apart):
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" --mlir-print-ir-after=quant-affine-fuse-reduction-rows --mlir-disable-threading 2>&1 \
// RUN: | FileCheck %s --check-prefix=FUSED

// FUSED-LABEL: func.func @fused_token(
// FUSED: scf.forall {{.*}} = (0) to (48) step (16)
// FUSED-LABEL: func.func @encode_token(
// FUSED-NOT: scf.forall
// FUSED-LABEL: func.func @fused_block(
// FUSED: scf.forall {{.*}} = (0) to (48) step (16)
// FUSED-LABEL: func.func @fused_block_asym(
// FUSED: scf.forall {{.*}} = (0) to (48) step (16)
// FUSED-LABEL: func.func @fused_block_f16(
// FUSED: scf.forall {{.*}} = (0) to (48) step (24)

func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})

func.func @fused_token(%x: tensor<48x256xf32>) -> (tensor<48x1xf32>, tensor<48x1xf32>, tensor<48x256xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x256xf32> -> (tensor<48x1xf32>, tensor<48x1xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<48x256xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x256xi8>
  return %s, %o, %q : tensor<48x1xf32>, tensor<48x1xf32>, tensor<48x256xi8>
}
func.func @encode_token(%x: tensor<48x256xf32>) -> (tensor<48x1xf32>, tensor<48x1xf32>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] : tensor<48x256xf32> -> (tensor<48x1xf32>, tensor<48x1xf32>)
  return %s, %o : tensor<48x1xf32>, tensor<48x1xf32>
}
func.func @quantize_token(%x: tensor<48x256xf32>, %s: tensor<48x1xf32>, %o: tensor<48x1xf32>) -> tensor<48x256xi8> {
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] : (tensor<48x256xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x256xi8>
  return %q : tensor<48x256xi8>
}

func.func @fused_block(%x: tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 32] : tensor<48x256xf32> -> (tensor<48x8xf32>, tensor<48x8xf32>)
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32] : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  return %s, %o, %q : tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>
}
func.func @encode_block(%x: tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>) {
  %s, %o = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 32] : tensor<48x256xf32> -> (tensor<48x8xf32>, tensor<48x8xf32>)
  return %s, %o : tensor<48x8xf32>, tensor<48x8xf32>
}
func.func @quantize_block(%x: tensor<48x256xf32>, %s: tensor<48x8xf32>, %o: tensor<48x8xf32>) -> tensor<48x256xi8> {
  %q = quant_affine.quantize %x, %s, %o range [-8, 7] block [1, 32] : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  return %q : tensor<48x256xi8>
}

func.func @fused_block_asym(%x: tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [0, 15] block [1, 32] : tensor<48x256xf32> -> (tensor<48x8xf32>, tensor<48x8xf32>)
  %q = quant_affine.quantize %x, %s, %o range [0, 15] block [1, 32] : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  return %s, %o, %q : tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>
}
func.func @encode_block_asym(%x: tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>) {
  %s, %o = quant_affine.compute_encoding %x range [0, 15] block [1, 32] : tensor<48x256xf32> -> (tensor<48x8xf32>, tensor<48x8xf32>)
  return %s, %o : tensor<48x8xf32>, tensor<48x8xf32>
}
func.func @quantize_block_asym(%x: tensor<48x256xf32>, %s: tensor<48x8xf32>, %o: tensor<48x8xf32>) -> tensor<48x256xi8> {
  %q = quant_affine.quantize %x, %s, %o range [0, 15] block [1, 32] : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  return %q : tensor<48x256xi8>
}

func.func @fused_block_f16(%x: tensor<48x256xf16>) -> (tensor<48x8xf16>, tensor<48x8xf16>, tensor<48x256xi8>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] block [1, 32] : tensor<48x256xf16> -> (tensor<48x8xf16>, tensor<48x8xf16>)
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] block [1, 32] : (tensor<48x256xf16>, tensor<48x8xf16>, tensor<48x8xf16>) -> tensor<48x256xi8>
  return %s, %o, %q : tensor<48x8xf16>, tensor<48x8xf16>, tensor<48x256xi8>
}
func.func @encode_block_f16(%x: tensor<48x256xf16>) -> (tensor<48x8xf16>, tensor<48x8xf16>) {
  %s, %o = quant_affine.compute_encoding %x range [-128, 127] block [1, 32] : tensor<48x256xf16> -> (tensor<48x8xf16>, tensor<48x8xf16>)
  return %s, %o : tensor<48x8xf16>, tensor<48x8xf16>
}
func.func @quantize_block_f16(%x: tensor<48x256xf16>, %s: tensor<48x8xf16>, %o: tensor<48x8xf16>) -> tensor<48x256xi8> {
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] block [1, 32] : (tensor<48x256xf16>, tensor<48x8xf16>, tensor<48x8xf16>) -> tensor<48x256xi8>
  return %q : tensor<48x256xi8>
}

// The activations: a hash of the position, scaled per row by 2^(row % 5 - 2)
// and made a multiple of 1/8 (ties under many scales); row 5 holds +inf,
// row 9 a NaN, row 11 -inf, row 13 is all 3.0, row 17 holds a negative NaN,
// row 19 a signaling NaN, row 21 is all +0.0, row 23 holds a negative
// signaling NaN, row 25 +inf and -inf, row 30 is all -0.0, row 40
// subnormal.
func.func @activations() -> tensor<48x256xf32> {
  %e = tensor.empty() : tensor<48x256xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<48x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %c7919 = arith.constant 7919 : i32
    %c104729 = arith.constant 104729 : i32
    %golden = arith.constant -1640531535 : i32
    %c8 = arith.constant 8 : i32
    %c4001 = arith.constant 4001 : i32
    %c2000 = arith.constant 2000 : i32
    %a = arith.muli %ii, %c7919 : i32
    %b = arith.muli %jj, %c104729 : i32
    %h0 = arith.addi %a, %b : i32
    %h = arith.muli %h0, %golden : i32
    %hs = arith.shrui %h, %c8 : i32
    %m = arith.remui %hs, %c4001 : i32
    %v = arith.subi %m, %c2000 : i32
    %f = arith.sitofp %v : i32 to f32
    %eighth = arith.constant 0.125 : f32
    %base = arith.mulf %f, %eighth : f32
    %c5 = arith.constant 5 : i32
    %r5 = arith.remui %ii, %c5 : i32
    %c2 = arith.constant 2 : i32
    %e2 = arith.subi %r5, %c2 : i32
    %ef = arith.sitofp %e2 : i32 to f32
    %scale = math.exp2 %ef : f32
    %x0 = arith.mulf %base, %scale : f32
    %c5_i = arith.constant 5 : index
    %c9_i = arith.constant 9 : index
    %c11_i = arith.constant 11 : index
    %c13_i = arith.constant 13 : index
    %c21_i = arith.constant 21 : index
    %c30_i = arith.constant 30 : index
    %c40_i = arith.constant 40 : index
    %c17_i = arith.constant 17 : index
    %c19_i = arith.constant 19 : index
    %c23_i = arith.constant 23 : index
    %c25_i = arith.constant 25 : index
    %c0_j = arith.constant 0 : index
    %c1_j = arith.constant 1 : index
    %c5_j = arith.constant 5 : index
    %c64_j = arith.constant 64 : index
    %c255_j = arith.constant 255 : index
    %c17 = arith.constant 17 : index
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %at17 = arith.cmpi eq, %j, %c17 : index
    %at100 = arith.cmpi eq, %j, %c100 : index
    %at200 = arith.cmpi eq, %j, %c200 : index
    %row5 = arith.cmpi eq, %i, %c5_i : index
    %row9 = arith.cmpi eq, %i, %c9_i : index
    %row11 = arith.cmpi eq, %i, %c11_i : index
    %row13 = arith.cmpi eq, %i, %c13_i : index
    %row21 = arith.cmpi eq, %i, %c21_i : index
    %row30 = arith.cmpi eq, %i, %c30_i : index
    %row40 = arith.cmpi eq, %i, %c40_i : index
    %inf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %three = arith.constant 3.0 : f32
    %zero = arith.constant 0.0 : f32
    %nzero = arith.constant -0.0 : f32
    %tiny = arith.constant 1.0e-40 : f32
    %p5 = arith.andi %row5, %at17 : i1
    %p9 = arith.andi %row9, %at100 : i1
    %p11 = arith.andi %row11, %at200 : i1
    %x1 = arith.select %p5, %inf, %x0 : f32
    %x2 = arith.select %p9, %nan, %x1 : f32
    %x3 = arith.select %p11, %ninf, %x2 : f32
    %x4 = arith.select %row13, %three, %x3 : f32
    %x5 = arith.select %row21, %zero, %x4 : f32
    %x6 = arith.select %row30, %nzero, %x5 : f32
    %sub = arith.mulf %base, %tiny : f32
    %x7 = arith.select %row40, %sub, %x6 : f32
    %row17 = arith.cmpi eq, %i, %c17_i : index
    %row19 = arith.cmpi eq, %i, %c19_i : index
    %row23 = arith.cmpi eq, %i, %c23_i : index
    %row25 = arith.cmpi eq, %i, %c25_i : index
    %at0 = arith.cmpi eq, %j, %c0_j : index
    %at1 = arith.cmpi eq, %j, %c1_j : index
    %at5 = arith.cmpi eq, %j, %c5_j : index
    %at64 = arith.cmpi eq, %j, %c64_j : index
    %at255 = arith.cmpi eq, %j, %c255_j : index
    %negnan = arith.constant 0xFFC00000 : f32
    %snan = arith.constant 0x7F800001 : f32
    %negsnan = arith.constant 0xFF800001 : f32
    %p17 = arith.andi %row17, %at5 : i1
    %p19 = arith.andi %row19, %at64 : i1
    %p23 = arith.andi %row23, %at255 : i1
    %p25a = arith.andi %row25, %at0 : i1
    %p25b = arith.andi %row25, %at1 : i1
    %x8 = arith.select %p17, %negnan, %x7 : f32
    %x9 = arith.select %p19, %snan, %x8 : f32
    %x10 = arith.select %p23, %negsnan, %x9 : f32
    %x11 = arith.select %p25a, %inf, %x10 : f32
    %x12 = arith.select %p25b, %ninf, %x11 : f32
    linalg.yield %x12 : f32
  } -> tensor<48x256xf32>
  return %x : tensor<48x256xf32>
}

// The number of elements whose bits differ, NaN matching any NaN (a
// rewrite may replace a NaN by another NaN, DESIGN.md section 5).
func.func @count_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %acc: i64):
    %xi = arith.bitcast %x : f32 to i32
    %yi = arith.bitcast %y : f32 to i32
    %ne = arith.cmpi ne, %xi, %yi : i32
    %xn = arith.cmpf uno, %x, %x : f32
    %yn = arith.cmpf uno, %y, %y : f32
    %both = arith.andi %xn, %yn : i1
    %true = arith.constant true
    %notboth = arith.xori %both, %true : i1
    %diff = arith.andi %ne, %notboth : i1
    %one = arith.extui %diff : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %r[] : tensor<i64>
  return %n : i64
}
// The number of NaN elements.
func.func @count_nan(%a: tensor<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<?x?xf32>) outs(%z : tensor<i64>) {
  ^bb0(%x: f32, %acc: i64):
    %n = arith.cmpf uno, %x, %x : f32
    %one = arith.extui %n : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %r[] : tensor<i64>
  return %n : i64
}
func.func @count_f16(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>) -> i64 {
  %ae = arith.extf %a : tensor<?x?xf16> to tensor<?x?xf32>
  %be = arith.extf %b : tensor<?x?xf16> to tensor<?x?xf32>
  %n = call @count_f32(%ae, %be) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  return %n : i64
}
func.func @count_i8(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>) -> i64 {
  %ae = arith.extsi %a : tensor<?x?xi8> to tensor<?x?xi64>
  %be = arith.extsi %b : tensor<?x?xi8> to tensor<?x?xi64>
  %n = call @count_i64(%ae, %be) : (tensor<?x?xi64>, tensor<?x?xi64>) -> i64
  return %n : i64
}
func.func @count_i64(%a: tensor<?x?xi64>, %b: tensor<?x?xi64>) -> i64 {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a, %b : tensor<?x?xi64>, tensor<?x?xi64>) outs(%z : tensor<i64>) {
  ^bb0(%x: i64, %y: i64, %acc: i64):
    %ne = arith.cmpi ne, %x, %y : i64
    %one = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %r[] : tensor<i64>
  return %n : i64
}

func.func @print_counts(%a: i64, %b: i64, %c: i64) {
  %e = tensor.from_elements %a, %b, %c : tensor<3xi64>
  %u = tensor.cast %e : tensor<3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  %x = call @activations() : () -> tensor<48x256xf32>
  %xd = tensor.cast %x : tensor<48x256xf32> to tensor<?x?xf32>

  // Per token: scales, offsets, codes differ nowhere.
  // CHECK: [0,  0,  0]
  %s1, %o1, %q1 = call @fused_token(%x) : (tensor<48x256xf32>) -> (tensor<48x1xf32>, tensor<48x1xf32>, tensor<48x256xi8>)
  %s1r, %o1r = call @encode_token(%x) : (tensor<48x256xf32>) -> (tensor<48x1xf32>, tensor<48x1xf32>)
  %q1r = call @quantize_token(%x, %s1r, %o1r) : (tensor<48x256xf32>, tensor<48x1xf32>, tensor<48x1xf32>) -> tensor<48x256xi8>
  %s1d = tensor.cast %s1 : tensor<48x1xf32> to tensor<?x?xf32>
  %s1rd = tensor.cast %s1r : tensor<48x1xf32> to tensor<?x?xf32>
  %o1d = tensor.cast %o1 : tensor<48x1xf32> to tensor<?x?xf32>
  %o1rd = tensor.cast %o1r : tensor<48x1xf32> to tensor<?x?xf32>
  %q1d = tensor.cast %q1 : tensor<48x256xi8> to tensor<?x?xi8>
  %q1rd = tensor.cast %q1r : tensor<48x256xi8> to tensor<?x?xi8>
  %n1s = call @count_f32(%s1d, %s1rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n1o = call @count_f32(%o1d, %o1rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n1q = call @count_i8(%q1d, %q1rd) : (tensor<?x?xi8>, tensor<?x?xi8>) -> i64
  call @print_counts(%n1s, %n1o, %n1q) : (i64, i64, i64) -> ()

  // Per block of 32, symmetric.
  // CHECK: [0,  0,  0]
  %s2, %o2, %q2 = call @fused_block(%x) : (tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>)
  %s2r, %o2r = call @encode_block(%x) : (tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>)
  %q2r = call @quantize_block(%x, %s2r, %o2r) : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  %s2d = tensor.cast %s2 : tensor<48x8xf32> to tensor<?x?xf32>
  %s2rd = tensor.cast %s2r : tensor<48x8xf32> to tensor<?x?xf32>
  %o2d = tensor.cast %o2 : tensor<48x8xf32> to tensor<?x?xf32>
  %o2rd = tensor.cast %o2r : tensor<48x8xf32> to tensor<?x?xf32>
  %q2d = tensor.cast %q2 : tensor<48x256xi8> to tensor<?x?xi8>
  %q2rd = tensor.cast %q2r : tensor<48x256xi8> to tensor<?x?xi8>
  %n2s = call @count_f32(%s2d, %s2rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n2o = call @count_f32(%o2d, %o2rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n2q = call @count_i8(%q2d, %q2rd) : (tensor<?x?xi8>, tensor<?x?xi8>) -> i64
  call @print_counts(%n2s, %n2o, %n2q) : (i64, i64, i64) -> ()

  // Per block of 32, asymmetric.
  // CHECK: [0,  0,  0]
  %s3, %o3, %q3 = call @fused_block_asym(%x) : (tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>, tensor<48x256xi8>)
  %s3r, %o3r = call @encode_block_asym(%x) : (tensor<48x256xf32>) -> (tensor<48x8xf32>, tensor<48x8xf32>)
  %q3r = call @quantize_block_asym(%x, %s3r, %o3r) : (tensor<48x256xf32>, tensor<48x8xf32>, tensor<48x8xf32>) -> tensor<48x256xi8>
  %s3d = tensor.cast %s3 : tensor<48x8xf32> to tensor<?x?xf32>
  %s3rd = tensor.cast %s3r : tensor<48x8xf32> to tensor<?x?xf32>
  %o3d = tensor.cast %o3 : tensor<48x8xf32> to tensor<?x?xf32>
  %o3rd = tensor.cast %o3r : tensor<48x8xf32> to tensor<?x?xf32>
  %q3d = tensor.cast %q3 : tensor<48x256xi8> to tensor<?x?xi8>
  %q3rd = tensor.cast %q3r : tensor<48x256xi8> to tensor<?x?xi8>
  %n3s = call @count_f32(%s3d, %s3rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n3o = call @count_f32(%o3d, %o3rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  %n3q = call @count_i8(%q3d, %q3rd) : (tensor<?x?xi8>, tensor<?x?xi8>) -> i64
  call @print_counts(%n3s, %n3o, %n3q) : (i64, i64, i64) -> ()

  // NaN scales: the rows with a NaN of either sign, quiet or signaling
  // (per token), and their blocks (per block).
  // CHECK: [4,  4,  4]
  %nt = call @count_nan(%s1d) : (tensor<?x?xf32>) -> i64
  %s2c = tensor.cast %s2 : tensor<48x8xf32> to tensor<?x?xf32>
  %nb = call @count_nan(%s2c) : (tensor<?x?xf32>) -> i64
  %s3c = tensor.cast %s3 : tensor<48x8xf32> to tensor<?x?xf32>
  %na = call @count_nan(%s3c) : (tensor<?x?xf32>) -> i64
  call @print_counts(%nt, %nb, %na) : (i64, i64, i64) -> ()

  // Per block of 32 in f16 (the activations rounded to f16).
  // CHECK: [0,  0,  0]
  %xh = arith.truncf %x : tensor<48x256xf32> to tensor<48x256xf16>
  %s4, %o4, %q4 = call @fused_block_f16(%xh) : (tensor<48x256xf16>) -> (tensor<48x8xf16>, tensor<48x8xf16>, tensor<48x256xi8>)
  %s4r, %o4r = call @encode_block_f16(%xh) : (tensor<48x256xf16>) -> (tensor<48x8xf16>, tensor<48x8xf16>)
  %q4r = call @quantize_block_f16(%xh, %s4r, %o4r) : (tensor<48x256xf16>, tensor<48x8xf16>, tensor<48x8xf16>) -> tensor<48x256xi8>
  %s4d = tensor.cast %s4 : tensor<48x8xf16> to tensor<?x?xf16>
  %s4rd = tensor.cast %s4r : tensor<48x8xf16> to tensor<?x?xf16>
  %o4d = tensor.cast %o4 : tensor<48x8xf16> to tensor<?x?xf16>
  %o4rd = tensor.cast %o4r : tensor<48x8xf16> to tensor<?x?xf16>
  %q4d = tensor.cast %q4 : tensor<48x256xi8> to tensor<?x?xi8>
  %q4rd = tensor.cast %q4r : tensor<48x256xi8> to tensor<?x?xi8>
  %n4s = call @count_f16(%s4d, %s4rd) : (tensor<?x?xf16>, tensor<?x?xf16>) -> i64
  %n4o = call @count_f16(%o4d, %o4rd) : (tensor<?x?xf16>, tensor<?x?xf16>) -> i64
  %n4q = call @count_i8(%q4d, %q4rd) : (tensor<?x?xi8>, tensor<?x?xi8>) -> i64
  call @print_counts(%n4s, %n4o, %n4q) : (i64, i64, i64) -> ()
  return
}
