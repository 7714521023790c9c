//===- FloatFormula.h - float_qdq's fake cast, written once -----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The float formats of quant_affine.float_qdq and its formula as one template
// over the arithmetic that carries it out, like Utils/Formula.h: the arith
// lowering instantiates it with ArithEmitter, the constant folder with APFloat
// arithmetic, so both compute the same bits.
//
// The rounding is exact by construction. After the clamp to +-fmt_max, the
// grid's quantum at |c| is q = 2^(max(e, emin) - M), where e is c's binary
// exponent, read from its bits (an integer `and`, no log2). The fake-cast
// type W (f32, or f64 where f32 cannot hold the format's quanta as normal
// numbers) holds every value involved. Two exact ways to round onto that
// grid (roundToBoundedGrid says which applies when):
//  - the shifter: (c + S) - S with S = 1.5 * 2^(p - M) * q, p being W's
//    mantissa width: c + S lies in the binade whose ulp is q, so the
//    addition is the rounding (to nearest even: S / q is even), and the
//    subtraction is exact. Four vector operations fewer than the other way.
//  - scaling: c * (1 / q) and roundeven(...) * q are multiplications by
//    powers of two whose results are representable, so only roundeven
//    rounds.
// f16 and bf16 round by the conversion to that type and back (one correctly
// rounded conversion, bf16 in integer arithmetic).
//
// Beyond Utils/Formula.h, an `Arith` provides, in its compute type C:
//   Value bitsOf(v);                  // the bits as a signless integer of C's
//   width Value fromBits(i);                // and back Value
//   intConstant(int64_t v);     // of C's width (wrapping) Value andI(a, b),
//   orI(a, b), subI(a, b), addI(a, b), maxSI(a, b), minSI(a, b); Value
//   constantFloat(double v);    // v rounded to C Value log2(v), exp2(v); //
//   only for the maxval factor, in f64
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FLOATFORMULA_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FLOATFORMULA_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace mlir {
namespace quant_affine {

/// A float format of float_qdq: `(E, M, finite, unsigned_zero)`. The six
/// named ones are real formats (their grids, subnormals included); any other
/// `(E, M)` without flags is AIMET's IEEE-like grid, which has one more
/// subnormal binade than IEEE.
struct FloatFormat {
  int64_t exponentBits = 0, mantissaBits = 0;
  bool finite = false, unsignedZero = false;

  /// The real format's name ("f8E4M3FN", ...), or empty for an AIMET grid.
  llvm::StringRef name() const;
  bool isNamed() const { return !name().empty(); }
  /// Whether (E, M) is in the range this project accepts at all.
  bool hasValidWidths() const {
    return exponentBits >= 1 && exponentBits <= 11 && mantissaBits >= 0 &&
           mantissaBits <= 52;
  }
  /// The exponent of the smallest normal binade: the grid's quantum is
  /// 2^(max(e, minExponent) - M).
  int64_t minExponent() const;
  /// The exponent of fmt_max's binade.
  int64_t maxExponent() const;
  /// fmt_max, the largest finite value (saturation bound).
  double maxValue() const;

  /// The type the rounding happens in for inputs of `input` type, or null
  /// when neither f32 nor f64 holds the format's quanta as normal numbers.
  FloatType fakeCastType(FloatType input) const;
  /// Why `input` cannot be fake-cast to this format, if it cannot.
  std::optional<std::string> checkInput(FloatType input) const;
  /// Whether every finite value of `type` is on the grid and within
  /// +-fmt_max: the fake cast is then a clamp to +-fmt_max.
  bool holdsEveryFiniteValueOf(FloatType type) const;
  /// f16 or bf16 for those two formats, which round by the conversion to
  /// that type and back (see above); null for the others.
  FloatType conversionType(MLIRContext *ctx) const;
};

/// The biased exponent field of `bits` (the bits of a value of the Arith's
/// compute type C, f32 or f64, in place), raised to `minExponent`'s: the
/// exponent e' = max(e, minExponent) of the grid's quantum at that value.
template <typename Arith>
typename Arith::Value raisedExponentField(Arith &a, typename Arith::Value bits,
                                          int64_t minExponent) {
  bool isF32 = a.compute.isF32();
  int64_t p = a.compute.getFPMantissaWidth() - 1;
  int64_t bias = isF32 ? 127 : 1023;
  int64_t expMask = isF32 ? 0x7F800000 : 0x7FF0000000000000;
  auto field = a.andI(bits, a.intConstant(expMask));
  return a.maxSI(field, a.intConstant((minExponent + bias) << p));
}

/// `c` (in the Arith's compute type C, f32 or f64) rounded to nearest even
/// onto the grid with `mantissaBits` M whose binades run from 2^minExponent
/// to 2^maxExponent: the quantum at |c| is 2^(clamp(e, min, max) - M), e
/// read from c's exponent field. Exact when every quantum and its inverse
/// are normal in C (FloatFormat::fakeCastType checks it): c * 2^(M - e) and
/// roundeven(...) * 2^(e - M) only scale by powers of two. NaN stays NaN.
template <typename Arith>
typename Arith::Value roundToGrid(Arith &a, typename Arith::Value c,
                                  int64_t mantissaBits, int64_t minExponent,
                                  int64_t maxExponent) {
  // Field arithmetic on the biased exponent, shifted by the mantissa width
  // P: 2^(M - e) has the field bias + M - e, 2^(e - M) e - M + bias.
  int64_t p = a.compute.getFPMantissaWidth() - 1;
  int64_t bias = a.compute.isF32() ? 127 : 1023;
  int64_t m = mantissaBits;
  auto field = raisedExponentField(a, a.bitsOf(c), minExponent);
  // NaN's and inf's all-ones field: keep the quanta finite.
  field = a.minSI(field, a.intConstant((maxExponent + bias) << p));
  auto inverse = a.fromBits(a.subI(a.intConstant((2 * bias + m) << p), field));
  auto quantum = a.fromBits(a.subI(field, a.intConstant(m << p)));
  return a.mul(a.roundEven(a.mul(c, inverse)), quantum);
}

/// roundToGrid for `c` with |c| < 2^(maxExponent + 1) or NaN (clamped to the
/// format's range), through the shifter where it is exact: M <= p - 2 and
/// 2^(maxExponent + p - M + 1) finite in C. Let e' = max(e, minExponent),
/// q = 2^(e' - M) and S = 1.5 * 2^(e' + p - M), built from c's exponent
/// field like q. |c| < 2^(e' + 1) <= S / 3, so c + S lies in
/// [2^(e' + p - M), 2^(e' + p - M + 1)], where the representable numbers are
/// exactly the multiples of q: fl(c + S) = S + q * roundeven(c / q), ties to
/// even because S / q = 3 * 2^(p - M - 1) is even. Subtracting S is exact
/// (a multiple of q of at most 2^(M + 1) quanta). The difference is +0 where
/// c rounds to zero, so c's sign bit is or'ed in, as roundeven(c / q) * q
/// keeps it; with `unsignedZero` (zeros come out +0) it is not. A NaN c
/// stays NaN whatever S its field makes.
template <typename Arith>
typename Arith::Value
roundToBoundedGrid(Arith &a, typename Arith::Value c, int64_t mantissaBits,
                   int64_t minExponent, int64_t maxExponent,
                   bool unsignedZero) {
  bool isF32 = a.compute.isF32();
  int64_t p = a.compute.getFPMantissaWidth() - 1;
  int64_t bias = isF32 ? 127 : 1023;
  int64_t largestField = 2 * bias;
  int64_t m = mantissaBits;
  if (m > p - 2 || maxExponent + p - m + 1 + bias > largestField) {
    auto r = roundToGrid(a, c, mantissaBits, minExponent, maxExponent);
    // -0 + +0 = +0; nothing else changes.
    return unsignedZero ? a.add(r, a.constantFloat(0.0)) : r;
  }
  int64_t signMask = isF32 ? 0x80000000 : std::numeric_limits<int64_t>::min();
  auto bits = a.bitsOf(c);
  auto field = raisedExponentField(a, bits, minExponent);
  // S's field is e' + p - M, its mantissa 0.5.
  int64_t toShifter = ((p - m) << p) + (int64_t{1} << (p - 1));
  auto shifter = a.fromBits(a.addI(field, a.intConstant(toShifter)));
  auto r = a.sub(a.add(c, shifter), shifter);
  if (unsignedZero)
    return r;
  return a.fromBits(a.orI(a.bitsOf(r), a.andI(bits, a.intConstant(signMask))));
}

/// clamp(y, -fmt_max, fmt_max) rounded to the format's grid, in the Arith's
/// compute type (the format's fakeCastType). NaN stays NaN; -0 stays -0
/// unless the format has unsigned_zero. With `onGrid` (every value `y` can
/// take is on the grid: FloatFormat::holdsEveryFiniteValueOf) only the clamp
/// remains.
template <typename Arith>
typename Arith::Value fakeCastInCompute(Arith &a, typename Arith::Value y,
                                        const FloatFormat &format,
                                        bool onGrid) {
  auto hi = a.constantFloat(format.maxValue());
  auto lo = a.constantFloat(-format.maxValue());
  auto c = a.select(a.less(y, lo), lo, y);
  c = a.select(a.less(hi, c), hi, c);
  FloatType via = format.conversionType(a.compute.getContext());
  bool byConversion = via && a.compute.isF32();
  if (!onGrid && !byConversion)
    return roundToBoundedGrid(a, c, format.mantissaBits, format.minExponent(),
                              format.maxExponent(), format.unsignedZero);
  typename Arith::Value r =
      byConversion && !onGrid ? a.toFloat(a.toFloat(c, via), a.compute) : c;
  if (format.unsignedZero)
    r = a.add(r, a.constantFloat(0.0)); // -0 + +0 = +0; nothing else changes.
  return r;
}

/// AIMET's maxval factor k = 2^(log2|maxval| - log2 fmt_max) in f32, with
/// log2 and exp2 evaluated in f64 and rounded to f32 (the correctly rounded
/// f32 functions, but for rare double roundings). `f32` and `f64` compute in
/// those types; `maxval` may have any float type. Returns k in f32.
template <typename Arith>
typename Arith::Value maxvalFactor(Arith &f32, Arith &f64,
                                   typename Arith::Value maxval,
                                   const FloatFormat &format) {
  auto narrow = f32.toFloat(maxval, f32.compute);
  auto wide = f32.toFloat(narrow, f64.compute);
  auto zero = f64.constantFloat(0.0);
  auto magnitude = f64.select(f64.less(wide, zero), f64.sub(zero, wide), wide);
  auto log2Max = f64.toFloat(f64.log2(magnitude), f32.compute);
  auto shift =
      f32.sub(log2Max, f32.constantFloat(std::log2(format.maxValue())));
  return f64.toFloat(f64.exp2(f32.toFloat(shift, f64.compute)), f32.compute);
}

/// One element of float_qdq: `x` of type `inputElem`, divided by the factor
/// `k` (f32, from maxvalFactor) when the op has a maxval. `w` computes in the
/// format's fakeCastType, `p` in promote(inputElem, f32).
template <typename Arith>
typename Arith::Value
evaluateFloatQdq(Arith &w, Arith &p, typename Arith::Value x,
                 FloatType inputElem, std::optional<typename Arith::Value> k,
                 const FloatFormat &format) {
  if (!k) {
    bool onGrid = format.holdsEveryFiniteValueOf(inputElem);
    auto cast = fakeCastInCompute(w, w.toFloat(x, w.compute), format, onGrid);
    return w.toFloat(cast, inputElem);
  }
  auto factor = p.toFloat(*k, p.compute);
  auto scaled = p.div(p.toFloat(x, p.compute), factor);
  auto cast = fakeCastInCompute(w, p.toFloat(scaled, w.compute), format,
                                format.holdsEveryFiniteValueOf(p.compute));
  return p.toFloat(p.mul(w.toFloat(cast, p.compute), factor), inputElem);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_FLOATFORMULA_H
