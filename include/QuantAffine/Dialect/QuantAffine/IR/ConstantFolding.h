//===- ConstantFolding.h - Evaluate quant_affine ops on constants -*- C++ -*-===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir {
namespace quant_affine {

/// Largest number of result elements the ops' folders (and so -canonicalize)
/// evaluate. Larger constants are left to --quant-affine-fold-constants.
constexpr int64_t kCanonicalizeFoldLimit = 1 << 16;

/// Evaluates a quantize, dequantize or qdq whose input, scale and offset are
/// the constants `operands` (FloatAttr/IntegerAttr for the scalar form, dense
/// elements otherwise), with the formula of Utils/Formula.h in APFloat. The
/// result has exactly the bits the generated code computes; NaN into an
/// integer (poison) folds to 0. Returns null when an operand is not constant
/// or the result has more than `maxElements` elements.
Attribute foldEncodingOpConstants(Operation *op, ArrayRef<Attribute> operands,
                                  int64_t maxElements);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_CONSTANTFOLDING_H
