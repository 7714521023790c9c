// Prefill through panels in blocks of columns (docs/FusedMatmul.md): 64
// activation rows times a 512 x 512 int8 weight with per-channel scales of 1
// and 0.5: 16 panels of 32 weight rows and 2 chunks of 256 along K, and with
// threads 8 blocks of 2 panels each (the block's panels one after another in
// each chunk).
// The layer is called from a loop whose weights a branch picks, and each
// result is compared, element by element, with a reference written as plain
// scf loops over tensor.extract in the same program. Every value is an
// integer or a half below 2^20, so every order of the sums is exact and the
// two must agree bit for bit. Under the pipeline's option sets.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline="runtime-checks=true reciprocal-division=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// With threads the layer's matmul runs in 8 blocks of 64 columns, each
// with 2 chunks of K and 2 panels per chunk.
// RUN: quant-affine-opt %s --mlir-disable-threading --mlir-print-ir-after=quant-affine-vectorize-contractions --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v4 openmp=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS-LABEL: func.func @layer
// BLOCKS: scf.forall (%{{.*}}) = (0) to (512) step (64)
// BLOCKS: scf.for %{{.*}} = %c0 to %c512 step %c256 iter_args
// BLOCKS: scf.for %{{.*}} = %c0 to %c64 step %c32 iter_args
// BLOCKS: tensor.empty() : tensor<256x32xf32>
// BLOCKS: vector.shuffle

// The checksums (sums of |y|) from a Python model of the same formulas.
// CHECK: weights 0: 0 mismatches, checksum 378496
// CHECK: weights 1: 0 mismatches, checksum 407808

#id2 = affine_map<(i, j) -> (i, j)>

// y = x @ dequantize(q, s)^T, fused.
func.func @layer(%x: tensor<64x512xf32>, %q: tensor<512x512xi8>, %s: tensor<512x1xf32>) -> tensor<64x512xf32> {
  %w = quant_affine.dequantize %q, %s range [-8, 7] : (tensor<512x512xi8>, tensor<512x1xf32>) -> tensor<512x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<64x512xf32>, tensor<512x512xf32>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}

// The same sums, one scalar at a time.
func.func @reference(%x: tensor<64x512xf32>, %q: tensor<512x512xi8>, %s: tensor<512x1xf32>) -> tensor<64x512xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %r = scf.for %m = %c0 to %c64 step %c1 iter_args(%rm = %e) -> tensor<64x512xf32> {
    %rn = scf.for %n = %c0 to %c512 step %c1 iter_args(%acc = %rm) -> tensor<64x512xf32> {
      %scale = tensor.extract %s[%n, %c0] : tensor<512x1xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%t = %zero) -> f32 {
        %a = tensor.extract %x[%m, %k] : tensor<64x512xf32>
        %code = tensor.extract %q[%n, %k] : tensor<512x512xi8>
        %cf = arith.sitofp %code : i8 to f32
        %w = arith.mulf %cf, %scale : f32
        %p = arith.mulf %a, %w : f32
        %t2 = arith.addf %t, %p : f32
        scf.yield %t2 : f32
      }
      %ins = tensor.insert %sum into %acc[%m, %n] : tensor<64x512xf32>
      scf.yield %ins : tensor<64x512xf32>
    }
    scf.yield %rn : tensor<64x512xf32>
  }
  return %r : tensor<64x512xf32>
}

// codes[n][k] = (n * a + k * b) mod 16 - 8.
func.func @codes(%a: index, %b: index) -> tensor<512x512xi8> {
  %e = tensor.empty() : tensor<512x512xi8>
  %q = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<512x512xi8>) {
  ^bb0(%out: i8):
    %n = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %c8 = arith.constant 8 : index
    %na = arith.muli %n, %a : index
    %kb = arith.muli %k, %b : index
    %sum = arith.addi %na, %kb : index
    %mod = arith.remui %sum, %c16 : index
    %v = arith.subi %mod, %c8 : index
    %i = arith.index_cast %v : index to i8
    linalg.yield %i : i8
  } -> tensor<512x512xi8>
  return %q : tensor<512x512xi8>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  // x[m][k] = (7m + 3k) mod 5 - 2; s[n] = 1 for even n, 0.5 for odd.
  %xe = tensor.empty() : tensor<64x512xf32>
  %x = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%xe : tensor<64x512xf32>) {
  ^bb0(%out: f32):
    %m = linalg.index 0 : index
    %k = linalg.index 1 : index
    %m7 = arith.muli %m, %c7 : index
    %k3 = arith.muli %k, %c3 : index
    %sum = arith.addi %m7, %k3 : index
    %mod = arith.remui %sum, %c5 : index
    %v = arith.subi %mod, %c2 : index
    %i = arith.index_cast %v : index to i32
    %f = arith.sitofp %i : i32 to f32
    linalg.yield %f : f32
  } -> tensor<64x512xf32>
  %se = tensor.empty() : tensor<512x1xf32>
  %s = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%se : tensor<512x1xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %odd = arith.remui %n, %c2 : index
    %isOdd = arith.cmpi eq, %odd, %c1 : index
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %v = arith.select %isOdd, %half, %one : f32
    linalg.yield %v : f32
  } -> tensor<512x1xf32>
  %qa = func.call @codes(%c5, %c11) : (index, index) -> tensor<512x512xi8>
  %qb = func.call @codes(%c3, %c7) : (index, index) -> tensor<512x512xi8>
  scf.for %i = %c0 to %c2 step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    %q = scf.if %first -> tensor<512x512xi8> {
      scf.yield %qa : tensor<512x512xi8>
    } else {
      scf.yield %qb : tensor<512x512xi8>
    }
    %y = func.call @layer(%x, %q, %s) : (tensor<64x512xf32>, tensor<512x512xi8>, tensor<512x1xf32>) -> tensor<64x512xf32>
    %r = func.call @reference(%x, %q, %s) : (tensor<64x512xf32>, tensor<512x512xi8>, tensor<512x1xf32>) -> tensor<64x512xf32>
    // Mismatches (compared as floats: no NaN here) and the sum of |y|.
    %zi = arith.constant 0 : i32
    %zf = arith.constant 0.0 : f32
    %ci = tensor.empty() : tensor<i32>
    %cf = tensor.empty() : tensor<f32>
    %ci0 = linalg.fill ins(%zi : i32) outs(%ci : tensor<i32>) -> tensor<i32>
    %cf0 = linalg.fill ins(%zf : f32) outs(%cf : tensor<f32>) -> tensor<f32>
    %counts:2 = linalg.generic {indexing_maps = [#id2, #id2, affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
        ins(%y, %r : tensor<64x512xf32>, tensor<64x512xf32>) outs(%ci0, %cf0 : tensor<i32>, tensor<f32>) {
    ^bb0(%a: f32, %b: f32, %n: i32, %t: f32):
      %ne = arith.cmpf une, %a, %b : f32
      %one = arith.extui %ne : i1 to i32
      %n2 = arith.addi %n, %one : i32
      %abs = math.absf %a : f32
      %t2 = arith.addf %t, %abs : f32
      linalg.yield %n2, %t2 : i32, f32
    } -> (tensor<i32>, tensor<f32>)
    %bad = tensor.extract %counts#0[] : tensor<i32>
    %sum = tensor.extract %counts#1[] : tensor<f32>
    %ii = arith.index_cast %i : index to i32
    vector.print str "weights "
    vector.print %ii : i32 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %bad : i32 punctuation <no_punctuation>
    vector.print str " mismatches, checksum "
    vector.print %sum : f32
  }
  return
}
