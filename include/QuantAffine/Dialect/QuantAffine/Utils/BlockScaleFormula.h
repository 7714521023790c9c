//===- BlockScaleFormula.h - block_scale's rules, written once --*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The scale quant_affine.block_scale computes for one block from the block's
// largest magnitude amax, as one template over the arithmetic, like Formula.h:
// the linalg lowering instantiates it with arith ops, the constant folder
// with APFloat/APInt, so that folding never changes a bit.
//
// The power-of-two rules work on the f32 bits of amax: its exponent field E
// and mantissa field M, and, for rceil and nearest, its exact significand
// (denormals normalized with a count of leading zeros) compared with
// thresholds computed here in integers, so that ceil(log2(amax / max)) and
// round(log2(amax / max)) are exact: no division, no logarithm.
//
// The `Arith` is Formula.h's, computing in f32 (ArithEmitter, the folder's
// APFloatArith), with its bit-level steps in i32, plus
//   shrUI, shlI, countLeadingZeros, cmpI(predicate, x, y) -> i1,
//   extUI(i1) -> i32, narrowFromBits(i32, FloatType), negate, minimum.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_BLOCKSCALEFORMULA_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_BLOCKSCALEFORMULA_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace mlir {
namespace quant_affine {

/// What block_scale computes: the element format's limits, the rounding
/// rule for power-of-two scales (empty: amax / max).
struct BlockScaleRule {
  std::string rounding;
  double maxElement = 0;
  int64_t emaxElement = 0;
  /// The element's mantissa bits, which torchao's EVEN rounds amax to.
  int64_t mantissaBits = 0;
};

/// `max` = Sm 2^(em - 23) with Sm in [2^23, 2^24): its significand Sm and
/// exponent em.
inline std::pair<int64_t, int64_t> significandAndExponent(double max) {
  int exponent = 0;
  double fraction = std::frexp(max, &exponent); // [0.5, 1)
  return {static_cast<int64_t>(std::ldexp(fraction, 24)), exponent - 1};
}

/// The smallest integer S >= 0 with factor * S^2 >= target, in exact
/// 64-bit integers (target < 2^50).
inline int64_t smallestWithSquareAtLeast(int64_t factor, int64_t target) {
  auto reaches = [&](int64_t s) { return factor * s * s >= target; };
  int64_t s = static_cast<int64_t>(
      std::sqrt(static_cast<double>(target) / static_cast<double>(factor)));
  while (s > 0 && reaches(s - 1))
    --s;
  while (!reaches(s))
    ++s;
  return s;
}

/// One block's scale of type `result` from its largest magnitude `amax`
/// (f16, bf16 or f32: max |x| over the block, NaN if any element is), and
/// the f32 `tensorScale` of two-level NVFP4 (when `hasTensorScale`).
template <typename Arith, typename F>
F blockScaleFormula(Arith &a, const BlockScaleRule &rule, F amax,
                    bool hasTensorScale, F tensorScale, Type result) {
  using P = arith::CmpIPredicate;
  MLIRContext *ctx = result.getContext();
  FloatType f32 = Float32Type::get(ctx);
  amax = a.toFloat(amax, f32);
  if (rule.rounding.empty()) {
    F scale = a.div(amax, a.constantFloat(rule.maxElement));
    if (!isa<Float8E4M3FNType>(result))
      return a.toFloat(scale, cast<FloatType>(result));
    // NVFP4: over the per-tensor scale, clamped to E4M3's [2^-6, 448]
    // (NaN stays), rounded to nearest even.
    if (hasTensorScale)
      scale = a.div(scale, tensorScale);
    scale = a.minimum(a.maximum(scale, a.constantFloat(0x1p-6)),
                      a.constantFloat(448.0));
    return a.toFloat(scale, cast<FloatType>(result));
  }

  auto c = [&](int64_t v) { return a.intConstant(v); };
  F bits = a.bitsOf(amax);
  F field = a.andI(a.shrUI(bits, c(23)), c(0xFF));
  F mantissa = a.andI(bits, c(0x7FFFFF));
  F nonFinite = a.cmpI(P::eq, field, c(0xFF));
  F e = a.subI(field, c(127)); // -127 for zero and denormals
  F nanScale = nonFinite;
  F k = e;
  if (rule.rounding == "floor") {
    k = a.subI(e, c(rule.emaxElement));
  } else if (rule.rounding == "ceil") {
    k = a.addI(a.subI(e, c(rule.emaxElement)),
               a.extUI(a.cmpI(P::ne, mantissa, c(0))));
  } else if (rule.rounding == "even") {
    // torchao's EVEN: amax rounded to the element's mantissa width by adding
    // half its last place to the bits; a carry to the all-ones exponent is a
    // NaN scale.
    F rounded = a.andI(a.addI(bits, c(int64_t{1} << (22 - rule.mantissaBits))),
                       c(0x7F800000));
    F roundedField = a.shrUI(rounded, c(23));
    nanScale = a.orI(nonFinite, a.cmpI(P::eq, roundedField, c(0xFF)));
    k = a.subI(a.subI(roundedField, c(127)), c(rule.emaxElement));
  } else {
    // rceil and nearest: amax = S 2^(ea - 23) with S in [2^23, 2^24),
    // denormals normalized; max = Sm 2^(em - 23) likewise.
    auto [maxSignificand, maxExponent] =
        significandAndExponent(rule.maxElement);
    F denormal = a.cmpI(P::eq, field, c(0));
    F shift = a.subI(a.countLeadingZeros(mantissa), c(8));
    F significand = a.select(denormal, a.shlI(mantissa, shift),
                             a.orI(mantissa, c(0x800000)));
    F ea = a.select(denormal, a.subI(c(-126), shift), e);
    F atLeast = a.cmpI(P::sge, significand, c(maxSignificand));
    F base = a.subI(ea, c(maxExponent));
    if (rule.rounding == "rceil") {
      k = a.addI(base, a.extUI(a.cmpI(P::sgt, significand, c(maxSignificand))));
    } else {
      // q = amax / max = (S / Sm) 2^base, j = floor(log2 q) = base - 1 + [S
      // >= Sm]; up when (q / 2^j)^2 >= 2: S^2 >= 2 Sm^2 when S >= Sm, else
      // 2 S^2 >= Sm^2, each a threshold on S.
      int64_t square = maxSignificand * maxSignificand;
      F j = a.subI(base, a.subI(c(1), a.extUI(atLeast)));
      F upAbove = a.cmpI(P::sge, significand,
                         c(smallestWithSquareAtLeast(1, 2 * square)));
      F upBelow =
          a.cmpI(P::sge, significand, c(smallestWithSquareAtLeast(2, square)));
      k = a.addI(j, a.extUI(a.select(atLeast, upAbove, upBelow)));
    }
    // A zero block: the smallest scale.
    k = a.select(a.cmpI(P::eq, bits, c(0)), c(-127), k);
  }
  // k clamped to [-127, 127]; the byte k + 127, 0xFF for NaN.
  k = a.minSI(a.maxSI(k, c(-127)), c(127));
  F scale = a.narrowFromBits(a.select(nanScale, c(0xFF), a.addI(k, c(127))),
                             Float8E8M0FNUType::get(ctx));
  return isa<Float8E8M0FNUType>(result) ? scale : a.toFloat(scale, f32);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_BLOCKSCALEFORMULA_H
