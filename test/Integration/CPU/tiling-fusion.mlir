// RUN: quant-affine-opt %s --transform-interpreter --symbol-dce \
// RUN: | FileCheck %s --check-prefix=IR
// RUN: quant-affine-opt %s --transform-interpreter --symbol-dce --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --transform-interpreter --symbol-dce --quant-affine-cpu-pipeline="vector-width=4 runtime-checks=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// Tiling and fusion change no bit (docs/Tiling.md). Each case is a pair of
// functions with the same body: the schedule at the end tiles the *_tiled one
// (tile_using_forall and fuse_into_containing_op, or structured.fuse, which is
// scf::tileConsumerAndFuseProducersUsingSCF), the CPU pipeline compiles both,
// and main prints the bits of both results, which must be equal. Tiles start
// on block boundaries, inside one block, and across blocks; shapes are static
// and dynamic. The matmul data (integers, power-of-two scales) keeps every sum
// exact, so the summation order of the tiled matmul does not matter; the
// elementwise cases use scales that round.

// ----- int4 weights, block [1, 32] with offsets, dequantized into a matmul
// with a transposed B (the weight is N x K).

func.func @block_forall_untiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi4>, %s: tensor<8x2xf32>, %o: tensor<8x2xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  %r = call @matmul_t(%a, %b) : (tensor<4x64xf32>, tensor<8x64xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// IR-LABEL: func.func @block_forall_tiled
// IR: scf.forall
// IR: quant_affine.dequantize {{.*}} block [1, 32] : (tensor<4x64xi4>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
// IR: linalg.matmul
func.func @block_forall_tiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi4>, %s: tensor<8x2xf32>, %o: tensor<8x2xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// K tiles of 24: tiles start at 0, 24 and 48, across block boundaries. (The
// zero init is an argument: structured.fuse would fuse a linalg.fill into the
// K loop and restart the sums at every tile.)
// IR-LABEL: func.func @block_k24_tiled
// IR: scf.for
// IR: quant_affine.dequantize {{.*}} block [1, 32] : (tensor<4x?xi4>, tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
// IR: tensor.extract_slice
// IR: linalg.matmul
func.func @block_k24_tiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi4>, %s: tensor<8x2xf32>, %o: tensor<8x2xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// K tiles of 16: each inside one block, which spans the tile.
// IR-LABEL: func.func @block_k16_tiled
// IR: scf.for
// IR: quant_affine.dequantize {{.*}} block [1, -1] : (tensor<4x16xi4>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
func.func @block_k16_tiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi4>, %s: tensor<8x2xf32>, %o: tensor<8x2xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// The same weight through dynamic shapes. (The int4 argument itself is
// static: a dynamic packed buffer does not know its sizes, Packing.md.)
// IR-LABEL: func.func @block_dynamic_tiled
// IR: scf.forall
// IR: quant_affine.dequantize {{.*}} block [1, 32] : (tensor<?x?xi4>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @block_dynamic_tiled(%a: tensor<?x?xf32>, %w_s: tensor<8x64xi4>, %s: tensor<?x?xf32>, %o: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %w = tensor.cast %w_s : tensor<8x64xi4> to tensor<?x?xi4>
  %b = quant_affine.dequantize %w, %s, %o range [-8, 7] block [1, 32] : (tensor<?x?xi4>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// ----- Per-channel and per-tensor int8 weights.

func.func @channel_untiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<8x1xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<8x64xi8>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %r = call @matmul_t(%a, %b) : (tensor<4x64xf32>, tensor<8x64xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// IR-LABEL: func.func @channel_tiled
// IR: scf.forall
// IR: quant_affine.dequantize {{.*}} : (tensor<4x64xi8>, tensor<4x1xf32>) -> tensor<4x64xf32>
func.func @channel_tiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<8x1xf32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<8x64xi8>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @tensor_untiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<8x64xi8>, tensor<f32>) -> tensor<8x64xf32>
  %r = call @matmul_t(%a, %b) : (tensor<4x64xf32>, tensor<8x64xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// IR-LABEL: func.func @tensor_tiled
// IR: scf.forall
// IR: quant_affine.dequantize {{.*}} : (tensor<4x64xi8>, tensor<f32>) -> tensor<4x64xf32>
func.func @tensor_tiled(%a: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %b = quant_affine.dequantize %w, %s range [-128, 127] : (tensor<8x64xi8>, tensor<f32>) -> tensor<8x64xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// ----- The ops tiled on their own: tiles of 3 x 20 over blocks of 2 x 32,
// so most tiles cross blocks in both dims. The tiles are written into
// tensor.empty destinations.

func.func @qdq_untiled(%x: tensor<6x96xf32>, %s: tensor<3x3xf32>, %o: tensor<3x3xf32>) -> tensor<6x96xf32> {
  %y = quant_affine.qdq %x, %s, %o range [-8, 7] block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  return %y : tensor<6x96xf32>
}

// IR-LABEL: func.func @qdq_tiled
// IR: tensor.empty() : tensor<6x96xf32>
// IR: scf.forall
// IR: quant_affine.qdq {{.*}} block [2, 32] : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @qdq_tiled(%x: tensor<6x96xf32>, %s: tensor<3x3xf32>, %o: tensor<3x3xf32>) -> tensor<6x96xf32> {
  %y = quant_affine.qdq %x, %s, %o range [-8, 7] block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  return %y : tensor<6x96xf32>
}

// int4 results: the tiles are stored packed at element offsets that are not
// byte aligned.
func.func @quantize_untiled(%x: tensor<6x96xf32>, %s: tensor<3x3xf32>) -> tensor<6x96xi4> {
  %q = quant_affine.quantize %x, %s range [-8, 7] block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xi4>
  return %q : tensor<6x96xi4>
}

// IR-LABEL: func.func @quantize_tiled
// IR: scf.forall
// IR: quant_affine.quantize {{.*}} -> tensor<?x?xi4>
func.func @quantize_tiled(%x: tensor<6x96xf32>, %s: tensor<3x3xf32>) -> tensor<6x96xi4> {
  %q = quant_affine.quantize %x, %s range [-8, 7] block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xi4>
  return %q : tensor<6x96xi4>
}

// float_qdq with a maxval per block of [2, 32] (fp8 E4M3), tiled across
// blocks like the quantizers.
func.func @float_qdq_untiled(%x: tensor<6x96xf32>, %m: tensor<3x3xf32>) -> tensor<6x96xf32> {
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  return %y : tensor<6x96xf32>
}

// IR-LABEL: func.func @float_qdq_tiled
// IR: scf.forall
// IR: quant_affine.float_qdq {{.*}} format [4, 3] finite block [2, 32] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @float_qdq_tiled(%x: tensor<6x96xf32>, %m: tensor<3x3xf32>) -> tensor<6x96xf32> {
  %y = quant_affine.float_qdq %x, %m format [4, 3] finite block [2, 32] : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  return %y : tensor<6x96xf32>
}

// A wildcard block over dynamic dims: the block size is known at run time
// only.
// IR-LABEL: func.func @wildcard_dynamic_tiled
// IR: scf.forall
// IR: arith.divui
// IR: quant_affine.qdq {{.*}} block [1, -1] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @wildcard_dynamic_tiled(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = quant_affine.qdq %x, %s range [-8, 7] block [1, -1] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// No block_size and a dynamic scale: 1 x 96 at run time, so its first dim
// broadcasts and its second is per element.
// IR-LABEL: func.func @unblocked_dynamic_tiled
// IR: scf.forall
// IR: arith.select
// IR: quant_affine.qdq {{.*}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @unblocked_dynamic_tiled(%x: tensor<?x?xf32>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = quant_affine.qdq %x, %s range [0, 15] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// ----- Helpers.

func.func @matmul_t(%a: tensor<4x64xf32>, %b: tensor<8x64xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// v[i][j] = ((i * 7 + j * 3) mod m - m / 2) * step
func.func @pattern(%rows: index, %cols: index, %m: index, %step: f32) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%unused: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %i7 = arith.muli %i, %c7 : index
    %j3 = arith.muli %j, %c3 : index
    %sum = arith.addi %i7, %j3 : index
    %mod = arith.remui %sum, %m : index
    %half = arith.divui %m, %c2 : index
    %v = arith.subi %mod, %half : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %r = arith.mulf %vf, %step : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)

// Prints the bits of the untiled and of the tiled result, one line each.
func.func @print2(%u: tensor<?x?xf32>, %t: tensor<?x?xf32>) {
  %ub = arith.bitcast %u : tensor<?x?xf32> to tensor<?x?xi32>
  %tb = arith.bitcast %t : tensor<?x?xf32> to tensor<?x?xi32>
  %uf = tensor.collapse_shape %ub [[0, 1]] : tensor<?x?xi32> into tensor<?xi32>
  %tf = tensor.collapse_shape %tb [[0, 1]] : tensor<?x?xi32> into tensor<?xi32>
  %ur = tensor.cast %uf : tensor<?xi32> to tensor<*xi32>
  %tr = tensor.cast %tf : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%ur) : (tensor<*xi32>) -> ()
  call @printMemrefI32(%tr) : (tensor<*xi32>) -> ()
  return
}

// CHECK-LABEL: block_forall
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK]]
// CHECK-LABEL: block_k24
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK]]
// CHECK-LABEL: block_k16
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK]]
// CHECK-LABEL: block_dynamic
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[BLOCK]]
// CHECK-LABEL: channel
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[CHANNEL:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[CHANNEL]]
// CHECK-LABEL: tensor
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[TENSOR:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[TENSOR]]
// CHECK-LABEL: qdq
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ]]
// CHECK-LABEL: quantize
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QUANTIZE:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QUANTIZE]]
// CHECK-LABEL: wildcard_dynamic
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ]]
// CHECK-LABEL: float_qdq
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[FQ:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[FQ]]
// CHECK-LABEL: unblocked_dynamic
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ:\[.*]]
// CHECK-NEXT: Unranked Memref {{.*}} data =
// CHECK-NEXT: [[QDQ]]
func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c23 = arith.constant 23 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %one = arith.constant 1.0 : f32
  %step = arith.constant 0.37 : f32

  // Activations in [-4, 4], weights in [-8, 7].
  %a_d = call @pattern(%c4, %c64, %c9, %one) : (index, index, index, f32) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<4x64xf32>
  %w_d = call @pattern(%c8, %c64, %c16, %one) : (index, index, index, f32) -> tensor<?x?xf32>
  %w_s = tensor.cast %w_d : tensor<?x?xf32> to tensor<8x64xf32>
  %w4 = arith.fptosi %w_s : tensor<8x64xf32> to tensor<8x64xi4>
  %w8 = arith.fptosi %w_s : tensor<8x64xf32> to tensor<8x64xi8>
  %s = arith.constant dense<[[0.5, 0.25], [1.0, 2.0], [0.125, 4.0], [8.0, 0.5], [2.0, 1.0], [0.25, 0.5], [4.0, 0.125], [1.0, 8.0]]> : tensor<8x2xf32>
  %o = arith.constant dense<[[1.0, -2.0], [0.0, 3.0], [-1.0, 0.0], [2.0, 1.0], [-3.0, 2.0], [1.0, 1.0], [0.0, -1.0], [4.0, -4.0]]> : tensor<8x2xf32>

  vector.print str "block_forall\n"
  %r0 = call @block_forall_untiled(%a, %w4, %s, %o) : (tensor<4x64xf32>, tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<4x8xf32>
  %r1 = call @block_forall_tiled(%a, %w4, %s, %o) : (tensor<4x64xf32>, tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<4x8xf32>
  %r0d = tensor.cast %r0 : tensor<4x8xf32> to tensor<?x?xf32>
  %r1d = tensor.cast %r1 : tensor<4x8xf32> to tensor<?x?xf32>
  call @print2(%r0d, %r1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "block_k24\n"
  %zeros = arith.constant dense<0.0> : tensor<4x8xf32>
  %r2 = call @block_k24_tiled(%a, %w4, %s, %o, %zeros) : (tensor<4x64xf32>, tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r2d = tensor.cast %r2 : tensor<4x8xf32> to tensor<?x?xf32>
  call @print2(%r0d, %r2d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "block_k16\n"
  %r3 = call @block_k16_tiled(%a, %w4, %s, %o, %zeros) : (tensor<4x64xf32>, tensor<8x64xi4>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r3d = tensor.cast %r3 : tensor<4x8xf32> to tensor<?x?xf32>
  call @print2(%r0d, %r3d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "block_dynamic\n"
  %sd = tensor.cast %s : tensor<8x2xf32> to tensor<?x?xf32>
  %od = tensor.cast %o : tensor<8x2xf32> to tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%c4, %c8) : tensor<?x?xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r4 = call @block_dynamic_tiled(%a_d, %w4, %sd, %od, %cz) : (tensor<?x?xf32>, tensor<8x64xi4>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print2(%r0d, %r4) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "channel\n"
  %sc = arith.constant dense<[[0.5], [0.25], [1.0], [2.0], [0.125], [4.0], [8.0], [0.0625]]> : tensor<8x1xf32>
  %r5 = call @channel_untiled(%a, %w8, %sc) : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<8x1xf32>) -> tensor<4x8xf32>
  %r6 = call @channel_tiled(%a, %w8, %sc) : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<8x1xf32>) -> tensor<4x8xf32>
  %r5d = tensor.cast %r5 : tensor<4x8xf32> to tensor<?x?xf32>
  %r6d = tensor.cast %r6 : tensor<4x8xf32> to tensor<?x?xf32>
  call @print2(%r5d, %r6d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "tensor\n"
  %st = arith.constant dense<0.375> : tensor<f32>
  %r7 = call @tensor_untiled(%a, %w8, %st) : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<f32>) -> tensor<4x8xf32>
  %r8 = call @tensor_tiled(%a, %w8, %st) : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<f32>) -> tensor<4x8xf32>
  %r7d = tensor.cast %r7 : tensor<4x8xf32> to tensor<?x?xf32>
  %r8d = tensor.cast %r8 : tensor<4x8xf32> to tensor<?x?xf32>
  call @print2(%r7d, %r8d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  // Values in [-4.07, 4.07] on grids that round.
  %x_d = call @pattern(%c6, %c96, %c23, %step) : (index, index, index, f32) -> tensor<?x?xf32>
  %x = tensor.cast %x_d : tensor<?x?xf32> to tensor<6x96xf32>
  %sx = arith.constant dense<[[0.3, 0.7, 0.1], [0.45, 0.2, 1.1], [0.9, 0.35, 0.15]]> : tensor<3x3xf32>
  %ox = arith.constant dense<[[1.0, -2.0, 0.0], [3.0, 0.0, -1.0], [-4.0, 2.0, 1.0]]> : tensor<3x3xf32>

  vector.print str "qdq\n"
  %y0 = call @qdq_untiled(%x, %sx, %ox) : (tensor<6x96xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  %y1 = call @qdq_tiled(%x, %sx, %ox) : (tensor<6x96xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  %y0d = tensor.cast %y0 : tensor<6x96xf32> to tensor<?x?xf32>
  %y1d = tensor.cast %y1 : tensor<6x96xf32> to tensor<?x?xf32>
  call @print2(%y0d, %y1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "quantize\n"
  %q0 = call @quantize_untiled(%x, %sx) : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xi4>
  %q1 = call @quantize_tiled(%x, %sx) : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xi4>
  %q0f = arith.sitofp %q0 : tensor<6x96xi4> to tensor<6x96xf32>
  %q1f = arith.sitofp %q1 : tensor<6x96xi4> to tensor<6x96xf32>
  %q0d = tensor.cast %q0f : tensor<6x96xf32> to tensor<?x?xf32>
  %q1d = tensor.cast %q1f : tensor<6x96xf32> to tensor<?x?xf32>
  call @print2(%q0d, %q1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "wildcard_dynamic\n"
  %sw = arith.constant dense<[[0.3, 0.7, 0.1], [0.45, 0.2, 1.1], [0.9, 0.35, 0.15], [0.3, 0.25, 0.6], [0.5, 0.65, 0.2], [1.3, 0.4, 0.55]]> : tensor<6x3xf32>
  %sw_d = tensor.cast %sw : tensor<6x3xf32> to tensor<?x?xf32>
  %y2 = quant_affine.qdq %x, %sw range [-8, 7] block [1, -1] : (tensor<6x96xf32>, tensor<6x3xf32>) -> tensor<6x96xf32>
  %y3 = call @wildcard_dynamic_tiled(%x_d, %sw_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y2d = tensor.cast %y2 : tensor<6x96xf32> to tensor<?x?xf32>
  call @print2(%y2d, %y3) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "float_qdq\n"
  %fq0 = call @float_qdq_untiled(%x, %sx) : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  %fq1 = call @float_qdq_tiled(%x, %sx) : (tensor<6x96xf32>, tensor<3x3xf32>) -> tensor<6x96xf32>
  %fq0d = tensor.cast %fq0 : tensor<6x96xf32> to tensor<?x?xf32>
  %fq1d = tensor.cast %fq1 : tensor<6x96xf32> to tensor<?x?xf32>
  call @print2(%fq0d, %fq1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  vector.print str "unblocked_dynamic\n"
  %su_d = call @pattern(%c1, %c96, %c9, %step) : (index, index, index, f32) -> tensor<?x?xf32>
  %su_a = math.absf %su_d : tensor<?x?xf32>
  %su_as = tensor.cast %su_a : tensor<?x?xf32> to tensor<1x96xf32>
  %min_s = arith.constant dense<0.05> : tensor<1x96xf32>
  %su_s = arith.addf %su_as, %min_s : tensor<1x96xf32>
  %su = tensor.cast %su_s : tensor<1x96xf32> to tensor<?x?xf32>
  %y4 = quant_affine.qdq %x, %su_s range [0, 15] : (tensor<6x96xf32>, tensor<1x96xf32>) -> tensor<6x96xf32>
  %y5 = call @unblocked_dynamic_tiled(%x_d, %su) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y4d = tensor.cast %y4 : tensor<6x96xf32> to tensor<?x?xf32>
  call @print2(%y4d, %y5) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  return
}

// The schedule. Private, so that --symbol-dce drops it once applied.
module @schedule attributes {transform.with_named_sequence, sym_visibility = "private"} {
  // Tiles the matmul in `f` by 2 x 4 with scf.forall and fuses the dequantize.
  transform.named_sequence @forall_and_fuse(%f: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %f : (!transform.any_op) -> !transform.any_op
    %dq = transform.structured.match ops{["quant_affine.dequantize"]} in %f : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %mm tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %dq into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Tiles the quant_affine op in `f` by 3 x 20.
  transform.named_sequence @tile_op(%f: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match interface{TilingInterface} in %f : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [3, 20] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f1 = transform.structured.match ops{["func.func"]} attributes {sym_name = "block_forall_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @forall_and_fuse failures(propagate) (%f1) : (!transform.any_op) -> ()
    %f2 = transform.structured.match ops{["func.func"]} attributes {sym_name = "block_dynamic_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @forall_and_fuse failures(propagate) (%f2) : (!transform.any_op) -> ()
    %f3 = transform.structured.match ops{["func.func"]} attributes {sym_name = "channel_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @forall_and_fuse failures(propagate) (%f3) : (!transform.any_op) -> ()
    %f4 = transform.structured.match ops{["func.func"]} attributes {sym_name = "tensor_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @forall_and_fuse failures(propagate) (%f4) : (!transform.any_op) -> ()

    // scf.for loops over M, N and K, the dequantize fused into the innermost.
    %f5 = transform.structured.match ops{["func.func"]} attributes {sym_name = "block_k24_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    %mm5 = transform.structured.match ops{["linalg.matmul"]} in %f5 : (!transform.any_op) -> !transform.any_op
    %t5, %l5:3 = transform.structured.fuse %mm5 tile_sizes [2, 4, 24] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %f6 = transform.structured.match ops{["func.func"]} attributes {sym_name = "block_k16_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    %mm6 = transform.structured.match ops{["linalg.matmul"]} in %f6 : (!transform.any_op) -> !transform.any_op
    %t6, %l6:3 = transform.structured.fuse %mm6 tile_sizes [2, 4, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)

    %f7 = transform.structured.match ops{["func.func"]} attributes {sym_name = "qdq_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @tile_op failures(propagate) (%f7) : (!transform.any_op) -> ()
    %f8 = transform.structured.match ops{["func.func"]} attributes {sym_name = "quantize_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @tile_op failures(propagate) (%f8) : (!transform.any_op) -> ()
    %f9 = transform.structured.match ops{["func.func"]} attributes {sym_name = "wildcard_dynamic_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @tile_op failures(propagate) (%f9) : (!transform.any_op) -> ()
    %f10 = transform.structured.match ops{["func.func"]} attributes {sym_name = "unblocked_dynamic_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @tile_op failures(propagate) (%f10) : (!transform.any_op) -> ()
    %f11 = transform.structured.match ops{["func.func"]} attributes {sym_name = "float_qdq_tiled"} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @tile_op failures(propagate) (%f11) : (!transform.any_op) -> ()
    transform.yield
  }
}
