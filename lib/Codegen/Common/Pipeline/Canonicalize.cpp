//===- Canonicalize.cpp - canonicalization that reports no change ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's -canonicalize, with one difference: a run that changes nothing
// (no rewrite reported, the same ops in the same order) preserves every
// analysis, so the pass manager does not verify the whole IR
// again after it (Passes.td has the numbers). The patterns are collected as
// upstream's pass collects them.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECANONICALIZEPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The ops under `root` in walk order, as one hash: what the driver does
/// to constants while it builds its first worklist (duplicates erased,
/// constants moved to the entry) is reported neither in its `changed` nor
/// to a listener, and it changes this order.
llvm::hash_code opOrder(Operation *root) {
  llvm::hash_code hash = llvm::hash_value(root);
  root->walk([&](Operation *op) { hash = llvm::hash_combine(hash, op); });
  return hash;
}

/// Records whether the driver reported any rewrite, region simplification
/// included.
struct ChangeListener : RewriterBase::Listener {
  void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override {
    changed = true;
  }
  void notifyBlockInserted(Block *, Region *, Region::iterator) override {
    changed = true;
  }
  void notifyOperationModified(Operation *) override { changed = true; }
  void notifyOperationReplaced(Operation *, ValueRange) override {
    changed = true;
  }
  void notifyOperationErased(Operation *) override { changed = true; }
  void notifyBlockErased(Block *) override { changed = true; }
  bool changed = false;
};

struct QuantAffineCanonicalizePass
    : quant_affine::impl::QuantAffineCanonicalizePassBase<
          QuantAffineCanonicalizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owned));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(topDown);
    config.setRegionSimplificationLevel(
        simplifyRegions ? GreedySimplifyRegionLevel::Normal
                        : GreedySimplifyRegionLevel::Disabled);
    ChangeListener listener;
    config.setListener(&listener);
    llvm::hash_code before = opOrder(getOperation());
    bool changed = false;
    // Like upstream's: not converging within the iterations is no failure.
    (void)applyPatternsGreedily(getOperation(), *patterns, config, &changed);
    if (!changed && !listener.changed && opOrder(getOperation()) == before)
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
