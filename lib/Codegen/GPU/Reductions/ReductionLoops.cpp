//===- ReductionLoops.cpp - reductions accumulate in registers ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's linalg-to-loops lowering of a reduction loads the output element
// and stores it back in every iteration. In a kernel, LLVM cannot keep it in a
// register (the output might alias an input as far as it knows), so every
// step of a sum waits for a store and a load through global memory: a decode
// matmul spent 1.2 ms in such chains on an H100. Here the parallel dims become
// an scf.parallel and the reduction dims scf.for loops that carry the element
// in iter_args: one load before, one store after, the same order of
// operations. (Linalg's semantics already exclude an output that aliases an
// input.)
//
// A float sum with few results (a decode matmul: 4096 results, 128 warps for
// 132 SMs) is spread over a warp per result instead: lanes take interleaved
// elements of the outermost reduction dim and gpu.shuffle adds their partial
// sums. Upstream's linalg::splitReduction would need a buffer of partial sums
// and a second kernel, and handles one reduction dim only (a block-quantized
// matmul has two).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FloatSums.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEREDUCTIONLOOPSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The indices `map` gives at loop indices `ivs`.
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map,
                             ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

/// Whether `op` is a reduction on buffers this pass can rewrite: one output,
/// read and written at indices of the parallel dims only.
bool isBufferReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInits() != 1 || op->getParentOfType<gpu::LaunchOp>())
    return false;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  return llvm::none_of(
      reductions, [&](unsigned dim) { return outMap.isFunctionOfDim(dim); });
}

/// The loops of `op`, parallel and reduction dims apart.
struct LoopBounds {
  SmallVector<unsigned> dims;
  SmallVector<Value> lbs, ubs, steps;
};

/// How a warp sum walks the reduction dims: lanes interleave `outer` (the
/// outermost); `vectorDim` (the innermost), if any, goes `width` elements at
/// a time as vectors, its inputs read with vector transfers. With one
/// reduction dim, both are it: lane l reads elements [(j * 32 + l) * width,
/// + width).
struct WarpPlan {
  unsigned outer;
  std::optional<unsigned> vectorDim;
  int64_t width = 1;
  /// Results per warp: `rows` consecutive indices of the parallel dim
  /// `rowDim`, which some input does not use (the activations x of a
  /// matmul, then read once for all of them).
  /// (None when no parallel dim qualifies: then `rows` is 1 and no index is
  /// overridden; a reduction dim must never be taken for it.)
  std::optional<unsigned> rowDim;
  int64_t rows = 1;
};

/// One step of `op` at loop indices `ivs` (`ivs[plan.vectorDim]` the first
/// of `width` elements): its inputs loaded, its body applied to them and
/// `accumulator`; returns the value the body yields, a vector when `width`
/// is above 1 (scalars that meet vectors are broadcast).
Value stepAt(OpBuilder &b, Location loc, linalg::LinalgOp op, ValueRange ivs,
             Value accumulator, const WarpPlan *plan) {
  int64_t width = plan ? plan->width : 1;
  auto widen = [&](Value v) -> Value {
    if (width == 1 || isa<VectorType>(v.getType()))
      return v;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, v.getType()), v);
  };
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    AffineMap map = op.getMatchingIndexingMap(input);
    if (isa<MemRefType>(value.getType())) {
      SmallVector<Value> indices = indicesAt(b, loc, map, ivs);
      Type element = getElementTypeOrSelf(value.getType());
      if (width > 1 && map.isFunctionOfDim(*plan->vectorDim)) {
        value = vector::TransferReadOp::create(
            b, loc, VectorType::get({width}, element), value, indices,
            /*padding=*/std::nullopt, ArrayRef<bool>{true});
      } else {
        value = memref::LoadOp::create(b, loc, value, indices);
      }
    }
    mapping.map(op.getMatchingBlockArgument(input), value);
  }
  mapping.map(op.getMatchingBlockArgument(op.getDpsInitOperand(0)),
              accumulator);
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    bool vector = llvm::any_of(inner.getOperands(), [&](Value v) {
      return isa<VectorType>(mapping.lookupOrDefault(v).getType());
    });
    if (!vector) {
      b.clone(inner, mapping);
      continue;
    }
    // Elementwise on vectors (checked by the plan).
    OperationState state(inner.getLoc(), inner.getName());
    for (Value operand : inner.getOperands())
      state.addOperands(widen(mapping.lookupOrDefault(operand)));
    for (Type type : inner.getResultTypes())
      state.addTypes(VectorType::get({width}, type));
    state.addAttributes(inner.getAttrs());
    Operation *widened = b.create(state);
    mapping.map(inner.getResults(), widened->getResults());
  }
  return widen(mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));
}

/// The largest power of two up to `maxWidth` that divides `size` and by which
/// the inputs can be read along `dim` as vectors: every input using `dim` is a
/// buffer reading it as its last, unit-stride dim, and every op of the body
/// is elementwise. 1 when none.
int64_t vectorWidth(linalg::LinalgOp op, unsigned dim, int64_t size,
                    int64_t maxWidth) {
  int64_t width = 1;
  while (width * 2 <= maxWidth && size % (width * 2) == 0)
    width *= 2;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(dim))
      continue;
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(dim, op.getContext()) ||
        llvm::count_if(map.getResults(), [&](AffineExpr e) {
          return e.isFunctionOfDim(dim);
        }) != 1)
      return 1;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return 1;
    // Vector accesses take the vector's alignment (docs/Pipelines.md): each
    // vector must start a multiple of `width` elements into an aligned
    // buffer, so the view's offset and its outer strides must be static
    // multiples of the width.
    strides.back() = offset;
    auto aligned = [&](int64_t w) {
      return llvm::all_of(strides, [&](int64_t v) {
        return !ShapedType::isDynamic(v) && v % w == 0;
      });
    };
    while (width > 1 && !aligned(width))
      width /= 2;
  }
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator())
    if (inner.getNumRegions() != 0 ||
        !OpTrait::hasElementwiseMappableTraits(&inner))
      return 1;
  return width;
}

/// The value of a linalg.fill of `op`'s whole output that comes right before
/// `op` (with only side-effect-free ops or views between), erasing the fill:
/// the output's every element then starts as that value. Null otherwise.
Value takeFill(linalg::LinalgOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (fill.getOutputs().front() != out || !fill.hasPureBufferSemantics())
        return nullptr;
      Value value = fill.getInputs().front();
      // The value must be available where the fill was: it is, and it
      // dominates `op` as well.
      fill->erase();
      return value;
    }
    if (!isMemoryEffectFree(prev) && !isa<ViewLikeOpInterface>(prev))
      return nullptr;
    if (llvm::is_contained(prev->getOperands(), out))
      return nullptr;
  }
  return nullptr;
}

/// Whether every parallel dim of `op` has one iteration (or it has none).
bool hasOneResult(linalg::LinalgOp op) {
  for (auto [size, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel && size != 1)
      return false;
  return true;
}

/// Lowers `op` into an scf.parallel of its parallel dims around scf.for
/// loops of its reduction dims that carry the output element.
void lowerToLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                  const LoopBounds &parallel, const LoopBounds &reduction,
                  Value filled) {
  Location loc = op.getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  OpOperand *init = op.getDpsInitOperand(0);
  Value out = init->get();
  AffineMap outMap = op.getMatchingIndexingMap(init);
  scf::ParallelOp::create(
      rewriter, loc, parallel.lbs, parallel.ubs, parallel.steps,
      [&](OpBuilder &b, Location loc, ValueRange parallelIvs) {
        SmallVector<Value> ivs(op.getNumLoops(), zero);
        for (auto [dim, iv] : llvm::zip(parallel.dims, parallelIvs))
          ivs[dim] = iv;
        // (The output's indices use parallel dims only.)
        SmallVector<Value> outIndices = indicesAt(b, loc, outMap, ivs);
        Value start =
            filled ? filled : memref::LoadOp::create(b, loc, out, outIndices);
        scf::LoopNest nest = scf::buildLoopNest(
            b, loc, reduction.lbs, reduction.ubs, reduction.steps, {start},
            [&](OpBuilder &b, Location loc, ValueRange reductionIvs,
                ValueRange accumulators) -> scf::ValueVector {
              for (auto [dim, iv] : llvm::zip(reduction.dims, reductionIvs))
                ivs[dim] = iv;
              return {stepAt(b, loc, op, ivs, accumulators.front(),
                             /*plan=*/nullptr)};
            });
        memref::StoreOp::create(b, loc, nest.results.front(), out, outIndices);
        scf::ReduceOp::create(b, loc);
      });
}

/// Lowers the float sum `op` (its step `add`) over a warp per result.
void lowerToWarpSums(RewriterBase &rewriter, linalg::LinalgOp op,
                     arith::AddFOp add, const WarpPlan &plan,
                     const LoopBounds &parallelIn, ArrayRef<int64_t> sizes,
                     Value filled) {
  constexpr int64_t kWarp = 32;
  Location loc = op.getLoc();
  auto constant = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = constant(rewriter, 0), one = constant(rewriter, 1);
  // The lanes: a last parallel dim; `rows` results of `rowDim` per warp.
  LoopBounds parallel = parallelIn;
  if (plan.rows > 1)
    for (auto [dim, step] : llvm::zip(parallel.dims, parallel.steps))
      if (dim == plan.rowDim)
        step = constant(rewriter, plan.rows);
  parallel.lbs.push_back(zero);
  parallel.ubs.push_back(constant(rewriter, kWarp));
  parallel.steps.push_back(one);
  // The reduction loops: `outer` over its steps of 32 lanes (times the width
  // when it is also the vector dim), the vector dim by the width, others 1.
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  LoopBounds reduction;
  for (unsigned dim : reductionDims) {
    int64_t steps = sizes[dim];
    if (dim == plan.outer)
      steps /= kWarp;
    if (plan.vectorDim && dim == *plan.vectorDim)
      steps /= plan.width;
    reduction.dims.push_back(dim);
    reduction.lbs.push_back(zero);
    reduction.ubs.push_back(constant(rewriter, steps));
    reduction.steps.push_back(one);
  }

  OpOperand *init = op.getDpsInitOperand(0);
  Value out = init->get();
  AffineMap outMap = op.getMatchingIndexingMap(init);
  auto element = cast<FloatType>(getElementTypeOrSelf(out.getType()));
  arith::FastMathFlagsAttr flags = add.getFastmathAttr();
  scf::ParallelOp::create(
      rewriter, loc, parallel.lbs, parallel.ubs, parallel.steps,
      [&](OpBuilder &b, Location loc, ValueRange parallelIvs) {
        Value lane = parallelIvs.back();
        SmallVector<Value> ivs(op.getNumLoops(), zero);
        for (auto [dim, iv] : llvm::zip(parallel.dims, parallelIvs))
          ivs[dim] = iv;
        // Each row's index of `rowDim`, and its output element.
        SmallVector<Value> rowIndex;
        SmallVector<SmallVector<Value>> outIndices;
        for (int64_t row = 0; row < plan.rows; ++row) {
          SmallVector<Value> rowIvs(ivs);
          if (plan.rowDim) {
            Value first = ivs[*plan.rowDim];
            rowIndex.push_back(row == 0 ? first
                                        : arith::AddIOp::create(
                                              b, loc, first, constant(b, row))
                                              .getResult());
            rowIvs[*plan.rowDim] = rowIndex.back();
          }
          outIndices.push_back(indicesAt(b, loc, outMap, rowIvs));
        }
        // Partial sums from -0.0 (x + -0.0 is x for every x).
        Attribute negativeZero = b.getFloatAttr(
            element, llvm::APFloat::getZero(element.getFloatSemantics(), true));
        Value start;
        if (plan.width > 1)
          start = arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(VectorType::get({plan.width}, element),
                                     negativeZero));
        else
          start =
              arith::ConstantOp::create(b, loc, cast<TypedAttr>(negativeZero));
        SmallVector<Value> starts(plan.rows, start);
        scf::LoopNest nest = scf::buildLoopNest(
            b, loc, reduction.lbs, reduction.ubs, reduction.steps, starts,
            [&](OpBuilder &b, Location loc, ValueRange reductionIvs,
                ValueRange accumulators) -> scf::ValueVector {
              for (auto [dim, iv] : llvm::zip(reduction.dims, reductionIvs)) {
                Value index = iv;
                if (dim == plan.outer)
                  index = arith::AddIOp::create(
                      b, loc,
                      arith::MulIOp::create(b, loc, iv, constant(b, kWarp)),
                      lane);
                if (plan.vectorDim && dim == *plan.vectorDim && plan.width > 1)
                  index = arith::MulIOp::create(b, loc, index,
                                                constant(b, plan.width));
                ivs[dim] = index;
              }
              // (Reads of inputs the rows share, x, are the same loads;
              // LLVM keeps one.)
              scf::ValueVector sums;
              for (int64_t row = 0; row < plan.rows; ++row) {
                if (plan.rowDim)
                  ivs[*plan.rowDim] = rowIndex[row];
                sums.push_back(
                    stepAt(b, loc, op, ivs, accumulators[row], &plan));
              }
              return sums;
            });
        Value leader =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
        for (int64_t row = 0; row < plan.rows; ++row) {
          Value sum = nest.results[row];
          if (plan.width > 1)
            sum = vector::ReductionOp::create(
                b, loc, vector::CombiningKind::ADD, sum, flags.getValue());
          for (int32_t offset = kWarp / 2; offset >= 1; offset /= 2) {
            Value other = gpu::ShuffleOp::create(b, loc, sum, offset, kWarp,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult();
            sum = arith::AddFOp::create(b, loc, sum, other, flags);
          }
          scf::IfOp::create(b, loc, leader, [&](OpBuilder &b, Location loc) {
            Value initial =
                filled ? filled
                       : memref::LoadOp::create(b, loc, out, outIndices[row]);
            Value total = arith::AddFOp::create(b, loc, initial, sum, flags);
            memref::StoreOp::create(b, loc, total, out, outIndices[row]);
            scf::YieldOp::create(b, loc);
          });
        }
        scf::ReduceOp::create(b, loc);
      });
}

/// The plan for spreading `op` over a warp per result, if it is a float sum
/// with fewer than `warpThreads` results and its reduction dims allow it.
std::optional<WarpPlan> planWarpSum(linalg::LinalgOp op, int64_t warpThreads,
                                    int64_t blockSize, int64_t maxWidth,
                                    int64_t maxRows) {
  // f32 sums only: NVVM shuffles 32-bit values.
  if (warpThreads <= 0 || blockSize % 32 != 0 ||
      !quant_affine::floatSumStep(op) ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32())
    return std::nullopt;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  if (llvm::any_of(sizes, ShapedType::isDynamic))
    return std::nullopt;
  int64_t results = 1;
  for (auto [size, iterator] : llvm::zip(sizes, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      results *= size;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  WarpPlan plan{reductions.front(), std::nullopt, 1};
  if (results >= warpThreads || sizes[plan.outer] % 32 != 0)
    return std::nullopt;
  unsigned inner = reductions.back();
  int64_t innerSize = reductions.size() == 1 ? sizes[inner] / 32 : sizes[inner];
  int64_t width = vectorWidth(op, inner, innerSize, maxWidth);
  if (width > 1) {
    plan.vectorDim = inner;
    plan.width = width;
  }
  // Rows per warp: along the innermost parallel dim that an input reading
  // the reduction does not use, as many as divide it (up to `maxRows`).
  SmallVector<unsigned> parallelDims;
  op.getParallelDims(parallelDims);
  for (unsigned dim : llvm::reverse(parallelDims)) {
    bool shared = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap map = op.getMatchingIndexingMap(in);
      return map.isFunctionOfDim(plan.outer) && !map.isFunctionOfDim(dim);
    });
    if (!shared)
      continue;
    int64_t rows = 1;
    while (rows * 2 <= maxRows && sizes[dim] % (rows * 2) == 0)
      rows *= 2;
    plan.rowDim = dim;
    plan.rows = rows;
    break;
  }
  return plan;
}

void lower(RewriterBase &rewriter, linalg::LinalgOp op, int64_t warpThreads,
           int64_t blockSize, int64_t maxWidth, int64_t maxRows) {
  std::optional<WarpPlan> plan =
      planWarpSum(op, warpThreads, blockSize, maxWidth, maxRows);
  // One result without a warp: left to quant-affine-map-to-gpu. Its
  // one-iteration parallel loop made here would be folded away before the
  // mapping, and the sum would run on the host.
  if (!plan && hasOneResult(op))
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  LoopBounds parallel, reduction;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    LoopBounds &loops =
        iterators[dim] == utils::IteratorType::parallel ? parallel : reduction;
    loops.dims.push_back(dim);
    loops.lbs.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
    loops.ubs.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    loops.steps.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.stride));
  }
  // The fill just before the op (zeros, a bias) is folded into its first
  // step rather than run as a kernel of its own.
  Value filled = takeFill(op);
  if (plan)
    lowerToWarpSums(rewriter, op, quant_affine::floatSumStep(op), *plan,
                    parallel, op.getStaticLoopRanges(), filled);
  else
    lowerToLoops(rewriter, op, parallel, reduction, filled);
  rewriter.eraseOp(op);
}

struct QuantAffineReductionLoopsPass
    : quant_affine::impl::QuantAffineReductionLoopsPassBase<
          QuantAffineReductionLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> reductions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isBufferReduction(op))
        reductions.push_back(op);
    });
    if (reductions.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : reductions)
      lower(rewriter, op, warpThreads, blockSize, vectorWidthLimit, rowsLimit);
  }
};

} // namespace
