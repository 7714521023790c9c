// The kernels of utils/float-qdq-f32/run.sh: f8E4M3FN and f8E5M2 fake casts
// of 2^24 f32 values per call.
func.func @e4m3fn(%x: tensor<16777216xf32>, %out: memref<16777216xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [4, 3] finite : (tensor<16777216xf32>) -> tensor<16777216xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xf32>, memref<16777216xf32>) -> ()
  return
}

func.func @e5m2(%x: tensor<16777216xf32>, %out: memref<16777216xf32>)
    attributes {llvm.emit_c_interface} {
  %y = quant_affine.float_qdq %x format [5, 2] : (tensor<16777216xf32>) -> tensor<16777216xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xf32>, memref<16777216xf32>) -> ()
  return
}
