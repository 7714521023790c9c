//===- Encoding.cpp - Affine encoding rules, in one place -----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/ShapeRules.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::quant_affine;

//===----------------------------------------------------------------------===//
// QuantRange
//===----------------------------------------------------------------------===//

FailureOr<QuantRange> QuantRange::fromBitwidth(unsigned bitwidth,
                                               bool isSigned) {
  if (bitwidth < kMinBitwidth || bitwidth > kMaxBitwidth)
    return failure();
  return fromNumSteps((uint64_t{1} << bitwidth) - 1, isSigned);
}

FailureOr<QuantRange> QuantRange::fromNumSteps(uint64_t numSteps,
                                               bool isSigned) {
  if (numSteps > kMaxNumSteps)
    return failure();
  auto n = static_cast<int64_t>(numSteps);
  if (isSigned)
    return QuantRange(-(n / 2 + n % 2), n / 2); // [-ceil(n/2), floor(n/2)]
  return QuantRange(0, n);
}

QuantRange QuantRange::ofInteger(unsigned width, bool isSigned) {
  assert(width >= 1 && width <= 63 && "width out of [1, 63]");
  if (isSigned)
    return {-(int64_t{1} << (width - 1)), (int64_t{1} << (width - 1)) - 1};
  return {0, static_cast<int64_t>((uint64_t{1} << width) - 1)};
}

bool QuantRange::fitsInteger(unsigned width) const {
  if (width == 0)
    return qmin == 0 && qmax == 0; // i0 holds only 0.
  if (width >= 64)
    return true; // Every int64 grid fits; unsigned grids have qmin >= 0.
  QuantRange full = ofInteger(width, isSigned());
  return qmin >= full.qmin && qmax <= full.qmax;
}

//===----------------------------------------------------------------------===//
// Layout of a scale tensor over an input
//===----------------------------------------------------------------------===//

static bool isDynamic(int64_t size) { return ShapedType::isDynamic(size); }

static std::string str(int64_t v) { return std::to_string(v); }

std::optional<std::string> mlir::quant_affine::checkEncodingShapes(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> scaleShape,
    std::optional<ArrayRef<int64_t>> blockSize) {
  int64_t n = inputShape.size(), k = scaleShape.size();
  if (k > n)
    return "scale has rank " + str(k) + " but the input only rank " + str(n) +
           "; an encoding covers the trailing input dims";

  if (blockSize) {
    ArrayRef<int64_t> blocks = *blockSize;
    if (static_cast<int64_t>(blocks.size()) != k)
      return "block_size has " + str(blocks.size()) +
             (blocks.size() == 1 ? " entry" : " entries") +
             " but scale has rank " + str(k) +
             "; it needs one entry per scale dim";
    for (int64_t d = 0; d < k; ++d) {
      int64_t b = blocks[d], s = scaleShape[d];
      std::string where = "block_size[" + str(d) + "] = " + str(b);
      if (b == 0 || b < -1)
        return where + " is invalid; block sizes are positive or -1 (wildcard)";
      if (b != -1 && !isDynamic(s) && !llvm::checkedMul(b, s))
        return where + " times scale dim " + str(d) + " of size " + str(s) +
               " overflows int64, so it matches no input dim";
    }
  }
  // How each scale dim fits its input dim (ShapeRules.h).
  return findBrokenShapeRule(inputShape, scaleShape, /*o=*/{}, blockSize);
}

std::optional<int64_t>
mlir::quant_affine::staticElementCount(ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t d : shape) {
    if (isDynamic(d))
      continue;
    std::optional<int64_t> product = llvm::checkedMul(count, d);
    if (!product)
      return std::nullopt;
    count = *product;
  }
  return count;
}

std::optional<std::string>
mlir::quant_affine::checkShapeSize(ArrayRef<int64_t> shape, Type elementType) {
  std::optional<int64_t> count = staticElementCount(shape);
  bool isStatic = llvm::none_of(shape, isDynamic);
  if (!count)
    return std::string(isStatic ? "its" : "its static dims'") +
           " element count overflows int64 (at most " + str(INT64_MAX) +
           " elements)";
  int64_t bytesPerElement = 1;
  if (elementType.isIntOrFloat())
    bytesPerElement = std::max<int64_t>(
        1, llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8));
  if (!llvm::checkedMul(*count, bytesPerElement))
    return std::string(isStatic ? "its" : "its static dims'") + " " +
           str(*count) + " elements of " + str(bytesPerElement) +
           (bytesPerElement == 1 ? " byte" : " bytes") +
           " overflow int64 in bytes (at most " + str(INT64_MAX) + " bytes)";
  return std::nullopt;
}

SmallVector<int64_t> mlir::quant_affine::resolveBlockSizes(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> scaleShape,
    std::optional<ArrayRef<int64_t>> blockSize) {
  int64_t n = inputShape.size(), k = scaleShape.size();
  SmallVector<int64_t> result;
  result.reserve(k);
  for (int64_t d = 0; d < k; ++d) {
    int64_t s = scaleShape[d], x = inputShape[n - k + d];
    if (blockSize && (*blockSize)[d] != -1) {
      result.push_back((*blockSize)[d]);
      continue;
    }
    if (!blockSize && s == 1) {
      result.push_back(x); // One block spans the dim (dynamic if x is).
      continue;
    }
    if (!blockSize && !isDynamic(s)) {
      result.push_back(1); // s == x: one scale per element.
      continue;
    }
    // Wildcard, or a broadcast dim whose scale size is only known at run
    // time: X / S.
    if (isDynamic(s) || isDynamic(x) || s == 0)
      result.push_back(ShapedType::kDynamic);
    else
      result.push_back(x / s);
  }
  return result;
}

SmallVector<int64_t>
mlir::quant_affine::scaleIndexOf(ArrayRef<int64_t> inputIndex,
                                 ArrayRef<int64_t> resolvedBlockSizes) {
  size_t n = inputIndex.size(), k = resolvedBlockSizes.size();
  assert(k <= n && "scale rank above input rank");
  SmallVector<int64_t> index;
  index.reserve(k);
  for (size_t d = 0; d < k; ++d) {
    int64_t b = resolvedBlockSizes[d];
    assert(b >= 0 && "block size must be resolved");
    index.push_back(b == 0 ? 0 : inputIndex[n - k + d] / b);
  }
  return index;
}

//===----------------------------------------------------------------------===//
// Compute type
//===----------------------------------------------------------------------===//

/// Whether the integer `v` (given in 65 bits, so qmin - 1 .. qmax + 1 never
/// overflow) is exactly representable in `type`.
static bool isExactInType(FloatType type, const llvm::APInt &v) {
  llvm::APFloat f(type.getFloatSemantics());
  return f.convertFromAPInt(v, /*IsSigned=*/true,
                            llvm::APFloat::rmNearestTiesToEven) ==
         llvm::APFloat::opOK;
}

bool mlir::quant_affine::isExactlyRepresentable(FloatType type, int64_t value) {
  return isExactInType(
      type, llvm::APInt(65, static_cast<uint64_t>(value), /*isSigned=*/true));
}

std::optional<std::string>
mlir::quant_affine::checkComputeTypeHoldsGrid(FloatType computeType,
                                              QuantRange range) {
  for (auto [name, v] : {std::pair<const char *, int64_t>{"qmin", range.qmin},
                         {"qmax", range.qmax}}) {
    if (isExactlyRepresentable(computeType, v))
      continue;
    llvm::APFloat rounded(computeType.getFloatSemantics());
    (void)rounded.convertFromAPInt(
        llvm::APInt(64, static_cast<uint64_t>(v), /*isSigned=*/true),
        /*IsSigned=*/true, llvm::APFloat::rmNearestTiesToEven);
    // Rounding an integer gives an integer or an infinity.
    SmallString<32> text;
    if (rounded.isInfinity()) {
      text = rounded.isNegative() ? "-inf" : "inf";
    } else {
      llvm::APSInt asInt(128, /*isUnsigned=*/false);
      bool isExact;
      (void)rounded.convertToInteger(asInt, llvm::APFloat::rmTowardZero,
                                     &isExact);
      asInt.toString(text);
    }
    return std::string(name) + " = " + str(v) +
           " is not exactly representable in it (it rounds to " +
           std::string(text) + ")";
  }
  return std::nullopt;
}

bool mlir::quant_affine::isNumericallyStable(FloatType type, QuantRange range) {
  llvm::APInt lo(65, static_cast<uint64_t>(range.qmin), /*isSigned=*/true);
  llvm::APInt hi(65, static_cast<uint64_t>(range.qmax), /*isSigned=*/true);
  llvm::APInt one(65, 1);
  for (const llvm::APInt &v : {hi, hi - one, lo + one, lo})
    if (!isExactInType(type, v))
      return false;
  if (range.qmin >= range.qmax)
    return true;
  // eps(C) = 2^(1 - p) > 0.25 / n  <=>  n > 2^(p - 3), computed exactly.
  unsigned precision =
      llvm::APFloat::semanticsPrecision(type.getFloatSemantics());
  assert(precision >= 3 && precision - 3 < 64 && "unexpected float type");
  return range.numSteps() <= (uint64_t{1} << (precision - 3));
}

FloatType mlir::quant_affine::getEffectiveComputeType(QuantizerKind kind,
                                                      FloatType floatType,
                                                      QuantRange range,
                                                      FloatType explicitType) {
  if (explicitType)
    return explicitType;
  if (kind == QuantizerKind::Dequantize ||
      isNumericallyStable(floatType, range))
    return floatType;
  MLIRContext *ctx = floatType.getContext();
  FloatType f32 = Float32Type::get(ctx);
  if (isNumericallyStable(f32, range))
    return f32;
  return Float64Type::get(ctx);
}
