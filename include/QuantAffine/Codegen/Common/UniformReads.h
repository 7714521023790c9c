//===- UniformReads.h - one value in every lane ---------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H
#define QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace quant_affine {

/// Whether every lane of `read` holds the one element at its indices (a
/// per-row scale broadcast along the row): unmasked, and every vector dim
/// of more than one element broadcast (a constant 0 in the permutation
/// map). Dims of one element may read along a memref dim; whether they are
/// in bounds is the caller's question.
bool readsOneElement(vector::TransferReadOp read);

/// Whether `v` is a constant vector of one value.
bool isSplatConstant(Value v);
/// The scalar a vector.broadcast spreads over every lane of `v`, or null.
Value broadcastScalar(Value v);
/// `v`, a broadcast scalar or a splat constant, as the same value in every
/// lane of a vector of `shape`'s dims (its element type `v`'s), created at
/// the builder.
Value oneValueAs(OpBuilder &b, Location loc, Value v, VectorType shape);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_UNIFORMREADS_H
