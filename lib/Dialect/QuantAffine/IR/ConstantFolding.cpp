//===- ConstantFolding.cpp - Evaluate quant_affine ops on constants -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Instantiates the formula of Utils/Formula.h with APFloat arithmetic, or,
// where the compute type is f32 or f64 and no f16/bf16 is involved, with
// hardware doubles (about 20 times faster on large weights). Every step
// rounds as the generated code does (IEEE, ties to even), so folding never
// changes a bit. Scales are looked up per element with the encoding library's
// block rules.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/CalibrationFormula.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// A scalar in flight: a float, or an integer (a compare result, or storage).
struct Scalar {
  llvm::APFloat f = llvm::APFloat(0.0);
  llvm::APInt i;
};

/// The formula's arithmetic in APFloat, rounding to nearest, ties to even.
struct APFloatArith {
  using Value = Scalar;
  FloatType compute;
  static constexpr auto kRNE = llvm::APFloat::rmNearestTiesToEven;

  APFloatArith withCompute(FloatType type) const { return {type}; }

  Value constant(int64_t v) const {
    Scalar r;
    r.f = llvm::APFloat(compute.getFloatSemantics());
    (void)r.f.convertFromAPInt(llvm::APInt(64, v, /*isSigned=*/true),
                               /*IsSigned=*/true, kRNE);
    return r;
  }
  Value div(Value a, const Value &b) const {
    (void)a.f.divide(b.f, kRNE);
    return a;
  }
  Value sub(Value a, const Value &b) const {
    (void)a.f.subtract(b.f, kRNE);
    return a;
  }
  Value add(Value a, const Value &b) const {
    (void)a.f.add(b.f, kRNE);
    return a;
  }
  Value mul(Value a, const Value &b) const {
    (void)a.f.multiply(b.f, kRNE);
    return a;
  }
  Value roundEven(Value a) const {
    (void)a.f.roundToIntegral(kRNE);
    return a;
  }
  Value less(const Value &a, const Value &b) const {
    Scalar r;
    r.i = llvm::APInt(1, a.f.compare(b.f) == llvm::APFloat::cmpLessThan);
    return r;
  }
  Value select(const Value &p, const Value &a, const Value &b) const {
    return p.i.getBoolValue() ? a : b;
  }
  Value maximum(const Value &a, const Value &b) const {
    Scalar r;
    r.f = llvm::maximum(a.f, b.f);
    return r;
  }
  Value constantFloat(double v) const {
    Scalar r;
    r.f = convertAsGenerated(llvm::APFloat(v), compute);
    return r;
  }
  Value toFloat(Value v, FloatType to) const {
    v.f = convertAsGenerated(v.f, to);
    return v;
  }
  Value intToFloat(const Value &v, FloatType to, bool isSigned) const {
    Scalar r;
    r.f = llvm::APFloat(to.getFloatSemantics());
    (void)r.f.convertFromAPInt(v.i, isSigned, kRNE);
    return r;
  }
  // Bit-level steps of Utils/FloatFormula.h, in C's width.
  Value bitsOf(const Value &v) const {
    Scalar r;
    r.i = v.f.bitcastToAPInt();
    return r;
  }
  Value fromBits(const Value &v) const {
    Scalar r;
    r.f = llvm::APFloat(compute.getFloatSemantics(), v.i);
    return r;
  }
  Value intConstant(int64_t v) const {
    Scalar r;
    r.i = llvm::APInt(FloatType(compute).getWidth(), static_cast<uint64_t>(v),
                      /*isSigned=*/true, /*implicitTrunc=*/true);
    return r;
  }
  Value andI(Value a, const Value &b) const {
    a.i &= b.i;
    return a;
  }
  Value subI(Value a, const Value &b) const {
    a.i -= b.i;
    return a;
  }
  Value addI(Value a, const Value &b) const {
    a.i += b.i;
    return a;
  }
  Value orI(Value a, const Value &b) const {
    a.i |= b.i;
    return a;
  }
  Value maxSI(const Value &a, const Value &b) const {
    return a.i.sgt(b.i) ? a : b;
  }
  Value minSI(const Value &a, const Value &b) const {
    return a.i.slt(b.i) ? a : b;
  }
  // Further bit-level steps of Utils/BlockScaleFormula.h.
  Value shrUI(Value a, const Value &b) const {
    a.i = a.i.lshr(b.i);
    return a;
  }
  Value shlI(Value a, const Value &b) const {
    a.i = a.i.shl(b.i);
    return a;
  }
  Value countLeadingZeros(Value a) const {
    a.i = llvm::APInt(a.i.getBitWidth(), a.i.countl_zero());
    return a;
  }
  Value cmpI(arith::CmpIPredicate p, const Value &a, const Value &b) const {
    Scalar r;
    r.i = llvm::APInt(1, arith::applyCmpPredicate(p, a.i, b.i));
    return r;
  }
  Value extUI(Value flag) const {
    flag.i = flag.i.zext(FloatType(compute).getWidth());
    return flag;
  }
  Value narrowFromBits(const Value &code, FloatType to) const {
    Scalar r;
    r.f = llvm::APFloat(to.getFloatSemantics(), code.i.trunc(to.getWidth()));
    return r;
  }
  Value negate(Value a) const {
    a.f.changeSign();
    return a;
  }
  Value minimum(const Value &a, const Value &b) const {
    Scalar r;
    r.f = llvm::minimum(a.f, b.f);
    return r;
  }
  /// log2 and exp2 in f64 (the maxval factor), as the C library computes
  /// them, which is what the CPU code calls. Only maxvalFactor calls them,
  /// with f64 values, so convertToDouble is exact.
  Value log2(const Value &a) const {
    Scalar r;
    r.f = llvm::APFloat(std::log2(a.f.convertToDouble()));
    return r;
  }
  Value exp2(const Value &a) const {
    Scalar r;
    r.f = llvm::APFloat(std::exp2(a.f.convertToDouble()));
    return r;
  }
  Value floatToInt(const Value &v, IntegerType to, bool isSigned) const {
    llvm::APSInt result(to.getWidth(), /*isUnsigned=*/!isSigned);
    bool isExact;
    if (v.f.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact) &
        llvm::APFloat::opInvalidOp)
      result = llvm::APSInt(to.getWidth(), !isSigned); // poison: any value
    Scalar r;
    r.i = result;
    return r;
  }
};

/// The formula's arithmetic in hardware doubles, for compute types f32 and f64
/// with f32/f64/integer operands only. Every result is rounded to the compute
/// type; an f32 operation computed in double and rounded once equals the f32
/// operation (53 >= 2 * 24 + 2 bits, so the double rounding is innocuous).
/// Requires the default rounding mode, which the build never changes.
struct NativeScalar {
  double f = 0;
  int64_t i = 0;
};

struct NativeArith {
  using Value = NativeScalar;
  FloatType compute;
  bool isF32 = false;

  NativeArith withCompute(FloatType type) const { return {type, type.isF32()}; }

  double round(double v) const {
    return isF32 ? static_cast<double>(static_cast<float>(v)) : v;
  }
  Value make(double v) const { return {round(v), 0}; }
  Value constant(int64_t v) const { return make(static_cast<double>(v)); }
  Value div(const Value &a, const Value &b) const { return make(a.f / b.f); }
  Value sub(const Value &a, const Value &b) const { return make(a.f - b.f); }
  Value add(const Value &a, const Value &b) const { return make(a.f + b.f); }
  Value mul(const Value &a, const Value &b) const { return make(a.f * b.f); }
  Value roundEven(const Value &a) const { return {std::nearbyint(a.f), 0}; }
  Value less(const Value &a, const Value &b) const { return {0, a.f < b.f}; }
  Value select(const Value &p, const Value &a, const Value &b) const {
    return p.i ? a : b;
  }
  Value maximum(const Value &a, const Value &b) const {
    if (std::isnan(a.f) || std::isnan(b.f))
      return {std::numeric_limits<double>::quiet_NaN(), 0};
    if (a.f == b.f)
      return std::signbit(a.f) ? b : a;
    return a.f < b.f ? b : a;
  }
  Value constantFloat(double v) const { return make(v); }
  Value toFloat(const Value &v, FloatType to) const {
    return {to.isF32() ? static_cast<double>(static_cast<float>(v.f)) : v.f, 0};
  }
  Value intToFloat(const Value &v, FloatType to, bool) const {
    return toFloat({static_cast<double>(v.i), 0}, to);
  }
  Value floatToInt(const Value &v, IntegerType, bool) const {
    if (std::isnan(v.f))
      return {0, 0}; // poison: any value
    return {0, static_cast<int64_t>(std::trunc(v.f))};
  }
};

/// Whether NativeArith is exact for an op: compute type f32 or f64, every
/// float operand and the result f32 or f64, integers at most 32 bits.
/// Each encoding's minimum and maximum of the constant `dense` (NaN
/// propagates, -0 < +0), in double: it holds every f16, bf16, f32 and f64
/// value exactly, so the extremes are the input's own values. Element j's
/// encoding is sum_d floor(j_d / B_d) * stride_d over the trailing dims,
/// kept without allocating per element (large weights fold in well under a
/// second).
void encodingExtremes(DenseElementsAttr dense, ArrayRef<int64_t> scaleShape,
                      std::optional<ArrayRef<int64_t>> blockSize,
                      SmallVectorImpl<double> &mins,
                      SmallVectorImpl<double> &maxs) {
  auto inputType = cast<RankedTensorType>(dense.getType());
  ArrayRef<int64_t> shape = inputType.getShape();
  auto elementType = cast<FloatType>(inputType.getElementType());
  const double inf = std::numeric_limits<double>::infinity();
  int64_t encodings = computeProduct(scaleShape);
  mins.assign(encodings, inf);
  maxs.assign(encodings, -inf);
  SmallVector<int64_t> blocks = resolveBlockSizes(shape, scaleShape, blockSize);
  SmallVector<int64_t> scaleStrides = computeStrides(scaleShape);
  int64_t rank = shape.size(), k = scaleShape.size();
  auto update = [](double &low, double &high, double v) {
    if (std::isnan(v) || std::isnan(low)) {
      low = high = std::numeric_limits<double>::quiet_NaN();
      return;
    }
    if (v < low || (v == low && std::signbit(v)))
      low = v;
    if (v > high || (v == high && !std::signbit(v)))
      high = v;
  };
  auto reduce = [&](auto values) {
    SmallVector<int64_t> index(rank, 0);
    int64_t count = inputType.getNumElements();
    for (int64_t j = 0; j < count; ++j) {
      int64_t e = 0;
      for (int64_t d = 0; d < k; ++d)
        e += index[rank - k + d] / blocks[d] * scaleStrides[d];
      update(mins[e], maxs[e], values(j));
      for (int64_t d = rank - 1; d >= 0 && ++index[d] == shape[d]; --d)
        index[d] = 0;
    }
  };
  bool splat = dense.isSplat();
  if (elementType.isF32()) {
    auto values = dense.getValues<float>();
    reduce([&](int64_t j) { return double(values[splat ? 0 : j]); });
  } else if (elementType.isF64()) {
    auto values = dense.getValues<double>();
    reduce([&](int64_t j) { return values[splat ? 0 : j]; });
  } else {
    // f16 and bf16: widened to double, exactly.
    auto values = dense.getValues<llvm::APFloat>();
    reduce([&](int64_t j) {
      bool losesInfo;
      llvm::APFloat v = values[splat ? 0 : j];
      (void)v.convert(llvm::APFloat::IEEEdouble(),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      return v.convertToDouble();
    });
  }
}

bool nativeIsExact(FloatType compute, ArrayRef<Type> elems) {
  if (!compute.isF32() && !compute.isF64())
    return false;
  return llvm::all_of(elems, [](Type t) {
    return !t || t.isF32() || t.isF64() || isa<IntegerType>(t);
  });
}

/// Reads element `index` of a constant operand as a Scalar.
Scalar readElement(Attribute attr, int64_t index) {
  Scalar s;
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    s.f = f.getValue();
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    s.i = i.getValue();
  } else {
    auto dense = cast<DenseElementsAttr>(attr);
    if (isa<FloatType>(dense.getElementType()))
      s.f = dense.getValues<llvm::APFloat>()[index];
    else
      s.i = dense.getValues<llvm::APInt>()[index];
  }
  return s;
}

/// Reads element `index` of a constant operand as a NativeScalar.
NativeScalar readNative(Attribute attr, int64_t index, bool isSigned) {
  auto fromInt = [&](const llvm::APInt &v) {
    return NativeScalar{0, isSigned ? v.getSExtValue()
                                    : static_cast<int64_t>(v.getZExtValue())};
  };
  if (auto f = dyn_cast<FloatAttr>(attr))
    return {f.getValueAsDouble(), 0};
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return fromInt(i.getValue());
  auto dense = cast<DenseElementsAttr>(attr);
  Type elem = dense.getElementType();
  if (elem.isF32())
    return {static_cast<double>(dense.getValues<float>()[index]), 0};
  if (elem.isF64())
    return {dense.getValues<double>()[index], 0};
  return fromInt(dense.getValues<llvm::APInt>()[index]);
}

bool isConstantOperand(Attribute attr) {
  return isa_and_nonnull<FloatAttr, IntegerAttr, DenseElementsAttr>(attr);
}

bool isSplatOperand(Attribute attr) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  return dense && dense.isSplat();
}

} // namespace

Attribute
mlir::quant_affine::foldQuantizerConstants(QuantizerOpInterface op,
                                           ArrayRef<Attribute> operands,
                                           int64_t maxElements) {
  bool hasOffset = static_cast<bool>(op.getOffset());
  if (operands.size() < 2 || !isConstantOperand(operands[0]) ||
      !isConstantOperand(operands[1]) ||
      (hasOffset && !isConstantOperand(operands[2])))
    return {};
  Type resultType = op->getResult(0).getType();
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (shaped && !shaped.hasStaticShape())
    return {};
  // The verifier guarantees that the element count fits int64. A splat
  // result costs one element whatever its size; any other is materialized
  // element by element, so it must be small enough to hold.
  bool splat = shaped && shaped.getNumElements() > 0 &&
               isSplatOperand(operands[0]) && isSplatOperand(operands[1]) &&
               (!hasOffset || isSplatOperand(operands[2]));
  if (shaped && !splat &&
      (shaped.getNumElements() > maxElements ||
       shaped.getNumElements() > kMaxMaterializedElements))
    return {};

  QuantizerSpec spec = op.getSpec();
  Type inputElem = getElementTypeOrSelf(op.getInput());
  Type scaleElem = getElementTypeOrSelf(op.getScale());
  Type offsetElem = hasOffset ? getElementTypeOrSelf(op.getOffset()) : Type();
  Type resultElem = getElementTypeOrSelf(resultType);
  bool isSigned = spec.range.isSigned();
  bool native = nativeIsExact(spec.computeType,
                              {inputElem, scaleElem, offsetElem, resultElem});
  APFloatArith arith{spec.computeType};
  NativeArith nativeArith{spec.computeType, spec.computeType.isF32()};

  // One element, as an APFloat or APInt of the result type.
  auto evaluate = [&](int64_t inputIndex, int64_t scaleIndex) -> Scalar {
    if (native) {
      std::optional<NativeScalar> offset;
      if (hasOffset)
        offset = readNative(operands[2], scaleIndex, isSigned);
      NativeScalar r = evaluateQuantizer(
          nativeArith, spec.formula, spec.range,
          readNative(operands[0], inputIndex, isSigned), inputElem,
          readNative(operands[1], scaleIndex, isSigned), scaleElem, offset,
          offsetElem, resultElem);
      Scalar out;
      if (resultElem.isF32())
        out.f = llvm::APFloat(static_cast<float>(r.f));
      else if (resultElem.isF64())
        out.f = llvm::APFloat(r.f);
      else
        out.i = llvm::APInt(resultElem.getIntOrFloatBitWidth(),
                            static_cast<uint64_t>(r.i), /*isSigned=*/true,
                            /*implicitTrunc=*/true);
      return out;
    }
    std::optional<Scalar> offset;
    if (hasOffset)
      offset = readElement(operands[2], scaleIndex);
    return evaluateQuantizer(arith, spec.formula, spec.range,
                             readElement(operands[0], inputIndex), inputElem,
                             readElement(operands[1], scaleIndex), scaleElem,
                             offset, offsetElem, resultElem);
  };

  if (!shaped) { // scalar form
    Scalar r = evaluate(0, 0);
    if (isa<FloatType>(resultElem))
      return FloatAttr::get(resultElem, r.f);
    return IntegerAttr::get(resultElem, r.i);
  }

  // Splat input, scale and offset: every element computes the same value,
  // whichever scale element it uses.
  if (splat) {
    Scalar r = evaluate(0, 0);
    if (isa<FloatType>(resultElem))
      return DenseElementsAttr::get(shaped, ArrayRef<llvm::APFloat>(r.f));
    return DenseElementsAttr::get(shaped, ArrayRef<llvm::APInt>(r.i));
  }

  // Tensor form: element j uses scale[floor(j / B)] over the trailing dims
  // (scaleIndexOf); the vector form is elementwise (scale index = input
  // index).
  ArrayRef<int64_t> shape = shaped.getShape();
  SmallVector<int64_t> scaleShape(shape);
  SmallVector<int64_t> blocks(shape.size(), 1);
  if (isa<RankedTensorType>(resultType)) {
    scaleShape =
        llvm::to_vector(cast<ShapedType>(op.getScale().getType()).getShape());
    blocks = resolveBlockSizes(shape, scaleShape, spec.getBlockSize());
  }
  SmallVector<int64_t> scaleStrides = computeStrides(scaleShape);

  int64_t n = shaped.getNumElements(), rank = shape.size();
  SmallVector<int64_t> index(rank, 0);
  SmallVector<llvm::APFloat> floats;
  SmallVector<llvm::APInt> ints;
  bool floatResult = isa<FloatType>(resultElem);
  (floatResult ? (void)floats.reserve(n) : (void)ints.reserve(n));
  for (int64_t j = 0; j < n; ++j) {
    int64_t scaleIndex = linearize(scaleIndexOf(index, blocks), scaleStrides);
    Scalar r = evaluate(j, scaleIndex);
    if (floatResult)
      floats.push_back(r.f);
    else
      ints.push_back(r.i);
    // The next input index, row-major.
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
  }
  if (floatResult)
    return DenseElementsAttr::get(shaped, floats);
  return DenseElementsAttr::get(shaped, ints);
}

LogicalResult mlir::quant_affine::foldComputeEncodingConstants(
    ComputeEncodingOp op, Attribute input, int64_t maxElements,
    SmallVectorImpl<OpFoldResult> &results) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(input);
  auto inputType = op.getInput().getType();
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  auto offsetType = cast<RankedTensorType>(op.getOffset().getType());
  if (!dense || !inputType.hasStaticShape() || !scaleType.hasStaticShape() ||
      inputType.getNumElements() > maxElements)
    return failure();
  SmallVector<int64_t> scaleShape = llvm::to_vector(scaleType.getShape());
  int64_t encodings = scaleType.getNumElements();
  if (encodings == 0 || inputType.getNumElements() == 0)
    return failure(); // an encoding of no elements has no minimum

  // 1. Each encoding's minimum and maximum.
  auto elementType = cast<FloatType>(inputType.getElementType());
  SmallVector<double> mins, maxs;
  encodingExtremes(dense, scaleShape, op.getBlockSizeArray(), mins, maxs);

  // 2. The epilogue, by the formula the lowering emits: for f32 and f64
  // inputs in hardware doubles rounded per step, as for the quantizers
  // (nativeIsExact), for f16 and bf16 in APFloat. The extremes are values
  // of the input type (exact in either).
  MLIRContext *ctx = op.getContext();
  FloatType f32 = Float32Type::get(ctx);
  FloatType promoted = elementType.isF64() ? elementType : f32;
  EncodingChoice choice = op.getEncodingChoice();
  auto scaleElem = cast<FloatType>(scaleType.getElementType());
  auto offsetElem = cast<FloatType>(offsetType.getElementType());
  SmallVector<llvm::APFloat> scales, offsets;
  auto evaluate = [&](auto arith, auto fromDouble, auto toAPFloat) {
    for (int64_t e = 0; e < encodings; ++e) {
      auto [scale, offset] = computeEncodingFromMinMax(
          arith, fromDouble(mins[e]), fromDouble(maxs[e]), choice);
      scales.push_back(convertAsGenerated(toAPFloat(scale), scaleElem));
      offsets.push_back(convertAsGenerated(toAPFloat(offset), offsetElem));
    }
  };
  if (nativeIsExact(f32, {elementType})) {
    NativeArith nativeT{elementType, elementType.isF32()},
        nativeF32{f32, /*isF32=*/true}, nativeP{promoted, promoted.isF32()};
    // AIMET's results are f32 values; torchao's are values of the input
    // type.
    bool resultsInF32 = !choice.torchao || elementType.isF32();
    evaluate(
        CalibrationArith<NativeArith>{nativeT, nativeF32, nativeP},
        [](double v) { return NativeScalar{v, 0}; },
        [&](const NativeScalar &v) {
          return resultsInF32 ? llvm::APFloat(float(v.f)) : llvm::APFloat(v.f);
        });
  } else {
    APFloatArith inT{elementType}, inF32{f32}, inP{promoted};
    evaluate(
        CalibrationArith<APFloatArith>{inT, inF32, inP},
        [&](double v) {
          Scalar s;
          bool losesInfo;
          s.f = llvm::APFloat(v);
          (void)s.f.convert(elementType.getFloatSemantics(),
                            llvm::APFloat::rmNearestTiesToEven, &losesInfo);
          return s;
        },
        [](const Scalar &v) { return v.f; });
  }
  results.push_back(DenseElementsAttr::get(scaleType, scales));
  results.push_back(DenseElementsAttr::get(offsetType, offsets));
  return success();
}

Attribute mlir::quant_affine::foldBlockScaleConstants(BlockScaleOp op,
                                                      Attribute input,
                                                      Attribute tensorScale,
                                                      int64_t maxElements) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(input);
  auto inputType = op.getInput().getType();
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  if (!dense || !inputType.hasStaticShape() || !scaleType.hasStaticShape() ||
      inputType.getNumElements() > maxElements ||
      inputType.getNumElements() == 0 || scaleType.getNumElements() == 0)
    return {};
  FloatType f32 = Float32Type::get(op.getContext());
  APFloatArith arith{f32};
  Scalar perTensor;
  if (op.getTensorScale()) {
    auto given = dyn_cast_or_null<DenseElementsAttr>(tensorScale);
    if (!given)
      return {};
    perTensor.f = *given.getValues<llvm::APFloat>().begin();
  }
  SmallVector<double> mins, maxs;
  encodingExtremes(dense, scaleType.getShape(), op.getBlockSize(), mins, maxs);
  // The extremes are values of the input type, exact in it.
  auto elementType = cast<FloatType>(inputType.getElementType());
  auto inInputType = [&](double v) {
    return convertAsGenerated(llvm::APFloat(v), elementType);
  };
  BlockScaleRule rule = op.getRule();
  Type result = scaleType.getElementType();
  SmallVector<llvm::APFloat> scales;
  scales.reserve(mins.size());
  for (auto [low, high] : llvm::zip(mins, maxs)) {
    Scalar min, max;
    min.f = inInputType(low);
    max.f = inInputType(high);
    // amax = max(-min, max); NaN propagates.
    Scalar amax = arith.maximum(arith.negate(arith.toFloat(min, f32)),
                                arith.toFloat(max, f32));
    llvm::APFloat scale =
        blockScaleFormula(arith, rule, amax, op.getTensorScale() != nullptr,
                          perTensor, result)
            .f;
    // Upstream's arith.extf folder reads E8M0's NaN (0xFF) as +inf (LLVM's
    // APFloat conversion), where the lowered extf gives NaN: a folded NaN
    // E8M0 scale would change the program's numbers at the next
    // -canonicalize. Such blocks are left to the generated code.
    if (scale.isNaN() && isa<Float8E8M0FNUType>(result))
      return {};
    scales.push_back(std::move(scale));
  }
  return DenseElementsAttr::get(scaleType, scales);
}

Attribute mlir::quant_affine::foldFloatQDQConstants(
    FloatQDQOp op, ArrayRef<Attribute> operands, int64_t maxElements) {
  bool hasMaxval = static_cast<bool>(op.getMaxval());
  if (operands.empty() || !isConstantOperand(operands[0]) ||
      (hasMaxval && !isConstantOperand(operands[1])))
    return {};
  Type resultType = op.getResult().getType();
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (shaped && !shaped.hasStaticShape())
    return {};
  bool splat = shaped && shaped.getNumElements() > 0 &&
               isSplatOperand(operands[0]) &&
               (!hasMaxval || isSplatOperand(operands[1]));
  if (shaped && !splat &&
      (shaped.getNumElements() > maxElements ||
       shaped.getNumElements() > kMaxMaterializedElements))
    return {};

  MLIRContext *ctx = op.getContext();
  FloatFormat format = op.getFormat();
  auto elem = cast<FloatType>(getElementTypeOrSelf(resultType));
  APFloatArith w{format.fakeCastType(elem)};
  APFloatArith p{isa<Float64Type>(elem) ? FloatType(Float64Type::get(ctx))
                                        : FloatType(Float32Type::get(ctx))};
  APFloatArith f32{Float32Type::get(ctx)}, f64{Float64Type::get(ctx)};

  // The factor of every maxval element, computed once.
  SmallVector<Scalar> factors;
  int64_t maxvalCount = 1;
  if (hasMaxval) {
    if (auto maxvalShaped = dyn_cast<ShapedType>(op.getMaxval().getType()))
      maxvalCount = splat ? 1 : maxvalShaped.getNumElements();
    for (int64_t i = 0; i < maxvalCount; ++i)
      factors.push_back(
          maxvalFactor(f32, f64, readElement(operands[1], i), format));
  }
  auto evaluate = [&](int64_t inputIndex, int64_t maxvalIndex) {
    std::optional<Scalar> k;
    if (hasMaxval)
      k = factors[maxvalIndex];
    return evaluateFloatQdq(w, p, readElement(operands[0], inputIndex), elem, k,
                            format)
        .f;
  };
  if (!shaped)
    return FloatAttr::get(elem, evaluate(0, 0));
  if (splat)
    return DenseElementsAttr::get(shaped,
                                  ArrayRef<llvm::APFloat>(evaluate(0, 0)));

  ArrayRef<int64_t> shape = shaped.getShape();
  SmallVector<int64_t> maxvalShape(shape);
  SmallVector<int64_t> blocks(shape.size(), 1);
  if (hasMaxval && isa<RankedTensorType>(resultType)) {
    maxvalShape =
        llvm::to_vector(cast<ShapedType>(op.getMaxval().getType()).getShape());
    blocks = resolveBlockSizes(shape, maxvalShape, op.getBlockSizeArray());
  }
  SmallVector<int64_t> maxvalStrides = computeStrides(maxvalShape);
  int64_t n = shaped.getNumElements(), rank = shape.size();
  SmallVector<int64_t> index(rank, 0);
  SmallVector<llvm::APFloat> values;
  values.reserve(n);
  for (int64_t j = 0; j < n; ++j) {
    int64_t maxvalIndex =
        hasMaxval ? linearize(scaleIndexOf(index, blocks), maxvalStrides) : 0;
    values.push_back(evaluate(j, maxvalIndex));
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
  }
  return DenseElementsAttr::get(shaped, values);
}

llvm::APFloat mlir::quant_affine::evaluateFloatQDQFactor(
    MLIRContext *ctx, const FloatFormat &format, const llvm::APFloat &maxval) {
  APFloatArith f32{Float32Type::get(ctx)}, f64{Float64Type::get(ctx)};
  Scalar m;
  m.f = maxval;
  return maxvalFactor(f32, f64, m, format).f;
}
