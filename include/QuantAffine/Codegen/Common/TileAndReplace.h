//===- TileAndReplace.h - tile a linalg.generic in place --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_TILEANDREPLACE_H
#define QUANT_AFFINE_CODEGEN_COMMON_TILEANDREPLACE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace quant_affine {

/// Tiles `op` by `sizes` (0: not tiled) with `scf.for` loops, or one
/// `scf.forall` when `forall`, and replaces it. Returns the op of one tile
/// (and the loops, outermost first, in `loops` if given), or null when
/// upstream tiling fails (the op is then left as it is).
linalg::GenericOp
tileAndReplace(RewriterBase &rewriter, linalg::GenericOp op,
               ArrayRef<OpFoldResult> sizes, bool forall,
               SmallVector<LoopLikeOpInterface> *loops = nullptr);

/// The inputs of `op` and their indexing maps with loop `loop` (which every
/// input reading it reads as its last dim) split into `loop` (the steps) and
/// a new last loop of `lanes`: each such input is tensor.expand_shape'd
/// into `[..., size / lanes, lanes]`. The maps have one more dim.
void splitLoopIntoLanes(OpBuilder &b, linalg::GenericOp op, unsigned loop,
                        int64_t lanes, SmallVectorImpl<Value> &inputs,
                        SmallVectorImpl<AffineMap> &maps);

/// Tiles `consumer` by `sizes` (0: not tiled) with `scf.for` loops, or one
/// `scf.forall` when `forall`, fuses its producers into the tile (those
/// `control` accepts, when given; upstream's default otherwise), and
/// replaces the consumer's uses. The consumer itself is left for the caller
/// to erase. Returns upstream's result, or failure (nothing changed).
FailureOr<scf::SCFTileAndFuseResult>
tileAndFuseConsumer(RewriterBase &rewriter, linalg::GenericOp consumer,
                    ArrayRef<int64_t> sizes, bool forall,
                    scf::SCFTileAndFuseOptions::ControlFnTy control = nullptr);

/// `op` with its unit loops dropped (upstream's dropUnitDims, through
/// extract/insert slices), or `op` itself when it has none.
Operation *dropUnitLoops(RewriterBase &rewriter, linalg::GenericOp op);

/// The largest divisor of `size` not above `limit` (`size` is static and
/// positive).
int64_t largestDivisorAtMost(int64_t size, int64_t limit);

/// Makes `loop` start its init `init` (a tensor of static shape whose values
/// the loop never reads) from a new tensor.empty of the same type.
void startFromEmpty(RewriterBase &rewriter, Operation *loop, OpOperand &init);

/// `sizes` as index attributes, for tile sizes.
SmallVector<OpFoldResult> asIndexAttrs(OpBuilder &b, ArrayRef<int64_t> sizes);

/// Vectorizes `op` (static shape) in place with upstream's linalg::vectorize;
/// false (nothing changed) if upstream cannot.
bool vectorizeInPlace(RewriterBase &rewriter, Operation *op);

/// After tiling and vectorizing reductions in `root`: folds the tiles'
/// slices into their transfers, then moves loop-carried accumulators out of
/// every scf.for (innermost first, so that one climbs every level) into
/// registers with upstream's hoistLoopInvariantSubsets.
void foldSlicesAndHoistAccumulators(Operation *root);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_TILEANDREPLACE_H
