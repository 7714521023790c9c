// Ops of a single tile (the vector width is wider than the tensor) leave
// their reads and writes outside any loop, and the GPU mapping wraps them in
// one-thread kernels; run through the CPU pipeline and through the GPU
// mapping run as loops, executed. Two programs the GPU pipeline rejected
// (found by utils/progtest.py, seed 6161): a read of an input shared by two
// such kernels, which ended in IR where one kernel used the other's value;
// and an element loop left inside a tile (a dynamic block scale), which
// upstream's conversion to launches silently left on the host.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline=vector-width=16 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s \
// RUN:   --quant-affine-test-gpu-on-cpu-pipeline=vector-width=16 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})
func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = "read"})

// One input, two results: both kernels read %x.
func.func @shared_input(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = arith.constant dense<[1.0, 2.0, 0.5, 1.0, 4.0, 1.0, 1.0, 0.25]> : tensor<8xf32>
  %o = arith.constant dense<[0.0, -2.0, 0.0, 3.0, 0.0, 0.0, 1.0, 0.0]> : tensor<8xf32>
  %q = quant_affine.quantize %x, %s, %o range [0, 255] : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %d = arith.subf %x, %c : tensor<8xf32>
  return %d, %q : tensor<8xf32>, tensor<8xf32>
}

// int4 codes with a block scale whose shape is known only at run time.
func.func @dynamic_blocks(%x: tensor<3x16xf32>, %s: tensor<?x?xf32>, %o: tensor<?x?xf32>) -> tensor<3x16xi4> {
  %q = quant_affine.quantize %x, %s, %o range [0, 15] compute f32 : (tensor<3x16xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<3x16xi4>
  return %q : tensor<3x16xi4>
}

func.func @main() {
  %x = arith.constant dense<[1.5, 3.0, 2.25, -1.0, 10.0, 300.0, 2.5, 1.0]> : tensor<8xf32>
  %r:2 = func.call @shared_input(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %d = tensor.cast %r#0 : tensor<8xf32> to tensor<*xf32>
  %q = tensor.cast %r#1 : tensor<8xf32> to tensor<*xf32>
  // CHECK: [0.5,  2,  1.25,  -2,  9,  299,  1.5,  0]
  func.call @printMemrefF32(%d) : (tensor<*xf32>) -> ()
  // roundeven(x / s) - o, clamped to [0, 255]: 1.5 and 4.5 and 2.5 tie to
  // even (2, 4, 2), -1 - 3 and 300 clamp.
  // CHECK: [2,  4,  4,  0,  2,  255,  1,  4]
  func.call @printMemrefF32(%q) : (tensor<*xf32>) -> ()

  %w = arith.constant dense<[[0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75],
                             [-1.0, 4.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.3, 1.4, 1.6, 1.7],
                             [0.125, 0.375, 0.625, 0.875, 5.0, 6.0, 7.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<3x16xf32>
  // One block per row, of 16: row 0 codes 0 to 15 exactly; row 1 with
  // offset -2; row 2 with offset 1, clamped at 0.
  %ss = arith.constant dense<[[0.25], [0.5], [1.0]]> : tensor<3x1xf32>
  %os = arith.constant dense<[[0.0], [-2.0], [1.0]]> : tensor<3x1xf32>
  %sd = tensor.cast %ss : tensor<3x1xf32> to tensor<?x?xf32>
  %od = tensor.cast %os : tensor<3x1xf32> to tensor<?x?xf32>
  %c = func.call @dynamic_blocks(%w, %sd, %od) : (tensor<3x16xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<3x16xi4>
  %cf = tensor.collapse_shape %c [[0, 1]] : tensor<3x16xi4> into tensor<48xi4>
  %cw = arith.extui %cf : tensor<48xi4> to tensor<48xi64>
  %cu = tensor.cast %cw : tensor<48xi64> to tensor<*xi64>
  // CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,
  // CHECK-SAME: 0,  10,  2,  2,  3,  3,  3,  3,  4,  4,  4,  4,  5,  5,  5,  5,
  // CHECK-SAME: 0,  0,  0,  0,  4,  5,  6,  7,  0,  0,  0,  0,  0,  0,  0,  0]
  func.call @printMemrefI64(%cu) : (tensor<*xi64>) -> ()
  return
}
