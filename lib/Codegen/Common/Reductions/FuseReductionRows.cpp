//===- FuseReductionRows.cpp - reduce and consume a row while it is cached ===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Dynamic quantization reads its input twice: a reduction (compute_encoding's
// statistics) and an elementwise op that needs its result (quantize). When
// both keep the same leading dim parallel (per token, per block, per channel
// of the leading dim), the second read can come from the cache instead of
// memory: tile the consumer by a few rows and fuse the reduction, and the
// elementwise ops between (the encoding's epilogue), into each tile.
// Upstream's tileConsumerAndFuseProducersUsingSCF does the tiling and the
// fusion; this pass only decides where it pays and how many rows a tile has.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFUSEREDUCTIONROWSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// `value` with tensor reshapes looked through: two expand_shapes of one
/// tensor read the same data.
Value stripReshapes(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else
      break;
  }
  return value;
}

bool isAllParallel(linalg::GenericOp op) {
  return op.getNumLoops() == op.getNumParallelLoops();
}

bool hasStaticTensors(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() &&
         llvm::all_of(op->getOperandTypes(), [](Type type) {
           auto tensor = dyn_cast<RankedTensorType>(type);
           return tensor && tensor.hasStaticShape();
         });
}

/// Whether `map`'s first result is loop `loop` and the operand's first dim
/// spans the loop's whole range (not a broadcast of one row).
bool leadsWithLoop(linalg::GenericOp op, OpOperand &operand, unsigned loop) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  if (map.getNumResults() == 0 || !type || type.getRank() == 0)
    return false;
  auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
  return dim && dim.getPosition() == loop &&
         type.getDimSize(0) == op.getStaticLoopRanges()[loop];
}

/// The loop that `op` (a reduction) keeps as its results' first dim, if it
/// is parallel, the same for every result, and the first dim of every
/// input too: tiling it tiles every operand by rows.
std::optional<unsigned> rowLoopOfReduction(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || !hasStaticTensors(op))
    return std::nullopt;
  std::optional<unsigned> row;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (map.getNumResults() == 0)
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!dim || (row && *row != dim.getPosition()))
      return std::nullopt;
    row = dim.getPosition();
  }
  if (!row || op.getIteratorTypesArray()[*row] != utils::IteratorType::parallel)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!leadsWithLoop(op, *input, *row))
      return std::nullopt;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!leadsWithLoop(op, init, *row))
      return std::nullopt;
  return row;
}

/// The map `op` would read `input` with if it read the source of the
/// tensor.expand_shape that defines it, when that expansion only adds unit
/// dims which `op` reads at index 0 (per-token encodings, `[M] -> [M, 1]`);
/// none otherwise.
std::optional<AffineMap> mapThroughUnitExpansion(linalg::GenericOp op,
                                                 OpOperand &input) {
  auto expand = input.get().getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand || !expand.getSrcType().hasStaticShape())
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&input);
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  SmallVector<AffineExpr> kept;
  SmallVector<int64_t> keptShape;
  for (auto [result, size] : llvm::zip_equal(map.getResults(), shape)) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (size == 1 && constant && constant.getValue() == 0)
      continue;
    kept.push_back(result);
    keptShape.push_back(size);
  }
  if (ArrayRef<int64_t>(keptShape) != expand.getSrcType().getShape())
    return std::nullopt;
  return AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
}

/// `input` with a unit expansion (mapThroughUnitExpansion) looked through.
Value throughUnitExpansion(linalg::GenericOp op, OpOperand &input) {
  if (mapThroughUnitExpansion(op, input))
    return input.get().getDefiningOp<tensor::ExpandShapeOp>().getSrc();
  return input.get();
}

/// Makes `op` read the sources of its unit-expanded inputs, so that the
/// fusion sees their producers.
void readThroughUnitExpansions(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    std::optional<AffineMap> map = mapThroughUnitExpansion(op, *input);
    if (!map)
      continue;
    maps[input->getOperandNumber()] = *map;
    Value source = throughUnitExpansion(op, *input);
    rewriter.modifyOpInPlace(op, [&] { input->set(source); });
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
}

/// What one consumer fuses: the reduction and the elementwise ops between
/// it and the consumer, all by rows of their first dim.
struct RowFusion {
  linalg::GenericOp consumer;
  linalg::GenericOp reduction;
  llvm::SmallPtrSet<Operation *, 4> producers;
};

/// Follows `value` back through all-parallel generics that keep the first
/// dim by rows to a reduction by rows of the same first dim; collects them.
linalg::GenericOp findRowReduction(Value value, RowFusion &fusion,
                                   int depth = 0) {
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || depth > 4 || !hasStaticTensors(op))
    return {};
  if (rowLoopOfReduction(op)) {
    fusion.producers.insert(op);
    return op;
  }
  if (!isAllParallel(op))
    return {};
  // Rank-0 inputs (NVFP4's tensor scale) are read whole by every tile.
  for (OpOperand &operand : op->getOpOperands())
    if (!leadsWithLoop(op, operand, 0) &&
        !(op.isDpsInput(&operand) &&
          op.getMatchingIndexingMap(&operand).getNumResults() == 0))
      return {};
  for (OpOperand *input : op.getDpsInputOperands())
    if (linalg::GenericOp found =
            findRowReduction(input->get(), fusion, depth + 1)) {
      fusion.producers.insert(op);
      return found;
    }
  return {};
}

/// Whether `consumer` reads (by rows) what a reduction by rows reads, and
/// that reduction's result through its inputs.
std::optional<RowFusion> matchRowFusion(linalg::GenericOp consumer) {
  if (!isAllParallel(consumer) || !hasStaticTensors(consumer) ||
      consumer.getNumLoops() < 2 || consumer.getStaticLoopRanges()[0] < 2)
    return std::nullopt;
  RowFusion fusion;
  fusion.consumer = consumer;
  SmallVector<Value> rowInputs;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (!leadsWithLoop(consumer, *input, 0))
      continue;
    rowInputs.push_back(stripReshapes(input->get()));
    if (!fusion.reduction)
      fusion.reduction =
          findRowReduction(throughUnitExpansion(consumer, *input), fusion);
  }
  if (!fusion.reduction)
    return std::nullopt;
  // The reduction reads one of the consumer's own row inputs: the second
  // read is the one the cache saves.
  bool sameData =
      llvm::any_of(fusion.reduction.getDpsInputs(), [&](Value input) {
        return llvm::is_contained(rowInputs, stripReshapes(input));
      });
  if (!sameData)
    return std::nullopt;
  // The reduction's destinations (fills) are tiled with it.
  for (Value init : fusion.reduction.getDpsInits())
    if (Operation *fill = init.getDefiningOp<linalg::FillOp>())
      fusion.producers.insert(fill);
  return fusion;
}

/// Bytes of one row of `value`'s first dim.
int64_t rowBytes(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t elements = type.getNumElements() / type.getDimSize(0);
  return elements * std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The largest divisor of the consumer's rows whose rows of the input that
/// it reads again fit in `budget` bytes (at least one row).
int64_t rowsPerTile(RowFusion &fusion, int64_t budget) {
  linalg::GenericOp consumer = fusion.consumer;
  llvm::SmallPtrSet<Value, 2> reread;
  for (Value input : fusion.reduction.getDpsInputs())
    reread.insert(stripReshapes(input));
  int64_t perRow = 0;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (leadsWithLoop(consumer, *input, 0) &&
        reread.contains(stripReshapes(input->get())))
      perRow += rowBytes(input->get());
  int64_t rows = consumer.getStaticLoopRanges()[0];
  int64_t best = 1;
  for (int64_t tile = 1; tile <= rows && tile * perRow <= budget; ++tile)
    if (rows % tile == 0)
      best = tile;
  return best;
}

/// Whether the results of `op` do not depend on its destinations: all
/// parallel, its payload reads no destination.
bool ignoresDestinations(linalg::GenericOp op) {
  if (!isAllParallel(op))
    return false;
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.getMatchingBlockArgument(&init).use_empty();
  });
}

/// Whether `a` and `b` compute the same results from the same inputs, their
/// destinations aside (both ignore them).
bool sameButDestinations(linalg::GenericOp a, linalg::GenericOp b) {
  if (a->getName() != b->getName() || a->getAttrs() != b->getAttrs() ||
      a.getDpsInputs() != b.getDpsInputs() ||
      a->getResultTypes() != b->getResultTypes() || !ignoresDestinations(a) ||
      !ignoresDestinations(b))
    return false;
  return OperationEquivalence::isRegionEquivalentTo(
      &a.getRegion(), &b.getRegion(), OperationEquivalence::IgnoreLocations);
}

/// Whether `op` computes into slices of `loop`'s shared outputs (the copy
/// of a producer whose results the loop yields).
bool writesSharedOutputs(linalg::GenericOp op, scf::ForallOp loop) {
  return llvm::any_of(op.getDpsInits(), [&](Value init) {
    auto slice = init.getDefiningOp<tensor::ExtractSliceOp>();
    return slice &&
           llvm::is_contained(loop.getRegionIterArgs(), slice.getSource());
  });
}

/// Upstream fuses a producer once per slice of it that the tile reads:
/// an op with two results read by the consumer is computed twice. CSE
/// merges the copies that are identical; a copy the loop yields differs
/// from the other only in its destinations, which neither reads: that one
/// is kept, so that it computes in place into the loop's outputs.
void mergeFusedCopies(RewriterBase &rewriter, scf::ForallOp loop) {
  DominanceInfo dominance(loop);
  eliminateCommonSubExpressions(rewriter, dominance, loop);
  SmallVector<linalg::GenericOp> ops;
  loop->walk([&](linalg::GenericOp op) { ops.push_back(op); });
  llvm::SmallPtrSet<Operation *, 4> erased;
  for (auto [i, first] : llvm::enumerate(ops)) {
    if (erased.contains(first))
      continue;
    for (linalg::GenericOp second : ArrayRef(ops).drop_front(i + 1)) {
      if (erased.contains(second) || second->getBlock() != first->getBlock() ||
          !sameButDestinations(first, second))
        continue;
      // Keep the one writing the loop's outputs, if every use of the other
      // comes after it.
      linalg::GenericOp kept = first, dropped = second;
      if (writesSharedOutputs(second, loop) &&
          llvm::all_of(first->getUsers(), [&](Operation *user) {
            return dominance.properlyDominates(second.getOperation(), user);
          }))
        std::swap(kept, dropped);
      rewriter.replaceOp(dropped, kept->getResults());
      erased.insert(dropped);
      if (dropped == first)
        break;
    }
  }
  eliminateCommonSubExpressions(rewriter, dominance, loop);
}

/// Moves the ops of `loop`'s block that come before it and use its results
/// (directly or through each other: a reshape of a yielded encoding) after
/// it, in their order.
void moveUsersAfter(RewriterBase &rewriter, Operation *loop) {
  llvm::SmallPtrSet<Operation *, 8> moved{loop};
  SmallVector<Operation *> toMove;
  for (Operation *op = &loop->getBlock()->front(); op != loop;
       op = op->getNextNode()) {
    bool uses = llvm::any_of(op->getOperands(), [&](Value operand) {
      Operation *def = operand.getDefiningOp();
      return def && moved.contains(def);
    });
    if (!uses)
      continue;
    moved.insert(op);
    toMove.push_back(op);
  }
  Operation *after = loop;
  for (Operation *op : toMove) {
    rewriter.moveOpAfter(op, after);
    after = op;
  }
}

/// Makes the loop's shared outputs that start from an uninitialized
/// bufferization.alloc_tensor and only take results that ignore their
/// destinations start from a tensor.empty of their own instead. The unfused
/// epilogue's destinations were made alloc_tensor by
/// quant-affine-guard-empty-tensor-elimination (its results were read by
/// the quantize too); inside the loop only slices are read, so empty-tensor
/// elimination can now put the encodings into the caller's buffers.
void startYieldedResultsEmpty(RewriterBase &rewriter, scf::ForallOp loop) {
  for (auto [init, arg] :
       llvm::zip_equal(loop.getOutputsMutable(), loop.getRegionIterArgs())) {
    auto alloc = init.get().getDefiningOp<bufferization::AllocTensorOp>();
    if (!alloc || alloc.getCopy() || !alloc.getDynamicSizes().empty())
      continue;
    bool onlyIgnoredOuts = true;
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tensor::ParallelInsertSliceOp>(user))
        continue;
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      bool feedsIgnoredOuts =
          slice && llvm::all_of(slice->getUses(), [](OpOperand &sliceUse) {
            auto generic = dyn_cast<linalg::GenericOp>(sliceUse.getOwner());
            return generic && generic.isDpsInit(&sliceUse) &&
                   ignoresDestinations(generic);
          });
      if (!feedsIgnoredOuts)
        onlyIgnoredOuts = false;
    }
    if (onlyIgnoredOuts)
      quant_affine::startFromEmpty(rewriter, loop, init);
  }
}

struct QuantAffineFuseReductionRowsPass
    : quant_affine::impl::QuantAffineFuseReductionRowsPassBase<
          QuantAffineFuseReductionRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (tileBytes < 1) {
      getOperation().emitError("tile-bytes must be at least 1, got ")
          << tileBytes.getValue();
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> consumers;
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->getParentOfType<scf::ForallOp>() ||
          op->getParentOfType<scf::ForOp>() || !isAllParallel(op) ||
          !hasStaticTensors(op))
        return;
      if (matchRowFusion(op))
        consumers.push_back(op);
    });
    if (consumers.empty())
      return markAllAnalysesPreserved();
    // Matched again at its turn: a second consumer of the same encodings
    // reads them from the first one's loop then, and is left alone.
    for (linalg::GenericOp consumer : consumers)
      if (std::optional<RowFusion> fusion = matchRowFusion(consumer))
        (void)fuse(rewriter, *fusion);
    // The unfused originals are dead now, and so are the loop results that
    // yielded a copy twice.
    RewritePatternSet patterns(&getContext());
    scf::ForallOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                quant_affine::structuredCodeConfig());
  }

  LogicalResult fuse(RewriterBase &rewriter, RowFusion &fusion) {
    linalg::GenericOp consumer = fusion.consumer;
    readThroughUnitExpansions(rewriter, consumer);
    SmallVector<int64_t> sizes(consumer.getNumLoops(), 0);
    sizes[0] = rowsPerTile(fusion, tileBytes);
    // The tiles are independent: an scf.forall, which the pipeline makes
    // threads or a loop. (An scf.for here would start the encodings'
    // iter_args from tensor.empty ops that CSE merges, and one-shot
    // bufferization would give them one buffer.)
    // Fuse the reduction, its fills and the epilogue; a result used
    // elsewhere too (the encodings a function returns) is yielded by the
    // loop.
    auto fused = [&](Operation *op) {
      return op == consumer.getOperation() || fusion.producers.contains(op);
    };
    FailureOr<scf::SCFTileAndFuseResult> result =
        quant_affine::tileAndFuseConsumer(
            rewriter, consumer, sizes, /*forall=*/true,
            [&](tensor::ExtractSliceOp, OpResult producer, bool)
                -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
              if (!fusion.producers.contains(producer.getOwner()))
                return std::nullopt;
              scf::SCFTileAndFuseOptions::ControlFnResult result;
              result.yieldProducerReplacement =
                  llvm::any_of(producer.getUsers(), [&](Operation *user) {
                    return !fused(user) && !isa<tensor::ExtractSliceOp>(user);
                  });
              return result;
            });
    if (failed(result))
      return failure();
    // The consumer first (its uses are replaced; it reads the originals of
    // the yielded results, so it goes before they are replaced).
    SmallVector<std::pair<Value, Value>> yielded;
    for (auto [original, replacement] : result->replacements)
      if (original.getDefiningOp() != consumer.getOperation())
        yielded.emplace_back(original, replacement);
    rewriter.eraseOp(consumer);
    Operation *loop = result->loops.front().getOperation();
    for (auto [original, replacement] : yielded)
      rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
        return !loop->isAncestor(use.getOwner());
      });
    moveUsersAfter(rewriter, loop);
    mergeFusedCopies(rewriter, cast<scf::ForallOp>(loop));
    startYieldedResultsEmpty(rewriter, cast<scf::ForallOp>(loop));
    return success();
  }
};

} // namespace
