//===- FlattenVectors.h - an op applied to its vector flattened -*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_FLATTENVECTORS_H
#define QUANT_AFFINE_CODEGEN_COMMON_FLATTENVECTORS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
namespace quant_affine {

/// `apply` (an elementwise op of one operand, built at `b`) on `input`: on a
/// vector of rank > 1 it gets the vector shape-cast to one dim and its
/// result is cast back, for lowerings that take scalars and 1-D vectors
/// only (LLVM's intrinsics, upstream's bit-count conversion).
Value flattenedVectorOp(OpBuilder &b, Location loc, Value input,
                        function_ref<Value(Value)> apply);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_FLATTENVECTORS_H
