//===- PatternRoots.h - rewrite patterns where they can match ---*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_PATTERNROOTS_H
#define QUANT_AFFINE_CODEGEN_COMMON_PATTERNROOTS_H

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {

/// The greedy driver's configuration for structured code (before
/// convert-scf-to-cf: one block per region, which the pipelines ensure by
/// lifting control flow to scf first): no region simplification. Run on
/// several blocks, it leaves dead block arguments and unreachable blocks to
/// a later canonicalization. Its
/// dead-argument and unreachable-block analyses walk every block of the
/// root on each iteration of the driver, and find nothing there that the
/// driver's erasure of dead ops leaves (the canonicalization of the LLVM
/// dialect still runs them). On the MLP of 2,500 int4 layers they were a
/// third of the narrow-type emulation's time.
GreedyRewriteConfig structuredCodeConfig();

/// Applies `patterns` greedily to the ops under `root` that one of them is
/// rooted on (by name, or by an interface or trait, which freezing resolves
/// to names), and to the ops the rewrites create or touch; other ops are
/// neither folded nor erased. applyPatternsGreedily on the whole function also
/// folds every op and simplifies the regions on each of its walks: a
/// narrow pass paid for the whole program each time (issue 38). Roots are
/// visited in the greedy driver's order: bottom-up, or with `topDown`
/// defining ops before their users. Sets `changed`; fails where the rewrite
/// did not converge.
LogicalResult applyPatternsToRoots(Operation *root,
                                   const FrozenRewritePatternSet &patterns,
                                   bool &changed, bool topDown = false);

/// applyPatternsGreedily on `root` (every op folded, constants hoisted and
/// merged), but only where some op under it is one that `patterns` are
/// rooted on and, if given, for which `mayMatch` holds (a cheap condition
/// without which no pattern can rewrite the op, even after the driver's
/// folding: for expansions of conversions, the types converted); elsewhere a
/// walk.
/// For expansions whose output is read as it is (the expanded arithmetic's
/// constants at the top of the function).
LogicalResult
applyPatternsWhereRooted(Operation *root,
                         const FrozenRewritePatternSet &patterns, bool &changed,
                         function_ref<bool(Operation *)> mayMatch = {});

/// Applies `patterns` greedily, top-down, to the ops under `root` except
/// those in the regions of ops for which `isOpaque` holds, and repeats on
/// what that leaves until nothing changes. Ops a rewrite creates wait for
/// the next round instead of being visited at once: a rewrite that clones
/// bodies (elementwise fusion) would otherwise have every cloned body op
/// folded, once per fusion, for bodies the canonicalization that follows
/// folds once. After 10 rounds, applyPatternsGreedily on `root` finishes.
/// Sets `changed`; fails where that did not converge.
LogicalResult applyPatternsOutsideRegionsOf(
    Operation *root, const FrozenRewritePatternSet &patterns,
    function_ref<bool(Operation *)> isOpaque, bool &changed);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_PATTERNROOTS_H
