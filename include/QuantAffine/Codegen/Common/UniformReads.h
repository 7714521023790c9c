//===- UniformReads.h - transfer reads of one element into every lane -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H
#define QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace quant_affine {

/// Whether every lane of `read` holds the one element at its indices (a
/// per-row scale broadcast along the row): unmasked, and every vector dim
/// of more than one element broadcast (a constant 0 in the permutation
/// map). Dims of one element may read along a memref dim; whether they are
/// in bounds is the caller's question.
bool readsOneElement(vector::TransferReadOp read);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H
