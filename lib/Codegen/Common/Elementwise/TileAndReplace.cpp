//===- TileAndReplace.cpp - tile a linalg.generic in place ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

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

FailureOr<scf::SCFTileAndFuseResult> mlir::quant_affine::tileAndFuseConsumer(
    RewriterBase &rewriter, linalg::GenericOp consumer, ArrayRef<int64_t> sizes,
    bool forall, scf::SCFTileAndFuseOptions::ControlFnTy control) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(asIndexAttrs(rewriter, sizes));
  if (forall)
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions fuse;
  fuse.setTilingOptions(tiling);
  if (control)
    fuse.setFusionControlFn(control);
  rewriter.setInsertionPoint(consumer);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(consumer.getOperation()), fuse);
  if (failed(fused))
    return failure();
  for (OpResult result : consumer->getResults())
    if (Value replacement = fused->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);
  return fused;
}

Operation *mlir::quant_affine::dropUnitLoops(RewriterBase &rewriter,
                                             linalg::GenericOp op) {
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, op, control);
  if (failed(dropped))
    return op;
  rewriter.replaceOp(op, dropped->replacements);
  return dropped->resultOp.getOperation();
}

int64_t mlir::quant_affine::largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t d = std::min(size, limit); d > 1; --d)
    if (size % d == 0)
      return d;
  return 1;
}

void mlir::quant_affine::startFromEmpty(RewriterBase &rewriter, Operation *loop,
                                        OpOperand &init) {
  auto type = cast<RankedTensorType>(init.get().getType());
  rewriter.setInsertionPoint(loop);
  Value empty = tensor::EmptyOp::create(rewriter, loop->getLoc(),
                                        type.getShape(), type.getElementType());
  rewriter.modifyOpInPlace(loop, [&] { init.set(empty); });
}

SmallVector<OpFoldResult>
mlir::quant_affine::asIndexAttrs(OpBuilder &b, ArrayRef<int64_t> sizes) {
  return llvm::map_to_vector(sizes, [&](int64_t size) -> OpFoldResult {
    return b.getIndexAttr(size);
  });
}

bool mlir::quant_affine::vectorizeInPlace(RewriterBase &rewriter,
                                          Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op);
  if (failed(result))
    return false;
  rewriter.replaceOp(op, result->replacements);
  return true;
}

void mlir::quant_affine::foldSlicesAndHoistAccumulators(Operation *root) {
  MLIRContext *context = root->getContext();
  {
    RewritePatternSet patterns(context);
    tensor::populateFoldTensorSubsetOpPatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    linalg::populateSwapExtractSliceWithFillPatterns(patterns);
    (void)applyPatternsGreedily(root, std::move(patterns),
                                quant_affine::structuredCodeConfig());
  }
  IRRewriter rewriter(context);
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    (void)hoistLoopInvariantSubsets(
        rewriter, cast<LoopLikeOpInterface>(loop.getOperation()));
}

void mlir::quant_affine::splitLoopIntoLanes(OpBuilder &b, linalg::GenericOp op,
                                            unsigned loop, int64_t lanes,
                                            SmallVectorImpl<Value> &inputs,
                                            SmallVectorImpl<AffineMap> &maps) {
  MLIRContext *context = op.getContext();
  unsigned loops = op.getNumLoops();
  AffineExpr steps = b.getAffineDimExpr(loop);
  AffineExpr lane = b.getAffineDimExpr(loops);
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<AffineExpr> results(map.getResults());
    Value value = input->get();
    if (map.isFunctionOfDim(loop)) {
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape.back() /= lanes;
      shape.push_back(lanes);
      SmallVector<ReassociationIndices> groups;
      for (int64_t i = 0; i + 1 < type.getRank(); ++i)
        groups.push_back({i});
      groups.push_back({type.getRank() - 1, type.getRank()});
      value = tensor::ExpandShapeOp::create(b, op.getLoc(), type.clone(shape),
                                            value, groups);
      results.back() = steps;
      results.push_back(lane);
    }
    inputs.push_back(value);
    maps.push_back(AffineMap::get(loops + 1, 0, results, context));
  }
}
