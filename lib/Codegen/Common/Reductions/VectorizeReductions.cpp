//===- VectorizeReductions.cpp - min/max reductions split into lanes ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reduction along a contiguous dim vectorizes well only when each lane
// keeps its own partial result and the lanes are combined once at the end:
// a horizontal reduction per step costs a shuffle tree per vector. Reordering
// the combination is a refinement only for combiners that give the same bits
// in any order (min, max, integer add and bitwise ops), so those are the
// ones split here. Upstream's linalg::splitReduction does the split for one
// result; compute_encoding's statistics have two (minimum and maximum, one
// pass over the input), hence this pass. Tiling, vectorization and subset
// hoisting are upstream's.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/ReductionTree.h"
#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEVECTORIZEREDUCTIONSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `op` combines the same bits in any order and grouping.
bool isExactCombiner(Operation *op) {
  return isa<arith::MinimumFOp, arith::MaximumFOp, arith::MinNumFOp,
             arith::MaxNumFOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
             arith::MaxUIOp, arith::AddIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp>(op);
}

/// The combiner of each result of `op`: the yielded op of the result's
/// block argument and one other value, exact; empty if any is not.
SmallVector<Operation *> exactCombiners(linalg::GenericOp op) {
  SmallVector<Operation *> combiners;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value out = op.getMatchingBlockArgument(&init);
    Operation *combiner =
        yield.getOperand(init.getOperandNumber() - op.getNumDpsInputs())
            .getDefiningOp();
    if (!combiner || combiner->getBlock() != op.getBody() ||
        !isExactCombiner(combiner) || combiner->getNumOperands() != 2 ||
        !llvm::is_contained(combiner->getOperands(), out) || !out.hasOneUse())
      return {};
    combiners.push_back(combiner);
  }
  return combiners;
}

/// `combiner`'s neutral element (+inf for a minimum, -inf for a maximum,
/// 0 for a sum), if `init` is a linalg.fill of it.
std::optional<TypedAttr> neutralFill(Value init, Operation *combiner) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  Attribute value;
  if (!fill || !neutral ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      value != *neutral)
    return std::nullopt;
  return neutral;
}

/// A last loop this short is reduced within one vector per row (a block of
/// a blocked encoding): split into lanes, its partial results would be
/// nearly as large as its input.
constexpr int64_t kShortReduction = 256;

/// Whether `op` qualifies: static shapes, no linalg.index, exact combiners,
/// and a last loop that is a reduction (longer than kShortReduction: of a
/// multiple of `lanes`, other than `lanes`) that every input reads as its
/// last dim (and no result reads at all). An op with an
/// empty loop (a zero-size dim) has nothing to split: its loops run zero
/// times.
bool isSplittable(linalg::GenericOp op, int64_t lanes) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      op.hasIndexSemantics() || exactCombiners(op).empty() ||
      llvm::is_contained(op.getStaticLoopRanges(), 0))
    return false;
  for (Type type : op->getOperandTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return false;
  }
  // Results of one shape and map: the lanes are combined by one op.
  for (OpOperand &init : op.getDpsInitsMutable())
    if (init.get().getType() != op.getDpsInits()[0].getType() ||
        op.getMatchingIndexingMap(&init) !=
            op.getMatchingIndexingMap(op.getDpsInitOperand(0)))
      return false;
  // (Lanes matter only to a loop that is split: a short one is one vector
  // whatever its length. A block of 16 with 16 lanes was left to scalar
  // loops, which LLVM vectorized across blocks with gathers.)
  unsigned last = op.getNumLoops() - 1;
  int64_t size = op.getStaticLoopRanges()[last];
  if (op.getIteratorTypesArray()[last] != utils::IteratorType::reduction ||
      (size > kShortReduction && (size % lanes != 0 || size == lanes)))
    return false;
  AffineExpr lastDim = getAffineDimExpr(last, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation())
      return false;
    bool reads = map.isFunctionOfDim(last);
    if (op.isDpsInit(&operand) ? reads
                               : reads && map.getResults().back() != lastDim)
      return false;
  }
  return true;
}

/// Float `minimumf`/`maximumf` reductions of one input, as integer ones: a
/// float's bits, with the magnitude bits flipped when the sign is set, order
/// like the float (`-0 < +0`). A minimum and a maximum of the same element
/// together need no NaN test per element: positive NaNs' keys lie above
/// +inf's and negative ones' below -inf's, so the two results show whether
/// a NaN was there, and the decoding makes both NaN then. Alone, NaN becomes
/// the integer minimum (for a minimum) or maximum (for a maximum), which no
/// other float reaches, so it wins as IEEE's NaN does. An integer min/max is
/// one instruction where an IEEE float one is several (x86 has no
/// NaN-propagating min/max). Returns the integer reduction; an elementwise op
/// after it turns the results back and combines them with the original
/// destinations. Failure (nothing changed) unless every result is such a
/// reduction of the same f32 or f64 block argument, or the one result is a
/// maximum of its absolute value (a largest magnitude: the key is the bits
/// without the sign, NaNs' above +inf's, so no NaN test either).
FailureOr<linalg::GenericOp> reduceOrderedIntegers(RewriterBase &rewriter,
                                                   linalg::GenericOp op) {
  SmallVector<Operation *> combiners = exactCombiners(op);
  if (combiners.empty())
    return failure();
  Value element;
  bool magnitude = false;
  for (auto [i, combiner] : llvm::enumerate(combiners)) {
    if (!isa<arith::MinimumFOp, arith::MaximumFOp>(combiner))
      return failure();
    Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(i));
    Value other = combiner->getOperand(0) == out ? combiner->getOperand(1)
                                                 : combiner->getOperand(0);
    if (auto abs = other.getDefiningOp<math::AbsFOp>();
        abs && combiners.size() == 1 && isa<arith::MaximumFOp>(combiner) &&
        abs->getBlock() == op.getBlock() && abs->hasOneUse()) {
      magnitude = true;
      other = abs.getOperand();
    }
    // An input's element: a block argument of this body (a value captured
    // from above is not one, whatever its argument number).
    auto argument = dyn_cast<BlockArgument>(other);
    if ((element && other != element) || !argument ||
        argument.getOwner() != op.getBlock())
      return failure();
    element = other;
  }
  auto floatType = dyn_cast<FloatType>(element.getType());
  if (!floatType || !(floatType.isF32() || floatType.isF64()))
    return failure();
  unsigned width = floatType.getWidth();
  Location loc = op.getLoc();
  IntegerType intType = rewriter.getIntegerType(width);
  APInt lowest = APInt::getSignedMinValue(width),
        highest = APInt::getSignedMaxValue(width);
  auto isMin = [](Operation *c) { return isa<arith::MinimumFOp>(c); };
  // A minimum and a maximum of the same element: positive NaNs have keys
  // above +inf's and negative ones below -inf's, so the two results tell
  // whether a NaN was among the elements, and the elements need no NaN
  // test of their own.
  bool paired =
      combiners.size() == 2 && isMin(combiners[0]) != isMin(combiners[1]);

  // The integer reduction, from its neutral elements.
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inits;
  for (auto [i, combiner] : llvm::enumerate(combiners)) {
    auto type = cast<RankedTensorType>(op.getDpsInits()[i].getType());
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), intType);
    Value neutral = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getIntegerAttr(intType, isMin(combiner) ? highest : lowest));
    inits.push_back(
        linalg::FillOp::create(rewriter, loc, neutral, empty).getResult(0));
  }
  unsigned elementArg = cast<BlockArgument>(element).getArgNumber();
  auto reduce = linalg::GenericOp::create(
      rewriter, loc, ValueRange(inits).getTypes(), op.getDpsInputs(), inits,
      op.getIndexingMapsArray(), op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = args[elementArg];
        Value bits = arith::BitcastOp::create(b, l, intType, x);
        auto constant = [&](const APInt &v) {
          return arith::ConstantOp::create(b, l, b.getIntegerAttr(intType, v));
        };
        if (magnitude) {
          Value key = arith::AndIOp::create(b, l, bits, constant(highest));
          linalg::YieldOp::create(
              b, l,
              arith::MaxSIOp::create(b, l, args[op.getNumDpsInputs()], key)
                  .getResult());
          return;
        }
        Value sign = arith::ShRSIOp::create(b, l, bits,
                                            constant(APInt(width, width - 1)));
        Value flip =
            arith::ShRUIOp::create(b, l, sign, constant(APInt(width, 1)));
        Value key = arith::XOrIOp::create(b, l, bits, flip);
        SmallVector<Value> results;
        unsigned inputs = op.getNumDpsInputs();
        if (paired) {
          for (auto [i, combiner] : llvm::enumerate(combiners)) {
            Value out = args[inputs + i];
            results.push_back(
                isMin(combiner)
                    ? arith::MinSIOp::create(b, l, out, key).getResult()
                    : arith::MaxSIOp::create(b, l, out, key).getResult());
          }
          linalg::YieldOp::create(b, l, results);
          return;
        }
        Value isNaN =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
        for (auto [i, combiner] : llvm::enumerate(combiners)) {
          Value out = args[inputs + i];
          if (isMin(combiner)) {
            Value k =
                arith::SelectOp::create(b, l, isNaN, constant(lowest), key);
            results.push_back(arith::MinSIOp::create(b, l, out, k));
          } else {
            Value k =
                arith::SelectOp::create(b, l, isNaN, constant(highest), key);
            results.push_back(arith::MaxSIOp::create(b, l, out, k));
          }
        }
        linalg::YieldOp::create(b, l, results);
      });

  // Back to floats, combined with the destinations' values.
  SmallVector<bool> startsNeutral;
  for (auto [init, combiner] : llvm::zip(op.getDpsInits(), combiners))
    startsNeutral.push_back(neutralFill(init, combiner).has_value());
  rewriter.setInsertionPointAfter(reduce);
  SmallVector<Value> decodeInputs(reduce.getResults());
  SmallVector<Value> destinations = op.getDpsInits();
  // A destination filled with the neutral element is not read (below): an
  // empty one of its own saves filling it.
  for (auto [destination, neutral] : llvm::zip(destinations, startsNeutral))
    if (neutral) {
      auto type = cast<RankedTensorType>(destination.getType());
      destination = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
    }
  int64_t rank = cast<RankedTensorType>(destinations[0].getType()).getRank();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> decodeMaps(2 * destinations.size(), identity);
  auto decode = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), decodeInputs, destinations,
      decodeMaps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto constant = [&](const APInt &v) {
          return arith::ConstantOp::create(b, l, b.getIntegerAttr(intType, v));
        };
        SmallVector<Value> results;
        size_t count = combiners.size();
        // Paired: a NaN among the elements left the maximum's key above
        // +inf's or the minimum's below -inf's.
        Value anyNaN;
        if (magnitude) {
          // A magnitude's key above +inf's is a NaN's.
          APInt infBits =
              APFloat::getInf(floatType.getFloatSemantics()).bitcastToAPInt();
          anyNaN = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt,
                                         args[0], constant(infBits));
        } else if (paired) {
          APFloat inf = APFloat::getInf(floatType.getFloatSemantics());
          APInt infBits = inf.bitcastToAPInt();
          APInt negInfKey = (infBits | lowest) ^ highest;
          unsigned minIndex = isMin(combiners[0]) ? 0 : 1;
          Value above =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt,
                                    args[1 - minIndex], constant(infBits));
          Value below =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                    args[minIndex], constant(negInfKey));
          anyNaN = arith::OrIOp::create(b, l, above, below);
        }
        for (auto [i, combiner] : llvm::enumerate(combiners)) {
          Value key = args[i];
          Value sign = arith::ShRSIOp::create(
              b, l, key, constant(APInt(width, width - 1)));
          Value flip =
              arith::ShRUIOp::create(b, l, sign, constant(APInt(width, 1)));
          Value value = arith::BitcastOp::create(
              b, l, floatType, arith::XOrIOp::create(b, l, key, flip));
          Value nan = arith::ConstantOp::create(
              b, l,
              b.getFloatAttr(floatType,
                             APFloat::getNaN(floatType.getFloatSemantics())));
          Value isNaN = anyNaN
                            ? anyNaN
                            : arith::CmpIOp::create(
                                  b, l, arith::CmpIPredicate::eq, key,
                                  constant(isMin(combiner) ? lowest : highest))
                                  .getResult();
          value = arith::SelectOp::create(b, l, isNaN, nan, value);
          // A destination filled with the neutral element (+inf for a
          // minimum, -inf for a maximum) changes nothing: not read.
          if (startsNeutral[i]) {
            results.push_back(value);
            continue;
          }
          Value out = args[count + i];
          results.push_back(
              isMin(combiner)
                  ? arith::MinimumFOp::create(b, l, out, value).getResult()
                  : arith::MaximumFOp::create(b, l, out, value).getResult());
        }
        linalg::YieldOp::create(b, l, results);
      });
  rewriter.replaceOp(op, decode.getResults());
  return reduce;
}

/// The partial results of `op` in lanes, and the op that combines them into
/// its destinations.
std::pair<linalg::GenericOp, linalg::GenericOp>
splitIntoLanes(RewriterBase &rewriter, linalg::GenericOp op, int64_t lanes) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned loops = op.getNumLoops(), last = loops - 1;
  AffineExpr lane = getAffineDimExpr(loops, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  quant_affine::splitLoopIntoLanes(rewriter, op, last, lanes, inputs, maps);
  // Without a parallel loop (a per-tensor statistic), the outermost loop
  // keeps its partial results apart too, so that its rows can be threads.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool rowsApart =
      last > 0 &&
      llvm::none_of(ArrayRef(iterators).drop_back(), [](utils::IteratorType t) {
        return t == utils::IteratorType::parallel;
      });
  int64_t rowCount = op.getStaticLoopRanges()[0];
  SmallVector<Operation *> combiners = exactCombiners(op);
  SmallVector<Value> partialInits;
  for (auto [init, combiner] : llvm::zip(op.getDpsInitsMutable(), combiners)) {
    auto type = cast<RankedTensorType>(init.get().getType());
    SmallVector<int64_t> shape;
    if (rowsApart)
      shape.push_back(rowCount);
    shape.append(type.getShape().begin(), type.getShape().end());
    shape.push_back(lanes);
    TypedAttr neutral = *arith::getNeutralElement(combiner);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    Value start = arith::ConstantOp::create(rewriter, loc, neutral);
    partialInits.push_back(
        linalg::FillOp::create(rewriter, loc, start, empty).getResult(0));
    SmallVector<AffineExpr> results;
    if (rowsApart)
      results.push_back(getAffineDimExpr(0, ctx));
    llvm::append_range(results, op.getMatchingIndexingMap(&init).getResults());
    results.push_back(lane);
    maps.push_back(AffineMap::get(loops + 1, 0, results, ctx));
  }
  if (rowsApart)
    iterators[0] = utils::IteratorType::parallel;
  iterators.push_back(utils::IteratorType::parallel);
  auto partial = linalg::GenericOp::create(
      rewriter, loc, ValueRange(partialInits).getTypes(), inputs, partialInits,
      maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());

  // The lanes combined into each destination by its combiner (the results
  // share one shape, isSplittable).
  int64_t rank = cast<RankedTensorType>(op.getResultTypes()[0]).getRank();
  SmallVector<Value> inits = op.getDpsInits();
  int64_t extra = rowsApart ? 1 : 0;
  AffineMap all = rewriter.getMultiDimIdentityMap(rank + 1 + extra);
  AffineMap dropLane = AffineMap::get(
      rank + 1 + extra, 0, all.getResults().drop_back().drop_front(extra), ctx);
  SmallVector<AffineMap> finalMaps(partialInits.size(), all);
  finalMaps.append(inits.size(), dropLane);
  SmallVector<utils::IteratorType> finalIterators(
      extra, utils::IteratorType::reduction);
  finalIterators.append(rank, utils::IteratorType::parallel);
  finalIterators.push_back(utils::IteratorType::reduction);
  auto combine = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), partial.getResults(), inits,
      finalMaps, finalIterators,
      [&](OpBuilder &b, Location nested, ValueRange args) {
        SmallVector<Value> combined;
        size_t count = combiners.size();
        for (size_t i = 0; i < count; ++i) {
          OperationState state(nested, combiners[i]->getName());
          state.addOperands({args[count + i], args[i]});
          state.addTypes(args[i].getType());
          state.addAttributes(combiners[i]->getAttrs());
          combined.push_back(b.create(state)->getResult(0));
        }
        linalg::YieldOp::create(b, nested, combined);
      });
  rewriter.replaceOp(op, combine.getResults());
  return {partial, combine};
}

using quant_affine::asIndexAttrs;
using quant_affine::vectorizeInPlace;

struct QuantAffineVectorizeReductionsPass
    : quant_affine::impl::QuantAffineVectorizeReductionsPassBase<
          QuantAffineVectorizeReductionsPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Subset hoisting matches transfers and slices through these.
    tensor::registerSubsetOpInterfaceExternalModels(registry);
    vector::registerSubsetOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    if (lanes < 1 || !llvm::isPowerOf2_64(lanes)) {
      getOperation().emitError("lanes must be a power of two, got ")
          << lanes.getValue();
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isSplittable(op, lanes))
        candidates.push_back(op);
    });
    if (candidates.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      if (FailureOr<linalg::GenericOp> integers =
              reduceOrderedIntegers(rewriter, op);
          succeeded(integers))
        op = *integers;
      if (op.getStaticLoopRanges().back() <= kShortReduction) {
        compileRowsThenSteps(rewriter, op);
        continue;
      }
      rewriter.setInsertionPoint(op);
      auto [partial, combine] = splitIntoLanes(rewriter, op, lanes);
      compileRowsThenSteps(rewriter, partial);
      compileCombine(rewriter, combine);
    }
    cleanUp();
  }

  /// Every loop but the last one at a time: the parallel ones as rows
  /// (threaded with parallel-outer), then the reductions as steps; the last
  /// loop (a short reduction, or the lanes of partial results) is one
  /// vector, its accumulators hoisted into registers by cleanUp.
  void compileRowsThenSteps(RewriterBase &rewriter, linalg::GenericOp op) {
    unsigned loops = op.getNumLoops();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> rows(loops, 0), steps(loops, 0);
    for (unsigned i = 0; i + 1 < loops; ++i)
      (iterators[i] == utils::IteratorType::parallel ? rows : steps)[i] = 1;
    // A short last loop of a multiple of `lanes` (blocks of a blocked
    // encoding): `lanes` blocks of the innermost parallel loop at a time,
    // reduced together by a shuffle tree (ReductionTree.h) into one vector
    // of their results.
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    if (iterators.back() == utils::IteratorType::reduction &&
        sizes.back() <= kShortReduction && sizes.back() % lanes == 0 &&
        lanes > 1)
      for (unsigned i = loops - 1; i-- > 0;)
        if (iterators[i] == utils::IteratorType::parallel) {
          if (sizes[i] % lanes == 0)
            rows[i] = lanes;
          break;
        }
    SmallVector<Attribute> neutrals = neutralFills(op);
    linalg::GenericOp tile = op;
    // Inside a loop of threads already (quant-affine-fuse-reduction-rows):
    // no nested one.
    bool threads = parallelOuter && !op->getParentOfType<scf::ForallOp>();
    SmallVector<LoopLikeOpInterface> rowLoops;
    if (llvm::is_contained(rows, 1))
      tile = quant_affine::tileAndReplace(
          rewriter, tile, asIndexAttrs(rewriter, rows), threads, &rowLoops);
    if (tile && llvm::is_contained(steps, 1))
      tile = quant_affine::tileAndReplace(
          rewriter, tile, asIndexAttrs(rewriter, steps), /*forall=*/false);
    // Without steps, each tile reduces into destination elements that no
    // other tile wrote: where the destinations start as the combiners'
    // neutral elements, the tile starts from them as constants instead of
    // reading them (one load and one combination fewer per result).
    if (tile && !llvm::is_contained(steps, 1) && !neutrals.empty()) {
      startFromConstants(rewriter, tile, neutrals);
      // Then no tile reads what the rows' loop starts from: not filled.
      if (!rowLoops.empty())
        startEmpty(rewriter, rowLoops.front());
    }
    if (tile)
      vectorizeInPlace(rewriter, tile);
  }

  /// Makes the tensors `loop` starts from that are linalg.fill results
  /// start from tensor.empty ops instead (their values are not read).
  static void startEmpty(RewriterBase &rewriter, LoopLikeOpInterface loop) {
    for (OpOperand &init : loop.getInitsMutable()) {
      if (init.get().getDefiningOp<linalg::FillOp>())
        quant_affine::startFromEmpty(rewriter, loop, init);
    }
  }

  /// The constant each destination of `op` is filled with, if every one is
  /// a linalg.fill of its combiner's neutral element; empty otherwise.
  static SmallVector<Attribute> neutralFills(linalg::GenericOp op) {
    SmallVector<Operation *> combiners = exactCombiners(op);
    SmallVector<Attribute> neutrals;
    for (auto [init, combiner] : llvm::zip(op.getDpsInits(), combiners)) {
      std::optional<TypedAttr> neutral = neutralFill(init, combiner);
      if (!neutral)
        return {};
      neutrals.push_back(*neutral);
    }
    if (neutrals.size() != combiners.size() || combiners.empty())
      return {};
    return neutrals;
  }

  /// Makes each destination of `tile` a new fill of its neutral element,
  /// vectorized, so that the vectorized tile's read of it folds away.
  static void startFromConstants(RewriterBase &rewriter, linalg::GenericOp tile,
                                 ArrayRef<Attribute> neutrals) {
    rewriter.setInsertionPoint(tile);
    for (auto [init, neutral] :
         llvm::zip(tile.getDpsInitsMutable(), neutrals)) {
      auto type = cast<RankedTensorType>(init.get().getType());
      Value empty = tensor::EmptyOp::create(
          rewriter, tile.getLoc(), type.getShape(), type.getElementType());
      Value start = arith::ConstantOp::create(rewriter, tile.getLoc(),
                                              cast<TypedAttr>(neutral));
      auto fill = linalg::FillOp::create(rewriter, tile.getLoc(), start, empty);
      rewriter.modifyOpInPlace(tile, [&] { init.set(fill.getResult(0)); });
      vectorizeInPlace(rewriter, fill);
    }
  }

  /// The lanes of one row at a time, as one vector reduction.
  void compileCombine(RewriterBase &rewriter, linalg::GenericOp combine) {
    unsigned loops = combine.getNumLoops();
    SmallVector<int64_t> rows(loops, 1);
    rows.back() = 0;
    linalg::GenericOp row = combine;
    if (loops > 1)
      row = quant_affine::tileAndReplace(rewriter, combine,
                                         asIndexAttrs(rewriter, rows),
                                         /*forall=*/false);
    if (row)
      vectorizeInPlace(rewriter, row);
  }

  /// Folds the tiles' slices into their transfers, keeps the accumulators
  /// in registers across the steps, and makes the vectors 1-D.
  void cleanUp() {
    MLIRContext *context = &getContext();
    func::FuncOp func = getOperation();
    quant_affine::foldSlicesAndHoistAccumulators(func);
    {
      // A step reduces over unit dims: elementwise combinations.
      RewritePatternSet patterns(context);
      vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns,
                                                               context);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
      vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
      (void)applyPatternsGreedily(func, std::move(patterns),
                                  quant_affine::structuredCodeConfig());
    }
    {
      RewritePatternSet patterns(context);
      quant_affine::populateReductionTreePatterns(patterns);
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
  }
};

} // namespace
