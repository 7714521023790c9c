// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="chip=%gpu_chip format=fatbin" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%cuda_runtime_lib \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// REQUIRES: cuda-gpu

// Whole programs that the GPU pipeline once got wrong (issue 32): constants
// that @main passes to a called function (host memory reaching a kernel), a
// dynamic leading dim with rows of two vector tiles (a guard that scaled the
// thread index twice), a per-tensor compute_encoding (its min and max on the
// host, one thread), a qdq in a loop reading its rank-0 scale on the host, a
// one-element op and a vector-form op on an argument (both left on the
// host). Expected bits: the CPU pipeline's. Also run on the CPU through
// mapping-on-cpu.test.

// CHECK-LABEL: called with constants
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1,  2,  3,  4,  5,  6,  7,  8,  5,  6,  7,  7,  8,  8,  9,  9]
// CHECK-LABEL: dynamic per-tensor encoding
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1107664810,  3253731328]
// CHECK-LABEL: dynamic per-tensor quantization, first rows
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2]
// CHECK-LABEL: qdq in a loop
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208,  3258974208]
// CHECK-LABEL: one element, vector form
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [7]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0,  -1,  0,  127,  -128,  2,  -2,  127]

func.func private @printMemrefI64(memref<*xi64>)

// public.torchao_quantize_affine.0188 through a function taking a dynamic
// leading dim, with constant arguments: rows of two vector tiles.
func.func @kernel(%x: tensor<?x8xf32>, %s: tensor<2x1xf32>, %o: tensor<2x1xf32>) -> tensor<?x8xi8> {
  %r = "quant_affine.quantize"(%x, %s, %o) <{qmin = 0 : i64, qmax = 255 : i64,
      block_size = array<i64: 1, 8>, compute_type = f32, reciprocal}>
      : (tensor<?x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<?x8xi8>
  return %r : tensor<?x8xi8>
}

// Dynamic per-tensor quantization (DynamicQuantizeLinear's case): the min and
// max of the whole tensor, then the quantization; dynamic dims.
func.func @dynamic_quantize(%x: tensor<?x?xf32>) -> (tensor<?x?xi8>, tensor<f32>, tensor<f32>) {
  %s, %o = quant_affine.compute_encoding %x range [0, 255] : tensor<?x?xf32> -> (tensor<f32>, tensor<f32>)
  %q = quant_affine.quantize %x, %s, %o range [0, 255] : (tensor<?x?xf32>, tensor<f32>, tensor<f32>) -> tensor<?x?xi8>
  return %q, %s, %o : tensor<?x?xi8>, tensor<f32>, tensor<f32>
}

// A qdq in a loop whose rank-0 scale and offset are arguments.
func.func @qdq_loop(%x: tensor<64xf32>, %s: tensor<f32>, %o: tensor<f32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64xf32>) {
    %y = quant_affine.qdq %acc, %s, %o range [-8, 7] : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
    %h = arith.constant dense<0.75> : tensor<64xf32>
    %z = arith.mulf %y, %h : tensor<64xf32>
    scf.yield %z : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// One element, and a vector-form quantize of an argument.
func.func @tiny(%x: tensor<1x1xf32>, %v: tensor<8xf32>) -> (tensor<1x1xi8>, tensor<8xi8>) {
  %s = arith.constant dense<0.5> : tensor<1xf32>
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi8>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %v[%c0], %pad {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
  %vs = arith.constant dense<0.25> : vector<8xf32>
  %vq = quant_affine.quantize %r, %vs range [-128, 127] : (vector<8xf32>, vector<8xf32>) -> vector<8xi8>
  %e = tensor.empty() : tensor<8xi8>
  %w = vector.transfer_write %vq, %e[%c0] {in_bounds = [true]} : vector<8xi8>, tensor<8xi8>
  return %q, %w : tensor<1x1xi8>, tensor<8xi8>
}

func.func @print_i8(%t: tensor<?xi8>) {
  %w = arith.extsi %t : tensor<?xi8> to tensor<?xi64>
  %m = bufferization.to_buffer %w : tensor<?xi64> to memref<?xi64>
  %u = memref.cast %m : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func @print_f32(%t: tensor<?xf32>) {
  %b = arith.bitcast %t : tensor<?xf32> to tensor<?xi32>
  %w = arith.extui %b : tensor<?xi32> to tensor<?xi64>
  %m = bufferization.to_buffer %w : tensor<?xi64> to memref<?xi64>
  %u = memref.cast %m : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.5, 13.5, 14.0, 15.0, 16.0]]> : tensor<2x8xf32>
  %s = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %o = arith.constant dense<[[0.0], [-1.0]]> : tensor<2x1xf32>
  %xd = tensor.cast %x : tensor<2x8xf32> to tensor<?x8xf32>
  %r = call @kernel(%xd, %s, %o) : (tensor<?x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<?x8xi8>
  %rf = tensor.collapse_shape %r [[0, 1]] : tensor<?x8xi8> into tensor<?xi8>
  vector.print str "called with constants\n"
  call @print_i8(%rf) : (tensor<?xi8>) -> ()

  %e = tensor.empty() : tensor<300x77xf32>
  %big = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<300x77xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %t = arith.muli %i, %j : index
    %u = arith.addi %t, %i : index
    %v = arith.remui %u, %j : index
    %w = arith.index_cast %u : index to i32
    %f = arith.sitofp %w : i32 to f32
    %g = arith.constant 0.37 : f32
    %h = arith.mulf %f, %g : f32
    %k = arith.constant 1000.0 : f32
    %d = arith.subf %h, %k : f32
    linalg.yield %d : f32
  } -> tensor<300x77xf32>
  %bd = tensor.cast %big : tensor<300x77xf32> to tensor<?x?xf32>
  %q, %ds, %do = call @dynamic_quantize(%bd) : (tensor<?x?xf32>) -> (tensor<?x?xi8>, tensor<f32>, tensor<f32>)
  %ss = tensor.expand_shape %ds [] output_shape [1] : tensor<f32> into tensor<1xf32>
  %os = tensor.expand_shape %do [] output_shape [1] : tensor<f32> into tensor<1xf32>
  %sc = tensor.concat dim(0) %ss, %os : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  %scd = tensor.cast %sc : tensor<2xf32> to tensor<?xf32>
  vector.print str "dynamic per-tensor encoding\n"
  call @print_f32(%scd) : (tensor<?xf32>) -> ()
  %qs = tensor.extract_slice %q[0, 0] [3, 77] [1, 1] : tensor<?x?xi8> to tensor<3x77xi8>
  %qf = tensor.collapse_shape %qs [[0, 1]] : tensor<3x77xi8> into tensor<231xi8>
  %qfd = tensor.cast %qf : tensor<231xi8> to tensor<?xi8>
  vector.print str "dynamic per-tensor quantization, first rows\n"
  call @print_i8(%qfd) : (tensor<?xi8>) -> ()

  %x64 = tensor.extract_slice %big[7, 0] [1, 64] [1, 1] : tensor<300x77xf32> to tensor<64xf32>
  %s0 = arith.constant dense<16.0> : tensor<f32>
  %o0 = arith.constant dense<1.0> : tensor<f32>
  %c3 = arith.constant 3 : index
  %l = call @qdq_loop(%x64, %s0, %o0, %c3) : (tensor<64xf32>, tensor<f32>, tensor<f32>, index) -> tensor<64xf32>
  %ld = tensor.cast %l : tensor<64xf32> to tensor<?xf32>
  vector.print str "qdq in a loop\n"
  call @print_f32(%ld) : (tensor<?xf32>) -> ()

  %one = arith.constant dense<[[3.3]]> : tensor<1x1xf32>
  %v8 = arith.constant dense<[0.1, -0.2, 0.125, 31.9, -32.1, 0.375, -0.375, 1000.0]> : tensor<8xf32>
  %t1, %t8 = call @tiny(%one, %v8) : (tensor<1x1xf32>, tensor<8xf32>) -> (tensor<1x1xi8>, tensor<8xi8>)
  %t1f = tensor.collapse_shape %t1 [[0, 1]] : tensor<1x1xi8> into tensor<1xi8>
  %t1d = tensor.cast %t1f : tensor<1xi8> to tensor<?xi8>
  %t8d = tensor.cast %t8 : tensor<8xi8> to tensor<?xi8>
  vector.print str "one element, vector form\n"
  call @print_i8(%t1d) : (tensor<?xi8>) -> ()
  call @print_i8(%t8d) : (tensor<?xi8>) -> ()
  return
}
