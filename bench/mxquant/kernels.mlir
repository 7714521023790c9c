// The dynamic microscaling kernels of bench/mxquant: the block scales and
// the elements of f32 activations in one program, written into the caller's
// buffers. Rows x 4096 for 4096 and 11008 rows.
//
// MXFP8: OCP's FLOOR E8M0 scale per block of 32, f8E4M3FN elements
// (quantize with the scale's value, exact: it is a power of two).
// NVFP4: two-level, torchao's nvfp4_quantize: an f8E4M3FN scale per block of
// 16 under the f32 per-tensor scale %ts (calibrated beforehand: the bench
// makes one pass over x), f4E2M1FN elements packed two per byte, low nibble
// first, quantized with the f32 block scale ts * s8.

func.func @mxfp8_4096(%x: tensor<4096x4096xf32>, %q: memref<4096x4096xf8E4M3FN>, %s: memref<4096x128xf8E8M0FNU>) attributes {llvm.emit_c_interface} {
  %e = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 32] : (tensor<4096x4096xf32>) -> tensor<4096x128xf8E8M0FNU>
  %sf = arith.extf %e : tensor<4096x128xf8E8M0FNU> to tensor<4096x128xf32>
  %y = quant_affine.quantize %x, %sf range [-448, 448] block [1, 32] : (tensor<4096x4096xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xf8E4M3FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xf8E4M3FN>, memref<4096x4096xf8E4M3FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<4096x128xf8E8M0FNU>, memref<4096x128xf8E8M0FNU>) -> ()
  return
}

func.func @nvfp4_4096(%x: tensor<4096x4096xf32>, %ts: tensor<f32>, %q: memref<4096x4096xf4E2M1FN>, %s: memref<4096x256xf8E4M3FN>) attributes {llvm.emit_c_interface} {
  %e = quant_affine.block_scale %x, %ts element f4E2M1FN block [1, 16] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096x256xf8E4M3FN>
  %sf = arith.extf %e : tensor<4096x256xf8E4M3FN> to tensor<4096x256xf32>
  %init = tensor.empty() : tensor<4096x256xf32>
  %bs = linalg.generic {indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ts, %sf : tensor<f32>, tensor<4096x256xf32>) outs(%init : tensor<4096x256xf32>) {
  ^bb0(%t: f32, %v: f32, %o: f32):
    %m = arith.mulf %t, %v : f32
    linalg.yield %m : f32
  } -> tensor<4096x256xf32>
  %y = quant_affine.quantize %x, %bs range [-6, 6] block [1, 16] : (tensor<4096x4096xf32>, tensor<4096x256xf32>) -> tensor<4096x4096xf4E2M1FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xf4E2M1FN>, memref<4096x4096xf4E2M1FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<4096x256xf8E4M3FN>, memref<4096x256xf8E4M3FN>) -> ()
  return
}

func.func @mxfp8_11008(%x: tensor<11008x4096xf32>, %q: memref<11008x4096xf8E4M3FN>, %s: memref<11008x128xf8E8M0FNU>) attributes {llvm.emit_c_interface} {
  %e = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 32] : (tensor<11008x4096xf32>) -> tensor<11008x128xf8E8M0FNU>
  %sf = arith.extf %e : tensor<11008x128xf8E8M0FNU> to tensor<11008x128xf32>
  %y = quant_affine.quantize %x, %sf range [-448, 448] block [1, 32] : (tensor<11008x4096xf32>, tensor<11008x128xf32>) -> tensor<11008x4096xf8E4M3FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<11008x4096xf8E4M3FN>, memref<11008x4096xf8E4M3FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<11008x128xf8E8M0FNU>, memref<11008x128xf8E8M0FNU>) -> ()
  return
}

func.func @nvfp4_11008(%x: tensor<11008x4096xf32>, %ts: tensor<f32>, %q: memref<11008x4096xf4E2M1FN>, %s: memref<11008x256xf8E4M3FN>) attributes {llvm.emit_c_interface} {
  %e = quant_affine.block_scale %x, %ts element f4E2M1FN block [1, 16] : (tensor<11008x4096xf32>, tensor<f32>) -> tensor<11008x256xf8E4M3FN>
  %sf = arith.extf %e : tensor<11008x256xf8E4M3FN> to tensor<11008x256xf32>
  %init = tensor.empty() : tensor<11008x256xf32>
  %bs = linalg.generic {indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ts, %sf : tensor<f32>, tensor<11008x256xf32>) outs(%init : tensor<11008x256xf32>) {
  ^bb0(%t: f32, %v: f32, %o: f32):
    %m = arith.mulf %t, %v : f32
    linalg.yield %m : f32
  } -> tensor<11008x256xf32>
  %y = quant_affine.quantize %x, %bs range [-6, 6] block [1, 16] : (tensor<11008x4096xf32>, tensor<11008x256xf32>) -> tensor<11008x4096xf4E2M1FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<11008x4096xf4E2M1FN>, memref<11008x4096xf4E2M1FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<11008x256xf8E4M3FN>, memref<11008x256xf8E4M3FN>) -> ()
  return
}
