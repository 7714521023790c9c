//===- ReductionTree.h - rows reduced together by shuffles ------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_REDUCTIONTREE_H
#define QUANT_AFFINE_CODEGEN_COMMON_REDUCTIONTREE_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {

/// Lowers `vector.multi_reduction` of the inner dim of a vector<R x C>
/// (R a power of two, C a multiple of R), for a combiner that gives the
/// same bits in any order (min, max, integer add and bitwise ops), to one
/// vector<R> of the R results: each row's columns are first combined R at
/// a time, then pairs of vectors are halved by two shuffles and one
/// combination, log2(R) times. R rows cost about 3 R operations on vectors
/// of R lanes where one horizontal reduction per row costs 2 log2(R) each.
/// Registered with a benefit above upstream's multi-reduction lowering.
void populateReductionTreePatterns(RewritePatternSet &patterns);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_REDUCTIONTREE_H
