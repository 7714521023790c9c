//===- ConstantFolding.h - quant_affine ops on constants --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/APFloat.h"

#include <cstdint>

namespace mlir {
namespace quant_affine {

/// Largest number of result elements the ops' folders (and so -canonicalize)
/// evaluate, splats aside (they cost one element). Larger constants are left
/// to --quant-affine-fold-constants.
constexpr int64_t kCanonicalizeFoldLimit = 1 << 16;

/// Largest number of elements a folded result is materialized with: above it
/// the element buffers could not even be allocated (SmallVector's 32-bit
/// size), so such ops are never folded except to a splat.
constexpr int64_t kMaxMaterializedElements = (int64_t{1} << 32) - 1;

class QuantizerOpInterface;
class ComputeEncodingOp;
class BlockScaleOp;
class FloatQDQOp;
struct FloatFormat;

/// Evaluates a quantize, dequantize or qdq whose input, scale and offset are
/// the constants `operands` (FloatAttr/IntegerAttr for the scalar form, dense
/// elements otherwise), with the formula of Utils/Formula.h in APFloat. The
/// result has exactly the bits the generated code computes; NaN into an
/// integer (poison) folds to 0. A splat input with splat scale and offset
/// (per-tensor encodings are splats) folds to a splat in O(1), whatever its
/// size. Returns null when an operand is not constant, or when a result that
/// is not a splat has more than `maxElements` (or kMaxMaterializedElements)
/// elements.
Attribute foldQuantizerConstants(QuantizerOpInterface op,
                                 ArrayRef<Attribute> operands,
                                 int64_t maxElements);

/// Evaluates a compute_encoding of the constant `input` (dense elements of a
/// static shape with at most `maxElements` elements and at least one per
/// encoding) into its scale and offset constants, with the formula of
/// Utils/CalibrationFormula.h in APFloat: exactly the bits the generated
/// code computes.
LogicalResult
foldComputeEncodingConstants(ComputeEncodingOp op, Attribute input,
                             int64_t maxElements,
                             llvm::SmallVectorImpl<OpFoldResult> &results);

/// Evaluates a block_scale of the constant `input` (dense elements of a
/// static shape with at most `maxElements` elements) and `tensorScale` (when
/// the op has one) with the formula of Utils/BlockScaleFormula.h in
/// APFloat/APInt: exactly the bits the generated code computes. Returns null
/// when an operand is not constant or the input is larger.
Attribute foldBlockScaleConstants(BlockScaleOp op, Attribute input,
                                  Attribute tensorScale, int64_t maxElements);

/// Evaluates a float_qdq of a constant input (and maxval) with the formula of
/// Utils/FloatFormula.h in APFloat: exactly the bits the generated code
/// computes. Splats fold in O(1); otherwise as foldQuantizerConstants.
Attribute foldFloatQDQConstants(FloatQDQOp op, ArrayRef<Attribute> operands,
                                int64_t maxElements);

/// The f32 factor k that float_qdq derives from one `maxval` element
/// (Utils/FloatFormula.h's maxvalFactor, as the generated code computes it).
llvm::APFloat evaluateFloatQDQFactor(MLIRContext *ctx,
                                     const FloatFormat &format,
                                     const llvm::APFloat &maxval);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H
