//===- Formula.h - The quantization formula, written once -------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// quantize, dequantize and qdq as one template over the arithmetic that carries
// them out. QuantAffineToArith instantiates it with a builder that emits arith
// and math ops; the constant folder instantiates it with APFloat arithmetic in
// the same IEEE rounding, so a folded constant has exactly the bits the
// generated code computes. Neither has a copy of its own.
//
// An `Arith` provides:
//   using Value = ...;
//   FloatType compute;                          // C
//   Value constant(int64_t v);                  // exact-as-possible v in C
//   Value div(a, b), sub(a, b), add(a, b), mul(a, b), roundEven(a);
//   Value less(a, b) -> predicate; Value select(p, a, b);
//   Value toFloat(v, FloatType to);             // float -> float, see below
//   Value intToFloat(v, FloatType to, bool isSigned);
//   Value floatToInt(v, IntegerType to, bool isSigned);  // toward zero
//   Value constantFloat(double v);              // v rounded to C
//   Arith withCompute(FloatType t);             // the same, computing in t
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FORMULA_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FORMULA_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <optional>

namespace mlir {
namespace quant_affine {

/// How a float value is converted to another float type: one rounding, except
/// f64 -> f16/bf16 (through f32, as PyTorch does) and bf16 <-> f16 (through
/// f32, which holds both exactly). Returns the intermediate type to go
/// through, if any.
inline std::optional<FloatType> conversionIntermediate(FloatType from,
                                                       FloatType to) {
  if (from == to)
    return std::nullopt;
  bool viaF32 = (from.isF64() && (to.isF16() || to.isBF16())) ||
                from.getWidth() == to.getWidth();
  if (viaF32)
    return Float32Type::get(from.getContext());
  return std::nullopt;
}

/// `v` converted to `to` exactly as the generated code converts it (one
/// rounding, or two through the conversionIntermediate). `v` carries the
/// semantics of f16, bf16, f32 or f64, or of a narrower float read exactly
/// into a wider one (an E8M0 scale into f32).
inline llvm::APFloat convertAsGenerated(llvm::APFloat v, FloatType to) {
  // APFloat converts E8M0's NaN (0xFF) to +inf; the generated code
  // (quant-affine-expand-narrow-floats) decodes it as NaN.
  if (v.isNaN() && llvm::APFloat::semanticsHasNaN(to.getFloatSemantics()) &&
      llvm::APFloat::semanticsSizeInBits(v.getSemantics()) < 16)
    return llvm::APFloat::getQNaN(to.getFloatSemantics());
  MLIRContext *ctx = to.getContext();
  const llvm::fltSemantics &sem = v.getSemantics();
  FloatType from = Float64Type::get(ctx);
  if (&sem == &llvm::APFloat::IEEEhalf())
    from = Float16Type::get(ctx);
  else if (&sem == &llvm::APFloat::BFloat())
    from = BFloat16Type::get(ctx);
  else if (&sem == &llvm::APFloat::IEEEsingle())
    from = Float32Type::get(ctx);
  bool losesInfo;
  if (std::optional<FloatType> via = conversionIntermediate(from, to))
    (void)v.convert(via->getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  (void)v.convert(to.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
  // The float8 types' conversion (quant-affine-expand-narrow-floats) gives
  // every NaN the type's one positive NaN code; APFloat keeps NaN's sign.
  // (float6 and float4 have no NaN: both give a zero of NaN's sign.)
  if (v.isNaN() && to.getWidth() < 16 &&
      llvm::APFloat::semanticsHasNaN(to.getFloatSemantics()))
    return llvm::APFloat::getNaN(to.getFloatSemantics());
  return v;
}

/// Whether `elem` is a float8 or float4 storage type, whose grid is its own
/// values: quantize rounds onto it (arith.truncf) instead of to integers.
inline bool isNarrowFloatStorage(Type elem) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float6E2M3FNType, Float6E3M2FNType,
             Float4E2M1FNType>(elem);
}

/// A float or integer operand `v` of element type `elem`, read in C.
template <typename Arith>
typename Arith::Value readInCompute(Arith &a, typename Arith::Value v,
                                    Type elem, bool isSigned) {
  if (isa<FloatType>(elem))
    return a.toFloat(v, a.compute);
  return a.intToFloat(v, a.compute, isSigned);
}

/// A C value written to result element type `elem` (integers toward zero).
template <typename Arith>
typename Arith::Value writeResult(Arith &a, typename Arith::Value v, Type elem,
                                  bool isSigned) {
  if (auto f = dyn_cast<FloatType>(elem))
    return a.toFloat(v, f);
  return a.floatToInt(v, cast<IntegerType>(elem), isSigned);
}

/// torchao's FLOAT-domain midpoint (qmin + qmax + 1) / 2.
inline double floatZeroPointMid(QuantRange range) {
  return (static_cast<double>(range.qmin) + static_cast<double>(range.qmax) +
          1.0) /
         2.0;
}

/// clamp(roundeven(x / s) - o, qmin, qmax), all in C. `o` is optional.
/// The clamp is min(max(v, lo), hi) with std::max/std::min semantics: NaN
/// passes through and -0.0 is kept (maximumf would turn it into +0.0).
/// torchao's variants: with `r` (formula.reciprocal) x * r replaces x / s;
/// with formula.floatZeroPoint, `o` is the zero point z (absent: +0.0) and
/// the value rounded is (x - (z - s * mid)) / s, without subtracting o.
/// Without `roundToInteger` (float8 and float4 storage) the roundeven is
/// left to the conversion to the storage type.
template <typename Arith>
typename Arith::Value
quantizeInCompute(Arith &a, typename Arith::Value x, typename Arith::Value s,
                  std::optional<typename Arith::Value> o, QuantRange range,
                  const QuantizerFormula &formula,
                  std::optional<typename Arith::Value> r,
                  bool roundToInteger = true) {
  auto lo = a.constant(range.qmin), hi = a.constant(range.qmax);
  typename Arith::Value q = x;
  if (formula.floatZeroPoint) {
    auto z = o ? *o : a.constantFloat(0.0);
    auto minVal = a.sub(z, a.mul(s, a.constantFloat(floatZeroPointMid(range))));
    q = a.div(a.sub(x, minVal), s);
  } else if (r) {
    q = a.mul(x, *r);
  } else {
    q = a.div(x, s);
  }
  if (roundToInteger)
    q = a.roundEven(q);
  if (o && !formula.floatZeroPoint)
    q = a.sub(q, *o);
  q = a.select(a.less(q, lo), lo, q);
  return a.select(a.less(hi, q), hi, q);
}

/// (q + o) * s, all in C. `o` is optional. With formula.floatZeroPoint:
/// ((q - mid) * s) + z, `o` being z (absent: +0.0).
template <typename Arith>
typename Arith::Value
dequantizeInCompute(Arith &a, typename Arith::Value q, typename Arith::Value s,
                    std::optional<typename Arith::Value> o, QuantRange range,
                    const QuantizerFormula &formula) {
  if (formula.floatZeroPoint) {
    auto z = o ? *o : a.constantFloat(0.0);
    auto mid = a.constantFloat(floatZeroPointMid(range));
    return a.add(a.mul(a.sub(q, mid), s), z);
  }
  if (o)
    q = a.add(q, *o);
  return a.mul(q, s);
}

/// One element of a quantizer op evaluating `formula` from operands of
/// element types `inputElem`, `scaleElem`, `offsetElem` (null without
/// offset) to `resultElem`. With formula.reciprocal, 1 / s is rounded in the
/// scale's own type (an `Arith` provides `withCompute(FloatType)`), then
/// read in C.
template <typename Arith>
typename Arith::Value evaluateQuantizer(Arith &a, QuantizerFormula formula,
                                        QuantRange range,
                                        typename Arith::Value x, Type inputElem,
                                        typename Arith::Value s, Type scaleElem,
                                        std::optional<typename Arith::Value> o,
                                        Type offsetElem, Type resultElem) {
  bool isSigned = range.isSigned();
  auto xc = readInCompute(a, x, inputElem, isSigned);
  auto sc = readInCompute(a, s, scaleElem, isSigned);
  std::optional<typename Arith::Value> oc, rc;
  if (o)
    oc = readInCompute(a, *o, offsetElem, isSigned);
  if (formula.reciprocal && formula.quantizes()) {
    Arith inScaleType = a.withCompute(cast<FloatType>(scaleElem));
    auto r = inScaleType.div(inScaleType.constant(1), s);
    rc = readInCompute(a, r, scaleElem, isSigned);
  }
  typename Arith::Value y = xc;
  if (formula.quantizes())
    y = quantizeInCompute(a, y, sc, oc, range, formula, rc,
                          /*roundToInteger=*/!isNarrowFloatStorage(resultElem));
  if (formula.dequantizes())
    y = dequantizeInCompute(a, y, sc, oc, range, formula);
  return writeResult(a, y, resultElem, isSigned);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FORMULA_H
