//===- BlockScaleFormula.h - block_scale's rules, written once --*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The scale quant_affine.block_scale computes for one block from the block's
// minimum and maximum, as one template over the arithmetic, like Formula.h:
// the linalg lowering instantiates it with arith ops, the constant folder
// with APFloat/APInt, so that folding never changes a bit.
//
// The power-of-two rules work on the f32 bits of amax: its exponent field E
// and mantissa field M, and, for rceil and nearest, its exact significand
// (denormals normalized with a count of leading zeros) compared with
// thresholds computed here in integers, so that ceil(log2(amax / max)) and
// round(log2(amax / max)) are exact: no division, no logarithm.
//
// An `Arith` provides, on f32 values (F) and i32 values (I):
//   F toF32(F v);                       // extf from f16/bf16/f32, exact
//   F negF(F), maximumF(F, F), minimumF(F, F), divF(F, F);  // arith's
//   F f32(float v);                     // a constant
//   F truncF(F v, Type to);             // RNE to f16/bf16/f8E4M3FN
//   I bitsOf(F v);                      // bitcast to i32
//   I i32(int64_t v);
//   I andI(I, I), orI(I, I), addI(I, I), subI(I, I), shrUI(I, I),
//     shlI(I, I), maxSI(I, I), minSI(I, I), ctlz(I);
//   I cmpI(arith::CmpIPredicate, I, I); // an i1
//   I extUI(I flag);                    // i1 to i32
//   V select(I flag, V, V);
//   V e8m0(I code);                     // the f8E8M0FNU with byte `code`
//   F e8m0ToF32(V);                     // its value (2^-127 a denormal)
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

/// One block's scale of type `result` from its minimum and maximum (f16,
/// bf16 or f32), and the f32 `tensorScale` of two-level NVFP4 (when
/// `hasTensorScale`).
template <typename Arith, typename F>
auto blockScaleFormula(Arith &a, const BlockScaleRule &rule, F min, F max,
                       bool hasTensorScale, F tensorScale, Type result) {
  using P = arith::CmpIPredicate;
  min = a.toF32(min);
  max = a.toF32(max);
  // amax = max(-min, max); NaN propagates.
  F amax = a.maximumF(a.negF(min), max);
  if (rule.rounding.empty()) {
    F scale = a.divF(amax, a.f32(static_cast<float>(rule.maxElement)));
    if (!isa<Float8E4M3FNType>(result))
      return a.truncF(scale, result);
    // NVFP4: over the per-tensor scale, clamped to E4M3's [2^-6, 448]
    // (NaN stays), rounded to nearest even.
    if (hasTensorScale)
      scale = a.divF(scale, tensorScale);
    scale = a.minimumF(a.maximumF(scale, a.f32(0x1p-6f)), a.f32(448.0f));
    return a.truncF(scale, result);
  }

  auto bits = a.bitsOf(amax);
  auto field = a.andI(a.shrUI(bits, a.i32(23)), a.i32(0xFF));
  auto mantissa = a.andI(bits, a.i32(0x7FFFFF));
  auto nonFinite = a.cmpI(P::eq, field, a.i32(0xFF));
  auto e = a.subI(field, a.i32(127)); // -127 for zero and denormals
  auto nanScale = nonFinite;
  auto k = e;
  if (rule.rounding == "floor") {
    k = a.subI(e, a.i32(rule.emaxElement));
  } else if (rule.rounding == "ceil") {
    k = a.addI(a.subI(e, a.i32(rule.emaxElement)),
               a.extUI(a.cmpI(P::ne, mantissa, a.i32(0))));
  } else if (rule.rounding == "even") {
    // torchao's EVEN: amax rounded to the element's mantissa width by adding
    // half its last place to the bits; a carry to the all-ones exponent is a
    // NaN scale.
    auto rounded =
        a.andI(a.addI(bits, a.i32(int64_t{1} << (22 - rule.mantissaBits))),
               a.i32(0x7F800000));
    auto roundedField = a.shrUI(rounded, a.i32(23));
    nanScale = a.orI(nonFinite, a.cmpI(P::eq, roundedField, a.i32(0xFF)));
    k = a.subI(a.subI(roundedField, a.i32(127)), a.i32(rule.emaxElement));
  } else {
    // rceil and nearest: amax = S 2^(ea - 23) with S in [2^23, 2^24),
    // denormals normalized; max = Sm 2^(em - 23) likewise.
    auto [maxSignificand, maxExponent] =
        significandAndExponent(rule.maxElement);
    auto denormal = a.cmpI(P::eq, field, a.i32(0));
    auto shift = a.subI(a.ctlz(mantissa), a.i32(8));
    auto significand = a.select(denormal, a.shlI(mantissa, shift),
                                a.orI(mantissa, a.i32(0x800000)));
    auto ea = a.select(denormal, a.subI(a.i32(-126), shift), e);
    auto atLeast = a.cmpI(P::sge, significand, a.i32(maxSignificand));
    auto base = a.subI(ea, a.i32(maxExponent));
    if (rule.rounding == "rceil") {
      k = a.addI(base,
                 a.extUI(a.cmpI(P::sgt, significand, a.i32(maxSignificand))));
    } else {
      // q = amax / max = (S / Sm) 2^base, j = floor(log2 q) = base - 1 + [S
      // >= Sm]; up when (q / 2^j)^2 >= 2: S^2 >= 2 Sm^2 when S >= Sm, else
      // 2 S^2 >= Sm^2, each a threshold on S.
      int64_t square = maxSignificand * maxSignificand;
      auto j = a.subI(base, a.subI(a.i32(1), a.extUI(atLeast)));
      auto upAbove = a.cmpI(P::sge, significand,
                            a.i32(smallestWithSquareAtLeast(1, 2 * square)));
      auto upBelow = a.cmpI(P::sge, significand,
                            a.i32(smallestWithSquareAtLeast(2, square)));
      k = a.addI(j, a.extUI(a.select(atLeast, upAbove, upBelow)));
    }
    // A zero block: the smallest scale.
    k = a.select(a.cmpI(P::eq, bits, a.i32(0)), a.i32(-127), k);
  }
  // k clamped to [-127, 127]; the byte k + 127, 0xFF for NaN.
  k = a.minSI(a.maxSI(k, a.i32(-127)), a.i32(127));
  auto scale = a.e8m0(a.select(nanScale, a.i32(0xFF), a.addI(k, a.i32(127))));
  return isa<Float8E8M0FNUType>(result) ? scale : a.e8m0ToF32(scale);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_BLOCKSCALEFORMULA_H
