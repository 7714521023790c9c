//===- ExpandNarrowFloats.cpp - float8/float4 conversions as integer ops -===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// arith.truncf to and arith.extf from the float8, float6 and float4 types,
// for targets without them (LLVM has none). From f32, the rounding happens on
// the bits (integer rounding for normal results, one f32 addition for
// subnormal ones; after quantize's clamp, one f32 addition for both); from
// f64, by Utils/FloatFormula.h's roundToGrid (exponent
// bits give the quantum, one roundeven rounds), then the bits of the narrow
// value are assembled with shifts. test/Integration/CPU/narrow-float-*.mlir
// check the conversions; utils/narrow-encode-f32 every f32 input.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "QuantAffine/Conversion/QuantAffineToArith/ArithEmitter.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/FloatFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEEXPANDNARROWFLOATSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// A narrow float format: its fields, smallest normal exponent, largest
/// value and special encodings.
struct NarrowFormat {
  int64_t exponentBits = 0, mantissaBits = 0, minExponent = 0, maxExponent = 0;
  double maxValue = 0;
  int64_t maxCode = 0; ///< maxValue's code.
  /// The NaN code, or none (f4E2M1FN has no NaN: APFloat, and so
  /// arith.truncf's folding, makes it a zero of NaN's sign, and overflow
  /// saturates).
  std::optional<int64_t> nanCode;
  std::optional<int64_t> infCode; ///< +inf, where the type has one.
  bool unsignedZero = false;      ///< FNUZ: no -0, 0x80 is NaN.
  int64_t bias() const { return 1 - minExponent; }
  int64_t width() const { return 1 + exponentBits + mantissaBits; }
  int64_t largestCode() const {
    return (int64_t{1} << (exponentBits + mantissaBits)) - 1;
  }
};

/// The format of a narrow float storage type, as APFloat (and so
/// arith.truncf's folding) defines it.
std::optional<NarrowFormat> formatOf(Type type) {
  if (!quant_affine::isNarrowFloatStorage(type))
    return std::nullopt;
  const llvm::fltSemantics &sem = cast<FloatType>(type).getFloatSemantics();
  int64_t mantissa = llvm::APFloat::semanticsPrecision(sem) - 1;
  NarrowFormat f;
  f.exponentBits = llvm::APFloat::semanticsSizeInBits(sem) - 1 - mantissa;
  f.mantissaBits = mantissa;
  f.minExponent = llvm::APFloat::semanticsMinExponent(sem);
  f.maxExponent = llvm::APFloat::semanticsMaxExponent(sem);
  llvm::APFloat largest = llvm::APFloat::getLargest(sem);
  f.maxValue = largest.convertToDouble(); // exact
  f.maxCode = largest.bitcastToAPInt().getZExtValue();
  if (llvm::APFloat::semanticsHasNaN(sem))
    f.nanCode = llvm::APFloat::getNaN(sem).bitcastToAPInt().getZExtValue();
  if (llvm::APFloat::semanticsHasInf(sem))
    f.infCode = llvm::APFloat::getInf(sem).bitcastToAPInt().getZExtValue();
  // The FNUZ types: -0 is the NaN code, so a negative zero is +0.
  f.unsignedZero = !llvm::APFloat::getZero(sem, /*Negative=*/true).isNegative();
  return f;
}

/// Builds scalar or vector ops shaped like `shapeLike`.
struct Builder {
  PatternRewriter &b;
  Location loc;
  Type shapeLike;

  Type like(Type elem) const {
    if (auto vec = dyn_cast<VectorType>(shapeLike))
      return vec.clone(elem);
    return elem;
  }
  Value intConst(IntegerType type, int64_t v) {
    TypedAttr attr = b.getIntegerAttr(
        type, llvm::APInt(type.getWidth(), static_cast<uint64_t>(v),
                          /*isSigned=*/true, /*implicitTrunc=*/true));
    if (auto vec = dyn_cast<VectorType>(like(type)))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value floatConst(FloatType type, double v) {
    TypedAttr attr = b.getFloatAttr(type, v);
    if (auto vec = dyn_cast<VectorType>(like(type)))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value bitcast(Value v, Type elem) {
    return arith::BitcastOp::create(b, loc, like(elem), v);
  }
  Value cmpI(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
};

/// Whether encodeSaturatedF32 takes format `f`: a -0, a mantissa bit, and
/// an infinity, no NaN, or a NaN code just above the largest (all seven
/// narrow float storage types but the FNUZ ones).
bool hasOneAdditionEncoding(const NarrowFormat &f) {
  return !f.unsignedZero && f.mantissaBits > 0 &&
         (f.infCode || !f.nanCode || *f.nanCode == f.maxCode + 1);
}

/// encodeF32's saturated result for f32 `x` whose magnitude, clamped to the
/// format's largest value (NaN passing), has the bits `abs`, for the
/// formats hasOneAdditionEncoding accepts. Normal and subnormal magnitudes
/// round in one f32 addition t = |x| + C, with
/// E = max(exponent(|x|), minExponent) and C = 2^(E + S) + k ulps,
/// S = 23 - M: C's binade has the narrow quantum of binade E as its ulp, so
/// the addition rounds |x| to a count n of quanta, to nearest even (k is
/// even: G below is a multiple of 2^M, M >= 1, and the sign adds
/// 2^(width - 1)), and t's bits are ((E + S + 127) << 23) + k + n. The code
/// is (E - minExponent) * 2^M + n; with G = -(127 + S + minExponent) * 2^M
/// modulo 2^width, the low `width` bits of t + (t >> S) are that code.
/// Unlike encodeF32's two roundings, joined by a compare and a select, none
/// is needed. utils/narrow-encode-f32 checks every f32 input.
///
/// Assumes rounding to nearest even. Flushing subnormals changes nothing:
/// an f32 subnormal is below half the smallest narrow quantum and rounds to
/// 0 anyway, and C and t are always normal.
///
/// The sign rides in C as 2^(width - 1) more ulps. Where NaN's code is the
/// one above the largest (f8E4M3FN's 0x7F), a NaN magnitude is first
/// lowered to the value that code would have (an unsigned minimum of the
/// bits, which every other magnitude is below), and so encodes to it, and
/// the sign is taken from x clamped above by the largest value, which a NaN
/// fails: NaN's code is positive. Otherwise a NaN magnitude makes C's
/// exponent wrap, the sum is NaN either way, and its code is replaced
/// afterwards, as encodeF32 does.
Value encodeSaturatedF32(Builder &z, Value x, Value abs,
                         const NarrowFormat &f) {
  OpBuilder &b = z.b;
  Location loc = z.loc;
  IntegerType i32 = b.getI32Type();
  FloatType f32 = b.getF32Type();
  auto c = [&](int64_t v) { return z.intConst(i32, v); };
  int64_t m = f.mantissaBits, shift = 23 - m;
  int64_t widthMask = (int64_t{1} << f.width()) - 1;

  bool nanAboveLargest = f.nanCode && !f.infCode && *f.nanCode == f.maxCode + 1;
  Value signSource = z.bitcast(x, i32);
  if (nanAboveLargest) {
    Value largest = z.floatConst(f32, f.maxValue);
    signSource =
        z.bitcast(z.select(arith::CmpFOp::create(
                               b, loc, arith::CmpFPredicate::OLT, x, largest),
                           x, largest),
                  i32);
  }
  Value sign = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, signSource, c(32 - f.width())),
      c(int64_t{1} << (f.width() - 1)));
  if (nanAboveLargest) {
    float nanValue = static_cast<float>(
        f.maxValue + std::ldexp(1.0, f.maxExponent - m)); // exact
    abs = arith::MinUIOp::create(b, loc, abs,
                                 c(llvm::bit_cast<uint32_t>(nanValue)));
  }
  float smallestNormal = std::ldexp(1.0f, f.minExponent);
  // The sign in C's mantissa: still in C's binade, still even, and below
  // the bits that t >> S brings down.
  Value signedBinade = arith::OrIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc,
                             arith::AndIOp::create(b, loc, abs, c(0x7F800000)),
                             c(llvm::bit_cast<uint32_t>(smallestNormal))),
      sign);
  int64_t offsetG =
      (-(127 + shift + f.minExponent) * (int64_t{1} << m)) & widthMask;
  Value addend =
      arith::AddIOp::create(b, loc, signedBinade, c((shift << 23) + offsetG));
  Value sum = z.bitcast(arith::AddFOp::create(b, loc, z.bitcast(abs, f32),
                                              z.bitcast(addend, f32)),
                        i32);
  Value code = arith::AddIOp::create(
      b, loc, sum, arith::ShRUIOp::create(b, loc, sum, c(shift)));

  if (nanAboveLargest)
    return arith::TruncIOp::create(b, loc, z.like(b.getIntegerType(f.width())),
                                   code);
  assert((f.infCode || !f.nanCode) &&
         "a format hasOneAdditionEncoding rejects");
  // The type's NaN, or (no NaN) a zero of NaN's sign.
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  code = z.select(isNaN, f.infCode ? c(*f.nanCode) : sign, code);
  return arith::TruncIOp::create(b, loc, z.like(b.getIntegerType(f.width())),
                                 code);
}

/// encodeOnGrid's result for f32 `x`, from its bits (the method of F.
/// Giesen's float_to_half_fast3_rtne): a normal result rounds to nearest
/// even in integer arithmetic, the rounding's carry moving into the exponent
/// field; a subnormal one rounds in the f32 addition t = |x| + C with
/// C = 2^(minExponent - M + 23), whose ulp is the narrow quantum: t's bits
/// are C's plus the code (2^M, the smallest normal code, where it rounds
/// up). About half of encodeOnGrid's vector instructions (13 instead of 30
/// on AVX2 for f8E4M3FN); utils/narrow-encode-f32 compares the two on every
/// f32 input.
///
/// With `saturate`, the result is that of `x` clamped to the format's range
/// first (the clamp quantize applies): the magnitude is limited to maxValue,
/// one minimum where the clamp took two; NaN passes (the compare is false).
/// The rounding is then encodeSaturatedF32's, for every format it takes.
Value encodeF32(Builder &z, Value x, const NarrowFormat &f,
                bool saturate = false) {
  OpBuilder &b = z.b;
  Location loc = z.loc;
  IntegerType i32 = b.getI32Type();
  FloatType f32 = b.getF32Type();
  auto c = [&](int64_t v) { return z.intConst(i32, v); };
  int64_t m = f.mantissaBits, shift = 23 - m;

  Value bits = z.bitcast(x, i32);
  Value abs = arith::AndIOp::create(b, loc, bits, c(0x7FFFFFFF));
  Value magnitude = z.bitcast(abs, f32);
  if (saturate) {
    Value largest = z.floatConst(f32, f.maxValue);
    magnitude =
        z.select(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                       largest, magnitude),
                 largest, magnitude);
    abs = z.bitcast(magnitude, i32);
    if (hasOneAdditionEncoding(f))
      return encodeSaturatedF32(z, x, abs, f);
  }
  // Normal: add just under half an ulp of the narrow format plus its lsb
  // (ties to even), rebiasing the exponent in the same addition. The
  // arithmetic shift leaves magnitudes below the normal range at most 2^M
  // (negative further down): they neither overflow nor saturate here, and
  // the select below drops them.
  Value odd = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, abs, c(shift)), c(1));
  int64_t rebias = (int64_t{127} - f.bias()) << 23;
  Value rounded = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, abs,
                            c((int64_t{1} << (shift - 1)) - 1 - rebias)),
      odd);
  Value normal = arith::ShRSIOp::create(b, loc, rounded, c(shift));
  // Past the largest code: overflow, inf and NaN (with `saturate`, NaN
  // alone). A saturated magnitude rounds to maxCode at most, and a NaN's
  // code is replaced below (by the NaN code, or by a zero of its sign):
  // only an unclamped input needs the minimum.
  Value overflow;
  if (f.infCode || !f.nanCode) { // to inf, or saturating
    if (!saturate)
      normal = arith::MinSIOp::create(b, loc, normal,
                                      c(f.infCode ? *f.infCode : f.maxCode));
  } else {
    overflow = z.cmpI(arith::CmpIPredicate::sgt, normal, c(f.maxCode));
  }
  // Subnormal: |x| + C stays in C's binade, whose ulp is the narrow
  // quantum, so the addition rounds, and its bits are C's plus the code:
  // C's low 23 bits are zero, so the truncation to the code's width leaves
  // the code (and the sign or'ed in).
  float magic = std::ldexp(1.0f, f.minExponent - m + 23);
  Value subnormal = z.bitcast(
      arith::AddFOp::create(b, loc, magnitude, z.floatConst(f32, magic)), i32);
  Value isSubnormal =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, magnitude,
                            z.floatConst(f32, std::ldexp(1.0, f.minExponent)));
  Value code = z.select(isSubnormal, subnormal, normal);

  Value sign = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, c(0x80000000)),
      c(32 - f.width()));
  if (f.unsignedZero) { // no -0: a zero code (bits(C)) takes no sign
    Value isZero = z.cmpI(arith::CmpIPredicate::eq, code,
                          c(llvm::bit_cast<uint32_t>(magic)));
    sign = z.select(isZero, c(0), sign);
  }
  code = arith::OrIOp::create(b, loc, code, sign);
  if (f.infCode) {
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    code = z.select(isNaN, c(*f.nanCode), code);
  } else if (f.nanCode) {
    code = z.select(overflow, c(*f.nanCode), code);
  } else { // +-inf and NaN: a zero of their sign
    Value special = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::UGE, magnitude,
        z.floatConst(f32, std::numeric_limits<float>::infinity()));
    code = z.select(special, sign, code);
  }
  return arith::TruncIOp::create(b, loc, z.like(b.getIntegerType(f.width())),
                                 code);
}

/// The bits of `x` (f32 or f64) rounded to `f` (arith.truncf), through
/// roundToGrid in x's type.
Value encodeOnGrid(Builder &z, Value x, const NarrowFormat &f) {
  auto src = cast<FloatType>(getElementTypeOrSelf(x));
  bool isF32 = src.isF32();
  int64_t p = isF32 ? 23 : 52, bias = isF32 ? 127 : 1023;
  IntegerType it = z.b.getIntegerType(isF32 ? 32 : 64);
  int64_t signBit = int64_t{1} << (isF32 ? 31 : 63);
  int64_t m = f.mantissaBits;
  auto c = [&](int64_t v) { return z.intConst(it, v); };
  OpBuilder &b = z.b;
  Location loc = z.loc;

  Value bits = z.bitcast(x, it);
  Value sign = arith::AndIOp::create(b, loc, bits, c(signBit));
  Value absBits = arith::AndIOp::create(b, loc, bits, c(~signBit));
  Value magnitude = z.bitcast(absBits, src);
  // |x| on the grid, unbounded above: values past the largest binade get its
  // quantum and overflow below.
  quant_affine::ArithEmitter arith(b, loc, x.getType(), src);
  Value rounded = quant_affine::roundToGrid(arith, magnitude, m, f.minExponent,
                                            f.maxExponent + 1);

  // The code of a grid value within range: rebias a normal one's fields, or
  // count a subnormal one's quanta.
  Value roundedBits = z.bitcast(rounded, it);
  Value isNormal = z.cmpI(arith::CmpIPredicate::sge, roundedBits,
                          c((f.minExponent + bias) << p));
  Value normalCode = arith::SubIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, roundedBits, c(p - m)),
      c((bias - f.bias()) << m));
  Value subnormalCode = arith::FPToUIOp::create(
      b, loc, z.like(it),
      arith::MulFOp::create(
          b, loc, rounded,
          z.floatConst(src, std::ldexp(1.0, m - f.minExponent))));
  Value code = z.select(isNormal, normalCode, subnormalCode);
  Value signCode =
      arith::ShRUIOp::create(b, loc, sign, c((isF32 ? 32 : 64) - f.width()));
  if (f.unsignedZero)
    signCode =
        z.select(z.cmpI(arith::CmpIPredicate::eq, code, c(0)), c(0), signCode);
  code = arith::OrIOp::create(b, loc, code, signCode);
  Value overflow =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, rounded,
                            z.floatConst(src, f.maxValue));
  Value overflowCode =
      f.infCode   ? arith::OrIOp::create(b, loc, signCode, c(*f.infCode))
      : f.nanCode ? c(*f.nanCode)
                  : arith::OrIOp::create(b, loc, signCode, c(f.largestCode()));
  code = z.select(overflow, overflowCode, code);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  code = z.select(isNaN, f.nanCode ? c(*f.nanCode) : signCode, code);
  if (!f.nanCode && !f.infCode) {
    // As APFloat converts: +-inf to a zero of its sign.
    Value isInf = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, magnitude,
        z.floatConst(src, std::numeric_limits<double>::infinity()));
    code = z.select(isInf, signCode, code);
  }
  return arith::TruncIOp::create(b, loc, z.like(b.getIntegerType(f.width())),
                                 code);
}

/// The bits of `x` (f32 or f64) rounded to `f` (arith.truncf).
Value encode(Builder &z, Value x, const NarrowFormat &f) {
  if (getElementTypeOrSelf(x).isF32())
    return encodeF32(z, x, f);
  return encodeOnGrid(z, x, f);
}

/// The f32 value of the bits `code` (i8, or i4 for float4; or already
/// zero-extended to i32) of format `f` (arith.extf).
Value decode(Builder &z, Value code, const NarrowFormat &f) {
  OpBuilder &b = z.b;
  Location loc = z.loc;
  IntegerType i32 = b.getI32Type();
  FloatType f32 = b.getF32Type();
  auto c = [&](int64_t v) { return z.intConst(i32, v); };
  int64_t m = f.mantissaBits;
  Value wide = getElementTypeOrSelf(code).isInteger(32)
                   ? code
                   : Value(arith::ExtUIOp::create(b, loc, z.like(i32), code));
  Value sign = arith::ShLIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, wide, c(f.width() - 1)), c(31));
  Value exponent =
      arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, wide, c(m)),
                            c((int64_t{1} << f.exponentBits) - 1));
  Value mantissa = arith::AndIOp::create(b, loc, wide, c((1 << m) - 1));
  Value normal = arith::OrIOp::create(
      b, loc,
      arith::OrIOp::create(
          b, loc, sign,
          arith::ShLIOp::create(
              b, loc,
              arith::AddIOp::create(b, loc, exponent, c(127 - f.bias())),
              c(23))),
      arith::ShLIOp::create(b, loc, mantissa, c(23 - m)));
  Value subnormalMagnitude = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, z.like(f32), mantissa),
      z.floatConst(f32, std::ldexp(1.0, f.minExponent - m)));
  Value subnormal =
      arith::OrIOp::create(b, loc, z.bitcast(subnormalMagnitude, i32), sign);
  Value bits = z.select(z.cmpI(arith::CmpIPredicate::eq, exponent, c(0)),
                        subnormal, normal);
  // Specials.
  Value nan = c(0x7FC00000);
  Value magnitude = arith::AndIOp::create(b, loc, wide, c(f.largestCode()));
  if (!f.nanCode) {
    // f4E2M1FN: none.
  } else if (f.unsignedZero) {
    bits = z.select(z.cmpI(arith::CmpIPredicate::eq, wide, c(0x80)), nan, bits);
  } else if (f.infCode) {
    Value top = z.cmpI(arith::CmpIPredicate::eq, exponent,
                       c((int64_t{1} << f.exponentBits) - 1));
    Value isInf = z.cmpI(arith::CmpIPredicate::eq, mantissa, c(0));
    Value inf = arith::OrIOp::create(b, loc, sign, c(0x7F800000));
    bits = z.select(top, z.select(isInf, inf, nan), bits);
  } else {
    bits = z.select(
        z.cmpI(arith::CmpIPredicate::eq, magnitude, c(f.largestCode())), nan,
        bits);
  }
  return z.bitcast(bits, f32);
}

/// `x` where `v` is `x` clamped to [-bound, bound] the way quantize clamps
/// (`select(cmpf olt)` against each bound, NaN passing; either bound
/// first), or null.
Value symmetricClampSource(Value v, double bound) {
  auto insideBound = [&](Value clamped, bool upper) -> Value {
    auto select = clamped.getDefiningOp<arith::SelectOp>();
    if (!select)
      return {};
    auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
    Value limit = select.getTrueValue(), inner = select.getFalseValue();
    APFloat limitValue(0.0); // a scalar or splat constant
    if (!compare || compare.getPredicate() != arith::CmpFPredicate::OLT ||
        compare.getLhs() != (upper ? limit : inner) ||
        compare.getRhs() != (upper ? inner : limit) ||
        !matchPattern(limit, m_ConstantFloat(&limitValue)) ||
        !limitValue.isExactlyValue(upper ? bound : -bound))
      return {};
    return inner;
  };
  for (bool upperFirst : {true, false})
    if (Value inner = insideBound(v, upperFirst))
      if (Value source = insideBound(inner, !upperFirst))
        return source;
  return {};
}

/// encode of `x` (f16, bf16, f32 or f64, scalar or vector). An f32 clamped
/// to the format's range (quantize's clamp) is encoded from the value before
/// the clamp, saturating: one minimum of the magnitude where the clamp took
/// two (the clamp's ops stay for any other user).
Value encodeCodes(PatternRewriter &rewriter, Location loc, Value x,
                  const NarrowFormat &f) {
  Builder z{rewriter, loc, x.getType()};
  auto src = cast<FloatType>(getElementTypeOrSelf(x));
  if (src.isF32()) {
    // Through a reshape too (float4 packing makes the codes 1-D first).
    auto reshape = x.getDefiningOp<vector::ShapeCastOp>();
    Value unclamped =
        symmetricClampSource(reshape ? reshape.getSource() : x, f.maxValue);
    if (unclamped && reshape)
      unclamped =
          vector::ShapeCastOp::create(rewriter, loc, x.getType(), unclamped);
    if (unclamped)
      return encodeF32(z, unclamped, f, /*saturate=*/true);
  }
  if (!src.isF32() && !src.isF64()) // f16, bf16: exactly to f32 first
    x = arith::ExtFOp::create(rewriter, loc, z.like(rewriter.getF32Type()), x);
  return encode(z, x, f);
}

/// decode, for codes in lanes of any integer type (decodeNarrowFloat).
Value decodeCodes(PatternRewriter &rewriter, Location loc, Value codes,
                  FloatType format) {
  std::optional<NarrowFormat> f = formatOf(format);
  assert(f && "not a narrow float storage type");
  Builder z{rewriter, loc, codes.getType()};
  return decode(z, codes, *f);
}

} // namespace

Value mlir::quant_affine::decodeNarrowFloat(PatternRewriter &rewriter,
                                            Location loc, Value codes,
                                            FloatType format) {
  return decodeCodes(rewriter, loc, codes, format);
}

Value mlir::quant_affine::encodeNarrowFloat(PatternRewriter &rewriter,
                                            Location loc, Value x,
                                            FloatType format) {
  std::optional<NarrowFormat> f = formatOf(format);
  assert(f && "not a narrow float storage type");
  return encodeCodes(rewriter, loc, x, *f);
}

namespace {

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<NarrowFormat> f =
        formatOf(getElementTypeOrSelf(op.getType()));
    if (!f)
      return rewriter.notifyMatchFailure(op, "not to a narrow float type");
    Value code = encodeCodes(rewriter, op.getLoc(), op.getIn(), *f);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), code);
    return success();
  }
};

/// The f32 value of OCP MX's E8M0 scale byte `code` (i8): 2^(code - 127),
/// built from the bits as `code << 23`, except 2^-127 (code 0), an f32
/// denormal, and NaN (0xFF).
Value decodeE8M0(Builder &z, Value code) {
  OpBuilder &b = z.b;
  Location loc = z.loc;
  IntegerType i32 = b.getI32Type();
  auto c = [&](int64_t v) { return z.intConst(i32, v); };
  Value wide = arith::ExtUIOp::create(b, loc, z.like(i32), code);
  Value bits = arith::ShLIOp::create(b, loc, wide, c(23));
  bits = z.select(z.cmpI(arith::CmpIPredicate::eq, wide, c(0)), c(0x00400000),
                  bits);
  bits = z.select(z.cmpI(arith::CmpIPredicate::eq, wide, c(0xFF)),
                  c(0x7FC00000), bits);
  return z.bitcast(bits, b.getF32Type());
}

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    std::optional<NarrowFormat> f = formatOf(from);
    bool e8m0 = isa<Float8E8M0FNUType>(from);
    if (!f && !e8m0)
      return rewriter.notifyMatchFailure(op, "not from a narrow float type");
    Builder z{rewriter, op.getLoc(), op.getType()};
    Value value =
        e8m0
            ? decodeE8M0(z, z.bitcast(op.getIn(), rewriter.getI8Type()))
            : decode(z,
                     z.bitcast(op.getIn(), rewriter.getIntegerType(f->width())),
                     *f);
    auto dst = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    // Every float8 and float4 value is exact in f16, bf16 and f64; E8M0's
    // round once from f32 to f16 and bf16.
    if (dst.isF64())
      value = arith::ExtFOp::create(rewriter, op.getLoc(), op.getType(), value);
    else if (!dst.isF32())
      value =
          arith::TruncFOp::create(rewriter, op.getLoc(), op.getType(), value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// 1 / extf(e) for an E8M0 scale e (quantize by a power-of-two scale
/// multiplies by its reciprocal): 1 / 2^(c - 127) is 2^(127 - c), the E8M0
/// code 254 - c, exactly, for every code but NaN (255), which stays NaN:
/// decoded from that code, an integer subtraction and a select where the
/// division took a vector divide on the critical path of every tile.
struct ReciprocalOfE8M0 : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    auto extf = op.getRhs().getDefiningOp<arith::ExtFOp>();
    if (!extf || !isa<Float8E8M0FNUType>(getElementTypeOrSelf(extf.getIn())) ||
        !getElementTypeOrSelf(op.getType()).isF32() ||
        !matchPattern(op.getLhs(), m_OneFloat()))
      return rewriter.notifyMatchFailure(op, "not 1 / extf(E8M0) in f32");
    Builder z{rewriter, op.getLoc(), op.getType()};
    IntegerType i8 = rewriter.getI8Type();
    Value code = z.bitcast(extf.getIn(), i8);
    Value reciprocal =
        arith::SubIOp::create(rewriter, op.getLoc(), z.intConst(i8, 254), code);
    Value nan = z.intConst(i8, 0xFF);
    reciprocal =
        z.select(z.cmpI(arith::CmpIPredicate::eq, code, nan), nan, reciprocal);
    rewriter.replaceOp(op, decodeE8M0(z, reciprocal));
    return success();
  }
};

/// Whether `op` is an extf from E8M0.
bool isExtFFromE8M0(Operation *op) {
  auto extf = dyn_cast<arith::ExtFOp>(op);
  return extf &&
         isa<Float8E8M0FNUType>(getElementTypeOrSelf(extf.getIn().getType()));
}

/// Whether `op` is a truncf to, or an extf from, a type this pass expands.
bool isNarrowConversion(Operation *op) {
  if (auto truncf = dyn_cast<arith::TruncFOp>(op))
    return formatOf(getElementTypeOrSelf(truncf.getType())).has_value();
  if (auto extf = dyn_cast<arith::ExtFOp>(op)) {
    return isExtFFromE8M0(extf) ||
           formatOf(getElementTypeOrSelf(extf.getIn().getType())).has_value();
  }
  return false;
}

struct QuantAffineExpandNarrowFloatsPass
    : quant_affine::impl::QuantAffineExpandNarrowFloatsPassBase<
          QuantAffineExpandNarrowFloatsPass> {
  void runOnOperation() override {
    bool changed = false;
    auto apply = [&](RewritePatternSet &&patterns,
                     function_ref<bool(Operation *)> mayMatch) {
      bool applied = false;
      LogicalResult result = quant_affine::applyPatternsWhereRooted(
          getOperation(), FrozenRewritePatternSet(std::move(patterns)), applied,
          mayMatch);
      changed |= applied;
      return result;
    };
    // The reciprocals first, while their extf is still there to match.
    RewritePatternSet reciprocals(&getContext());
    reciprocals.add<ReciprocalOfE8M0>(&getContext());
    RewritePatternSet conversions(&getContext());
    conversions.add<ExpandTruncF, ExpandExtF>(&getContext());
    // ReciprocalOfE8M0 needs an extf from E8M0 as the divisor, which the
    // driver's folding may only reveal (`divf 1, select(true, extf, y)`) but
    // never creates. Without one, the divfs (every quantize's) must not make
    // the pass run the greedy driver over the whole program.
    bool hasE8M0 = getOperation()
                       ->walk([](Operation *op) {
                         return isExtFFromE8M0(op) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
                       })
                       .wasInterrupted();
    if ((hasE8M0 && failed(apply(std::move(reciprocals), {}))) ||
        failed(apply(std::move(conversions), isNarrowConversion)))
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
