//===- ShapeChecks.h - The shape rules checked at run time ------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of Utils/ShapeRules.h on sizes that are IR values: what types
// leave open about a tensor quantizer op's shapes, as i1 values. The ops'
// RuntimeVerifiableOpInterface reports them with cf.assert (the standard
// generate-runtime-verification pass); the linalg lowering's runtime-checks
// option reports them with the sizes printed (RuntimeChecks.h).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_SHAPECHECKS_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_SHAPECHECKS_H

#include "QuantAffine/Dialect/QuantAffine/Utils/ShapeRules.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace quant_affine {

/// Emits, at `b`'s insertion point, an i1 for each shape rule between the
/// ranked tensors `input`, `scale` and `offset` (may be null) that their
/// types do not already decide, and calls `report(ok, message)` with it.
void emitShapeChecks(
    OpBuilder &b, Location loc, Value input, Value scale, Value offset,
    std::optional<llvm::ArrayRef<int64_t>> blockSize,
    llvm::function_ref<void(Value, const CheckMessage &)> report);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_SHAPECHECKS_H
