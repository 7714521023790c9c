// The kernels of utils/narrow-encode-f32/run.sh: arith.truncf of 2^24 f32
// values per call to each float8, float6 and float4 type, the codes
// zero-extended to bytes; and the same after quantize's clamp to the type's
// range, lower bound first (sat_*) and upper bound first (sat_up_*), which
// the expansion folds into the encoding.

func.func @f8E4M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f8E4M3FN
    %b = arith.bitcast %t : f8E4M3FN to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f8E5M2(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f8E5M2
    %b = arith.bitcast %t : f8E5M2 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f8E4M3FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f8E4M3FNUZ
    %b = arith.bitcast %t : f8E4M3FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f8E5M2FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f8E5M2FNUZ
    %b = arith.bitcast %t : f8E5M2FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f6E2M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f6E2M3FN
    %n = arith.bitcast %t : f6E2M3FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f6E3M2FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f6E3M2FN
    %n = arith.bitcast %t : f6E3M2FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @f4E2M1FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.truncf %v : f32 to f4E2M1FN
    %n = arith.bitcast %t : f4E2M1FN to i4
    %b = arith.extui %n : i4 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f8E4M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f8E4M3FN
    %b = arith.bitcast %t : f8E4M3FN to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f8E5M2(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f8E5M2
    %b = arith.bitcast %t : f8E5M2 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f8E4M3FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -240.0 : f32
  %hi = arith.constant 240.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f8E4M3FNUZ
    %b = arith.bitcast %t : f8E4M3FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f8E5M2FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f8E5M2FNUZ
    %b = arith.bitcast %t : f8E5M2FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f6E2M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -7.5 : f32
  %hi = arith.constant 7.5 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f6E2M3FN
    %n = arith.bitcast %t : f6E2M3FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f6E3M2FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -28.0 : f32
  %hi = arith.constant 28.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f6E3M2FN
    %n = arith.bitcast %t : f6E3M2FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_f4E2M1FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -6.0 : f32
  %hi = arith.constant 6.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %below = arith.cmpf olt, %v, %lo : f32
    %l = arith.select %below, %lo, %v : f32
    %above = arith.cmpf olt, %hi, %l : f32
    %c = arith.select %above, %hi, %l : f32
    %t = arith.truncf %c : f32 to f4E2M1FN
    %n = arith.bitcast %t : f4E2M1FN to i4
    %b = arith.extui %n : i4 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f8E4M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f8E4M3FN
    %b = arith.bitcast %t : f8E4M3FN to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f8E5M2(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f8E5M2
    %b = arith.bitcast %t : f8E5M2 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f8E4M3FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -240.0 : f32
  %hi = arith.constant 240.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f8E4M3FNUZ
    %b = arith.bitcast %t : f8E4M3FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f8E5M2FNUZ(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f8E5M2FNUZ
    %b = arith.bitcast %t : f8E5M2FNUZ to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f6E2M3FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -7.5 : f32
  %hi = arith.constant 7.5 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f6E2M3FN
    %n = arith.bitcast %t : f6E2M3FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f6E3M2FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -28.0 : f32
  %hi = arith.constant 28.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f6E3M2FN
    %n = arith.bitcast %t : f6E3M2FN to i6
    %b = arith.extui %n : i6 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}

func.func @sat_up_f4E2M1FN(%x: tensor<16777216xf32>, %out: memref<16777216xi8>)
    attributes {llvm.emit_c_interface} {
  %lo = arith.constant -6.0 : f32
  %hi = arith.constant 6.0 : f32
  %init = tensor.empty() : tensor<16777216xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16777216xf32>) outs(%init : tensor<16777216xi8>) {
  ^bb0(%v: f32, %o: i8):
    %above = arith.cmpf olt, %hi, %v : f32
    %u = arith.select %above, %hi, %v : f32
    %below = arith.cmpf olt, %u, %lo : f32
    %c = arith.select %below, %lo, %u : f32
    %t = arith.truncf %c : f32 to f4E2M1FN
    %n = arith.bitcast %t : f4E2M1FN to i4
    %b = arith.extui %n : i4 to i8
    linalg.yield %b : i8
  } -> tensor<16777216xi8>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<16777216xi8>, memref<16777216xi8>) -> ()
  return
}
