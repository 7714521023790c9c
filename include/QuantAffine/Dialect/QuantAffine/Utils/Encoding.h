//===- Encoding.h - Affine encoding rules, in one place ---------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules every part of quant-affine needs about an affine encoding: the
// integer grid (AIMET's qmin/qmax derivation), how a scale tensor is laid
// over an input (block sizes, wildcards and broadcasting), which scale an
// input element uses, and the compute type AIMET picks. The verifier, the
// folders and the lowerings all call these; there is no second copy.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_ENCODING_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_ENCODING_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace quant_affine {

//===----------------------------------------------------------------------===//
// Integer grid
//===----------------------------------------------------------------------===//

/// The closed integer grid [qmin, qmax] of an encoding. Values are read as
/// signed when qmin < 0, as unsigned otherwise.
struct QuantRange {
  int64_t qmin = 0;
  int64_t qmax = 0;

  QuantRange() = default;
  QuantRange(int64_t qmin, int64_t qmax) : qmin(qmin), qmax(qmax) {}

  /// Bit widths fromBitwidth accepts: every grid of up to 63 bits has its
  /// ends in int64 (the integer result types hold up to 32 of them; wider
  /// grids are for float results).
  static constexpr unsigned kMinBitwidth = 1, kMaxBitwidth = 63;
  /// The largest step count fromNumSteps accepts (the unsigned grid [0, n]
  /// must fit int64).
  static constexpr uint64_t kMaxNumSteps = uint64_t{INT64_MAX};

  /// AIMET's derivation from a bit width: n = 2^bitwidth - 1 steps, then
  /// fromNumSteps(n, isSigned). Fails for a bit width outside
  /// [kMinBitwidth, kMaxBitwidth].
  static FailureOr<QuantRange> fromBitwidth(unsigned bitwidth, bool isSigned);
  /// AIMET's derivation from a step count n: signed [-ceil(n/2), floor(n/2)],
  /// unsigned [0, n]. Fails for n above kMaxNumSteps.
  static FailureOr<QuantRange> fromNumSteps(uint64_t numSteps, bool isSigned);

  bool isSigned() const { return qmin < 0; }
  bool isValid() const { return qmin <= qmax; }
  /// qmax - qmin, exact (no int64 overflow). Requires isValid().
  uint64_t numSteps() const {
    return static_cast<uint64_t>(qmax) - static_cast<uint64_t>(qmin);
  }
  /// Whether every grid value fits an integer of `width` bits read with this
  /// range's signedness (a 0-bit integer holds only 0).
  bool fitsInteger(unsigned width) const;
  /// The grid of the full `width`-bit integer type read as signed or not.
  /// `width` must be in [1, 63].
  static QuantRange ofInteger(unsigned width, bool isSigned);

  bool operator==(const QuantRange &other) const {
    return qmin == other.qmin && qmax == other.qmax;
  }
  bool operator!=(const QuantRange &other) const { return !(*this == other); }
};

//===----------------------------------------------------------------------===//
// Quantizer ops: what quantize, dequantize and qdq compute
//===----------------------------------------------------------------------===//

/// The conversion a quantizer op performs.
enum class QuantizerKind { Quantize, Dequantize, QDQ };

/// The variant of the formula (Utils/Formula.h) an op evaluates. Everything
/// that changes the arithmetic, and nothing else, lives here.
struct QuantizerFormula {
  QuantizerKind kind = QuantizerKind::QDQ;
  /// torchao's conventions: multiply by 1 / s (rounded in the scale's type);
  /// the offset is a float zero point (FLOAT domain).
  bool reciprocal = false, floatZeroPoint = false;

  /// Whether the formula maps floats onto the grid (quantize, qdq).
  bool quantizes() const { return kind != QuantizerKind::Dequantize; }
  /// Whether it maps grid values back to floats (dequantize, qdq).
  bool dequantizes() const { return kind != QuantizerKind::Quantize; }

  bool operator==(const QuantizerFormula &other) const {
    return kind == other.kind && reciprocal == other.reciprocal &&
           floatZeroPoint == other.floatZeroPoint;
  }
  bool operator!=(const QuantizerFormula &other) const {
    return !(*this == other);
  }
};

/// Everything about a quantizer op except its operands, as one value: the
/// formula, the grid, the block sizes and the compute type the arithmetic
/// happens in (AIMET's rule already applied). Consumers read this instead of
/// the op's properties, so a new property reaches all of them through
/// QuantizerOpInterface::getSpec.
struct QuantizerSpec {
  QuantizerFormula formula;
  QuantRange range;
  /// The block_size property, when present (unresolved: -1 stays -1).
  std::optional<llvm::SmallVector<int64_t, 4>> blockSize;
  FloatType computeType;

  std::optional<llvm::ArrayRef<int64_t>> getBlockSize() const {
    if (!blockSize)
      return std::nullopt;
    return llvm::ArrayRef<int64_t>(*blockSize);
  }
  /// Whether two ops apply their scales and offsets the same way: grid,
  /// block sizes, compute type and offset convention (the formulas may
  /// differ, `reciprocal` included).
  bool sameEncodingAs(const QuantizerSpec &other) const {
    return range == other.range && blockSize == other.blockSize &&
           computeType == other.computeType &&
           formula.floatZeroPoint == other.formula.floatZeroPoint;
  }
};

//===----------------------------------------------------------------------===//
// Layout of a scale tensor over an input
//===----------------------------------------------------------------------===//

/// Checks that a scale of shape `scaleShape` can encode an input of shape
/// `inputShape`, with `blockSize` when given (see the op docs). Dynamic
/// sizes (ShapedType::kDynamic) are accepted wherever a static check is not
/// possible. Returns std::nullopt when the shapes fit, otherwise a sentence
/// naming the rule that is broken.
std::optional<std::string>
checkEncodingShapes(llvm::ArrayRef<int64_t> inputShape,
                    llvm::ArrayRef<int64_t> scaleShape,
                    std::optional<llvm::ArrayRef<int64_t>> blockSize);

/// Block size per scale dim (length rank(scale)): how many consecutive input
/// elements along the matching trailing input dim share one scale. Without
/// `blockSize`, a broadcast dim (scale size 1) is one block spanning the input
/// dim and a full dim is blocks of 1. Wildcards (-1) are resolved to
/// X_d / S_d. A size that depends on a dynamic dim is ShapedType::kDynamic.
/// Requires checkEncodingShapes to have succeeded.
llvm::SmallVector<int64_t>
resolveBlockSizes(llvm::ArrayRef<int64_t> inputShape,
                  llvm::ArrayRef<int64_t> scaleShape,
                  std::optional<llvm::ArrayRef<int64_t>> blockSize);

/// The number of elements of `shape` counting its static dims only (a
/// dynamic dim counts as 1; a static 0 makes it 0), or std::nullopt when that
/// product overflows int64.
std::optional<int64_t> staticElementCount(llvm::ArrayRef<int64_t> shape);

/// Checks that a shape's static dims hold at most INT64_MAX elements of
/// `elementType` and at most INT64_MAX bytes (each element counted in whole
/// bytes, at least one). Returns std::nullopt when they do, otherwise a
/// sentence saying what overflows.
std::optional<std::string> checkShapeSize(llvm::ArrayRef<int64_t> shape,
                                          Type elementType);

/// The scale index used by input element `inputIndex`, given the resolved
/// (static) block sizes: i_d = floor(j_d / B_d) over the trailing dims.
llvm::SmallVector<int64_t>
scaleIndexOf(llvm::ArrayRef<int64_t> inputIndex,
             llvm::ArrayRef<int64_t> resolvedBlockSizes);

//===----------------------------------------------------------------------===//
// Compute type
//===----------------------------------------------------------------------===//

/// Whether the integer `value` is exactly representable in `type`.
bool isExactlyRepresentable(FloatType type, int64_t value);

/// With an integer result, an explicit compute type must hold qmin and qmax
/// exactly: the clamp then keeps every value inside the grid, so the
/// conversion to the integer never overflows (DESIGN section 3). Returns
/// std::nullopt when `computeType` holds both ends of `range`, otherwise a
/// sentence naming the end that it cannot represent and what that end
/// rounds to.
std::optional<std::string> checkComputeTypeHoldsGrid(FloatType computeType,
                                                     QuantRange range);

/// Whether `type` can compute on the grid `range` without promotion (AIMET's
/// `_is_numerically_stable`, threshold 0.25): qmin, qmin+1, qmax-1 and qmax are
/// exactly representable and eps(type) <= 0.25 / (qmax - qmin).
bool isNumericallyStable(FloatType type, QuantRange range);

/// The compute type C of an op: `explicitType` when set. Otherwise, for
/// quantize and qdq, `floatType` (the input type) promoted to f32 then f64
/// while not numerically stable; for dequantize, `floatType` (the result).
FloatType getEffectiveComputeType(QuantizerKind kind, FloatType floatType,
                                  QuantRange range,
                                  FloatType explicitType = {});

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_ENCODING_H
