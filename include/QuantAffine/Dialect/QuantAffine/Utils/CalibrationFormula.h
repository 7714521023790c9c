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
#include <optional>
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

/// The largest finite value of `type`, as a double (exact: f16, bf16, f32
/// and f64 values are all doubles).
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
computeAimetEncodingFromMinMax(CalibrationArith<Arith> a,
                               typename Arith::Value mn,
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

/// torchao's choice of mapping and zero point (compute_encoding's
/// `torchao` properties).
struct TorchaoChoice {
  bool symmetric = false, noClippingErr = false, preserveZero = true,
       floatZeroPoint = false;
  double eps = 0;
};

/// torchao's default eps for `type` (0.10: finfo(T).eps).
inline double torchaoDefaultEps(FloatType type) {
  return std::ldexp(1.0, 1 - static_cast<int>(llvm::APFloat::semanticsPrecision(
                                 type.getFloatSemantics())));
}

/// From an encoding's minimum `mn` and maximum `mx` (in T) to its scale and
/// offset (in T), as torchao 0.10's choose_qparams_affine computes them:
/// every step in T, a T value combined with a Python number in f32 for f16
/// and bf16 (the number kept in f32), in T otherwise. The offset is
/// `0 - zero point`, or torchao's FLOAT-domain zero point with
/// `floatZeroPoint`.
template <typename Arith>
std::pair<typename Arith::Value, typename Arith::Value>
computeTorchaoEncodingFromMinMax(CalibrationArith<Arith> a,
                                 typename Arith::Value mn,
                                 typename Arith::Value mx, QuantRange range,
                                 const TorchaoChoice &choice) {
  using Value = typename Arith::Value;
  FloatType typeT = a.t.compute;
  Arith &opmath = computesInF32(typeT) ? a.f32 : a.t;
  // `v op number` (or `number op v`), as PyTorch computes a tensor with a
  // Python number.
  auto withNumber = [&](auto op, Value v, double number, bool numberFirst) {
    Value wide = opmath.toFloat(v, opmath.compute);
    Value constant = opmath.constantFloat(number);
    Value r =
        numberFirst ? op(opmath, constant, wide) : op(opmath, wide, constant);
    return a.t.toFloat(r, typeT);
  };
  auto div = [](Arith &m, Value x, Value y) { return m.div(x, y); };
  auto mul = [](Arith &m, Value x, Value y) { return m.mul(x, y); };
  auto sub = [](Arith &m, Value x, Value y) { return m.sub(x, y); };
  auto clampBelow = [&](Value v, double bound) {
    Value low = a.t.constantFloat(bound);
    return a.t.select(a.t.less(v, low), low, v);
  };
  int64_t qmin = range.qmin, qmax = range.qmax;

  Value zero = a.t.constant(0);
  Value lo = mn, hi = mx;
  if (choice.preserveZero) {
    // min(mn, 0) and max(mx, 0) as NumPy/PyTorch give them: NaN kept, and a
    // zero of either sign becomes +0 (adding +0 does exactly that).
    lo = a.t.add(a.t.select(a.t.less(zero, mn), zero, mn), zero);
    hi = a.t.add(a.t.select(a.t.less(mx, zero), zero, mx), zero);
  }
  Value scale, zeroPoint;
  if (choice.symmetric) {
    if (choice.noClippingErr) {
      Value low = withNumber(div, lo, double(qmin), false);
      Value high = withNumber(div, hi, double(qmax), false);
      scale = a.t.select(a.t.less(high, low), low, high);
    } else {
      Value largest = a.t.maximum(a.t.mul(lo, a.t.constant(-1)), hi);
      scale = withNumber(div, largest, double(qmax - qmin) / 2, false);
    }
    scale = clampBelow(scale, choice.eps);
    zeroPoint =
        a.t.constantFloat(std::trunc((double(qmax) + double(qmin) + 1) / 2));
  } else {
    scale = withNumber(div, a.t.sub(hi, lo), double(qmax - qmin), false);
    scale = clampBelow(scale, choice.eps);
    if (choice.preserveZero) {
      zeroPoint = withNumber(sub, a.t.roundEven(a.t.div(lo, scale)),
                             double(qmin), true);
      Value low = a.t.constantFloat(double(qmin)),
            high = a.t.constantFloat(double(qmax));
      zeroPoint = a.t.select(a.t.less(zeroPoint, low), low, zeroPoint);
      zeroPoint = a.t.select(a.t.less(high, zeroPoint), high, zeroPoint);
    } else {
      double middle = (double(qmax) + double(qmin) + 1) / 2;
      zeroPoint = a.t.add(lo, withNumber(mul, scale, middle, false));
    }
  }
  Value offset = choice.floatZeroPoint ? zeroPoint : a.t.sub(zero, zeroPoint);
  return {scale, offset};
}

/// Everything compute_encoding's properties choose: the grid, and AIMET's
/// symmetric flag or torchao's convention.
struct EncodingChoice {
  QuantRange range;
  bool symmetric = false;
  std::optional<TorchaoChoice> torchao;
};

/// An encoding's scale and offset from its minimum and maximum, by the
/// convention `choice` names: the one entry point of the folder and the
/// lowering.
template <typename Arith>
std::pair<typename Arith::Value, typename Arith::Value>
computeEncodingFromMinMax(CalibrationArith<Arith> a, typename Arith::Value mn,
                          typename Arith::Value mx,
                          const EncodingChoice &choice) {
  if (choice.torchao)
    return computeTorchaoEncodingFromMinMax(a, mn, mx, choice.range,
                                            *choice.torchao);
  return computeAimetEncodingFromMinMax(a, mn, mx, choice.range,
                                        choice.symmetric);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_CALIBRATIONFORMULA_H
