//===- BlockScale.cpp - block_scale's formulas as arith ops ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The power-of-two rules work on the f32 bits of amax: its exponent field E
// and mantissa field M, and, for rceil and nearest, its exact significand
// (denormals normalized with a count of leading zeros) compared with the
// element's largest value in integers, so that ceil(log2(amax / max)) and
// round(log2(amax / max)) are exact: no division, no logarithm.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/BlockScale.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// Scalar integer arithmetic of one width at one location.
struct Ints {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value andi(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, c(m));
  }
  Value shr(Value x, int64_t n) {
    return arith::ShRUIOp::create(b, loc, x, c(n));
  }
  Value shl(Value x, Value n) { return arith::ShLIOp::create(b, loc, x, n); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value ext(Value flag) { return arith::ExtUIOp::create(b, loc, type, flag); }
  Value widen(Value x) { return arith::ExtUIOp::create(b, loc, type, x); }
};

} // namespace

BlockScaleRule mlir::quant_affine::blockScaleRuleOf(BlockScaleOp op) {
  BlockScaleRule rule;
  if (auto rounding = op.getRoundingAttr())
    rule.rounding = rounding.getValue().str();
  auto limits = *BlockScaleOp::elementLimits(op.getElement());
  rule.maxElement = limits.first;
  rule.emaxElement = limits.second;
  Type element = op.getElement();
  if (auto floatType = dyn_cast<FloatType>(element))
    rule.mantissaBits = floatType.getFPMantissaWidth() - 1;
  else
    rule.mantissaBits = 6; // MXINT8: 6 fraction bits below the units
  return rule;
}

Value mlir::quant_affine::emitBlockScale(OpBuilder &b, Location loc,
                                         const BlockScaleRule &rule, Value min,
                                         Value max, Value tensorScale,
                                         Type result) {
  Type f32 = b.getF32Type();
  if (min.getType() != f32) {
    min = arith::ExtFOp::create(b, loc, f32, min);
    max = arith::ExtFOp::create(b, loc, f32, max);
  }
  // amax = max(-min, max); NaN propagates.
  Value amax = arith::MaximumFOp::create(
      b, loc, arith::NegFOp::create(b, loc, min), max);
  if (rule.rounding.empty()) {
    Value limit = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(rule.maxElement)));
    Value scale = arith::DivFOp::create(b, loc, amax, limit);
    if (!isa<Float8E4M3FNType>(result))
      return result == f32
                 ? scale
                 : arith::TruncFOp::create(b, loc, result, scale).getResult();
    // NVFP4: over the per-tensor scale, clamped to E4M3's [2^-6, 448]
    // (NaN stays), rounded to nearest even.
    if (tensorScale)
      scale = arith::DivFOp::create(b, loc, scale, tensorScale);
    Value lo = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p-6f));
    Value hi = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(448.0f));
    scale = arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, scale, lo), hi);
    return arith::TruncFOp::create(b, loc, result, scale);
  }

  Ints i{b, loc, b.getI32Type()};
  Ints w{b, loc, b.getI64Type()};
  using P = arith::CmpIPredicate;
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), amax);
  Value field = i.andi(i.shr(bits, 23), 0xFF);
  Value mantissa = i.andi(bits, 0x7FFFFF);
  Value nonFinite = i.cmp(P::eq, field, i.c(0xFF));
  Value e = i.sub(field, i.c(127)); // -127 for zero and denormals
  Value k;
  Value nanScale = nonFinite;
  if (rule.rounding == "floor") {
    k = i.sub(e, i.c(rule.emaxElement));
  } else if (rule.rounding == "ceil") {
    k = i.add(i.sub(e, i.c(rule.emaxElement)),
              i.ext(i.cmp(P::ne, mantissa, i.c(0))));
  } else if (rule.rounding == "even") {
    // torchao's EVEN: amax rounded to the element's mantissa width by
    // adding half its last place to the bits; a carry to the all-ones
    // exponent is a NaN scale.
    Value rounded = i.andi(
        i.add(bits, i.c(int64_t{1} << (22 - rule.mantissaBits))), 0x7F800000);
    Value roundedField = i.shr(rounded, 23);
    nanScale = arith::OrIOp::create(b, loc, nonFinite,
                                    i.cmp(P::eq, roundedField, i.c(0xFF)));
    k = i.sub(i.sub(roundedField, i.c(127)), i.c(rule.emaxElement));
  } else {
    // rceil and nearest: amax = S 2^(ea - 23) with S in [2^23, 2^24),
    // denormals normalized; max = Sm 2^(em - 23) likewise.
    int exponent = 0;
    double fraction = std::frexp(rule.maxElement, &exponent); // [0.5, 1)
    int64_t maxSignificand = static_cast<int64_t>(std::ldexp(fraction, 24));
    int64_t maxExponent = exponent - 1;
    Value denormal = i.cmp(P::eq, field, i.c(0));
    Value shift =
        i.sub(math::CountLeadingZerosOp::create(b, loc, mantissa).getResult(),
              i.c(8));
    Value significand =
        i.select(denormal, i.shl(mantissa, shift),
                 arith::OrIOp::create(b, loc, mantissa, i.c(0x800000)));
    Value ea = i.select(denormal, i.sub(i.c(-126), shift), e);
    Value atLeast = i.cmp(P::sge, significand, i.c(maxSignificand));
    if (rule.rounding == "rceil") {
      k = i.add(i.sub(ea, i.c(maxExponent)),
                i.ext(i.cmp(P::sgt, significand, i.c(maxSignificand))));
    } else {
      // j = floor(log2 q); up when (q / 2^j)^2 >= 2, in 64-bit integers.
      Value j =
          i.sub(i.sub(ea, i.c(maxExponent)),
                i.ext(arith::XOrIOp::create(
                    b, loc, atLeast,
                    arith::ConstantOp::create(b, loc, b.getBoolAttr(true)))));
      Value s = w.widen(significand);
      Value square = w.mul(s, s);
      int64_t maxSquare = maxSignificand * maxSignificand;
      Value up = i.select(atLeast, w.cmp(P::sge, square, w.c(2 * maxSquare)),
                          w.cmp(P::sge, w.add(square, square), w.c(maxSquare)));
      k = i.add(j, i.ext(up));
    }
    // A zero block: the smallest scale.
    Value zero = i.cmp(P::eq, bits, i.c(0));
    k = i.select(zero, i.c(-127), k);
  }
  // k clamped to [-127, 127]; the byte k + 127, 0xFF for NaN.
  k = arith::MaxSIOp::create(b, loc, k, i.c(-127));
  k = arith::MinSIOp::create(b, loc, k, i.c(127));
  Value code = i.select(nanScale, i.c(0xFF), i.add(k, i.c(127)));
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), code);
  Value e8m0 =
      arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(), byte);
  // As f32: its value (quant-affine-expand-narrow-floats decodes the extf).
  if (!isa<Float8E8M0FNUType>(result))
    return arith::ExtFOp::create(b, loc, f32, e8m0);
  return e8m0;
}
