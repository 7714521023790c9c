//===- PatternRoots.cpp - rewrite patterns where they can match -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// Whether `op` is one that `patterns` are rooted on.
bool isPatternRoot(Operation *op, const FrozenRewritePatternSet &patterns) {
  return !patterns.getMatchAnyOpNativePatterns().empty() ||
         patterns.getOpSpecificNativePatterns().contains(op->getName());
}
} // namespace

GreedyRewriteConfig mlir::quant_affine::structuredCodeConfig() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return config;
}

LogicalResult mlir::quant_affine::applyPatternsWhereRooted(
    Operation *root, const FrozenRewritePatternSet &patterns, bool &changed,
    function_ref<bool(Operation *)> mayMatch) {
  changed = false;
  bool rooted = root->walk([&](Operation *op) {
                      return op != root && isPatternRoot(op, patterns) &&
                                     (!mayMatch || mayMatch(op))
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
  if (!rooted)
    return success();
  return applyPatternsGreedily(root, patterns, GreedyRewriteConfig(), &changed);
}

LogicalResult mlir::quant_affine::applyPatternsToRoots(
    Operation *root, const FrozenRewritePatternSet &patterns, bool &changed,
    bool topDown) {
  changed = false;
  SmallVector<Operation *> roots;
  auto collect = [&](Operation *op) {
    if (op != root && isPatternRoot(op, patterns))
      roots.push_back(op);
  };
  // The driver takes the last op of its list first, as it does after
  // filling its list by a post-order walk (or by a pre-order one, reversed,
  // top-down).
  if (topDown) {
    root->walk<WalkOrder::PreOrder>(collect);
    std::reverse(roots.begin(), roots.end());
  } else {
    root->walk(collect);
  }
  if (roots.empty())
    return success();
  // Any op a rewrite touches (an operand's producer left unused, a user of a
  // replaced value) is visited too, so what the rewrites leave dead is
  // erased, as applyPatternsGreedily would.
  return applyOpPatternsGreedily(
      roots, patterns,
      GreedyRewriteConfig().setStrictness(GreedyRewriteStrictness::AnyOp),
      &changed);
}

LogicalResult mlir::quant_affine::applyPatternsOutsideRegionsOf(
    Operation *root, const FrozenRewritePatternSet &patterns,
    function_ref<bool(Operation *)> isOpaque, bool &changed) {
  changed = false;
  constexpr int kMaxRounds = 10;
  for (int round = 0; round < kMaxRounds; ++round) {
    SmallVector<Operation *> ops;
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == root)
        return WalkResult::advance();
      ops.push_back(op);
      return isOpaque(op) ? WalkResult::skip() : WalkResult::advance();
    });
    // The driver takes the last op of its list first.
    std::reverse(ops.begin(), ops.end());
    bool roundChanged = false;
    if (failed(
            applyOpPatternsGreedily(ops, patterns,
                                    GreedyRewriteConfig().setStrictness(
                                        GreedyRewriteStrictness::ExistingOps),
                                    &roundChanged)))
      return failure();
    if (!roundChanged)
      return success();
    changed = true;
  }
  // Rewrites that feed one another round after round (a reshape moved up a
  // long chain, an op at a time): the whole-region driver finishes them,
  // visiting what each creates at once.
  return applyPatternsGreedily(root, patterns);
}
