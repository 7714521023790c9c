// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="chip=%gpu_chip format=fatbin" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%cuda_runtime_lib \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="chip=%gpu_chip format=fatbin reduction-threads=0" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%cuda_runtime_lib \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// REQUIRES: cuda-gpu

// The fused int4 decode on the GPU checks itself (docs/FusedMatmul.md, "GPU"):
// 8 weight rows of K = 1024 (32 blocks of 32, scales 2^-e), computed by warp
// sums (4 rows a warp, 16-element vector steps) and, in the second run, by a
// thread per result. One-hot activations must give the dequantized weights
// bit for bit; activations in quarters give sums that are exact in every
// order (multiples of 2^-6 below 2^13), which must match a sum on the host
// bit for bit. Each line prints the number of mismatches. The codes and
// scales come from functions of their own, so nothing fuses their
// computation into the matmul: the kernel reads packed codes.
// (Also runs through the CPU pipeline with mlir-runner, which is how it was
// checked where no GPU was.)

// CHECK: one-hot mismatches
// CHECK-NEXT: 0
// CHECK-NEXT: sum mismatches
// CHECK-NEXT: 0

func.func @fused(%x: tensor<1x1024xf32>, %q: tensor<8x1024xi4>, %s: tensor<8x32xf32>, %out: memref<1x8xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<8x1024xi4>, tensor<8x32xf32>) -> tensor<8x1024xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x1024xf32>, tensor<8x1024xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<1x8xf32>, memref<1x8xf32>) -> ()
  return
}

func.func @weights(%q: tensor<8x1024xi4>, %s: tensor<8x32xf32>, %out: memref<8x1024xf32>) {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<8x1024xi4>, tensor<8x32xf32>) -> tensor<8x1024xf32>
  bufferization.materialize_in_destination %w in restrict writable %out : (tensor<8x1024xf32>, memref<8x1024xf32>) -> ()
  return
}

// code(n, k) = (7 n + 3 k) mod 16 - 8
func.func @codes() -> tensor<8x1024xi4> {
  %e = tensor.empty() : tensor<8x1024xi4>
  %c = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x1024xi4>) {
  ^bb0(%o: i4):
    %n = linalg.index 0 : index
    %k = linalg.index 1 : index
    %v = affine.apply affine_map<(n, k) -> ((n * 7 + k * 3) mod 16 - 8)>(%n, %k)
    %i = arith.index_cast %v : index to i4
    linalg.yield %i : i4
  } -> tensor<8x1024xi4>
  return %c : tensor<8x1024xi4>
}

// scale(n, b) = 2^-((n + b) mod 5)
func.func @scales() -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %one = arith.constant 1.0 : f32
  %s = linalg.generic {indexing_maps = [affine_map<(n, b) -> (n, b)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x32xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %b = linalg.index 1 : index
    %v = affine.apply affine_map<(n, b) -> ((n + b) mod 5)>(%n, %b)
    %i = arith.index_cast %v : index to i32
    %bit = arith.constant 1 : i32
    %pow = arith.shli %bit, %i : i32
    %powf = arith.sitofp %pow : i32 to f32
    %r = arith.divf %one, %powf : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %none = arith.constant 0 : i64
  %q = call @codes() : () -> tensor<8x1024xi4>
  %s = call @scales() : () -> tensor<8x32xf32>
  %w = memref.alloc() : memref<8x1024xf32>
  call @weights(%q, %s, %w) : (tensor<8x1024xi4>, tensor<8x32xf32>, memref<8x1024xf32>) -> ()
  %x = memref.alloc() : memref<1x1024xf32>
  %y = memref.alloc() : memref<1x8xf32>

  // One-hot rows: x = e_hot for a few positions (first, second block, middle,
  // last), each result must be the weight at (n, hot), bit for bit.
  %hots = arith.constant dense<[0, 33, 511, 1023]> : tensor<4xindex>
  %c4 = arith.constant 4 : index
  %bad1 = scf.for %h = %c0 to %c4 step %c1 iter_args(%acc = %none) -> (i64) {
    %hot = tensor.extract %hots[%h] : tensor<4xindex>
    scf.for %k = %c0 to %c1024 step %c1 {
      memref.store %zero, %x[%c0, %k] : memref<1x1024xf32>
    }
    memref.store %one, %x[%c0, %hot] : memref<1x1024xf32>
    %xt = bufferization.to_tensor %x restrict : memref<1x1024xf32> to tensor<1x1024xf32>
    func.call @fused(%xt, %q, %s, %y) : (tensor<1x1024xf32>, tensor<8x1024xi4>, tensor<8x32xf32>, memref<1x8xf32>) -> ()
    %r = scf.for %n = %c0 to %c8 step %c1 iter_args(%a = %acc) -> (i64) {
      %got = memref.load %y[%c0, %n] : memref<1x8xf32>
      %want = memref.load %w[%n, %hot] : memref<8x1024xf32>
      %gb = arith.bitcast %got : f32 to i32
      %wb = arith.bitcast %want : f32 to i32
      %ne = arith.cmpi ne, %gb, %wb : i32
      %inc = arith.extui %ne : i1 to i64
      %a2 = arith.addi %a, %inc : i64
      scf.yield %a2 : i64
    }
    scf.yield %r : i64
  }
  vector.print str "one-hot mismatches\n"
  vector.print %bad1 : i64

  // x(k) = ((5 k) mod 9 - 4) / 4: every sum is exact, so the host's
  // sequential sum is the answer in any order.
  %quarter = arith.constant 0.25 : f32
  scf.for %k = %c0 to %c1024 step %c1 {
    %v = affine.apply affine_map<(k) -> ((k * 5) mod 9 - 4)>(%k)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %xv = arith.mulf %vf, %quarter : f32
    memref.store %xv, %x[%c0, %k] : memref<1x1024xf32>
  }
  %xt = bufferization.to_tensor %x restrict : memref<1x1024xf32> to tensor<1x1024xf32>
  func.call @fused(%xt, %q, %s, %y) : (tensor<1x1024xf32>, tensor<8x1024xi4>, tensor<8x32xf32>, memref<1x8xf32>) -> ()
  %bad2 = scf.for %n = %c0 to %c8 step %c1 iter_args(%a = %none) -> (i64) {
    %sum = scf.for %k = %c0 to %c1024 step %c1 iter_args(%t = %zero) -> (f32) {
      %xv = memref.load %x[%c0, %k] : memref<1x1024xf32>
      %wv = memref.load %w[%n, %k] : memref<8x1024xf32>
      %p = arith.mulf %xv, %wv : f32
      %t2 = arith.addf %t, %p : f32
      scf.yield %t2 : f32
    }
    %got = memref.load %y[%c0, %n] : memref<1x8xf32>
    %gb = arith.bitcast %got : f32 to i32
    %wb = arith.bitcast %sum : f32 to i32
    %ne = arith.cmpi ne, %gb, %wb : i32
    %inc = arith.extui %ne : i1 to i64
    %a2 = arith.addi %a, %inc : i64
    scf.yield %a2 : i64
  }
  vector.print str "sum mismatches\n"
  vector.print %bad2 : i64
  return
}
