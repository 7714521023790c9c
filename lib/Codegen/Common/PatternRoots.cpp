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

LogicalResult
mlir::quant_affine::applyPatternsToRoots(Operation *root,
                                         const FrozenRewritePatternSet &patterns,
                                         bool &changed, bool topDown) {
  changed = false;
  // A pattern that may match any op: every op is a root.
  bool anyOp = !patterns.getMatchAnyOpNativePatterns().empty();
  const auto &byName = patterns.getOpSpecificNativePatterns();
  SmallVector<Operation *> roots;
  auto collect = [&](Operation *op) {
    if (op != root && (anyOp || byName.contains(op->getName())))
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
