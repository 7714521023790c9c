//===- VectorizeContractions.cpp - register tiles for sums ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matmuls with a dequantized weight (the generic elementwise fusion makes of
// `dequantize` + `linalg.matmul`) tiled, vectorized and kept in registers.
// Upstream provides every step (tile-and-fuse, vectorize, subset hoisting,
// unrolling); what is ours is the plan: which loop the vector runs along, how
// a reduction along it becomes partial sums, and the tile sizes.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FloatSums.h"
#include "QuantAffine/Codegen/Common/LookupTables.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PanelContractions.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEVECTORIZECONTRACTIONSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Register tiles: rows of the weight, per step (rows of the activation,
/// loops the weight does not use, are an option).
constexpr int64_t kWeightRowsAlone = 4;
constexpr int64_t kWeightRowsWithActivation = 2;
/// Elements of the lane loop per reduction step: at least, and at most
/// within one block (decode: two blocks of 32, or a whole block of 128, whose
/// table and scale then serve the whole step).
constexpr int64_t kStepElementsAlone = 64;
constexpr int64_t kBlockStepElementsAlone = 128;
constexpr int64_t kStepElementsWithActivation = 16;
/// Fewer lanes than this (where `lanes` allows more) are not worth a vector.
constexpr int64_t kMinLanes = 4;

using quant_affine::largestDivisorAtMost;

/// Whether `op` is a float sum on tensors (FloatSums.h): one that may be
/// reassociated into lanes.
bool isFloatSum(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() && quant_affine::floatSumStep(op);
}

/// The weight, whose contiguous dim the vectors run along: the input with
/// the most elements among those read through a projected permutation (a
/// convolution's filter, not its sliding input), else the largest input.
OpOperand *largestInput(linalg::GenericOp op) {
  OpOperand *best = nullptr;
  int64_t bestSize = -1;
  bool bestIsPermutation = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    bool isPermutation =
        op.getMatchingIndexingMap(input).isProjectedPermutation();
    if (std::make_pair(isPermutation, type.getNumElements()) >
        std::make_pair(bestIsPermutation, bestSize)) {
      best = input;
      bestSize = type.getNumElements();
      bestIsPermutation = isPermutation;
    }
  }
  return best;
}

/// Whether every tensor `op` touches has a static shape and elements whose
/// vectors are laid out like memory (see NarrowTypes.h).
bool hasVectorizableOperands(linalg::GenericOp op) {
  for (Type type : op->getOperandTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !quant_affine::hasVectorMemoryLayout(tensor.getElementType()))
      return false;
  }
  return llvm::none_of(op.getStaticLoopRanges(),
                       [](int64_t size) { return size == 0; });
}

/// Marks the product the sum of `op` adds (`%out + %a * %b`) `contract`:
/// it may be fused with the addition (an FMA). The sum may be reassociated
/// anyway, and the product's factors (the weight as dequantized) are
/// unchanged.
void markFusableProduct(linalg::GenericOp op, bool lanesSummed) {
  arith::AddFOp combiner = quant_affine::floatSumStep(op);
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Value addend =
      combiner.getLhs() == out ? combiner.getRhs() : combiner.getLhs();
  auto product = addend.getDefiningOp<arith::MulFOp>();
  if (!product || !product->hasOneUse())
    return;
  product.setFastmath(product.getFastmath() | arith::FastMathFlags::contract);
  if (lanesSummed)
    product->setAttr(quant_affine::kLanesSummedAttrName,
                     UnitAttr::get(op.getContext()));
}

/// Whether splitLaneReduction applies to `op`.
bool canSplitLaneReduction(linalg::GenericOp op, int64_t lanes) {
  unsigned laneLoop = op.getNumLoops() - 1;
  if (op.getStaticLoopRanges()[laneLoop] % lanes != 0)
    return false;
  AffineExpr lane = getAffineDimExpr(laneLoop, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (unsigned i = 0; i < map.getNumResults(); ++i) {
      if (!map.getResult(i).isFunctionOfDim(laneLoop))
        continue;
      if (i + 1 != map.getNumResults() || map.getResult(i) != lane ||
          op.isDpsInit(&operand))
        return false;
    }
  }
  return true;
}

/// The partial sums of a reduction along the lane loop: `op` with its last
/// loop (a reduction of `lanes * steps` that every operand reading it reads
/// as its last, contiguous dim) split into `steps` (a reduction) and `lanes`
/// (parallel, last), summing into `tensor<result x lanes>` from zeros; and the
/// op that adds the lanes into the original destination. Returns the pair,
/// or failure (nothing changed).
FailureOr<std::pair<linalg::GenericOp, linalg::GenericOp>>
splitLaneReduction(RewriterBase &rewriter, linalg::GenericOp op,
                   int64_t lanes) {
  if (!canSplitLaneReduction(op, lanes))
    return failure();
  unsigned loops = op.getNumLoops();
  unsigned laneLoop = loops - 1;

  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  AffineExpr lane = rewriter.getAffineDimExpr(loops);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  quant_affine::splitLoopIntoLanes(rewriter, op, laneLoop, lanes, inputs, maps);
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> partialShape(initType.getShape());
  partialShape.push_back(lanes);
  Type element = initType.getElementType();
  Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                         rewriter.getZeroAttr(element));
  Value empty = tensor::EmptyOp::create(rewriter, loc, partialShape, element);
  Value partialInit =
      linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  AffineMap initMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> partialResults(initMap.getResults());
  partialResults.push_back(lane);
  maps.push_back(AffineMap::get(loops + 1, 0, partialResults, context));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);

  markFusableProduct(op, /*lanesSummed=*/true);
  auto partial =
      linalg::GenericOp::create(rewriter, loc, TypeRange{partialInit.getType()},
                                inputs, partialInit, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());

  // Adds the lanes of each result into the destination, in the order of the
  // original combiner's operands.
  unsigned rank = initType.getRank();
  AffineMap all = rewriter.getMultiDimIdentityMap(rank + 1);
  AffineMap dropLane =
      AffineMap::get(rank + 1, 0, all.getResults().drop_back(), context);
  SmallVector<utils::IteratorType> sumIterators(rank,
                                                utils::IteratorType::parallel);
  sumIterators.push_back(utils::IteratorType::reduction);
  arith::AddFOp originalAdd = quant_affine::floatSumStep(op);
  bool outFirst = originalAdd.getLhs() ==
                  op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  arith::FastMathFlags flags = originalAdd.getFastmath();
  auto sum = linalg::GenericOp::create(
      rewriter, loc, TypeRange{initType}, partial.getResult(0), init,
      ArrayRef<AffineMap>{all, dropLane}, sumIterators,
      [&](OpBuilder &b, Location nested, ValueRange args) {
        Value lhs = outFirst ? args[1] : args[0];
        Value rhs = outFirst ? args[0] : args[1];
        Value added = arith::AddFOp::create(b, nested, lhs, rhs, flags);
        linalg::YieldOp::create(b, nested, added);
      });
  rewriter.replaceOp(op, sum.getResults());
  return std::make_pair(partial, sum);
}

/// Decode reads a few weight rows side by side. Neighbouring rows are short
/// interleaved streams that jump at every tile; rows `range / rows` apart
/// continue where the previous tile's left off: `rows` long sequential
/// streams, which the hardware prefetchers follow (bench/matmul/
/// read_pattern.cpp: 4 rows a quarter of the matrix apart read 1.3 times as
/// fast as 4 neighbours). Returns `op` with its parallel loop `loop` (a
/// static range that `rows` divides) split into `rows` (at `loop`) by
/// `range / rows` (at `loop + 1`): every tensor dim indexed by the loop alone
/// is expanded into those two, and the result collapsed back. Fails (nothing
/// changed) where an operand indexes the loop in an expression, or the body
/// reads its indices. (Upstream's reshape-by-expansion folding, given an
/// expand_shape of the result, does the same but refuses maps with a
/// constant result: a per-channel scale read as `(n, 0)`.)
FailureOr<linalg::GenericOp> spreadRows(RewriterBase &rewriter,
                                        linalg::GenericOp op, unsigned loop,
                                        int64_t rows) {
  int64_t range = op.getStaticLoopRanges()[loop];
  if (op.getNumDpsInits() != 1 || ShapedType::isDynamic(range) ||
      range % rows != 0 || range == rows ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return failure();
  AffineExpr whole = rewriter.getAffineDimExpr(loop);
  for (OpOperand &operand : op->getOpOperands())
    for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
      if (result.isFunctionOfDim(loop) && result != whole)
        return failure();

  unsigned loops = op.getNumLoops();
  SmallVector<AffineExpr> renumbered;
  for (unsigned i = 0; i < loops; ++i)
    renumbered.push_back(rewriter.getAffineDimExpr(i <= loop ? i : i + 1));
  AffineExpr inner = rewriter.getAffineDimExpr(loop + 1);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<AffineMap> maps;
  // `operand` with the loop's dim expanded; its map goes into `maps`.
  auto expand = [&](OpOperand &operand,
                    SmallVector<ReassociationIndices> &groups) -> Value {
    auto type = cast<RankedTensorType>(operand.get().getType());
    SmallVector<AffineExpr> results;
    SmallVector<int64_t> shape;
    for (auto [i, result] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      groups.push_back({int64_t(shape.size())});
      if (result != whole) {
        results.push_back(result.replaceDims(renumbered));
        shape.push_back(type.getDimSize(i));
        continue;
      }
      results.push_back(whole);
      results.push_back(inner);
      shape.append({rows, range / rows});
      groups.back().push_back(int64_t(shape.size()) - 1);
    }
    maps.push_back(AffineMap::get(loops + 1, 0, results, op.getContext()));
    if (int64_t(shape.size()) == type.getRank())
      return operand.get();
    return tensor::ExpandShapeOp::create(rewriter, loc, type.clone(shape),
                                         operand.get(), groups);
  };
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    SmallVector<ReassociationIndices> groups;
    inputs.push_back(expand(*input, groups));
  }
  SmallVector<ReassociationIndices> initGroups;
  Value init = expand(*op.getDpsInitOperand(0), initGroups);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin() + loop + 1, utils::IteratorType::parallel);
  auto spread = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, inputs, init, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), spread.getRegion(),
                             spread.getRegion().begin());
  Value result = spread.getResult(0);
  if (init != op.getDpsInitOperand(0)->get())
    result = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getResultTypes()[0], result, initGroups);
  rewriter.replaceOp(op, result);
  return spread;
}

/// Register tile sizes of `op`'s parallel loops: the activation's and the
/// weight's innermost parallel loops (other than `laneLoop`) get a few rows
/// (the activation's up to `maxActivationRows`), the others one; `laneLoop`,
/// when parallel, `laneTile`. With `spreadLoop` (rows split by spreadRows), the
/// tile takes all of it and one of the next.
SmallVector<int64_t> registerTile(linalg::GenericOp op, OpOperand *weight,
                                  unsigned laneLoop, int64_t laneTile,
                                  int64_t maxActivationRows,
                                  std::optional<unsigned> spreadLoop = {}) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap weightMap = op.getMatchingIndexingMap(weight);
  SmallVector<int64_t> tile(loops, 0);
  std::optional<unsigned> activationRow, weightRow;
  for (unsigned i = 0; i < loops; ++i) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    tile[i] = 1;
    if (i == laneLoop)
      continue;
    if (weightMap.isFunctionOfDim(i))
      weightRow = i;
    else
      activationRow = i;
  }
  int64_t activationRows = 1;
  if (activationRow) {
    activationRows =
        largestDivisorAtMost(ranges[*activationRow], maxActivationRows);
    tile[*activationRow] = activationRows;
  }
  if (weightRow)
    tile[*weightRow] = largestDivisorAtMost(
        ranges[*weightRow],
        activationRows > 1 ? kWeightRowsWithActivation : kWeightRowsAlone);
  if (spreadLoop) {
    tile[*spreadLoop] = ranges[*spreadLoop];
    tile[*spreadLoop + 1] = 1;
  }
  if (iterators[laneLoop] == utils::IteratorType::parallel)
    tile[laneLoop] = laneTile;
  return tile;
}

/// The rows a register tile `tile` of `op` takes: its weight-row loop (one
/// the weight reads, other than the lane loop, with several rows) and the
/// most rows of any loop the weight does not read (the activation's).
struct TileRows {
  std::optional<unsigned> weightRow;
  int64_t activationRows = 1;
};
TileRows tileRows(linalg::GenericOp op, OpOperand *weight,
                  ArrayRef<int64_t> tile, unsigned laneLoop) {
  AffineMap weightMap = op.getMatchingIndexingMap(weight);
  TileRows rows;
  for (auto [i, size] : llvm::enumerate(tile)) {
    if (size <= 1 || i == laneLoop)
      continue;
    if (weightMap.isFunctionOfDim(i))
      rows.weightRow = i;
    else
      rows.activationRows = std::max(rows.activationRows, size);
  }
  return rows;
}

using quant_affine::asIndexAttrs;
/// Tiles the reduction loops of `op` (a tile with static shape): the step
/// loop by up to `stepLoopTile` and at least `stepTile` where it allows, the
/// loops outside it by what `stepTile` leaves, the others by one, with
/// scf.for; returns the op of one step and the loops, outermost first.
FailureOr<std::pair<linalg::GenericOp, SmallVector<LoopLikeOpInterface>>>
tileReductions(RewriterBase &rewriter, linalg::GenericOp op, unsigned stepLoop,
               int64_t stepTile, int64_t stepLoopTile = 0) {
  // `stepTile` vectors a step, from the step loop outwards (two blocks of
  // 32 make one step of 64).
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t budget = stepTile;
  for (int64_t i = op.getNumLoops() - 1; i >= 0; --i) {
    if (iterators[i] != utils::IteratorType::reduction)
      continue;
    sizes[i] = 1;
    int64_t limit =
        i == int64_t(stepLoop) ? std::max(budget, stepLoopTile) : budget;
    if (i <= int64_t(stepLoop) && limit > 1) {
      sizes[i] = largestDivisorAtMost(ranges[i], limit);
      budget = std::max<int64_t>(budget / sizes[i], 1);
    }
  }
  SmallVector<LoopLikeOpInterface> loops;
  linalg::GenericOp step = quant_affine::tileAndReplace(
      rewriter, op, asIndexAttrs(rewriter, sizes), /*forall=*/false, &loops);
  if (!step)
    return failure();
  return std::make_pair(step, loops);
}

/// Rewrites the sum over the innermost dim of `reduction` (the lanes of the
/// partial sums) into one `vector.reduction` per result, marked `reassoc`:
/// lanes are added in a tree, not one after another (upstream's lowering
/// makes ordered reductions, which LLVM adds up serially).
void sumLanesReassociated(RewriterBase &rewriter,
                          vector::MultiDimReductionOp reduction) {
  VectorType source = reduction.getSourceVectorType();
  SmallVector<bool> reduced = reduction.getReductionMask();
  if (reduction.getKind() != vector::CombiningKind::ADD ||
      source.getRank() < 2 || !reduced.back() ||
      llvm::count(reduced, true) != 1 || source.isScalable())
    return;
  auto accType = dyn_cast<VectorType>(reduction.getAcc().getType());
  if (!accType)
    return;
  Location loc = reduction.getLoc();
  rewriter.setInsertionPoint(reduction);
  int64_t lanes = source.getShape().back();
  int64_t results = accType.getNumElements();
  Type element = source.getElementType();
  Value rows = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get({results, lanes}, element),
      reduction.getSource());
  Value accs = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get({results}, element), reduction.getAcc());
  SmallVector<Value> sums;
  for (int64_t i = 0; i < results; ++i) {
    Value row = vector::ExtractOp::create(rewriter, loc, rows, i);
    Value acc = vector::ExtractOp::create(rewriter, loc, accs, i);
    sums.push_back(
        vector::ReductionOp::create(rewriter, loc, vector::CombiningKind::ADD,
                                    row, acc, arith::FastMathFlags::reassoc));
  }
  Value flat = vector::FromElementsOp::create(
      rewriter, loc, VectorType::get({results}, element), sums);
  rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(reduction, accType, flat);
}

using quant_affine::vectorizeInPlace;

struct QuantAffineVectorizeContractionsPass
    : quant_affine::impl::QuantAffineVectorizeContractionsPassBase<
          QuantAffineVectorizeContractionsPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Subset hoisting matches transfers and slices through these.
    tensor::registerSubsetOpInterfaceExternalModels(registry);
    vector::registerSubsetOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    for (auto [name, value] : {std::pair<StringRef, int64_t>{"lanes", lanes},
                               {"activation-rows", activationRows},
                               {"panel-columns", panelColumns},
                               {"panel-tile-rows", panelTileRows},
                               {"transpose-block", transposeBlock}}) {
      if (value < 1) {
        getOperation().emitError()
            << name << " must be at least 1, got " << value;
        return signalPassFailure();
      }
    }
    IRRewriter rewriter(&getContext());
    // Named sums become generics, as fusion makes them.
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && op.getNumReductionLoops() > 0 &&
          op.hasPureTensorSemantics() &&
          (linalg::isaContractionOpInterface(op) ||
           isa<linalg::ConvolutionOpInterface>(op.getOperation())))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.getNumReductionLoops() > 0 && isFloatSum(op) &&
          hasVectorizableOperands(op) && largestInput(op))
        candidates.push_back(op);
    });
    bool changed = false;
    for (linalg::GenericOp op : candidates)
      changed |= succeeded(quant_affine::compileWithPanels(
                     rewriter, op, parallelOuter,
                     {panelColumns, panelTileRows, transposeBlock})) ||
                 succeeded(compile(rewriter, op));
    if (!changed) {
      if (named.empty())
        markAllAnalysesPreserved();
      return;
    }
    cleanUp();
  }

  /// One sum: tiles, vectors, registers.
  /// The widest power of two up to `limit` that divides loop `loop`.
  static int64_t lanesDividing(linalg::GenericOp op, unsigned loop,
                               int64_t limit) {
    int64_t count = 1;
    int64_t range = op.getStaticLoopRanges()[loop];
    while (count * 2 <= limit && range % (count * 2) == 0)
      count *= 2;
    return count;
  }

  LogicalResult compile(RewriterBase &rewriter, linalg::GenericOp op) {
    OpOperand *weight = largestInput(op);
    AffineMap weightMap = op.getMatchingIndexingMap(weight);
    auto contiguous = dyn_cast<AffineDimExpr>(weightMap.getResults().back());
    if (!contiguous)
      return failure();
    unsigned laneLoop = contiguous.getPosition();
    // Too short a contiguous dim in the weight (a 3 x 3 filter's last):
    // the result's contiguous dim instead, the weight read as a scalar.
    // Each result written by exactly one point of the parallel loops (no
    // repeated dim, no constant): tiles and the lane sum cover the result
    // as the op does.
    AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!resultMap.isProjectedPermutation())
      return failure();
    if (lanesDividing(op, laneLoop, lanes) <
            std::min<int64_t>(lanes, kMinLanes) &&
        resultMap.getNumResults() > 0)
      if (auto last = dyn_cast<AffineDimExpr>(resultMap.getResults().back()))
        laneLoop = last.getPosition();
    // The widest power of two up to `lanes` that divides the lane loop
    // (`reduction-lanes` where the lane loop is a reduction). With several
    // activation rows, a reduction along the lanes keeps rows x weight rows
    // accumulators of `lanes` each: half the lanes keep them in registers.
    bool laneReduction =
        op.getIteratorTypesArray()[laneLoop] == utils::IteratorType::reduction;
    int64_t limit =
        laneReduction && reductionLanes > 0 ? int64_t(reductionLanes) : lanes;
    {
      SmallVector<int64_t> tile =
          registerTile(op, weight, laneLoop, 0, activationRows);
      for (auto [i, size] : llvm::enumerate(tile))
        if (size > 1 && !weightMap.isFunctionOfDim(i))
          limit = std::max<int64_t>(lanes / 2, 1);
    }
    int64_t laneCount = lanesDividing(op, laneLoop, limit);
    if (laneCount < std::min<int64_t>(lanes, kMinLanes))
      return failure();
    if (op.getIteratorTypesArray()[laneLoop] == utils::IteratorType::parallel)
      return compileParallelLanes(rewriter, op, laneLoop, laneCount);
    if (laneLoop + 1 == op.getNumLoops())
      return compileLaneReduction(rewriter, op, laneCount);
    return failure();
  }

  /// `x @ W`: the lanes are results; every reduction step adds a product
  /// into them.
  LogicalResult compileParallelLanes(RewriterBase &rewriter,
                                     linalg::GenericOp op, unsigned laneLoop,
                                     int64_t laneCount) {
    OpOperand *weight = largestInput(op);
    markFusableProduct(op, /*lanesSummed=*/false);
    SmallVector<int64_t> tile =
        registerTile(op, weight, laneLoop, laneCount, activationRows);
    linalg::GenericOp registerTileOp = quant_affine::tileAndReplace(
        rewriter, op, asIndexAttrs(rewriter, tile), parallelOuter);
    if (!registerTileOp)
      return failure();
    // The reduction loops follow in their order, one step each.
    FailureOr<std::pair<linalg::GenericOp, SmallVector<LoopLikeOpInterface>>>
        steps = tileReductions(rewriter, registerTileOp, /*stepLoop=*/-1u,
                               /*stepTile=*/1);
    if (failed(steps))
      return failure();
    // A convolution's sliding window (`oh + kh`) is a projected permutation
    // once the unit dims of the step are gone.
    vectorizeInPlace(rewriter,
                     quant_affine::dropUnitLoops(rewriter, steps->first));
    return success();
  }

  /// `x @ W^T`: partial sums per lane, then their sum.
  LogicalResult compileLaneReduction(RewriterBase &rewriter,
                                     linalg::GenericOp op, int64_t laneCount) {
    rewriter.setInsertionPoint(op);
    // Decode: the weight rows of a tile spread over the matrix.
    std::optional<unsigned> spreadLoop;
    {
      unsigned laneLoop = op.getNumLoops() - 1;
      OpOperand *weight = largestInput(op);
      SmallVector<int64_t> tile =
          registerTile(op, weight, laneLoop, 0, activationRows);
      TileRows rows = tileRows(op, weight, tile, laneLoop);
      if (rows.weightRow && rows.activationRows == 1 &&
          canSplitLaneReduction(op, laneCount)) {
        FailureOr<linalg::GenericOp> spread =
            spreadRows(rewriter, op, *rows.weightRow, tile[*rows.weightRow]);
        if (succeeded(spread)) {
          op = *spread;
          spreadLoop = rows.weightRow;
          rewriter.setInsertionPoint(op);
        }
      }
    }
    FailureOr<std::pair<linalg::GenericOp, linalg::GenericOp>> split =
        splitLaneReduction(rewriter, op, laneCount);
    if (failed(split))
      return failure();
    auto [partial, sum] = *split;
    unsigned laneLoop = partial.getNumLoops() - 1;
    unsigned stepLoop = laneLoop - 1;
    OpOperand *weight = largestInput(partial);
    SmallVector<int64_t> tile =
        registerTile(partial, weight, laneLoop, 0, activationRows, spreadLoop);

    // Steps of a few vectors: fewer with several activation rows, whose
    // accumulators take more registers.
    int64_t activationRows =
        tileRows(partial, weight, tile, laneLoop).activationRows;
    int64_t stepElements =
        activationRows > 1 ? kStepElementsWithActivation : kStepElementsAlone;
    int64_t stepTile = std::max<int64_t>(stepElements / laneCount, 1);
    int64_t stepLoopTile =
        activationRows > 1 ? stepTile : kBlockStepElementsAlone / laneCount;

    // The sum's loops are the result's dims and the lane: tile the result
    // dims as the partial op's loops they index, and fuse the partial op.
    AffineMap resultMap =
        partial.getMatchingIndexingMap(partial.getDpsInitOperand(0));
    SmallVector<int64_t> sumTile;
    for (AffineExpr result : resultMap.getResults().drop_back())
      sumTile.push_back(tile[cast<AffineDimExpr>(result).getPosition()]);
    sumTile.push_back(0);
    FailureOr<scf::SCFTileAndFuseResult> fused =
        quant_affine::tileAndFuseConsumer(rewriter, sum, sumTile,
                                          parallelOuter);
    if (failed(fused))
      return failure();
    rewriter.eraseOp(sum);
    if (partial->use_empty())
      rewriter.eraseOp(partial);

    // The partial op of one tile: its reductions become step loops.
    linalg::GenericOp partialTile;
    SmallVector<Operation *> others;
    for (Operation *tiled : fused->tiledAndFusedOps) {
      auto generic = dyn_cast<linalg::GenericOp>(tiled);
      if (generic && generic.getNumLoops() == partial.getNumLoops() &&
          generic.getNumReductionLoops() == partial.getNumReductionLoops() &&
          !partialTile)
        partialTile = generic;
      else
        others.push_back(tiled);
    }
    if (!partialTile)
      return failure();
    FailureOr<std::pair<linalg::GenericOp, SmallVector<LoopLikeOpInterface>>>
        steps = tileReductions(rewriter, partialTile, stepLoop, stepTile,
                               stepLoopTile);
    if (failed(steps))
      return failure();

    vectorizeInPlace(rewriter, steps->first);
    for (Operation *other : others) {
      if (!other->getBlock())
        continue;
      Block *block = other->getBlock();
      llvm::SmallPtrSet<Operation *, 4> before;
      block->walk([&](vector::MultiDimReductionOp r) { before.insert(r); });
      if (!vectorizeInPlace(rewriter, other))
        continue;
      // The sum of the lanes: the only reduction the tile's op makes.
      SmallVector<vector::MultiDimReductionOp> created;
      block->walk([&](vector::MultiDimReductionOp r) {
        if (!before.contains(r))
          created.push_back(r);
      });
      for (vector::MultiDimReductionOp reduction : created)
        sumLanesReassociated(rewriter, reduction);
    }
    return success();
  }

  /// Folds the tile's slices into its transfers, moves the accumulators out
  /// of the step loops into registers, and makes the vectors 1-D.
  void cleanUp() {
    MLIRContext *context = &getContext();
    func::FuncOp func = getOperation();
    quant_affine::foldSlicesAndHoistAccumulators(func);
    {
      RewritePatternSet patterns(context);
      int64_t laneCount = lanes;
      vector::UnrollVectorOptions unroll;
      unroll.setNativeShapeFn(
          [laneCount](Operation *op) -> std::optional<SmallVector<int64_t>> {
            VectorType type;
            // The panels' transposes stay whole (shuffles, below). Shape
            // casts are left to the patterns below: upstream's unrolling of
            // them (LLVM 22) compares shapes through a slice of negative
            // size on some casts (AddressSanitizer: negative-size-param).
            if (isa<vector::TransposeOp, vector::ShapeCastOp>(op))
              return std::nullopt;
            if (auto read = dyn_cast<vector::TransferReadOp>(op))
              type = read.getVectorType();
            else if (auto write = dyn_cast<vector::TransferWriteOp>(op))
              type = write.getVectorType();
            else if (auto reduce = dyn_cast<vector::MultiDimReductionOp>(op))
              type = reduce.getSourceVectorType();
            else if (op->getNumResults() == 1)
              type = dyn_cast<VectorType>(op->getResult(0).getType());
            if (!type || type.getRank() < 2)
              return std::nullopt;
            SmallVector<int64_t> shape(type.getRank(), 1);
            shape.back() = std::min(type.getShape().back(), laneCount);
            return shape;
          });
      vector::populateVectorUnrollPatterns(patterns, unroll);
      vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns,
                                                               context);
      vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
      vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
      vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
      vector::InsertOp::getCanonicalizationPatterns(patterns, context);
      (void)applyPatternsGreedily(func, std::move(patterns),
                                  quant_affine::structuredCodeConfig());
    }
    {
      // One-dimensional vectors: the transfers read a row each (the
      // narrow-type emulation makes byte loads of those).
      RewritePatternSet patterns(context);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
      vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
      vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
      vector::InsertOp::getCanonicalizationPatterns(patterns, context);
      (void)applyPatternsGreedily(func, std::move(patterns),
                                  quant_affine::structuredCodeConfig());
    }
    quant_affine::lowerTransposesToShuffles(func, transposeBlock);
    // The sums' additions of the products marked above fuse with them.
    func.walk([](arith::AddFOp add) {
      if (!isa<VectorType>(add.getType()))
        return;
      for (Value operand : add->getOperands()) {
        auto product = operand.getDefiningOp<arith::MulFOp>();
        if (product && bitEnumContainsAll(product.getFastmath(),
                                          arith::FastMathFlags::contract))
          add.setFastmath(add.getFastmath() | arith::FastMathFlags::contract);
      }
    });
  }
};

} // namespace
