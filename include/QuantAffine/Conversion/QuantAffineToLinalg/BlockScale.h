//===- BlockScale.h - block_scale's formulas as arith ops -------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The scale quant_affine.block_scale computes for one block, from the
// block's largest magnitude, as scalar arith ops (BlockScaleFormula.h).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_BLOCKSCALE_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_BLOCKSCALE_H

#include "QuantAffine/Dialect/QuantAffine/Utils/BlockScaleFormula.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace quant_affine {

/// One block's scale of type `result` from its largest magnitude `amax`
/// (an f16, bf16 or f32 scalar), and the f32 `tensorScale` of two-level
/// NVFP4 (or null).
Value emitBlockScale(OpBuilder &b, Location loc, const BlockScaleRule &rule,
                     Value amax, Value tensorScale, Type result);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_BLOCKSCALE_H
