// The dynamic-quantization kernels of bench/dynquant: compute_encoding
// feeding quantize of the same 4096 x 4096 f32 activations, writing the
// codes and the encodings into the caller's buffers.

// Per token (row), asymmetric signed 8-bit.
func.func @per_token(%x: tensor<4096x4096xf32>, %q: memref<4096x4096xi8>, %s: memref<4096x1xf32>, %o: memref<4096x1xf32>) attributes {llvm.emit_c_interface} {
  %sc, %of = quant_affine.compute_encoding %x range [-128, 127] : tensor<4096x4096xf32> -> (tensor<4096x1xf32>, tensor<4096x1xf32>)
  %y = quant_affine.quantize %x, %sc, %of range [-128, 127] : (tensor<4096x4096xf32>, tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  bufferization.materialize_in_destination %sc in restrict writable %s : (tensor<4096x1xf32>, memref<4096x1xf32>) -> ()
  bufferization.materialize_in_destination %of in restrict writable %o : (tensor<4096x1xf32>, memref<4096x1xf32>) -> ()
  return
}

// Per tensor, asymmetric unsigned 8-bit: what ONNX's DynamicQuantizeLinear
// computes (up to AIMET's tiny-range rule).
func.func @per_tensor_u8(%x: tensor<4096x4096xf32>, %q: memref<4096x4096xi8>, %s: memref<f32>, %o: memref<f32>) attributes {llvm.emit_c_interface} {
  %sc, %of = quant_affine.compute_encoding %x range [0, 255] : tensor<4096x4096xf32> -> (tensor<f32>, tensor<f32>)
  %y = quant_affine.quantize %x, %sc, %of range [0, 255] : (tensor<4096x4096xf32>, tensor<f32>, tensor<f32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  bufferization.materialize_in_destination %sc in restrict writable %s : (tensor<f32>, memref<f32>) -> ()
  bufferization.materialize_in_destination %of in restrict writable %o : (tensor<f32>, memref<f32>) -> ()
  return
}

// Per block of 32 along rows, symmetric 4-bit grid (i8 storage).
func.func @per_block32(%x: tensor<4096x4096xf32>, %q: memref<4096x4096xi8>, %s: memref<4096x128xf32>, %o: memref<4096x128xf32>) attributes {llvm.emit_c_interface} {
  %sc, %of = quant_affine.compute_encoding %x range [-8, 7] symmetric block [1, 32] : tensor<4096x4096xf32> -> (tensor<4096x128xf32>, tensor<4096x128xf32>)
  %y = quant_affine.quantize %x, %sc, %of range [-8, 7] block [1, 32] : (tensor<4096x4096xf32>, tensor<4096x128xf32>, tensor<4096x128xf32>) -> tensor<4096x4096xi8>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xi8>, memref<4096x4096xi8>) -> ()
  bufferization.materialize_in_destination %sc in restrict writable %s : (tensor<4096x128xf32>, memref<4096x128xf32>) -> ()
  bufferization.materialize_in_destination %of in restrict writable %o : (tensor<4096x128xf32>, memref<4096x128xf32>) -> ()
  return
}
