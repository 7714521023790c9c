//===- SplitReductions.cpp - whole-tensor min/max reductions in parallel --===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reduction to a single element (the min and max of a whole tensor that a
// per-tensor compute_encoding takes) has no parallel dim: it would run on
// one GPU thread. When every result combines with an idempotent operation
// (min, max, and, or), the order and the number of times the initial value
// takes part do not change a bit, so the reduction splits exactly into
// partial results over a grid of threads followed by the same reduction of
// the partials, repeated until few are left.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINESPLITREDUCTIONSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// At most this many elements are left to one thread.
constexpr int64_t kSerialElements = 256;
/// Elements each thread of a split reduces (about).
constexpr int64_t kElementsPerThread = 64;
/// Threads of a split, at most.
constexpr int64_t kMaxThreads = 65536;

bool isIdempotentCombiner(Operation *op) {
  return isa<arith::MinimumFOp, arith::MaximumFOp, arith::MinNumFOp,
             arith::MaxNumFOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
             arith::MaxUIOp, arith::AndIOp, arith::OrIOp>(op);
}

/// For each result of `op`, the op that combines the running value (its
/// init's block argument) with a value computed from the inputs only, if
/// every result has one that is idempotent.
std::optional<SmallVector<Operation *>>
idempotentCombiners(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  SmallVector<Operation *> combiners;
  for (auto [index, yielded] : llvm::enumerate(yield.getValues())) {
    Operation *combine = yielded.getDefiningOp();
    BlockArgument running =
        op.getMatchingBlockArgument(op.getDpsInitOperand(index));
    if (!combine || combine->getBlock() != &body ||
        !isIdempotentCombiner(combine) ||
        !llvm::is_contained(combine->getOperands(), running))
      return std::nullopt;
    // The other operand must not depend on any running value.
    Value other = combine->getOperand(0) == running ? combine->getOperand(1)
                                                    : combine->getOperand(0);
    SmallVector<Value> worklist = {other};
    llvm::SmallPtrSet<Value, 16> seen;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == &body &&
            arg.getArgNumber() >= op.getNumDpsInputs())
          return std::nullopt;
        continue;
      }
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &body)
        llvm::append_range(worklist, def->getOperands());
    }
    combiners.push_back(combine);
  }
  return combiners;
}

/// Whether `op` is a buffer reduction to one element that splits.
bool splits(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumParallelLoops() != 0 ||
      op.getNumLoops() == 0 || op.getNumDpsInits() == 0 ||
      !idempotentCombiners(op))
    return false;
  // Inputs read through plain (projected permutation) maps; outputs with
  // constant indices only.
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool plain =
        op.isDpsInit(&operand)
            ? llvm::all_of(map.getResults(), llvm::IsaPred<AffineConstantExpr>)
            : map.isProjectedPermutation();
    if (!plain || !isa<MemRefType>(operand.get().getType()))
      return false;
  }
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  int64_t total = 1;
  for (int64_t size : sizes) {
    if (ShapedType::isDynamic(size))
      return true;
    total *= size;
  }
  return total > kSerialElements;
}

/// The value of `op`'s body at loop indices `ivs` with running values
/// `running`: its inputs loaded, its body cloned; returns the yielded values.
SmallVector<Value> bodyAt(OpBuilder &b, Location loc, linalg::GenericOp op,
                          ValueRange ivs, ValueRange running) {
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults())
      indices.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
    mapping.map(op.getMatchingBlockArgument(input),
                memref::LoadOp::create(b, loc, input->get(), indices));
  }
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), running))
    mapping.map(op.getMatchingBlockArgument(&init), value);
  Block &body = op.getRegion().front();
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// The indices of init `index`'s element (constants).
SmallVector<Value> initIndices(OpBuilder &b, Location loc, linalg::GenericOp op,
                               unsigned index) {
  SmallVector<Value> indices;
  for (AffineExpr e :
       op.getIndexingMapsArray()[op.getNumDpsInputs() + index].getResults())
    indices.push_back(arith::ConstantIndexOp::create(
        b, loc, cast<AffineConstantExpr>(e).getValue()));
  return indices;
}

/// Splits `op`: partial results of its innermost reduction dim strided over
/// `inner` threads (neighbouring threads read neighbouring elements) and of
/// its outermost dim in `outer` chunks, into buffers of `outer * inner`
/// elements; then the same reduction over those buffers into the original
/// results, returned (split again while it is large).
linalg::GenericOp splitOnce(RewriterBase &rewriter, linalg::GenericOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  unsigned rank = sizes.size();
  unsigned innerDim = rank - 1;
  auto staticOr = [](int64_t size, int64_t otherwise) {
    return ShapedType::isDynamic(size) ? otherwise : size;
  };
  // (A dynamic size counts as large.)
  constexpr int64_t kLarge = kMaxThreads * kElementsPerThread;
  int64_t total = 1;
  for (int64_t size : sizes)
    total = std::min(total * staticOr(size, kLarge), kLarge);
  int64_t threads = std::clamp<int64_t>(
      llvm::divideCeil(total, kElementsPerThread), 1, kMaxThreads);
  int64_t inner = std::min(staticOr(sizes[innerDim], threads), threads);
  int64_t outer = rank > 1 ? std::min(staticOr(sizes[0], threads),
                                      std::max<int64_t>(1, threads / inner))
                           : 1;
  inner = std::max<int64_t>(inner, 1);
  outer = std::max<int64_t>(outer, 1);

  // Partial buffers, one per result.
  SmallVector<Value> partials;
  for (Value init : op.getDpsInits()) {
    Type element = cast<MemRefType>(init.getType()).getElementType();
    partials.push_back(memref::AllocOp::create(
        rewriter, loc, MemRefType::get({outer * inner}, element)));
  }
  Value zero = index(0), one = index(1);
  Value innerSize =
      getValueOrCreateConstantIndexOp(rewriter, loc, ranges[innerDim].size);
  Value outerSize =
      getValueOrCreateConstantIndexOp(rewriter, loc, ranges[0].size);
  Value chunk = rank > 1 ? arith::CeilDivUIOp::create(rewriter, loc, outerSize,
                                                      index(outer))
                         : Value();
  scf::ParallelOp::create(
      rewriter, loc, ValueRange{zero, zero},
      ValueRange{index(outer), index(inner)}, ValueRange{one, one},
      [&](OpBuilder &b, Location loc, ValueRange ids) {
        Value q = ids[0], p = ids[1];
        SmallVector<Value> running;
        for (unsigned k = 0; k < op.getNumDpsInits(); ++k)
          running.push_back(memref::LoadOp::create(b, loc, op.getDpsInits()[k],
                                                   initIndices(b, loc, op, k)));
        SmallVector<Value> lbs, ubs, steps;
        for (unsigned d = 0; d < rank; ++d) {
          Value lb = zero,
                ub = getValueOrCreateConstantIndexOp(b, loc, ranges[d].size),
                step = one;
          if (d == innerDim) {
            lb = p;
            ub = innerSize;
            step = arith::ConstantIndexOp::create(b, loc, inner);
          } else if (d == 0) {
            lb = arith::MulIOp::create(b, loc, q, chunk);
            ub = arith::MinUIOp::create(
                b, loc, arith::AddIOp::create(b, loc, lb, chunk), outerSize);
          }
          lbs.push_back(lb);
          ubs.push_back(ub);
          steps.push_back(step);
        }
        scf::LoopNest nest = scf::buildLoopNest(
            b, loc, lbs, ubs, steps, running,
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange accumulators) -> scf::ValueVector {
              return bodyAt(b, loc, op, ivs, accumulators);
            });
        Value slot = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, q, index(inner)), p);
        for (auto [partial, value] : llvm::zip(partials, nest.results))
          memref::StoreOp::create(b, loc, value, partial, ValueRange{slot});
        scf::ReduceOp::create(b, loc);
      });

  // The partials reduced into the results by the same combiners.
  SmallVector<Operation *> combiners = *idempotentCombiners(op);
  MLIRContext *context = op.getContext();
  SmallVector<AffineMap> maps(partials.size(),
                              AffineMap::getMultiDimIdentityMap(1, context));
  for (unsigned k = 0; k < op.getNumDpsInits(); ++k) {
    AffineMap original = op.getIndexingMapsArray()[op.getNumDpsInputs() + k];
    maps.push_back(AffineMap::get(1, 0, original.getResults(), context));
  }
  auto second = linalg::GenericOp::create(
      rewriter, loc, TypeRange(), partials, op.getDpsInits(), maps,
      {utils::IteratorType::reduction},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        unsigned n = partials.size();
        SmallVector<Value> yields;
        for (unsigned k = 0; k < n; ++k) {
          Operation *combine = combiners[k];
          // The running value where the original has it.
          bool runningFirst =
              combine->getOperand(0) ==
              op.getMatchingBlockArgument(op.getDpsInitOperand(k));
          OperationState state(loc, combine->getName());
          if (runningFirst)
            state.addOperands({args[n + k], args[k]});
          else
            state.addOperands({args[k], args[n + k]});
          state.addTypes(combine->getResultTypes());
          state.addAttributes(combine->getAttrs());
          yields.push_back(b.create(state)->getResult(0));
        }
        linalg::YieldOp::create(b, loc, yields);
      });
  rewriter.eraseOp(op);
  return second;
}

struct QuantAffineSplitReductionsPass
    : quant_affine::impl::QuantAffineSplitReductionsPassBase<
          QuantAffineSplitReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (splits(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      while (splits(op))
        op = splitOnce(rewriter, op);
  }
};

} // namespace
