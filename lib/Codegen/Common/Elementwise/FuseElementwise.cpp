//===- FuseElementwise.cpp - elementwise fusion in linear time ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFUSEELEMENTWISEPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

int64_t bodySize(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.getBlock())
    return 0;
  return static_cast<int64_t>(linalgOp.getBlock()->getOperations().size());
}

/// Whether recomputing `op`'s body per element of a broadcasting consumer
/// would cost more than reading its result: it calls transcendental math
/// functions (float_qdq's maxval factor: log2 and exp2 in f64, one per
/// maxval element, not one per data element).
bool isCostlyToRecompute(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.getBlock())
    return false;
  return llvm::any_of(linalgOp.getBlock()->getOperations(), [](Operation &o) {
    return isa<math::Log2Op, math::Exp2Op, math::LogOp, math::ExpOp,
               math::PowFOp>(o);
  });
}

/// Whether `map` reads one value for several of the consumer's elements,
/// and not one for all (a 0-D scale, which
/// quant-affine-hoist-scalar-inputs reads once): a block's scale over its
/// block, whether the blocks are expanded dims ((i, j, k) -> (i, j)) or
/// divided ones ((i, j) -> (i, j floordiv 32)), a channel's over its
/// channel.
bool readsPerBlock(AffineMap map) {
  return map.getNumResults() > 0 && !map.isPermutation();
}

/// Whether a result of `op` is read by a linalg op with reduction loops (a
/// dequantization feeding a matmul, whose fusion into the matmul's loop
/// wants the per-block arithmetic in its body).
bool feedsReduction(Operation *op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    return linalgOp && linalgOp.getNumReductionLoops() > 0;
  });
}

/// Whether `value` is the one-use result of an all-parallel linalg.generic
/// (a dequantize, once lowered).
bool isFusableElementwiseResult(Value value) {
  auto producer = value.getDefiningOp<linalg::GenericOp>();
  return producer && value.hasOneUse() &&
         producer.getNumLoops() == producer.getNumParallelLoops();
}

/// Upstream's producer-into-consumer fusion (linalg::fuseElementwiseOps,
/// as linalg-fuse-elementwise-ops' pattern applies it), which also erases
/// the producer it leaves unused. Upstream leaves that to the greedy
/// driver's dead-op erasure, which visits only the ops it was given here:
/// a chain's intermediate fused ops, each with a growing copy of the body,
/// stayed until the next round.
struct FuseProducerIntoConsumer : OpRewritePattern<linalg::GenericOp> {
  FuseProducerIntoConsumer(MLIRContext *context,
                           linalg::ControlFusionFn control)
      : OpRewritePattern(context, /*benefit=*/2), control(std::move(control)) {}

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!linalg::areElementwiseOpsFusable(&operand) || !control(&operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        return failure();
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(consumer);
      if (isOpTriviallyDead(producer))
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }

  linalg::ControlFusionFn control;
};

struct QuantAffineFuseElementwisePass
    : quant_affine::impl::QuantAffineFuseElementwisePassBase<
          QuantAffineFuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    generalizeConsumersOfElementwise();
    int64_t limit = maxBodyOps;
    bool blockReads = fuseBlockReads;
    // Upstream's rule (a producer with one use), plus the size bound.
    linalg::ControlFusionFn control = [limit, blockReads](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !producer->hasOneUse())
        return false;
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      if (consumer) {
        AffineMap map = consumer.getMatchingIndexingMap(fused);
        if (isCostlyToRecompute(producer) && !map.isPermutation())
          return false;
        if (!blockReads && consumer.getNumReductionLoops() == 0 &&
            readsPerBlock(map) && !feedsReduction(consumer))
          return false;
      }
      return bodySize(producer) + bodySize(fused->getOwner()) <= limit;
    };
    // The same pattern set as linalg-fuse-elementwise-ops (its fusion
    // pattern preceded by ours, which does the same and cleans up).
    RewritePatternSet patterns(context);
    patterns.add<FuseProducerIntoConsumer>(context, control);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    // Not the scalar ops in the bodies, which each fusion clones and the
    // canonicalization that follows folds once.
    bool changed = false;
    if (failed(quant_affine::applyPatternsOutsideRegionsOf(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            [](Operation *op) { return isa<linalg::LinalgOp>(op); },
            changed))) {
      getOperation()->emitError(
          "elementwise fusion did not converge in 10 rounds and 10 greedy "
          "iterations");
      return signalPassFailure();
    }
    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Upstream fuses producers into generics only. Named contractions and
  /// convolutions (`linalg.matmul`, `linalg.matvec`, ...) that read an
  /// elementwise result become generics first, so that a dequantized weight
  /// is computed inside the contraction instead of in a buffer of its own.
  void generalizeConsumersOfElementwise() {
    SmallVector<linalg::LinalgOp> consumers;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
          !(linalg::isaContractionOpInterface(op) ||
            isa<linalg::ConvolutionOpInterface>(op.getOperation())))
        return;
      if (llvm::any_of(op.getDpsInputOperands(), [](OpOperand *input) {
            return isFusableElementwiseResult(input->get());
          }))
        consumers.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : consumers) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
  }
};

} // namespace
