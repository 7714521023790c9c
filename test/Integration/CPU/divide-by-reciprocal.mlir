// quant-affine-divide-by-reciprocal rounds x * (1 / s) where a per-vector
// check proves that equal to rounding true division, and divides otherwise.
// This compares the compiled code with true division in C++, bit for bit, on
// 2^20 random rows of 16 lanes sharing a scale (log-uniform scales of both
// signs, quotients up to +-2^20 and near ties) and on rows built at the
// edges of every condition of the check: exact ties and their neighbours
// 1-4 ulps away, |x / s| around 2^19, 1 / s around the smallest normal and
// overflow, zero, subnormal, infinite and NaN scales and inputs.
// The grid is +-2^20, the widest that f32 computes (wider promotes to f64),
// so that the clamp hides little of what the division decides.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="reciprocal-division=true" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -Wno-override-module -c %t.ll -o %t.o
// RUN: clang++ -O2 %S/Inputs/reciprocal-harness.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=x86-64-v4 reciprocal-division=true" | FileCheck %s --check-prefix=IR

// CHECK: random rows: 16777216 elements, 0 mismatches
// CHECK: edge rows: 524288 elements, 0 mismatches
// CHECK: qdq edge rows: 524288 elements, 0 mismatches

// The common path multiplies; the division stays for the vectors that need it.
// IR-LABEL: llvm.func @quantize_random
// IR: llvm.fdiv {{.*}} : f32
// IR: llvm.fmul {{.*}} : vector<16xf32>
// IR: llvm.intr.vector.reduce.and
// IR: llvm.fdiv {{.*}} : vector<16xf32>

func.func @quantize_random(%x: tensor<1048576x16xf32>, %s: tensor<1048576x1xf32>, %out: memref<1048576x16xf32>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s range [-1048576, 1048575]
      : (tensor<1048576x16xf32>, tensor<1048576x1xf32>) -> tensor<1048576x16xf32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<1048576x16xf32>, memref<1048576x16xf32>) -> ()
  return
}

func.func @quantize_edge(%x: tensor<32768x16xf32>, %s: tensor<32768x1xf32>, %out: memref<32768x16xf32>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.quantize %x, %s range [-1048576, 1048575]
      : (tensor<32768x16xf32>, tensor<32768x1xf32>) -> tensor<32768x16xf32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<32768x16xf32>, memref<32768x16xf32>) -> ()
  return
}

func.func @qdq_edge(%x: tensor<32768x16xf32>, %s: tensor<32768x1xf32>, %o: tensor<32768x1xf32>, %out: memref<32768x16xf32>)
    attributes {llvm.emit_c_interface} {
  %q = quant_affine.qdq %x, %s, %o range [-128, 127]
      : (tensor<32768x16xf32>, tensor<32768x1xf32>, tensor<32768x1xf32>) -> tensor<32768x16xf32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<32768x16xf32>, memref<32768x16xf32>) -> ()
  return
}
