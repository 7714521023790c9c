//===- QuantEncoding.h - !quant.uniform types as affine encodings -*- C++ -*-=//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that knows how a quant dialect type's fields map onto the
// operands and properties of a quant_affine op, in both directions
// (docs/Interop.md has the table).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTENCODING_H
#define QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTENCODING_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>
#include <string>

namespace mlir {
namespace quant_affine {

/// A !quant.uniform type as quant_affine takes an encoding: the grid, the
/// storage integer, and constant scales and offsets laid out for the value's
/// shape.
struct AffineEncoding {
  /// The storage range [storageMin, storageMax].
  QuantRange range;
  /// The signless integer of the storage width (signedness is the range's).
  IntegerType storageType;
  /// The float type the ops take and return.
  FloatType expressedType;
  /// The scales in the expressed type: a FloatAttr for a scalar value, else
  /// a DenseElementsAttr of the scale shape.
  TypedAttr scale;
  /// offset = -zero_point, exact (in the expressed type when it holds every
  /// zero point, else f32 or f64); null when every zero point is 0.
  TypedAttr offset;
  /// block_size, for sub-channel types (-1 for the dims they do not list).
  std::optional<SmallVector<int64_t>> blockSize;
};

/// The encoding of quantized type `type` for a value of type `valueType` (a
/// scalar or a tensor of `type`). Each double scale (or sub-channel scale)
/// is rounded to the expressed type to nearest, ties to even. Fails, with
/// `whyNot` set to a sentence, for what quant_affine cannot express:
/// !quant.any and !quant.calibrated, unranked tensors, a zero point with no
/// exact float, a scale that rounds to 0 or infinity.
FailureOr<AffineEncoding> getAffineEncoding(quant::QuantizedType type,
                                            Type valueType,
                                            std::string &whyNot);

/// The !quant.uniform type that encodes exactly what a quant_affine op with
/// these operands and properties computes, when there is one: `scale` and
/// `offset` (null: all zero) are its constant operands, `valueType` the
/// float side (input of quantize, result of dequantize), `storageType` the
/// integer side, `computeType` the op's compute type. Fails with `whyNot`
/// set otherwise.
FailureOr<quant::QuantizedType>
getQuantType(Type valueType, IntegerType storageType, QuantRange range,
             std::optional<ArrayRef<int64_t>> blockSize, Attribute scale,
             Attribute offset, FloatType computeType, std::string &whyNot);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTENCODING_H
