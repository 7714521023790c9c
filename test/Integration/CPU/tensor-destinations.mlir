// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=4 runtime-checks=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \
// RUN: | mlir-translate --mlir-to-llvmir -o /dev/null
// materialize_in_destination into tensor arguments, returned. Each result is
// computed by a loop (tiles of vector-width lanes) whose destination is the
// argument; upstream One-Shot Analysis rejected every one of them ("cannot
// avoid RaW conflict", found by utils/progtest.py). Where writing into the
// argument is impossible (its old value is read later) the result goes to a
// new buffer. main prints every result's bits.

// qdq(x) on a grid of 0.5 in [-4, 3.5]: written into %d in place.
func.func @plain(%x: tensor<32xf32>, %d: tensor<32xf32>) -> tensor<32xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// The destination is also returned: its old value must survive.
func.func @dest_returned(%x: tensor<32xf32>, %d: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r, %d : tensor<32xf32>, tensor<32xf32>
}

// The destination is read after the write.
func.func @dest_read_after(%x: tensor<32xf32>, %d: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %n = arith.negf %d : tensor<32xf32>
  return %r, %n : tensor<32xf32>, tensor<32xf32>
}

// The producer reads the destination.
func.func @dest_read_by_producer(%d: tensor<32xf32>) -> tensor<32xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %d, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// The producer's init is the destination: x + d accumulated into d.
func.func @init_is_dest(%x: tensor<32xf32>, %d: tensor<32xf32>) -> tensor<32xf32> {
  %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<32xf32>) outs(%d : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sum = arith.addf %v, %acc : f32
    linalg.yield %sum : f32
  } -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %a in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// Two results into one destination; the first is read after the second.
func.func @twice(%x: tensor<32xf32>, %d: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %z = arith.negf %x : tensor<32xf32>
  %r2 = bufferization.materialize_in_destination %z in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r, %r2 : tensor<32xf32>, tensor<32xf32>
}

// Into the destination in one branch only.
func.func @in_branch(%x: tensor<32xf32>, %c: i1, %d: tensor<32xf32>) -> tensor<32xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %r = scf.if %c -> tensor<32xf32> {
    %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
    %m = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    scf.yield %m : tensor<32xf32>
  } else {
    scf.yield %d : tensor<32xf32>
  }
  return %r : tensor<32xf32>
}

// A private callee writes into its argument; the caller reads its own
// tensor after the call.
func.func private @callee(%x: tensor<32xf32>, %d: tensor<32xf32>) -> tensor<32xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = quant_affine.qdq %x, %s range [-8, 7] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %r = bufferization.materialize_in_destination %y in %d : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

func.func @caller(%x: tensor<32xf32>, %d: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %r = func.call @callee(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %r, %d : tensor<32xf32>, tensor<32xf32>
}

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print_bits(%t: tensor<32xf32>) {
  %b = arith.bitcast %t : tensor<32xf32> to tensor<32xi32>
  %u = tensor.cast %b : tensor<32xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  // Eight values, four times.
  %x = arith.constant dense<[0.0, 0.3, 0.8, -1.2, 2.25, -2.75, 4.0, -5.0,
                             0.0, 0.3, 0.8, -1.2, 2.25, -2.75, 4.0, -5.0,
                             0.0, 0.3, 0.8, -1.2, 2.25, -2.75, 4.0, -5.0,
                             0.0, 0.3, 0.8, -1.2, 2.25, -2.75, 4.0, -5.0]> : tensor<32xf32>
  %d = arith.constant dense<1.5> : tensor<32xf32>

  %p = call @plain(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  call @print_bits(%p) : (tensor<32xf32>) -> ()
  %a:2 = call @dest_returned(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  call @print_bits(%a#0) : (tensor<32xf32>) -> ()
  call @print_bits(%a#1) : (tensor<32xf32>) -> ()
  %b:2 = call @dest_read_after(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  call @print_bits(%b#0) : (tensor<32xf32>) -> ()
  call @print_bits(%b#1) : (tensor<32xf32>) -> ()
  %c = call @dest_read_by_producer(%x) : (tensor<32xf32>) -> tensor<32xf32>
  call @print_bits(%c) : (tensor<32xf32>) -> ()
  %e = call @init_is_dest(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  call @print_bits(%e) : (tensor<32xf32>) -> ()
  %t:2 = call @twice(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  call @print_bits(%t#0) : (tensor<32xf32>) -> ()
  call @print_bits(%t#1) : (tensor<32xf32>) -> ()
  %i1 = call @in_branch(%x, %true, %d) : (tensor<32xf32>, i1, tensor<32xf32>) -> tensor<32xf32>
  call @print_bits(%i1) : (tensor<32xf32>) -> ()
  %i2 = call @in_branch(%x, %false, %d) : (tensor<32xf32>, i1, tensor<32xf32>) -> tensor<32xf32>
  call @print_bits(%i2) : (tensor<32xf32>) -> ()
  %k:2 = call @caller(%x, %d) : (tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  call @print_bits(%k#0) : (tensor<32xf32>) -> ()
  call @print_bits(%k#1) : (tensor<32xf32>) -> ()
  // The constant every call was given is unchanged.
  call @print_bits(%d) : (tensor<32xf32>) -> ()
  return
}
// plain: qdq(x) = 0, 0.5, 1, -1, 2, -3, 3.5, -4 (x 4).
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// dest_returned: qdq(x), and the destination unchanged (1.5).
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// CHECK: [1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520]
// dest_read_after: qdq(x), and -d = -1.5.
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// CHECK: [-1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128,  -1077936128]
// dest_read_by_producer: qdq(x).
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// init_is_dest: x + 1.5.
// CHECK: [1069547520,  1072064102,  1075000115,  1050253720,  1081081856,  -1080033280,  1085276160,  -1067450368,  1069547520,  1072064102,  1075000115,  1050253720,  1081081856,  -1080033280,  1085276160,  -1067450368,  1069547520,  1072064102,  1075000115,  1050253720,  1081081856,  -1080033280,  1085276160,  -1067450368,  1069547520,  1072064102,  1075000115,  1050253720,  1081081856,  -1080033280,  1085276160,  -1067450368]
// twice: qdq(x), then -x.
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// CHECK: [-2147483648,  -1097229926,  -1085485875,  1067030938,  -1072693248,  1076887552,  -1065353216,  1084227584,  -2147483648,  -1097229926,  -1085485875,  1067030938,  -1072693248,  1076887552,  -1065353216,  1084227584,  -2147483648,  -1097229926,  -1085485875,  1067030938,  -1072693248,  1076887552,  -1065353216,  1084227584,  -2147483648,  -1097229926,  -1085485875,  1067030938,  -1072693248,  1076887552,  -1065353216,  1084227584]
// in_branch (true): qdq(x); (false): the destination, 1.5.
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// CHECK: [1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520]
// caller: qdq(x), and the caller's tensor unchanged (1.5).
// CHECK: [0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216,  0,  1056964608,  1065353216,  -1082130432,  1073741824,  -1069547520,  1080033280,  -1065353216]
// CHECK: [1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520]
// The constant passed to every call: 1.5.
// CHECK: [1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520,  1069547520]
