//===- QuantEncoding.cpp - !quant.uniform types as affine encodings -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantInterop/QuantEncoding.h"

#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// `value` as the IR prints it.
template <typename T> std::string printed(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

/// `value` rounded to `type`, to nearest with ties to even.
APFloat roundTo(APFloat value, FloatType type) {
  bool losesInfo = false;
  value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value;
}

std::string str(const APFloat &value) {
  SmallString<32> text;
  value.toString(text);
  return std::string(text);
}

/// The first of the expressed type, f32 and f64 (never narrower than the
/// expressed type) that holds every offset -zero_point exactly.
FloatType exactOffsetType(ArrayRef<int64_t> zeroPoints, FloatType expressed) {
  MLIRContext *ctx = expressed.getContext();
  for (FloatType candidate : {expressed, cast<FloatType>(Float32Type::get(ctx)),
                              cast<FloatType>(Float64Type::get(ctx))}) {
    if (candidate.getWidth() < expressed.getWidth())
      continue;
    if (llvm::all_of(zeroPoints, [&](int64_t zeroPoint) {
          return zeroPoint != INT64_MIN &&
                 isExactlyRepresentable(candidate, -zeroPoint);
        }))
      return candidate;
  }
  return {};
}

/// A constant of `values` shaped `shape` (a scalar FloatAttr when `shaped` is
/// false), converted exactly or to nearest even into `type`.
TypedAttr makeConstant(ArrayRef<APFloat> values, ArrayRef<int64_t> shape,
                       bool shaped, FloatType type) {
  SmallVector<APFloat> converted;
  for (const APFloat &value : values)
    converted.push_back(roundTo(value, type));
  if (!shaped)
    return FloatAttr::get(type, converted.front());
  return DenseElementsAttr::get(RankedTensorType::get(shape, type), converted);
}

/// Reads zero points stored as integers of the storage type.
SmallVector<int64_t> readZeroPoints(DenseElementsAttr attr, bool isSigned) {
  SmallVector<int64_t> zeroPoints;
  for (const APInt &value : attr.getValues<APInt>())
    zeroPoints.push_back(isSigned ? value.getSExtValue()
                                  : int64_t(value.getZExtValue()));
  return zeroPoints;
}

} // namespace

FailureOr<AffineEncoding>
mlir::quant_affine::getAffineEncoding(quant::QuantizedType type, Type valueType,
                                      std::string &whyNot) {
  auto fail = [&](const Twine &message) -> FailureOr<AffineEncoding> {
    whyNot = message.str();
    return failure();
  };
  if (isa<quant::AnyQuantizedType>(type))
    return fail("!quant.any has no scale or zero point to quantize with");
  if (isa<quant::CalibratedQuantizedType>(type))
    return fail("!quant.calibrated holds a calibration range, not a scale "
                "and zero point: choose them (a !quant.uniform type) first");
  auto expressed = dyn_cast_or_null<FloatType>(type.getExpressedType());
  if (!expressed)
    return fail("the expressed type must be a float type");
  if (isa<ShapedType>(valueType) && !isa<RankedTensorType>(valueType))
    return fail("quant_affine ops take scalars and ranked tensors, not " +
                printed(valueType));
  auto ranked = dyn_cast<RankedTensorType>(valueType);

  SmallVector<APFloat> scales;
  SmallVector<int64_t> zeroPoints, scaleShape;
  AffineEncoding encoding;
  if (auto uniform = dyn_cast<quant::UniformQuantizedType>(type)) {
    scales.push_back(APFloat(uniform.getScale()));
    zeroPoints.push_back(uniform.getZeroPoint());
  } else if (auto perAxis =
                 dyn_cast<quant::UniformQuantizedPerAxisType>(type)) {
    int64_t dim = perAxis.getQuantizedDimension();
    if (!ranked || dim < 0 || dim >= ranked.getRank())
      return fail("per-axis dimension " + Twine(dim) + " is not a dim of " +
                  printed(valueType));
    for (double scale : perAxis.getScales())
      scales.push_back(APFloat(scale));
    llvm::append_range(zeroPoints, perAxis.getZeroPoints());
    // (C, 1, ..., 1) over the trailing dims from `dim`: broadcast along the
    // others, one scale per slice of `dim`.
    scaleShape.push_back(scales.size());
    scaleShape.append(ranked.getRank() - dim - 1, 1);
  } else if (auto sub = dyn_cast<quant::UniformQuantizedSubChannelType>(type)) {
    DenseElementsAttr subScales = sub.getScales();
    llvm::append_range(scaleShape, subScales.getType().getShape());
    if (!ranked || int64_t(scaleShape.size()) != ranked.getRank())
      return fail("sub-channel scales of rank " + Twine(scaleShape.size()) +
                  " do not match " + printed(valueType));
    llvm::append_range(scales, subScales.getValues<APFloat>());
    zeroPoints = readZeroPoints(sub.getZeroPoints(), type.isSigned());
    // Dims the type does not list are one block: -1 is X_d / 1.
    SmallVector<int64_t> blockSize(ranked.getRank(), -1);
    for (auto [dim, size] :
         llvm::zip(sub.getQuantizedDimensions(), sub.getBlockSizes()))
      blockSize[dim] = size;
    encoding.blockSize = blockSize;
  } else {
    return fail("unsupported quantized type " + printed(type));
  }

  for (const APFloat &scale : scales) {
    APFloat rounded = roundTo(scale, expressed);
    if (!scale.isZero() && rounded.isZero())
      return fail("scale " + str(scale) + " rounds to 0 in " +
                  printed(expressed));
    if (scale.isFinite() && rounded.isInfinity())
      return fail("scale " + str(scale) + " overflows " + printed(expressed));
  }
  encoding.range =
      QuantRange(type.getStorageTypeMin(), type.getStorageTypeMax());
  encoding.storageType =
      IntegerType::get(type.getContext(), type.getStorageTypeIntegralWidth());
  encoding.expressedType = expressed;
  encoding.scale =
      makeConstant(scales, scaleShape, ranked != nullptr, expressed);

  if (llvm::any_of(zeroPoints, [](int64_t zp) { return zp != 0; })) {
    FloatType offsetType = exactOffsetType(zeroPoints, expressed);
    if (!offsetType)
      return fail("a zero point has no exact float value (|zero point| > "
                  "2^53)");
    SmallVector<APFloat> offsets;
    for (int64_t zeroPoint : zeroPoints)
      offsets.push_back(APFloat(double(-zeroPoint)));
    encoding.offset =
        makeConstant(offsets, scaleShape, ranked != nullptr, offsetType);
  }
  return encoding;
}

//===----------------------------------------------------------------------===//
// quant_affine encoding -> !quant type
//===----------------------------------------------------------------------===//

namespace {

/// The values of a constant scale or offset operand.
SmallVector<APFloat> readFloats(Attribute attr) {
  if (auto scalar = dyn_cast<FloatAttr>(attr))
    return {scalar.getValue()};
  return llvm::to_vector(cast<DenseElementsAttr>(attr).getValues<APFloat>());
}

/// Builds a quant type with its own verifier, keeping its message.
template <typename QuantTypeT, typename... Args>
FailureOr<quant::QuantizedType>
getChecked(MLIRContext *ctx, std::string &whyNot, Args &&...args) {
  std::string message;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  QuantTypeT type =
      QuantTypeT::getChecked([&] { return emitError(UnknownLoc::get(ctx)); },
                             std::forward<Args>(args)...);
  if (!type) {
    whyNot = "the quant dialect rejects the type: " + message;
    return failure();
  }
  return quant::QuantizedType(type);
}

} // namespace

FailureOr<quant::QuantizedType> mlir::quant_affine::getQuantType(
    Type valueType, IntegerType storageType, QuantRange range,
    std::optional<ArrayRef<int64_t>> blockSize, Attribute scaleAttr,
    Attribute offsetAttr, FloatType computeType, std::string &whyNot) {
  auto fail = [&](const Twine &message) -> FailureOr<quant::QuantizedType> {
    whyNot = message.str();
    return failure();
  };
  MLIRContext *ctx = valueType.getContext();
  auto expressed = cast<FloatType>(getElementTypeOrSelf(valueType));

  // Scales: the quant type holds them in the expressed type; both ops
  // convert their scale to C as the generated code does (convertAsGenerated:
  // through f32 from f64 to f16, for one). Exact when both reach the same
  // value in C.
  auto isIEEEOrBF16 = [](Type type) {
    return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
  };
  if (!isIEEEOrBF16(expressed) ||
      !isIEEEOrBF16(getElementTypeOrSelf(cast<TypedAttr>(scaleAttr).getType())))
    return fail("quant types express f16, bf16, f32 or f64 with scales of "
                "those types");
  SmallVector<APFloat> scales = readFloats(scaleAttr);
  SmallVector<double> scaleValues;
  for (const APFloat &scale : scales) {
    APFloat inExpressed = roundTo(scale, expressed);
    if (!convertAsGenerated(scale, computeType)
             .bitwiseIsEqual(convertAsGenerated(inExpressed, computeType)))
      return fail("scale " + str(scale) +
                  " is not exact in the expressed type " + printed(expressed) +
                  " and the op computes in " + printed(computeType));
    scaleValues.push_back(
        roundTo(inExpressed, Float64Type::get(ctx)).convertToDouble());
  }
  // Offsets: integers whose negation is an int64 zero point.
  SmallVector<int64_t> zeroPoints(scales.size(), 0);
  if (offsetAttr) {
    SmallVector<APFloat> offsets = readFloats(offsetAttr);
    for (auto [offset, zeroPoint] : llvm::zip(offsets, zeroPoints)) {
      APSInt integer(64, /*isUnsigned=*/false);
      bool isExact = false;
      if (offset.convertToInteger(integer, APFloat::rmTowardZero, &isExact) !=
              APFloat::opOK ||
          !isExact || integer.isMinSignedValue())
        return fail("offset " + str(offset) +
                    " is not an integer zero point (quant zero points are "
                    "int64)");
      zeroPoint = -integer.getSExtValue();
    }
  }

  // Layout: the scale's dims over the trailing input dims, made full rank
  // (leading dims are one block).
  auto shaped = dyn_cast<RankedTensorType>(valueType);
  ArrayRef<int64_t> inputShape =
      shaped ? shaped.getShape() : ArrayRef<int64_t>();
  ArrayRef<int64_t> scaleShape;
  if (auto dense = dyn_cast<DenseElementsAttr>(scaleAttr))
    scaleShape = dense.getType().getShape();
  SmallVector<int64_t> blocks =
      resolveBlockSizes(inputShape, scaleShape, blockSize);
  int64_t rank = inputShape.size(), lead = rank - scaleShape.size();
  SmallVector<int64_t> fullScaleShape(lead, 1), fullBlocks(lead, 0);
  llvm::append_range(fullScaleShape, scaleShape);
  llvm::append_range(fullBlocks, blocks);
  SmallVector<int32_t> varyingDims;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (fullScaleShape[dim] == 0)
      return fail("the scale is empty");
    if (fullScaleShape[dim] != 1)
      varyingDims.push_back(dim);
  }

  unsigned flags = range.isSigned() ? quant::QuantizationFlags::Signed : 0;
  if (varyingDims.empty())
    return getChecked<quant::UniformQuantizedType>(
        ctx, whyNot, flags, storageType, expressed, scaleValues.front(),
        zeroPoints.front(), range.qmin, range.qmax);
  if (varyingDims.size() == 1 && fullBlocks[varyingDims.front()] == 1)
    return getChecked<quant::UniformQuantizedPerAxisType>(
        ctx, whyNot, flags, storageType, expressed, scaleValues, zeroPoints,
        varyingDims.front(), range.qmin, range.qmax);

  // Sub-channel: one block size per varying dim, zero points in the storage
  // type.
  SmallVector<int64_t> blockSizes;
  for (int32_t dim : varyingDims) {
    if (ShapedType::isDynamic(fullBlocks[dim]))
      return fail("the block size along dim " + Twine(dim) +
                  " depends on a dynamic size; quant sub-channel types need "
                  "it static");
    blockSizes.push_back(fullBlocks[dim]);
  }
  unsigned width = storageType.getWidth();
  SmallVector<APInt> storedZeroPoints;
  for (int64_t zeroPoint : zeroPoints) {
    bool fits = range.isSigned() ? llvm::isIntN(width, zeroPoint)
                                 : llvm::isUIntN(width, zeroPoint);
    if (!fits)
      return fail("zero point " + Twine(zeroPoint) + " does not fit the " +
                  Twine(width) +
                  "-bit storage, where sub-channel types keep "
                  "their zero points");
    storedZeroPoints.push_back(APInt(width, zeroPoint, range.isSigned()));
  }
  SmallVector<APFloat> roundedScales;
  for (const APFloat &scale : scales)
    roundedScales.push_back(roundTo(scale, expressed));
  auto scalesAttr = DenseElementsAttr::get(
      RankedTensorType::get(fullScaleShape, expressed), roundedScales);
  auto zeroPointsAttr = DenseElementsAttr::get(
      RankedTensorType::get(fullScaleShape, storageType), storedZeroPoints);
  return getChecked<quant::UniformQuantizedSubChannelType>(
      ctx, whyNot, flags, storageType, expressed, scalesAttr, zeroPointsAttr,
      varyingDims, blockSizes, range.qmin, range.qmax);
}
