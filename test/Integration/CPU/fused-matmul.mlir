// Dequantize fused into matmuls (docs/FusedMatmul.md): each @kN computes
// init + x @ W with W = dequantize(q, ...) fused into the contraction, and
// @kN_weights is the same dequantize alone. Inputs/fused-matmul-harness.cpp
// calls both, ahead of time:
//   * one-hot activations (x = e_j, zero init): every result equals the
//     weight @kN_weights gives, bit for bit (the fused weight is exact);
//   * random activations, weights and inits: |ours - ref| <= K 2^-24
//     sum |x w| against a float64 reference (sums are reassociated);
//   * rows whose scale is +Inf or NaN: NaN exactly where the reference has
//     one.
// The forms: x @ W^T (decode and prefill rows, int4 and int8, per-block,
// per-channel, with offsets, accumulating into the destination), x @ W,
// batch_matmul, matvec, bf16 and f16 activations and weights into f32, a
// dynamic batch (left to loops), and 64 rows through dequantized panels (k10,
// k11: several panels of 32 weight rows and several chunks of K). Each under
// the pipeline's option sets.
//
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/fused-matmul-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true" | mlir-translate --mlir-to-llvmir -o %t.b.ll
// RUN: clang -O2 -Wno-override-module -c %t.b.ll -o %t.b.o
// RUN: clang++ -O2 %S/Inputs/fused-matmul-harness.cpp %t.b.o -o %t.b.exe
// RUN: %t.b.exe | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" | mlir-translate --mlir-to-llvmir -o %t.omp.ll %}
// RUN: %if libomp %{ clang -O2 -Wno-override-module -c %t.omp.ll -o %t.omp.o %}
// RUN: %if libomp %{ clang++ -O2 -fopenmp %S/Inputs/fused-matmul-harness.cpp %t.omp.o -o %t.omp.exe -Wl,-rpath,%mlir_lib_dir %}
// RUN: %if libomp %{ %t.omp.exe | FileCheck %s %}

// CHECK-COUNT-11: {{^}}k{{[0-9]+}}: one-hot exact, within bound, NaN rows match
// CHECK: all 11 kernels passed

// x @ W^T, one row (decode), int4 per block of 32.
func.func @k1(%x: tensor<1x256xf32>, %q: tensor<64x256xi4>, %s: tensor<64x8xf32>, %d: tensor<1x64xf32>) -> tensor<1x64xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<64x256xi4>, tensor<64x8xf32>) -> tensor<64x256xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<1x256xf32>, tensor<64x256xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %m : tensor<1x64xf32>
}
func.func @k1_weights(%q: tensor<64x256xi4>, %s: tensor<64x8xf32>) -> tensor<64x256xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<64x256xi4>, tensor<64x8xf32>) -> tensor<64x256xf32>
  return %w : tensor<64x256xf32>
}

// x @ W^T, 6 rows (prefill), int4 with offsets per block of 128, added to
// the destination's values.
func.func @k2(%x: tensor<6x256xf32>, %q: tensor<48x256xi4>, %s: tensor<48x2xf32>, %o: tensor<48x2xf32>, %d: tensor<6x48xf32>) -> tensor<6x48xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 128] : (tensor<48x256xi4>, tensor<48x2xf32>, tensor<48x2xf32>) -> tensor<48x256xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<6x256xf32>, tensor<48x256xf32>) outs(%d : tensor<6x48xf32>) -> tensor<6x48xf32>
  return %m : tensor<6x48xf32>
}
func.func @k2_weights(%q: tensor<48x256xi4>, %s: tensor<48x2xf32>, %o: tensor<48x2xf32>) -> tensor<48x256xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 128] : (tensor<48x256xi4>, tensor<48x2xf32>, tensor<48x2xf32>) -> tensor<48x256xf32>
  return %w : tensor<48x256xf32>
}

// matvec, int8 per output channel.
func.func @k3(%x: tensor<512xf32>, %q: tensor<40x512xi8>, %s: tensor<40x1xf32>, %d: tensor<40xf32>) -> tensor<40xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<40x512xi8>, tensor<40x1xf32>) -> tensor<40x512xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<40xf32>) -> tensor<40xf32>
  %m = linalg.matvec ins(%w, %x : tensor<40x512xf32>, tensor<512xf32>) outs(%f : tensor<40xf32>) -> tensor<40xf32>
  return %m : tensor<40xf32>
}
func.func @k3_weights(%q: tensor<40x512xi8>, %s: tensor<40x1xf32>) -> tensor<40x512xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<40x512xi8>, tensor<40x1xf32>) -> tensor<40x512xf32>
  return %w : tensor<40x512xf32>
}

// x @ W (the weight's rows are the reduction), int8 per column.
func.func @k4(%x: tensor<4x64xf32>, %q: tensor<64x96xi8>, %s: tensor<1x96xf32>, %d: tensor<4x96xf32>) -> tensor<4x96xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<64x96xi8>, tensor<1x96xf32>) -> tensor<64x96xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<4x96xf32>) -> tensor<4x96xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x96xf32>) outs(%f : tensor<4x96xf32>) -> tensor<4x96xf32>
  return %m : tensor<4x96xf32>
}
func.func @k4_weights(%q: tensor<64x96xi8>, %s: tensor<1x96xf32>) -> tensor<64x96xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<64x96xi8>, tensor<1x96xf32>) -> tensor<64x96xf32>
  return %w : tensor<64x96xf32>
}

// batch_matmul, x @ W^T per batch, int4 per block of 32.
func.func @k5(%x: tensor<2x3x64xf32>, %q: tensor<2x16x64xi4>, %s: tensor<2x16x2xf32>, %d: tensor<2x3x16xf32>) -> tensor<2x3x16xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 1, 32] : (tensor<2x16x64xi4>, tensor<2x16x2xf32>) -> tensor<2x16x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  %m = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%x, %w : tensor<2x3x64xf32>, tensor<2x16x64xf32>) outs(%f : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  return %m : tensor<2x3x16xf32>
}
func.func @k5_weights(%q: tensor<2x16x64xi4>, %s: tensor<2x16x2xf32>) -> tensor<2x16x64xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 1, 32] : (tensor<2x16x64xi4>, tensor<2x16x2xf32>) -> tensor<2x16x64xf32>
  return %w : tensor<2x16x64xf32>
}

// bf16 activations and bf16 weights, summed in f32.
func.func @k6(%x: tensor<2x128xbf16>, %q: tensor<32x128xi4>, %s: tensor<32x4xbf16>, %d: tensor<2x32xf32>) -> tensor<2x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<32x128xi4>, tensor<32x4xbf16>) -> tensor<32x128xbf16>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<2x32xf32>) -> tensor<2x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<2x128xbf16>, tensor<32x128xbf16>) outs(%f : tensor<2x32xf32>) -> tensor<2x32xf32>
  return %m : tensor<2x32xf32>
}
func.func @k6_weights(%q: tensor<32x128xi4>, %s: tensor<32x4xbf16>) -> tensor<32x128xbf16> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-8, 7] block [1, 32] : (tensor<32x128xi4>, tensor<32x4xbf16>) -> tensor<32x128xbf16>
  return %w : tensor<32x128xbf16>
}

// Rows of dynamic count (left to loops: tiles need static shapes).
func.func @k7(%x: tensor<?x64xf32>, %q: tensor<32x64xi8>, %s: tensor<32x1xf32>, %d: tensor<?x32xf32>) -> tensor<?x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x64xi8>, tensor<32x1xf32>) -> tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<?x64xf32>, tensor<32x64xf32>) outs(%f : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %m : tensor<?x32xf32>
}
func.func @k7_weights(%q: tensor<32x64xi8>, %s: tensor<32x1xf32>) -> tensor<32x64xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x64xi8>, tensor<32x1xf32>) -> tensor<32x64xf32>
  return %w : tensor<32x64xf32>
}

// A linalg.generic contraction (x @ W^T written out) with the weight's
// rows in blocks of 16 and 24 rows of 3 results.
func.func @k8(%x: tensor<3x160xf32>, %q: tensor<24x160xi8>, %s: tensor<24x10xf32>, %d: tensor<3x24xf32>) -> tensor<3x24xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] block [1, 16] : (tensor<24x160xi8>, tensor<24x10xf32>) -> tensor<24x160xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<3x24xf32>) -> tensor<3x24xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<3x160xf32>, tensor<24x160xf32>) outs(%f : tensor<3x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<3x24xf32>
  return %m : tensor<3x24xf32>
}
func.func @k8_weights(%q: tensor<24x160xi8>, %s: tensor<24x10xf32>) -> tensor<24x160xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] block [1, 16] : (tensor<24x160xi8>, tensor<24x10xf32>) -> tensor<24x160xf32>
  return %w : tensor<24x160xf32>
}

// f16 activations and weights (int8 per channel), summed in f32.
func.func @k9(%x: tensor<2x128xf16>, %q: tensor<32x128xi8>, %s: tensor<32x1xf16>, %d: tensor<2x32xf32>) -> tensor<2x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x128xi8>, tensor<32x1xf16>) -> tensor<32x128xf16>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<2x32xf32>) -> tensor<2x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<2x128xf16>, tensor<32x128xf16>) outs(%f : tensor<2x32xf32>) -> tensor<2x32xf32>
  return %m : tensor<2x32xf32>
}
func.func @k9_weights(%q: tensor<32x128xi8>, %s: tensor<32x1xf16>) -> tensor<32x128xf16> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x128xi8>, tensor<32x1xf16>) -> tensor<32x128xf16>
  return %w : tensor<32x128xf16>
}

// x @ W^T, 64 rows (prefill through panels: two of 32 weight rows, two chunks
// of 256 along K), int4 with offsets per block of 32, added to the
// destination's values.
func.func @k10(%x: tensor<64x512xf32>, %q: tensor<64x512xi4>, %s: tensor<64x16xf32>, %o: tensor<64x16xf32>, %d: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 32] : (tensor<64x512xi4>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<64x512xf32>, tensor<64x512xf32>) outs(%d : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
func.func @k10_weights(%q: tensor<64x512xi4>, %s: tensor<64x16xf32>, %o: tensor<64x16xf32>) -> tensor<64x512xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s, %o range [-8, 7] block [1, 32] : (tensor<64x512xi4>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x512xf32>
  return %w : tensor<64x512xf32>
}

// x @ W^T, 64 rows through panels, int8 per channel: one reduction loop, in
// three chunks of 256.
func.func @k11(%x: tensor<64x768xf32>, %q: tensor<32x768xi8>, %s: tensor<32x1xf32>, %d: tensor<64x32xf32>) -> tensor<64x32xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x768xi8>, tensor<32x1xf32>) -> tensor<32x768xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%d : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<64x768xf32>, tensor<32x768xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
func.func @k11_weights(%q: tensor<32x768xi8>, %s: tensor<32x1xf32>) -> tensor<32x768xf32> attributes {llvm.emit_c_interface} {
  %w = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<32x768xi8>, tensor<32x1xf32>) -> tensor<32x768xf32>
  return %w : tensor<32x768xf32>
}
