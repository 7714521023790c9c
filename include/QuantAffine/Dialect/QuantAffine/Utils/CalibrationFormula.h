//===- CalibrationFormula.h - min-max calibration, written once -*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// compute_encoding's epilogue, from an encoding's minimum and maximum to its
// scale and offset, as one template over the arithmetic, like Formula.h: the
// linalg lowering instantiates it with arith ops, the constant folder with
// APFloat. AIMET rounds its steps in three types (the input type T, f32, and
// promote(T, f32)), so the template takes one `Arith` per type; an `Arith` is
// Formula.h's, plus
//   Value constantFloat(double v);   // v converted as torch's .to() does
//   Value maximum(a, b);             // NaN-propagating
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_CALIBRATIONFORMULA_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_CALIBRATIONFORMULA_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <utility>

namespace mlir {
namespace quant_affine {

/// AIMET 2.x's smallest scale for a grid of `steps` steps:
/// min(f32 epsilon, (0.005 - (-0.005)) / steps), in double as Python has it.
inline double minimumCalibrationScale(int64_t steps) {
  double f32Epsilon = std::ldexp(1.0, -23);
  double tiny = (0.005 - (-0.005)) / static_cast<double>(steps);
  return tiny < f32Epsilon ? tiny : f32Epsilon;
}

/// The largest finite value of `type`, as a double.
inline double largestFinite(FloatType type) {
  return llvm::APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
}

/// The type AIMET's scalar arithmetic on a T tensor rounds through: f32 for
/// f16 and bf16 (opmath), T otherwise.
inline bool computesInF32(FloatType type) {
  return type.isF16() || type.isBF16();
}

/// The arithmetic of one calibration: `t` rounds in the input type T, `f32`
/// in f32, `p` in promote(T, f32) (f64 for f64 input, else f32).
template <typename Arith> struct CalibrationArith {
  Arith &t, &f32, &p;
};

/// From an encoding's minimum `mn` and maximum `mx` (in T) to its scale and
/// offset (in f32), as AIMET 2.x's min-max analyzer and quantizer compute
/// them (2025 behaviour; DESIGN.md section 6).
template <typename Arith>
std::pair<typename Arith::Value, typename Arith::Value>
computeEncodingFromMinMax(CalibrationArith<Arith> a, typename Arith::Value mn,
                          typename Arith::Value mx, QuantRange range,
                          bool symmetric) {
  using Value = typename Arith::Value;
  FloatType typeT = a.t.compute, typeP = a.p.compute, typeF = a.f32.compute;
  int64_t n = range.qmax - range.qmin;
  double minScale = minimumCalibrationScale(n);
  // A T tensor combined with a Python number: in f32 for f16 and bf16 (the
  // number kept in f32), in T otherwise; rounded to T.
  Arith &opmath = computesInF32(typeT) ? a.f32 : a.t;
  auto divByNumber = [&](Value v, int64_t number) {
    FloatType via = opmath.compute;
    return a.t.toFloat(
        opmath.div(opmath.toFloat(v, via), opmath.constant(number)), typeT);
  };

  // 1. The range, zero included.
  Value zero = a.t.constant(0);
  Value lo = a.t.select(a.t.less(zero, mn), zero, mn); // clamp(mn, max=0)
  Value hi = a.t.select(a.t.less(mx, zero), zero, mx); // clamp(mx, min=0)
  Value width = divByNumber(a.t.sub(hi, lo), n);
  Value threshold = a.t.constantFloat(minScale);
  Value adjust = a.f32.select(a.t.less(width, threshold),
                              a.f32.constantFloat(minScale), a.f32.constant(0));
  // An f32 tensor times a Python integer, in f32, then in P.
  auto adjustTimes = [&](int64_t steps) {
    return a.p.toFloat(a.f32.mul(a.f32.constant(steps), adjust), typeP);
  };
  Value hiP = a.p.toFloat(hi, typeP);
  Value encMin, encMax;
  bool minInP = false;
  if (symmetric) {
    int64_t positive = n / 2, negative = n - n / 2;
    Value top = a.p.add(hiP, adjustTimes(positive));
    Value bottom = a.p.sub(a.p.toFloat(lo, typeP), adjustTimes(negative));
    Value up = a.p.div(top, a.p.constant(positive + (n == 3 ? 1 : 0)));
    Value down =
        a.p.div(a.p.mul(bottom, a.p.constant(-1)), a.p.constant(negative));
    Value delta = a.p.maximum(up, down);
    encMin = a.p.mul(a.p.constant(-negative), delta);
    encMax = a.p.mul(a.p.constant(positive), delta);
    minInP = true;
  } else {
    encMin = lo;
    encMax = a.p.add(hiP, adjustTimes(n));
  }
  // 2. Both ends within T's finite range, in T.
  Value largest = a.p.constantFloat(largestFinite(typeT));
  encMax = a.t.toFloat(a.p.select(a.p.less(largest, encMax), largest, encMax),
                       typeT);
  Arith &minArith = minInP ? a.p : a.t;
  Value lowest = minArith.constantFloat(-largestFinite(typeT));
  encMin = a.t.toFloat(
      minArith.select(minArith.less(encMin, lowest), lowest, encMin), typeT);

  // 3. The quantizer's parameters, in f32.
  Value minF = a.f32.toFloat(encMin, typeF),
        maxF = a.f32.toFloat(encMax, typeF);
  Value scale = a.f32.div(a.f32.sub(maxF, minF), a.f32.constant(n));
  Value smallest = a.f32.constantFloat(minScale);
  scale = a.f32.select(a.f32.less(scale, smallest), smallest, scale);
  Value offset;
  if (symmetric) {
    // -round((qmin + qmax) / 2): Python rounds the half to even.
    double middle = std::nearbyint(
        (static_cast<double>(range.qmin) + static_cast<double>(range.qmax)) /
        2.0);
    offset = a.f32.constantFloat(middle == 0 ? 0.0 : -middle);
  } else {
    offset = a.f32.sub(a.f32.roundEven(a.f32.div(minF, scale)),
                       a.f32.constant(range.qmin));
    Value low = a.f32.constant(-range.qmax), high = a.f32.constant(-range.qmin);
    offset = a.f32.select(a.f32.less(offset, low), low, offset);
    offset = a.f32.select(a.f32.less(high, offset), high, offset);
  }
  return {scale, offset};
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_CALIBRATIONFORMULA_H
