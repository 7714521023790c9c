// Kernels for packed-dynamic-harness.c: int4 and int2 buffers with a dynamic
// leading dim cross the C boundary as their packed bytes, and each dynamic
// dim's logical size follows as an index argument after the others
// (DESIGN.md section 9, docs/Packing.md).

// (q bytes, scale, out) then the number of int4 values.
func.func @dequantize_dynamic(%q: memref<?xi4>, %s: memref<f32>, %out: memref<?xf32>)
    attributes {llvm.emit_c_interface} {
  %qt = bufferization.to_tensor %q restrict : memref<?xi4> to tensor<?xi4>
  %st = bufferization.to_tensor %s restrict : memref<f32> to tensor<f32>
  %y = quant_affine.dequantize %qt, %st range [-8, 7] : (tensor<?xi4>, tensor<f32>) -> tensor<?xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// (x, scale, packed int2 codes) then the packed destination's rows and
// columns, both dynamic: its row stride comes from the column count.
func.func @quantize_rows(%x: memref<?x?xf32>, %s: memref<f32>, %q: memref<?x?xi2>)
    attributes {llvm.emit_c_interface} {
  %xt = bufferization.to_tensor %x restrict : memref<?x?xf32> to tensor<?x?xf32>
  %st = bufferization.to_tensor %s restrict : memref<f32> to tensor<f32>
  %y = quant_affine.quantize %xt, %st range [-2, 1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xi2>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<?x?xi2>, memref<?x?xi2>) -> ()
  return
}
