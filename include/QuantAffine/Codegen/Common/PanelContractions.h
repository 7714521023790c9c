//===- PanelContractions.h - prefill matmuls through weight panels -*- C++ -*-//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANTAFFINE_CODEGEN_COMMON_PANELCONTRACTIONS_H
#define QUANTAFFINE_CODEGEN_COMMON_PANELCONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {

/// Compiles `op`, a fused `x @ W^T` (`out + a * w`, `w` computed from the
/// weight's inputs only) with many rows of `x`, through panels: each tile of
/// 32 weight rows by a chunk of K is dequantized once into a small f32 panel,
/// transposed (K-major), which every row of `x` then multiplies with outer
/// products (broadcast `x`, 32 lanes of results). Returns failure, with `op`
/// unchanged, when `op` is not of that form.
LogicalResult compileWithPanels(RewriterBase &rewriter, linalg::GenericOp op,
                                bool parallelOuter);

/// Lowers the 16 x 16 `vector.transpose`s of the panels (left whole by the
/// unrolling into rows) to AVX-512-friendly shuffles of rows.
void lowerTransposesToShuffles(Operation *root);

} // namespace quant_affine
} // namespace mlir

#endif // QUANTAFFINE_CODEGEN_COMMON_PANELCONTRACTIONS_H
