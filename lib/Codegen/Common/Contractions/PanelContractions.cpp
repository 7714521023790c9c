//===- PanelContractions.cpp - prefill matmuls through weight panels ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With many activation rows, the register tiles of a fused `x @ W^T` (rows
// of x by rows of W, lanes along K) read every activation vector from L2 once
// per pair of weight rows: the loop is bound by that traffic, not by its
// FMAs. This is the layout optimized BLAS kernels use instead: a panel of
// 32 weight rows by a chunk of K is dequantized once (by the weight's own
// ops, so every value is what `dequantize` gives) into a K-major f32 buffer
// of 32 KiB or less, and each group of 8 activation rows multiplies it with
// outer products: per step of K, 8 broadcast activations (from a copy of
// x's chunk) times 2 vectors of 16 weights into 16 accumulators, all
// operands in L1. Upstream provides
// the steps (tile and fuse, vectorize, transpose lowering); the plan is ours.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/PanelContractions.h"
#include "QuantAffine/Codegen/Common/FloatSums.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// Rows of x from which panels pay: fewer keep the register tiles.
constexpr int64_t kMinActivationRows = 64;
/// Elements of K per panel: 32 rows x 256 x 4 bytes = 32 KiB.
constexpr int64_t kPanelDepth = 256;
/// Column blocks across threads, at least (where the panels divide so).
constexpr int64_t kMinColumnBlocks = 8;

/// The parts of a fused `x @ W^T`: `out + a * w` with `a` the activation's
/// element and `w` computed from the other inputs only.
struct PanelForm {
  OpOperand *activation = nullptr;
  arith::AddFOp add;
  arith::MulFOp product;
  Value weight; // `w`, in the body
  unsigned rowLoop = 0, columnLoop = 0;
  SmallVector<unsigned> reductions;
};

FailureOr<PanelForm> matchPanelForm(linalg::GenericOp op,
                                    const quant_affine::PanelShape &shape) {
  PanelForm form;
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != 2)
    return failure();
  Block *body = op.getBlock();
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  form.add = quant_affine::floatSumStep(op);
  if (!form.add || !isa<Float32Type>(out.getType()))
    return failure();
  Value addend =
      form.add.getLhs() == out ? form.add.getRhs() : form.add.getLhs();
  form.product = addend.getDefiningOp<arith::MulFOp>();
  if (!form.product || !form.product->hasOneUse() ||
      form.product->getBlock() != body)
    return failure();
  // The activation: a block argument factor of the product.
  for (Value factor : form.product->getOperands()) {
    auto arg = dyn_cast<BlockArgument>(factor);
    if (!arg || arg.getOwner() != body || !isa<Float32Type>(arg.getType()))
      continue;
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if (!op.isDpsInput(operand))
      continue;
    form.activation = operand;
    form.weight = form.product.getLhs() == factor ? form.product.getRhs()
                                                  : form.product.getLhs();
    break;
  }
  if (!form.activation || !isa<Float32Type>(form.weight.getType()))
    return failure();
  Value activationArg = op.getMatchingBlockArgument(form.activation);
  // `w` depends on neither the activation nor the sum, and the body has
  // nothing but its chain, the product and the sum.
  for (Operation &inner : body->without_terminator()) {
    if (&inner == form.add || &inner == form.product)
      continue;
    if (inner.getNumRegions() || !isPure(&inner) ||
        llvm::is_contained(inner.getOperands(), activationArg) ||
        llvm::is_contained(inner.getOperands(), out) ||
        isa<linalg::IndexOp>(inner))
      return failure();
  }
  if (form.weight == activationArg)
    return failure();
  // Loops: the activation's row (a parallel loop no weight input reads), the
  // weight's row (one the activation does not read), and reductions both
  // read; the result is (row, column).
  AffineMap activationMap = op.getMatchingIndexingMap(form.activation);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> row, column;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    bool inActivation = activationMap.isFunctionOfDim(loop);
    bool inWeight = false;
    for (OpOperand *input : op.getDpsInputOperands())
      if (input != form.activation &&
          op.getMatchingIndexingMap(input).isFunctionOfDim(loop))
        inWeight = true;
    if (iterators[loop] == utils::IteratorType::reduction) {
      if (!inActivation)
        return failure();
      form.reductions.push_back(loop);
    } else if (inActivation && !inWeight) {
      row = loop;
    } else if (inWeight && !inActivation) {
      column = loop;
    } else {
      return failure();
    }
  }
  if (!row || !column || form.reductions.empty())
    return failure();
  form.rowLoop = *row;
  form.columnLoop = *column;
  AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  MLIRContext *context = op.getContext();
  if (resultMap != AffineMap::get(op.getNumLoops(), 0,
                                  {getAffineDimExpr(*row, context),
                                   getAffineDimExpr(*column, context)},
                                  context))
    return failure();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.hasStaticShape() ||
        !op.getMatchingIndexingMap(&operand).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[*row] < kMinActivationRows || ranges[*row] % shape.tileRows ||
      ranges[*column] % shape.columns ||
      ranges[form.reductions.back()] % shape.transposeBlock)
    return failure();
  return form;
}

/// The sum `out + a * w` and the panel op that computes its `w`.
using SumAndPanel = std::pair<linalg::GenericOp, linalg::GenericOp>;

/// Tiles the sum by `sizes` and fuses its producers (the panel) into the
/// tile; replaces the sum and erases the panel once unused. Returns the
/// tiled sum and the fused panel op.
FailureOr<SumAndPanel> tileAndFusePanel(RewriterBase &rewriter,
                                        SumAndPanel untiled,
                                        ArrayRef<int64_t> sizes, bool forall) {
  linalg::GenericOp consumer = untiled.first;
  // Only the panel: the destination's producer (the zero fill) must stay
  // outside a loop over K, or each chunk would start the sums from zero.
  FailureOr<scf::SCFTileAndFuseResult> fused =
      quant_affine::tileAndFuseConsumer(
          rewriter, consumer, sizes, forall,
          [](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (isDestination || !isa<linalg::GenericOp>(producer.getOwner()))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
  if (failed(fused))
    return failure();
  linalg::GenericOp tiledConsumer, tiledPanel;
  for (Operation *tiled : fused->tiledAndFusedOps) {
    auto generic = dyn_cast<linalg::GenericOp>(tiled);
    if (!generic)
      continue;
    if (generic.getNumLoops() == consumer.getNumLoops() &&
        generic.getNumReductionLoops() == consumer.getNumReductionLoops() &&
        !tiledConsumer)
      tiledConsumer = generic;
    else
      tiledPanel = generic;
  }
  if (!tiledConsumer || !tiledPanel)
    return failure();
  rewriter.eraseOp(consumer);
  if (untiled.second->use_empty())
    rewriter.eraseOp(untiled.second);
  return std::make_pair(tiledConsumer, tiledPanel);
}

/// Copies the chunk of x the sum reads (its operand 0) into a tensor of its
/// own, row by row: the tile's rows are then one chunk apart (1 KiB for 256
/// elements) instead of a whole row of x (16 KiB for K = 4096: one L1 set
/// for all 8 rows, which evicts the panel's lines). The copy's destination
/// is carried by the chunk loop, so every chunk reuses one buffer.
void copyActivationChunk(RewriterBase &rewriter, linalg::GenericOp sum) {
  auto chunkLoop = dyn_cast<scf::ForOp>(sum->getParentOp());
  if (!chunkLoop)
    return;
  auto type = cast<RankedTensorType>(sum->getOperand(0).getType());
  Location loc = sum.getLoc();
  rewriter.setInsertionPoint(chunkLoop);
  Value scratch = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
  linalg::GenericOp copy;
  FailureOr<LoopLikeOpInterface> withScratch =
      chunkLoop.replaceWithAdditionalYields(
          rewriter, scratch, /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &b, Location nested, ArrayRef<BlockArgument> args) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(sum);
            AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
            copy = linalg::GenericOp::create(
                b, nested, TypeRange{type}, ValueRange{sum->getOperand(0)},
                ValueRange{args.front()},
                ArrayRef<AffineMap>{identity, identity},
                SmallVector<utils::IteratorType>(type.getRank(),
                                                 utils::IteratorType::parallel),
                [](OpBuilder &inner, Location innerLoc, ValueRange values) {
                  linalg::YieldOp::create(inner, innerLoc, values[0]);
                });
            return SmallVector<Value>{copy.getResult(0)};
          });
  if (failed(withScratch) || !copy)
    return;
  rewriter.modifyOpInPlace(sum, [&] { sum->setOperand(0, copy.getResult(0)); });
  // One row of the chunk at a time (a contiguous copy once bufferized).
  SmallVector<int64_t> sizes(type.getRank(), 0);
  sizes.front() = 1;
  linalg::GenericOp row = quant_affine::tileAndReplace(
      rewriter, copy, quant_affine::asIndexAttrs(rewriter, sizes),
      /*forall=*/false);
  if (row)
    quant_affine::vectorizeInPlace(rewriter,
                                   quant_affine::dropUnitLoops(rewriter, row));
}

/// Folds the sum's reduction loops into one where they are consecutive
/// and every operand reads them contiguously (x's chunk, the K-major panel),
/// and updates `form`'s loop numbers; otherwise returns the sum as it is.
linalg::GenericOp collapseReductions(RewriterBase &rewriter,
                                     linalg::GenericOp sum, PanelForm &form) {
  SmallVector<unsigned> reductions = form.reductions;
  if (reductions.size() < 2)
    return sum;
  for (auto [previous, next] : llvm::zip(ArrayRef(reductions).drop_back(),
                                         ArrayRef(reductions).drop_front()))
    if (next != previous + 1)
      return sum;
  SmallVector<ReassociationIndices> groups(1);
  for (unsigned loop : reductions)
    groups.front().push_back(loop);
  rewriter.setInsertionPoint(sum);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(sum, groups, rewriter);
  if (failed(collapsed))
    return sum;
  rewriter.replaceOp(sum, collapsed->results);
  auto renumber = [&](unsigned loop) {
    return loop > reductions.back() ? loop - unsigned(reductions.size() - 1)
                                    : loop;
  };
  form.rowLoop = renumber(form.rowLoop);
  form.columnLoop = renumber(form.columnLoop);
  form.reductions = {reductions.front()};
  return cast<linalg::GenericOp>(collapsed->collapsedOp.getOperation());
}

/// Vectorizes the panel's dequantization in square blocks of `side` weight
/// rows x `side` elements of K (one register of f32), each written
/// transposed.
void vectorizePanel(RewriterBase &rewriter, linalg::GenericOp panel,
                    int64_t side) {
  // Loops: the weight row first, then the reductions in order.
  SmallVector<int64_t> sizes(panel.getNumLoops(), 1);
  sizes.front() = side;
  sizes.back() = side;
  SmallVector<LoopLikeOpInterface> loops;
  linalg::GenericOp block = quant_affine::tileAndReplace(
      rewriter, panel, quant_affine::asIndexAttrs(rewriter, sizes),
      /*forall=*/false, &loops);
  if (!block)
    return;
  Operation *blockOp = quant_affine::dropUnitLoops(rewriter, block);
  if (!quant_affine::vectorizeInPlace(rewriter, blockOp) || loops.empty())
    return;
  // The transposed write only (the reads stay as they are: a scale
  // broadcast along K unrolls into one broadcast per row): a
  // vector.transpose and a plain write. The transpose becomes shuffles
  // once the rest is unrolled into rows
  // (lowerTransposesToShuffles).
  MLIRContext *context = rewriter.getContext();
  SmallVector<Operation *> writes;
  loops.front()->walk([&](vector::TransferWriteOp write) {
    if (!write.getPermutationMap().isMinorIdentity())
      writes.push_back(write);
  });
  {
    RewritePatternSet patterns(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(writes, std::move(patterns), config);
  }
}

} // namespace

void quant_affine::lowerTransposesToShuffles(Operation *root, int64_t block) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  // Upstream's 16 x 16 form is unpack and shuffle steps on whole rows (what
  // AVX-512 has); other sizes, one shuffle of the flattened block, which
  // LLVM splits into the target's own.
  vector::populateVectorTransposeLoweringPatterns(
      patterns, block == 16 ? vector::VectorTransposeLowering::Shuffle16x16
                            : vector::VectorTransposeLowering::Shuffle1D);
  vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
  vector::InsertOp::getCanonicalizationPatterns(patterns, context);
  vector::ExtractStridedSliceOp::getCanonicalizationPatterns(patterns, context);
  (void)applyPatternsGreedily(root, std::move(patterns),
                              quant_affine::structuredCodeConfig());
}

LogicalResult quant_affine::compileWithPanels(RewriterBase &rewriter,
                                              linalg::GenericOp op,
                                              bool parallelOuter,
                                              const PanelShape &shape) {
  FailureOr<PanelForm> matched = matchPanelForm(op, shape);
  if (failed(matched))
    return failure();
  PanelForm &form = *matched;
  MLIRContext *context = op.getContext();
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = op.getNumLoops();

  // The panel op: loops (column, reductions...), the weight's inputs, the
  // weight's chain; it writes w K-major: (reductions..., column).
  SmallVector<unsigned> panelLoops = {form.columnLoop};
  llvm::append_range(panelLoops, form.reductions);
  SmallVector<AffineExpr> toPanelDims(loops, getAffineConstantExpr(0, context));
  for (auto [i, loop] : llvm::enumerate(panelLoops))
    toPanelDims[loop] = getAffineDimExpr(i, context);
  SmallVector<Value> weightInputs;
  SmallVector<AffineMap> panelMaps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input == form.activation)
      continue;
    weightInputs.push_back(input->get());
    panelMaps.push_back(op.getMatchingIndexingMap(input).replaceDimsAndSymbols(
        toPanelDims, {}, panelLoops.size(), 0));
  }
  SmallVector<int64_t> panelShape;
  SmallVector<AffineExpr> panelResults;
  for (auto [i, loop] : llvm::enumerate(form.reductions)) {
    panelShape.push_back(ranges[loop]);
    panelResults.push_back(getAffineDimExpr(i + 1, context));
  }
  panelShape.push_back(ranges[form.columnLoop]);
  panelResults.push_back(getAffineDimExpr(0, context));
  panelMaps.push_back(
      AffineMap::get(panelLoops.size(), 0, panelResults, context));
  SmallVector<utils::IteratorType> panelIterators(
      panelLoops.size(), utils::IteratorType::parallel);
  rewriter.setInsertionPoint(op);
  Value panelInit =
      tensor::EmptyOp::create(rewriter, loc, panelShape, rewriter.getF32Type());
  Block *body = op.getBlock();
  auto panel = linalg::GenericOp::create(
      rewriter, loc, TypeRange{panelInit.getType()}, weightInputs, panelInit,
      panelMaps, panelIterators,
      [&](OpBuilder &b, Location nested, ValueRange args) {
        IRMapping mapping;
        unsigned next = 0;
        for (OpOperand *input : op.getDpsInputOperands())
          if (input != form.activation)
            mapping.map(op.getMatchingBlockArgument(input), args[next++]);
        for (Operation &inner : body->without_terminator())
          if (&inner != form.add && &inner != form.product)
            b.clone(inner, mapping);
        linalg::YieldOp::create(b, nested, mapping.lookup(form.weight));
      });

  // The sum over the panel: out + a * w, the product fusable with the sum.
  AffineMap panelRead =
      AffineMap::get(loops, 0, panelResults, context)
          .replaceDimsAndSymbols(
              [&] {
                SmallVector<AffineExpr> dims;
                for (unsigned loop : panelLoops)
                  dims.push_back(getAffineDimExpr(loop, context));
                return dims;
              }(),
              {}, loops, 0);
  SmallVector<AffineMap> sumMaps = {
      op.getMatchingIndexingMap(form.activation), panelRead,
      op.getMatchingIndexingMap(op.getDpsInitOperand(0))};
  bool activationFirst =
      form.product.getLhs() == op.getMatchingBlockArgument(form.activation);
  bool outFirst =
      form.add.getLhs() == op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  auto sum = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(),
      ValueRange{form.activation->get(), panel.getResult(0)},
      op.getDpsInitOperand(0)->get(), sumMaps, op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location nested, ValueRange args) {
        Value lhs = activationFirst ? args[0] : args[1];
        Value rhs = activationFirst ? args[1] : args[0];
        Value product = arith::MulFOp::create(
            b, nested, lhs, rhs,
            form.product.getFastmath() | arith::FastMathFlags::contract);
        Value added = outFirst
                          ? arith::AddFOp::create(b, nested, args[2], product,
                                                  form.add.getFastmath())
                          : arith::AddFOp::create(b, nested, product, args[2],
                                                  form.add.getFastmath());
        linalg::YieldOp::create(b, nested, added);
      });
  rewriter.replaceOp(op, sum.getResults());
  // From here on `op` is gone and every step keeps the IR correct: a step
  // that upstream cannot take leaves the rest scalar, not wrong.

  // 0. With threads: blocks of columns across them, outermost, at least
  // kMinColumnBlocks of them. One parallel region per call, and a block's
  // accumulators (128 rows x 512 or 1376 columns: 256 or 688 KiB) stay in
  // L2 while its chunks pass, where a chunk loop outside the threads swept
  // the whole output (5.4 MiB for 11008 columns) once per chunk.
  SumAndPanel current = {sum, panel};
  if (parallelOuter) {
    int64_t panels = ranges[form.columnLoop] / shape.columns;
    int64_t perBlock = quant_affine::largestDivisorAtMost(
        panels, std::max<int64_t>(panels / kMinColumnBlocks, 1));
    SmallVector<int64_t> blockSizes(loops, 0);
    blockSizes[form.columnLoop] = perBlock * shape.columns;
    FailureOr<SumAndPanel> blocks =
        tileAndFusePanel(rewriter, current, blockSizes, /*forall=*/true);
    if (failed(blocks))
      return success();
    current = *blocks;
  }

  // 1. Chunks of K of at most kPanelDepth elements (the outermost reduction
  // loop in chunks, the others whole): the chunk of every row of x (128 KiB
  // for 128 rows) stays in L2 while the block's panels pass.
  int64_t inner = 1;
  for (unsigned loop : ArrayRef<unsigned>(form.reductions).drop_front())
    inner *= ranges[loop];
  SmallVector<int64_t> sizes(loops, 0);
  sizes[form.reductions.front()] = quant_affine::largestDivisorAtMost(
      ranges[form.reductions.front()],
      std::max<int64_t>(kPanelDepth / inner, 1));
  FailureOr<SumAndPanel> chunks =
      tileAndFusePanel(rewriter, current, sizes, /*forall=*/false);
  if (failed(chunks))
    return success();
  // Each chunk of x is copied (the tile's rows 1 KiB apart, not K floats).
  copyActivationChunk(rewriter, chunks->first);
  // 2. In each chunk, the block's panels of `columns` weight rows one after
  // another, every row of x in each.
  sizes.assign(loops, 0);
  sizes[form.columnLoop] = shape.columns;
  FailureOr<SumAndPanel> columns =
      tileAndFusePanel(rewriter, *chunks, sizes, /*forall=*/false);
  if (failed(columns))
    return success();
  auto [chunkSum, chunkPanel] = *columns;
  // The panel's destination: a tensor.empty of one panel in the loop, not
  // a slice of one of the whole weight's size (bufferized, that would be a
  // buffer of every dequantized weight).
  // The slices run through every loop around the panel (the column blocks,
  // the chunks, the panels): fold from outside the outermost.
  Operation *outermost = nullptr;
  for (auto loop = chunkPanel->getParentOfType<LoopLikeOpInterface>(); loop;
       loop = loop->getParentOfType<LoopLikeOpInterface>())
    outermost = loop;
  if (outermost) {
    RewritePatternSet patterns(context);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    (void)applyPatternsGreedily(outermost->getParentOp(), std::move(patterns),
                                quant_affine::structuredCodeConfig());
  }

  // The chunk's reduction loops (blocks of K and their elements) as one:
  // one loop of up to 256 steps rather than a nest whose inner loop exits
  // at every block of K.
  chunkSum = collapseReductions(rewriter, chunkSum, form);
  loops = chunkSum.getNumLoops();

  // 3. Register tiles of `tileRows` rows of x by the panel's columns, one
  // step of K at a time: (AVX-512) 8 broadcasts, 2 panel vectors, 16 FMAs.
  sizes.assign(loops, 0);
  sizes[form.rowLoop] = shape.tileRows;
  linalg::GenericOp tile = quant_affine::tileAndReplace(
      rewriter, chunkSum, quant_affine::asIndexAttrs(rewriter, sizes),
      /*forall=*/false);
  if (!tile)
    return success();
  sizes.assign(loops, 0);
  for (unsigned loop : form.reductions)
    sizes[loop] = 1;
  linalg::GenericOp step = quant_affine::tileAndReplace(
      rewriter, tile, quant_affine::asIndexAttrs(rewriter, sizes),
      /*forall=*/false);
  if (!step)
    return success();
  quant_affine::vectorizeInPlace(rewriter,
                                 quant_affine::dropUnitLoops(rewriter, step));
  vectorizePanel(rewriter, chunkPanel, shape.transposeBlock);
  return success();
}
