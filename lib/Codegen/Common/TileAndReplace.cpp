//===- TileAndReplace.cpp - tile a linalg.generic in place ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"

using namespace mlir;

linalg::GenericOp
mlir::quant_affine::tileAndReplace(RewriterBase &rewriter, linalg::GenericOp op,
                                   ArrayRef<OpFoldResult> sizes, bool forall,
                                   SmallVector<LoopLikeOpInterface> *loops) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  if (forall)
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return {};
  rewriter.replaceOp(op, tiled->replacements);
  if (loops)
    *loops = tiled->loops;
  return dyn_cast<linalg::GenericOp>(tiled->tiledOps.front());
}
