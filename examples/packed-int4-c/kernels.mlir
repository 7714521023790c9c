// Kernels for main.c: a 3 x 40 weight quantized to signed int4 with a scale
// per block of 8 values of a row, stored packed, and dequantized back. The
// int4 buffers cross the C boundary as their 60 packed bytes: two values a
// byte, lower index in the lower 4 bits (docs/Packing.md).

func.func @quantize_weight(%w: tensor<3x40xf32>, %scale: tensor<3x5xf32>,
                           %packed: memref<3x40xi4>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %w, %scale range [-8, 7] block [1, 8]
      : (tensor<3x40xf32>, tensor<3x5xf32>) -> tensor<3x40xi4>
  bufferization.materialize_in_destination %q in restrict writable %packed
      : (tensor<3x40xi4>, memref<3x40xi4>) -> ()
  return
}

func.func @dequantize_weight(%q: tensor<3x40xi4>, %scale: tensor<3x5xf32>,
                             %w: memref<3x40xf32>)
    attributes {llvm.emit_c_interface} {
  %x = quant_affine.dequantize %q, %scale range [-8, 7] block [1, 8]
      : (tensor<3x40xi4>, tensor<3x5xf32>) -> tensor<3x40xf32>
  bufferization.materialize_in_destination %x in restrict writable %w
      : (tensor<3x40xf32>, memref<3x40xf32>) -> ()
  return
}
