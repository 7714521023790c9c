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

/// The shape of the panels and of their register tiles (for a target:
/// CPUTarget.h's deriveCPUStrategy).
struct PanelShape {
  /// Weight rows per panel: the results of one step, two registers of f32.
  int64_t columns = 32;
  /// Rows of x per register tile: tileRows x 2 accumulators.
  int64_t tileRows = 8;
  /// The panel's transposes, in square blocks of one register of f32.
  int64_t transposeBlock = 16;
};

/// Compiles `op`, a fused `x @ W^T` (`out + a * w`, `w` computed from the
/// weight's inputs only) with many rows of `x`, through panels: each tile of
/// `shape.columns` weight rows by a chunk of K is dequantized once into a
/// small f32 panel, transposed (K-major), which every row of `x` then
/// multiplies with outer products (broadcast `x`, `shape.columns` lanes of
/// results). Returns failure, with `op` unchanged, when `op` is not of that
/// form.
LogicalResult compileWithPanels(RewriterBase &rewriter, linalg::GenericOp op,
                                bool parallelOuter, const PanelShape &shape);

/// Lowers the `block` x `block` `vector.transpose`s of the panels (left
/// whole by the unrolling into rows) to shuffles of rows.
void lowerTransposesToShuffles(Operation *root, int64_t block);

} // namespace quant_affine
} // namespace mlir

#endif // QUANTAFFINE_CODEGEN_COMMON_PANELCONTRACTIONS_H
