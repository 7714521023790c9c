//===- Passes.td - quant_affine dialect transforms ---------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes that transform the quant_affine ops themselves. Code generation
// passes (tiling, vectorization, bufferization, CPU and GPU lowering) are in
// include/QuantAffine/Codegen.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TRANSFORMS_PASSES_TD
#define QUANT_AFFINE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QuantAffineFoldConstantsPass : Pass<"quant-affine-fold-constants"> {
  let summary = "Fold quant_affine ops on constants of any size";
  let description = [{
    Replaces every `quantize`, `dequantize`, `qdq`, `float_qdq`,
    `compute_encoding` and `block_scale` whose operands are constants with
    an `arith.constant`, computed by the op folders' evaluator (the formula
    template the generated code uses, in APFloat), without the size limit
    of `-canonicalize` (65,536 elements). Use it to quantize weights ahead
    of time. Calibrations fold first, in program order, so that the
    quantizers they feed see constants; a folded `block_scale`'s
    `arith.extf` users (the MX idiom's f32 scale) are folded with it.

    A splat input with splat (or per-tensor) scale and offset folds to a
    splat in constant time, whatever its size. Other results are computed
    element by element: those above `max-elements`, and those of 2^32
    elements or more (which could not be held), are left unfolded.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"std::numeric_limits<int64_t>::max()",
           "Leave ops with larger results alone (splat results fold at any "
           "size)">
  ];
  let dependentDialects = ["arith::ArithDialect"];
}

#endif // QUANT_AFFINE_TRANSFORMS_PASSES_TD
