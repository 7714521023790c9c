//===- FloatSums.h - linalg sums that may be reassociated -------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_FLOATSUMS_H
#define QUANT_AFFINE_CODEGEN_COMMON_FLOATSUMS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace quant_affine {

/// The `arith.addf %out, %v` (either order) that `op`'s body yields, where
/// `op` has one output, `%out` (its element) has no other use and the body
/// uses no `linalg.index`: a float sum. Both pipelines may reassociate such
/// sums ("sums are f32 in any order", docs/FusedMatmul.md): the CPU in lanes
/// and panels, the GPU across a warp. Null otherwise.
arith::AddFOp floatSumStep(linalg::LinalgOp op);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_FLOATSUMS_H
