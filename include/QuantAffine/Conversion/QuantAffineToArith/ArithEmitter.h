//===- ArithEmitter.h - the formulas as arith and math ops ------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `Arith` of Utils/Formula.h and Utils/CalibrationFormula.h that emits
// arith and math ops: QuantAffineToArith uses it for the quantizer ops'
// scalar and vector forms, QuantAffineToLinalg for compute_encoding's
// epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_ARITHEMITTER_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_ARITHEMITTER_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace quant_affine {

/// The formula's arithmetic as arith/math ops at `loc`, on scalars or on
/// vectors shaped like `shapeLike` (see Utils/Formula.h).
class ArithEmitter {
public:
  using Value = mlir::Value;

  ArithEmitter(OpBuilder &b, Location loc, Type shapeLike, FloatType compute)
      : compute(compute), b(b), loc(loc), shapeLike(shapeLike) {}

  FloatType compute;

  /// An emitter at the same place computing in `type`.
  ArithEmitter withCompute(FloatType type) const {
    return ArithEmitter(b, loc, shapeLike, type);
  }

  Value constant(int64_t value) {
    llvm::APFloat f(compute.getFloatSemantics());
    (void)f.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             llvm::APFloat::rmNearestTiesToEven);
    return floatConstant(compute, f);
  }
  /// x / y. A constant power-of-two divisor whose reciprocal is exact becomes
  /// a multiplication: x / 2^k and x * 2^-k are the correctly rounded values
  /// of the same real number, so they agree for every x (subnormal results,
  /// overflow, zeros and NaN included). Any other divisor is divided by.
  Value div(Value x, Value y) {
    llvm::APFloat inverse(0.0);
    if (std::optional<llvm::APFloat> d = constantOf(y);
        d && d->getExactInverse(&inverse))
      return mul(x, floatConstant(compute, inverse));
    return binary<arith::DivFOp>(x, y);
  }
  Value sub(Value x, Value y) { return binary<arith::SubFOp>(x, y); }
  Value add(Value x, Value y) { return binary<arith::AddFOp>(x, y); }
  Value mul(Value x, Value y) { return binary<arith::MulFOp>(x, y); }
  Value roundEven(Value x) {
    if (!compute.isBF16())
      return math::RoundEvenOp::create(b, loc, x);
    return roundToBF16(math::RoundEvenOp::create(b, loc, widenBF16(x)));
  }
  Value less(Value x, Value y) {
    if (compute.isBF16()) {
      x = widenBF16(x);
      y = widenBF16(y);
    }
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value p, Value x, Value y) {
    return arith::SelectOp::create(b, loc, p, x, y);
  }
  /// NaN-propagating; -0.0 below +0.0.
  Value maximum(Value x, Value y) { return binary<arith::MaximumFOp>(x, y); }
  /// `value` converted to C as the generated code converts an f64.
  Value constantFloat(double value) {
    return floatConstant(compute,
                         convertAsGenerated(llvm::APFloat(value), compute));
  }
  Value toFloat(Value v, FloatType to) {
    auto from = cast<FloatType>(getElementTypeOrSelf(v));
    if (from == to)
      return v;
    if (std::optional<FloatType> via = conversionIntermediate(from, to))
      return toFloat(toFloat(v, *via), to);
    if (std::optional<llvm::APFloat> c = constantOf(v)) {
      // Constants convert at compile time with the same single rounding.
      bool losesInfo;
      (void)c->convert(to.getFloatSemantics(),
                       llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      return floatConstant(to, *c);
    }
    if (from.isBF16() && to.isF32())
      return widenBF16(v);
    if (from.isF32() && to.isBF16())
      return roundToBF16(v);
    if (from.getWidth() < to.getWidth())
      return arith::ExtFOp::create(b, loc, like(to), v);
    return arith::TruncFOp::create(b, loc, like(to), v);
  }
  Value intToFloat(Value v, FloatType to, bool isSigned) {
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, like(to), v);
    return arith::UIToFPOp::create(b, loc, like(to), v);
  }
  Value floatToInt(Value v, IntegerType to, bool isSigned) {
    // To i1 through i8: LLVM's NVPTX back end selects fptosi/fptoui to i1 as
    // "the float's bits are zero", the opposite truth (seen on an H100).
    if (to.getWidth() == 1) {
      IntegerType i8 = b.getI8Type();
      return arith::TruncIOp::create(b, loc, like(to),
                                     floatToInt(v, i8, isSigned));
    }
    if (isSigned)
      return arith::FPToSIOp::create(b, loc, like(to), v);
    return arith::FPToUIOp::create(b, loc, like(to), v);
  }

  // Bit-level steps of Utils/FloatFormula.h, on integers of C's width.
  Value bitsOf(Value v) {
    return arith::BitcastOp::create(b, loc, like(computeBits()), v);
  }
  Value fromBits(Value v) {
    return arith::BitcastOp::create(b, loc, like(compute), v);
  }
  Value intConstant(int64_t value) {
    return intConstant(compute.getWidth(), value);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value addI(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subI(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value maxSI(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value minSI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  // Further bit-level steps of Utils/BlockScaleFormula.h.
  Value shrUI(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value shlI(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value countLeadingZeros(Value x) {
    return math::CountLeadingZerosOp::create(b, loc, x);
  }
  Value cmpI(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  /// An i1 as 0 or 1 in C's width.
  Value extUI(Value flag) {
    return arith::ExtUIOp::create(b, loc, like(computeBits()), flag);
  }
  /// The value of `to` whose bits are the low bits of `code`.
  Value narrowFromBits(Value code, FloatType to) {
    Value bits = arith::TruncIOp::create(
        b, loc, like(b.getIntegerType(to.getWidth())), code);
    return arith::BitcastOp::create(b, loc, like(to), bits);
  }
  Value negate(Value x) { return arith::NegFOp::create(b, loc, x); }
  /// NaN-propagating; -0.0 below +0.0.
  Value minimum(Value x, Value y) { return binary<arith::MinimumFOp>(x, y); }
  Value log2(Value x) { return math::Log2Op::create(b, loc, x); }
  Value exp2(Value x) { return math::Exp2Op::create(b, loc, x); }

private:
  /// One arithmetic step in C. bf16 steps run in f32 and round to bf16 in
  /// software: LLVM would otherwise promote bf16 arithmetic to f32 itself and
  /// narrow with VCVTNEPS2BF16 (see roundToBF16). With 24 >= 2 * 8 + 2 bits,
  /// rounding the f32 result once gives the correctly rounded bf16 result.
  template <typename OpTy> Value binary(Value x, Value y) {
    if (!compute.isBF16())
      return OpTy::create(b, loc, x, y);
    return roundToBF16(OpTy::create(b, loc, widenBF16(x), widenBF16(y)));
  }

  /// bf16 -> f32 is a 16-bit shift of the bits: exact by construction.
  Value widenBF16(Value v) {
    Value bits = arith::BitcastOp::create(b, loc, like(b.getI16Type()), v);
    Value wide = arith::ExtUIOp::create(b, loc, like(b.getI32Type()), bits);
    Value shifted = arith::ShLIOp::create(b, loc, wide, intConstant(32, 16));
    return arith::BitcastOp::create(b, loc, like(b.getF32Type()), shifted);
  }

  /// f32 -> bf16 rounded to nearest, ties to even, in integer arithmetic, as
  /// PyTorch's c10::BFloat16 does. arith.truncf would do, but on CPUs with
  /// AVX512-BF16 LLVM selects VCVTNEPS2BF16, which flushes subnormal inputs
  /// and results to zero whatever MXCSR says; the differential tester caught
  /// that. NaN becomes the quiet NaN 0x7FC0.
  Value roundToBF16(Value v) {
    Value bits = arith::BitcastOp::create(b, loc, like(b.getI32Type()), v);
    Value lsb = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, intConstant(32, 16)),
        intConstant(32, 1));
    Value bias = arith::AddIOp::create(b, loc, lsb, intConstant(32, 0x7FFF));
    Value rounded = arith::ShRUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, bits, bias), intConstant(32, 16));
    Value narrow =
        arith::TruncIOp::create(b, loc, like(b.getI16Type()), rounded);
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    Value result =
        arith::SelectOp::create(b, loc, isNaN, intConstant(16, 0x7FC0), narrow);
    return arith::BitcastOp::create(b, loc, like(b.getBF16Type()), result);
  }

  /// The value of a scalar or splat float constant.
  static std::optional<llvm::APFloat> constantOf(Value v) {
    Attribute attr;
    if (!matchPattern(v, m_Constant(&attr)))
      return std::nullopt;
    if (auto f = dyn_cast<FloatAttr>(attr))
      return f.getValue();
    if (auto splat = dyn_cast<SplatElementsAttr>(attr))
      if (isa<FloatType>(splat.getElementType()))
        return splat.getSplatValue<llvm::APFloat>();
    return std::nullopt;
  }

  Value floatConstant(FloatType type, const llvm::APFloat &value) {
    TypedAttr attr = b.getFloatAttr(type, value);
    if (auto vec = dyn_cast<VectorType>(like(type)))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  IntegerType computeBits() const {
    return b.getIntegerType(FloatType(compute).getWidth());
  }

  Value intConstant(unsigned width, int64_t value) {
    TypedAttr attr = b.getIntegerAttr(
        b.getIntegerType(width), llvm::APInt(width, value, /*isSigned=*/true,
                                             /*implicitTrunc=*/true));
    if (auto vec = dyn_cast<VectorType>(like(b.getIntegerType(width))))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  /// `elem` with the shape of the op's operands.
  Type like(Type elem) const {
    if (auto vec = dyn_cast<VectorType>(shapeLike))
      return vec.clone(elem);
    return elem;
  }

  OpBuilder &b;
  Location loc;
  Type shapeLike;
};

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_ARITHEMITTER_H
