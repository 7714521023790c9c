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

namespace mlir {
namespace quant_affine {

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
/// rooted on; elsewhere a walk. For expansions whose output is read as it
/// is (the expanded arithmetic's constants at the top of the function).
LogicalResult applyPatternsWhereRooted(Operation *root,
                                       const FrozenRewritePatternSet &patterns,
                                       bool &changed);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_PATTERNROOTS_H
