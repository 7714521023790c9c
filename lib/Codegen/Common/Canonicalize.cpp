//===- Canonicalize.cpp - canonicalization that reports no change ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's -canonicalize, with one difference: a run that changes nothing
// preserves every analysis, so the pass manager does not verify the whole IR
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
    bool changed = false;
    // Like upstream's: not converging within the iterations is no failure.
    (void)applyPatternsGreedily(getOperation(), *patterns, config, &changed);
    if (!changed)
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
