// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg --split-input-file | FileCheck %s
// RUN: quant-affine-opt %s --convert-quant-affine-to-linalg="runtime-checks=true" --split-input-file | FileCheck %s --check-prefix=RT

// Per-tensor: the rank-0 scale maps to (), no broadcast tensor is built.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @per_tensor
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$SCALAR]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: arith.fptosi
// CHECK-NOT: quant_affine
// Static shapes need no run-time check, nor the functions that report one.
// RT-NOT: llvm.func
// RT-LABEL: func.func @per_tensor
// RT-NOT: scf.if
func.func @per_tensor(%x: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<4x8xi8> {
  %q = quant_affine.quantize %x, %s range [-128, 127] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi8>
  return %q : tensor<4x8xi8>
}

// -----

// Per-channel on axis 0 and on the last axis: constant 0 for broadcast dims.
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @per_channel
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$ROW]], #[[$ROW]], #{{.*}}]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$COL]], #{{.*}}]
func.func @per_channel(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>, %c: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = quant_affine.qdq %x, %r, %r range [0, 255] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %b = quant_affine.qdq %x, %c range [-8, 7] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Blocks: expand the blocked dim to (count, block), map the scale to the
// count dim, collapse the result. Leading dims share the encoding.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$SC:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @blocks
// CHECK: %[[E:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [2, 4, 2, 32] : tensor<2x4x64xf32> into tensor<2x4x2x32xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$SC]], #[[$IN]]]
// CHECK-SAME: ins(%[[E]], %{{.*}} : tensor<2x4x2x32xf32>, tensor<4x2xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<2x4x2x32xi4> into tensor<2x4x64xi4>
func.func @blocks(%x: tensor<2x4x64xf32>, %s: tensor<4x2xf32>) -> tensor<2x4x64xi4> {
  %q = quant_affine.quantize %x, %s range [-8, 7] block [1, -1] : (tensor<2x4x64xf32>, tensor<4x2xf32>) -> tensor<2x4x64xi4>
  return %q : tensor<2x4x64xi4>
}

// -----

// A static block over a dynamic dim: one dynamic size per expand group.
// CHECK-LABEL: func.func @dynamic_count
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: %[[CNT:.*]] = arith.divui %[[N]], %c32
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, %[[CNT]], 32]
// A failed check prints the location, the rule and the run-time sizes to
// stderr (dprintf on fd 2) and aborts; the sizes are compared without
// overflow: x % 32 == 0, then x / 32 == s.
// RT-DAG: llvm.mlir.global private constant @[[$WHOLE:[a-z_0-9]+]]("{{.*}}convert-quant-affine-to-linalg.mlir:[[# @LINE + 31]]:8: error: quant_affine.dequantize run-time check failed: input dim 1 has %lld elements, not a multiple of block_size 32\0A\00")
// RT-DAG: llvm.mlir.global private constant @[[$MSG:[a-z_0-9]+]]("{{.*}}convert-quant-affine-to-linalg.mlir:[[# @LINE + 30]]:8: error: quant_affine.dequantize run-time check failed: input dim 1 has %lld elements but block_size 32 x scale dim 1 size %lld needs %lld\0A\00")
// RT: llvm.func @abort()
// RT: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// RT-LABEL: func.func @dynamic_count
// RT-DAG: %[[X:.*]] = tensor.dim %arg0, %{{.*}} : tensor<4x?xi8>
// RT-DAG: %[[S:.*]] = tensor.dim %arg1, %{{.*}} : tensor<4x?xf32>
// RT: %[[REM:.*]] = arith.remui %[[X]], %[[C32:.*]] : index
// RT: %[[DIVIDES:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// RT: %[[NOT:.*]] = arith.xori %[[DIVIDES]], %{{.*}} : i1
// RT: scf.if %[[NOT]] {
// RT: %[[FMT1:.*]] = llvm.mlir.addressof @[[$WHOLE]] : !llvm.ptr
// RT: %[[X1:.*]] = arith.index_cast %[[X]] : index to i64
// RT: llvm.call @dprintf(%{{.*}}, %[[FMT1]], %[[X1]]) vararg(!llvm.func<i32 (i32, ptr, ...)>)
// RT: llvm.call @abort() : () -> ()
// RT: }
// RT: %[[NEEDS:.*]] = arith.muli %[[S]], %{{.*}} : index
// RT: %[[COUNT:.*]] = arith.divui %[[X]], %{{.*}} : index
// RT: %[[EQ:.*]] = arith.cmpi eq, %[[COUNT]], %[[S]] : index
// RT: %[[FAIL:.*]] = arith.xori %[[EQ]], %{{.*}} : i1
// RT: scf.if %[[FAIL]] {
// RT: %[[FD:.*]] = llvm.mlir.constant(2 : i32) : i32
// RT: %[[FMT:.*]] = llvm.mlir.addressof @[[$MSG]] : !llvm.ptr
// RT: %[[A:.*]] = arith.index_cast %[[X]] : index to i64
// RT: %[[B:.*]] = arith.index_cast %[[S]] : index to i64
// RT: %[[C:.*]] = arith.index_cast %[[NEEDS]] : index to i64
// RT: llvm.call @dprintf(%[[FD]], %[[FMT]], %[[A]], %[[B]], %[[C]]) vararg(!llvm.func<i32 (i32, ptr, ...)>)
// RT: llvm.call @abort() : () -> ()
// RT: }
// RT: tensor.expand_shape
func.func @dynamic_count(%q: tensor<4x?xi8>, %s: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %y = quant_affine.dequantize %q, %s range [-128, 127] block [1, 32] : (tensor<4x?xi8>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// Block count and size both dynamic: no expand_shape (upstream
// -expand-strided-metadata cannot take two dynamic sizes in a group); the
// scale is read at j / B with tensor.extract.
// CHECK-LABEL: func.func @dynamic_count_and_size
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: arith.divui
// CHECK: tensor.extract
// RT-DAG: llvm.mlir.global private constant @[[$RULE:[a-z_0-9]+]]("{{.*}}error: quant_affine.qdq run-time check failed: input dim 1 has %lld elements but block_size -1 needs a multiple of scale dim 1 size %lld\0A\00")
// RT-DAG: llvm.mlir.global private constant @[[$OFFSET:[a-z_0-9]+]]("{{.*}}error: quant_affine.qdq run-time check failed: offset dim 1 has %lld elements but needs scale dim 1 size %lld\0A\00")
// RT-LABEL: func.func @dynamic_count_and_size
// RT: scf.if
// RT: llvm.mlir.addressof @[[$RULE]]
// RT: scf.if
// RT: llvm.mlir.addressof @[[$OFFSET]]
func.func @dynamic_count_and_size(%x: tensor<4x?xf32>, %s: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %y = quant_affine.qdq %x, %s, %s range [0, 15] block [1, -1] : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// Without block_size, a dynamic scale dim may be 1 or the input size.
// RT: llvm.mlir.global private constant @{{.*}}("{{.*}}error: quant_affine.quantize run-time check failed: scale dim 0 has %lld elements but needs 1 or input dim 0 size %lld\0A\00")
// RT-LABEL: func.func @dynamic_broadcast
// RT: scf.if
func.func @dynamic_broadcast(%x: tensor<?xf32>, %s: tensor<?xf32>) -> tensor<?xi8> {
  %q = quant_affine.quantize %x, %s range [0, 255] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi8>
  return %q : tensor<?xi8>
}

// -----

// qdq stays in floating point from input to output: no integer round trip.
// CHECK-LABEL: func.func @qdq_float_only
// CHECK-NOT: fptosi
// CHECK-NOT: sitofp
// CHECK: arith.mulf
func.func @qdq_float_only(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Splat constant scales move into the body, where a power-of-two scale with
// an exact reciprocal multiplies (x / 2^k == x * 2^-k for every x); 0.1 and
// 2^-149 (reciprocal 2^149 overflows) still divide.
// CHECK-LABEL: func.func @power_of_two_scales
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK: %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.mulf %{{.*}}, %[[FOUR]] : f32
// CHECK-NOT: arith.divf
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @power_of_two_scales(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %q = arith.constant dense<0.25> : tensor<f32>
  %t = arith.constant dense<0.1> : tensor<f32>
  %d = arith.constant dense<1.0e-45> : tensor<f32>
  %a = quant_affine.qdq %x, %q range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %b = quant_affine.qdq %x, %t range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c = quant_affine.qdq %x, %d range [-128, 127] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %a, %b, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
