//===- ScalarizeAccesses.h - vector memory accesses element by element ----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_SCALARIZEACCESSES_H
#define QUANT_AFFINE_CODEGEN_COMMON_SCALARIZEACCESSES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir {
namespace quant_affine {

/// Replaces each vector access of a memref under `root` (transfers with
/// masks, out-of-bounds dims and broadcasts; plain and masked loads and
/// stores) for which `needsScalar(access, vectorType, memref)` holds by one
/// scalar memref.load or memref.store per element, under its mask bit and
/// bounds. Returns whether it replaced any.
bool scalarizeVectorAccesses(
    Operation *root,
    function_ref<bool(Operation *, VectorType, Value)> needsScalar);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_SCALARIZEACCESSES_H
