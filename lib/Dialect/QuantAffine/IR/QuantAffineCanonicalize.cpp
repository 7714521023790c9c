//===- QuantAffineCanonicalize.cpp - exact canonicalization patterns ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every pattern here is a refinement: for every input, NaN, infinities, ties
// and signed zeros included, the rewritten IR computes the original bits
// (NaN may only replace NaN or poison). Where that holds only under a
// condition, the pattern checks it and does not fire otherwise; the reasoning
// is next to each check and docs/Canonicalization.md collects it.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

//===----------------------------------------------------------------------===//
// Constant encodings
//===----------------------------------------------------------------------===//

/// The elements of a constant scale or offset, or nothing if not constant.
std::optional<SmallVector<llvm::APFloat>> constantElements(Value v) {
  Attribute attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return SmallVector<llvm::APFloat>{f.getValue()};
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  return llvm::to_vector(dense.getValues<llvm::APFloat>());
}

/// The largest |qmin + o|, |qmax + o| over the offsets (0 when absent), if
/// every offset in C is a finite integer and the sums fit int64; otherwise
/// nothing. Zero offsets of either sign are fine: q = r - o is -0.0 only for
/// o = +0.0, and then q + o = +0.0, so k = q + o is never -0.0.
std::optional<uint64_t> maxGridPlusOffset(QuantRange range, Value offset,
                                          FloatType c) {
  auto absOf = [](int64_t v) {
    return v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1
                 : static_cast<uint64_t>(v);
  };
  uint64_t best = std::max(absOf(range.qmin), absOf(range.qmax));
  if (!offset)
    return best;
  std::optional<SmallVector<llvm::APFloat>> offsets = constantElements(offset);
  if (!offsets)
    return std::nullopt;
  for (llvm::APFloat o : *offsets) {
    o = convertAsGenerated(o, c);
    if (!o.isFinite() || !o.isInteger())
      return std::nullopt;
    llvm::APSInt value(64, /*isUnsigned=*/false);
    bool exact;
    if (o.convertToInteger(value, llvm::APFloat::rmTowardZero, &exact) !=
        llvm::APFloat::opOK)
      return std::nullopt;
    int64_t lo, hi;
    if (llvm::AddOverflow(range.qmin, value.getExtValue(), lo) ||
        llvm::AddOverflow(range.qmax, value.getExtValue(), hi))
      return std::nullopt;
    best = std::max({best, absOf(lo), absOf(hi)});
  }
  return best;
}

/// Whether, for every integer k with |k| <= maxK and every scale s, the
/// computation fl(fl(k * s) / s) in C returns k exactly, so that quantizing a
/// dequantized grid value gives the grid value back.
///
/// Argument: with s normal, nonzero and finite and no overflow in k * s, each
/// of the two roundings has relative error at most u = 2^-p, so the result is
/// k (1 + e) with |e| <= 2u + u^2, off from k by less than 0.5 when
/// |k| <= 2^(p-3); roundeven then returns k. (k = 0 gives a signed zero,
/// which roundeven keeps and which the checks above make harmless.)
///
/// With `reciprocal`, the quantize multiplies by r = 1 / s rounded in the
/// scale's type S (relative error u_S) and converted to C: the result is
/// k (1 + e) with |e| <= 3 u_C + u_S (u_C once more where C does not hold
/// S), less than 0.5 / |k| when |k| <= 2^(min(p_C, p_S) - 3); r must be a
/// normal number in S and C.
bool roundTripsGrid(uint64_t maxK, Value scale, FloatType c,
                    bool reciprocal = false) {
  unsigned p = llvm::APFloat::semanticsPrecision(c.getFloatSemantics());
  auto scaleType = cast<FloatType>(getElementTypeOrSelf(scale));
  if (reciprocal)
    p = std::min(
        p, llvm::APFloat::semanticsPrecision(scaleType.getFloatSemantics()));
  if (maxK > (uint64_t{1} << (p - 3)))
    return false;
  std::optional<SmallVector<llvm::APFloat>> scales = constantElements(scale);
  if (!scales)
    return false;
  llvm::APFloat k(c.getFloatSemantics());
  (void)k.convertFromAPInt(llvm::APInt(64, maxK), /*IsSigned=*/false,
                           llvm::APFloat::rmNearestTiesToEven);
  for (llvm::APFloat s : *scales) {
    if (reciprocal) {
      llvm::APFloat r(scaleType.getFloatSemantics(), 1);
      (void)r.divide(s, llvm::APFloat::rmNearestTiesToEven);
      if (!r.isFiniteNonZero() || r.isDenormal())
        return false;
      r = convertAsGenerated(r, c);
      if (!r.isFiniteNonZero() || r.isDenormal())
        return false;
    }
    s = convertAsGenerated(s, c);
    if (!s.isFiniteNonZero() || s.isDenormal())
      return false;
    llvm::APFloat product = k;
    if (product.multiply(abs(s), llvm::APFloat::rmNearestTiesToEven) &
        llvm::APFloat::opOverflow)
      return false;
    if (!product.isFinite())
      return false;
  }
  return true;
}

/// Whether quantizing the dequantized grid of `op`'s constant encoding in C
/// returns every grid value (integer offsets, roundTripsGrid), `op` being
/// the quantizing one (its `reciprocal` counts). Not derived for torchao's
/// FLOAT zero-point domain, which never folds so.
bool gridRoundTrips(QuantizerOpInterface op, FloatType c) {
  QuantizerFormula formula = op.getFormula();
  if (formula.floatZeroPoint)
    return false;
  std::optional<uint64_t> maxK =
      maxGridPlusOffset(op.getRange(), op.getOffset(), c);
  return maxK && roundTripsGrid(*maxK, op.getScale(), c, formula.reciprocal);
}

/// Whether two encoding operands are the same: one value, or equal constants
/// (canonicalization may give each op its own copy of a constant).
bool sameOperand(Value a, Value b) {
  if (a == b)
    return true;
  Attribute x, y;
  return a && b && matchPattern(a, m_Constant(&x)) &&
         matchPattern(b, m_Constant(&y)) && x == y;
}

/// Whether two ops use the same encoding: same scale and offset, grid,
/// block sizes and effective compute type.
bool sameEncoding(QuantizerOpInterface a, QuantizerOpInterface b) {
  return sameOperand(a.getScale(), b.getScale()) &&
         sameOperand(a.getOffset(), b.getOffset()) &&
         a.getSpec().sameEncodingAs(b.getSpec());
}

/// Gives `op` a new scale and offset (null: none) and block sizes (null:
/// none), in place.
void replaceEncoding(PatternRewriter &rewriter, QuantizerOpInterface op,
                     Value scale, Value offset, DenseI64ArrayAttr blockSize) {
  rewriter.modifyOpInPlace(op, [&] {
    op.getScaleMutable().assign(scale);
    if (offset)
      op.getOffsetMutable().assign(offset);
    op.setBlockSizeAttr(blockSize);
  });
}

using QuantizerPattern = OpInterfaceRewritePattern<QuantizerOpInterface>;

//===----------------------------------------------------------------------===//
// Patterns on one op
//===----------------------------------------------------------------------===//

/// A compute_type equal to what the default rule picks says nothing: drop it.
struct DropDefaultComputeType : QuantizerPattern {
  using QuantizerPattern::QuantizerPattern;
  LogicalResult matchAndRewrite(QuantizerOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (!op.getComputeTypeAttr())
      return rewriter.notifyMatchFailure(op, "no compute_type");
    FloatType explicitType = op.getEffectiveComputeType();
    rewriter.startOpModification(op);
    op.setComputeTypeAttr(TypeAttr());
    if (op.getEffectiveComputeType() != explicitType) {
      op.setComputeTypeAttr(TypeAttr::get(explicitType));
      rewriter.cancelOpModification(op);
      return rewriter.notifyMatchFailure(op, "differs from the default");
    }
    rewriter.finalizeOpModification(op);
    return success();
  }
};

/// block_size normalized: dropped where every scale dim is broadcast (size 1)
/// or per element (block 1), which is the same encoding without it; otherwise
/// wildcards resolved where the shapes are static.
struct NormalizeBlockSize : QuantizerPattern {
  using QuantizerPattern::QuantizerPattern;
  LogicalResult matchAndRewrite(QuantizerOpInterface op,
                                PatternRewriter &rewriter) const override {
    DenseI64ArrayAttr attr = op.getBlockSizeAttr();
    if (!attr)
      return rewriter.notifyMatchFailure(op, "no block_size");
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto scale = cast<RankedTensorType>(op.getScale().getType());
    SmallVector<int64_t> resolved = resolveBlockSizes(
        input.getShape(), scale.getShape(), attr.asArrayRef());
    bool redundant = true;
    for (auto [d, b] : llvm::enumerate(resolved)) {
      int64_t s = scale.getDimSize(d);
      redundant &= s == 1 || (b == 1 && !ShapedType::isDynamic(s));
    }
    if (redundant) {
      rewriter.modifyOpInPlace(
          op, [&] { op.setBlockSizeAttr(DenseI64ArrayAttr()); });
      return success();
    }
    SmallVector<int64_t> normalized(attr.asArrayRef());
    for (auto [d, b] : llvm::enumerate(resolved))
      if (normalized[d] == -1 && !ShapedType::isDynamic(b))
        normalized[d] = b;
    if (ArrayRef<int64_t>(normalized) == attr.asArrayRef())
      return rewriter.notifyMatchFailure(op, "already normal");
    rewriter.modifyOpInPlace(op, [&] {
      op.setBlockSizeAttr(rewriter.getDenseI64ArrayAttr(normalized));
    });
    return success();
  }
};

/// Splat scale (and splat or absent offset) tensors become per-tensor (rank 0)
/// constants: every element used the same values anyway.
struct ReduceUniformEncoding : QuantizerPattern {
  using QuantizerPattern::QuantizerPattern;
  LogicalResult matchAndRewrite(QuantizerOpInterface op,
                                PatternRewriter &rewriter) const override {
    auto scaleType = dyn_cast<RankedTensorType>(op.getScale().getType());
    if (!scaleType || (scaleType.getRank() == 0 && !op.getBlockSizeAttr()))
      return rewriter.notifyMatchFailure(op, "not a tensor or already uniform");
    auto splatOf = [](Value v) -> Attribute {
      SplatElementsAttr attr;
      if (!v || !matchPattern(v, m_Constant(&attr)))
        return {};
      return attr.getSplatValue<Attribute>();
    };
    Attribute scale = splatOf(op.getScale());
    Attribute offset = splatOf(op.getOffset());
    if (!scale || (op.getOffset() && !offset))
      return rewriter.notifyMatchFailure(op, "encoding is not uniform");
    auto rank0 = [&](Value v, Attribute value) -> Value {
      auto type = RankedTensorType::get({}, getElementTypeOrSelf(v));
      return arith::ConstantOp::create(
          rewriter, op.getLoc(),
          DenseElementsAttr::get(type, cast<TypedAttr>(value)));
    };
    replaceEncoding(rewriter, op, rank0(op.getScale(), scale),
                    offset ? rank0(op.getOffset(), offset) : Value(),
                    DenseI64ArrayAttr());
    return success();
  }
};

/// Constant scale and offset tensors that do not vary along a dim keep one
/// entry along it (size 1; a block there becomes -1, the whole input dim):
/// every element still uses the same values. Full splats are
/// ReduceUniformEncoding's.
struct ReduceConstantDims : QuantizerPattern {
  using QuantizerPattern::QuantizerPattern;
  LogicalResult matchAndRewrite(QuantizerOpInterface op,
                                PatternRewriter &rewriter) const override {
    auto scaleType = dyn_cast<RankedTensorType>(op.getScale().getType());
    DenseFPElementsAttr scale, offset;
    if (!scaleType || !matchPattern(op.getScale(), m_Constant(&scale)) ||
        scale.isSplat() ||
        (op.getOffset() && !matchPattern(op.getOffset(), m_Constant(&offset))))
      return rewriter.notifyMatchFailure(op, "no constant non-splat encoding");
    ArrayRef<int64_t> shape = scaleType.getShape();
    int64_t rank = shape.size();
    SmallVector<int64_t> strides = computeStrides(shape);
    SmallVector<llvm::APFloat> sv =
        llvm::to_vector(scale.getValues<llvm::APFloat>());
    SmallVector<llvm::APFloat> ov;
    if (offset)
      ov = llvm::to_vector(offset.getValues<llvm::APFloat>());

    // A dim is constant if every entry equals the one at index 0 along it.
    SmallVector<bool> reduce(rank, false);
    bool any = false;
    for (int64_t d = 0; d < rank; ++d) {
      if (shape[d] <= 1)
        continue;
      bool same = true;
      for (int64_t i = 0, n = sv.size(); i < n && same; ++i) {
        int64_t base = i - ((i / strides[d]) % shape[d]) * strides[d];
        same = sv[i].bitwiseIsEqual(sv[base]) &&
               (!offset || ov[i].bitwiseIsEqual(ov[base]));
      }
      reduce[d] = same;
      any |= same;
    }
    if (!any)
      return rewriter.notifyMatchFailure(op, "varies along every dim");

    SmallVector<int64_t> newShape(shape);
    for (int64_t d = 0; d < rank; ++d)
      if (reduce[d])
        newShape[d] = 1;
    auto pick = [&](ArrayRef<llvm::APFloat> values) {
      SmallVector<llvm::APFloat> out;
      for (int64_t i = 0, n = values.size(); i < n; ++i) {
        bool keep = true;
        for (int64_t d = 0; d < rank && keep; ++d)
          keep = !reduce[d] || (i / strides[d]) % shape[d] == 0;
        if (keep)
          out.push_back(values[i]);
      }
      return out;
    };
    auto rebuild = [&](Value old, ArrayRef<llvm::APFloat> values) -> Value {
      auto type = RankedTensorType::get(newShape, getElementTypeOrSelf(old));
      return arith::ConstantOp::create(
          rewriter, op.getLoc(), DenseElementsAttr::get(type, pick(values)));
    };
    DenseI64ArrayAttr newBlocks;
    if (DenseI64ArrayAttr block = op.getBlockSizeAttr()) {
      SmallVector<int64_t> blocks(block.asArrayRef());
      for (int64_t d = 0; d < rank; ++d)
        if (reduce[d])
          blocks[d] = -1; // one block over the whole input dim
      newBlocks = rewriter.getDenseI64ArrayAttr(blocks);
    }
    replaceEncoding(rewriter, op, rebuild(op.getScale(), sv),
                    offset ? rebuild(op.getOffset(), ov) : Value(), newBlocks);
    return success();
  }
};

/// A constant-zero offset dropped, where that is exact:
/// - quantize: q - (+0.0) == q for every q (-0.0 and NaN included), but
///   -0.0 - (-0.0) == +0.0, so only all-(+0.0) offsets go.
/// - dequantize of integers: q + (+-0.0) == q, as sitofp/uitofp never give
///   -0.0.
/// - dequantize of floats and qdq keep it: (-0.0 + 0.0) * s is +0.0 * s, while
///   without the add -0.0 * s keeps the sign.
struct DropZeroOffset : QuantizerPattern {
  using QuantizerPattern::QuantizerPattern;
  LogicalResult matchAndRewrite(QuantizerOpInterface op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<llvm::APFloat>> offsets =
        constantElements(op.getOffset());
    if (!offsets)
      return rewriter.notifyMatchFailure(op, "no constant offset");
    bool integerInput = isa<IntegerType>(getElementTypeOrSelf(op.getInput()));
    QuantizerFormula formula = op.getFormula();
    bool allowNegativeZero =
        !formula.quantizes() && integerInput && !formula.floatZeroPoint;
    // torchao's FLOAT domain computes an absent z as +0.0: only +0.0 goes,
    // from any of the three ops.
    bool exact =
        !formula.dequantizes() || allowNegativeZero || formula.floatZeroPoint;
    if (!exact)
      return rewriter.notifyMatchFailure(op, "the add of zero changes -0.0");
    for (const llvm::APFloat &o : *offsets)
      if (!o.isZero() || (o.isNegative() && !allowNegativeZero))
        return rewriter.notifyMatchFailure(op, "offset not a dropable zero");
    rewriter.modifyOpInPlace(op, [&] { op.getOffsetMutable().clear(); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Patterns on pairs of ops
//===----------------------------------------------------------------------===//

/// qdq(qdq(x, E), E) -> qdq(x, E). Exact when nothing rounds between the two
/// (result type == C) and the grid round-trips: y = (q + o) * s with
/// k = q + o an integer (integer offsets), and roundeven(y / s) must give k
/// back (roundTripsGrid); then the second qdq recomputes q from k exactly.
struct FoldQDQOfQDQ : OpRewritePattern<QDQOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QDQOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<QDQOp>();
    if (!inner || !sameEncoding(op, inner))
      return rewriter.notifyMatchFailure(op, "not qdq of qdq with equal E");
    FloatType c = op.getEffectiveComputeType();
    if (getElementTypeOrSelf(op.getType()) != c)
      return rewriter.notifyMatchFailure(op, "the inner result is rounded");
    if (!gridRoundTrips(op, c))
      return rewriter.notifyMatchFailure(op, "grid may not round-trip");
    rewriter.replaceOp(op, inner.getResult());
    return success();
  }
};

/// Whether every value of `from` converts to `to` and back unchanged.
bool widensExactly(FloatType from, Type to) {
  auto toFloat = dyn_cast<FloatType>(to);
  if (!toFloat)
    return false;
  if (from == toFloat)
    return true;
  const auto &a = from.getFloatSemantics(), &b = toFloat.getFloatSemantics();
  return llvm::APFloat::semanticsPrecision(a) <=
             llvm::APFloat::semanticsPrecision(b) &&
         llvm::APFloat::semanticsMaxExponent(a) <=
             llvm::APFloat::semanticsMaxExponent(b) &&
         llvm::APFloat::semanticsMinExponent(a) >=
             llvm::APFloat::semanticsMinExponent(b);
}

/// dequantize(quantize(x, E), E) -> qdq(x, E). Exact when both compute in the
/// same C, the dequantize result has x's type, and the stored q reads back as
/// the same value in C:
/// - a float q type that holds every C value exactly;
/// - an integer q: the offset is a constant of integers (q is then an
///   integer) and present (without it, q = roundeven(x / s) may be -0.0,
///   which the integer turns into +0.0 and q * s keeps; with it, q + o is
///   +0.0 either way), and the grid is exact in C.
struct FoldDequantizeOfQuantize : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto quantize = op.getInput().getDefiningOp<QuantizeOp>();
    if (!quantize || !sameEncoding(op, quantize))
      return rewriter.notifyMatchFailure(op, "not dequantize of quantize");
    Value x = quantize.getInput();
    if (x.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "result type differs from x");
    if (op.getFormula().floatZeroPoint)
      return rewriter.notifyMatchFailure(op,
                                         "not derived for float zero points");
    FloatType c = op.getEffectiveComputeType();
    Type stored = getElementTypeOrSelf(quantize.getType());
    if (isNarrowFloatStorage(stored))
      return rewriter.notifyMatchFailure(op, "float8/float4 q rounds");
    if (isa<IntegerType>(stored)) {
      std::optional<uint64_t> maxK =
          maxGridPlusOffset(op.getRange(), op.getOffset(), c);
      unsigned p = llvm::APFloat::semanticsPrecision(c.getFloatSemantics());
      if (!op.getOffset() || !maxK || *maxK >= (uint64_t{1} << (p - 1)))
        return rewriter.notifyMatchFailure(op, "integer q may differ");
    } else if (!widensExactly(c, stored)) {
      return rewriter.notifyMatchFailure(op, "float q rounds");
    }
    // The qdq keeps the dequantize's properties (a clone), computing in C:
    // by the default rule for x's type unless told.
    OperationState state(op.getLoc(), QDQOp::getOperationName());
    state.addOperands(op->getOperands());
    state.addTypes(op.getType());
    state.propertiesAttr = op->getPropertiesAsAttribute();
    auto qdq = cast<QDQOp>(rewriter.create(state));
    qdq.getInputMutable().assign(x);
    FloatType qdqDefault = getEffectiveComputeType(
        QuantizerKind::QDQ, cast<FloatType>(getElementTypeOrSelf(x)),
        op.getRange());
    qdq.setComputeTypeAttr(qdqDefault == c ? TypeAttr() : TypeAttr::get(c));
    // The quantizing half is the quantize's: its reciprocal too.
    qdq.setReciprocal(quantize.getReciprocal());
    rewriter.replaceOp(op, qdq.getResult());
    return success();
  }
};

/// quantize(dequantize(q, E), E) -> q for integer q whose type holds exactly
/// the grid (so every q is in range), when the dequantized value reaches the
/// quantize unrounded (its type is C) and the grid round-trips.
struct FoldQuantizeOfDequantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto dequantize = op.getInput().getDefiningOp<DequantizeOp>();
    if (!dequantize || !sameEncoding(op, dequantize))
      return rewriter.notifyMatchFailure(op, "not quantize of dequantize");
    Value q = dequantize.getInput();
    auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(q));
    if (!intType || q.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "not the same integer type");
    if (QuantRange::ofInteger(intType.getWidth(), op.getRange().isSigned()) !=
        op.getRange())
      return rewriter.notifyMatchFailure(op, "q may lie outside the grid");
    FloatType c = op.getEffectiveComputeType();
    if (getElementTypeOrSelf(dequantize.getType()) != c)
      return rewriter.notifyMatchFailure(op, "the dequantized value rounds");
    if (!gridRoundTrips(op, c))
      return rewriter.notifyMatchFailure(op, "grid may not round-trip");
    rewriter.replaceOp(op, q);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// float_qdq
//===----------------------------------------------------------------------===//

/// Whether float_qdq with `format` on `type` maps every value to itself:
/// every finite value is on the grid within +-fmt_max, and the clamp of
/// +-inf to +-fmt_max rounds back to +-inf in `type` (fmt_max lies beyond the
/// type's largest value by half an ulp or more). -0 must stay -0.
bool isIdentity(const FloatFormat &format, FloatType type) {
  if (format.unsignedZero || !format.holdsEveryFiniteValueOf(type))
    return false;
  llvm::APFloat max(format.maxValue());
  bool losesInfo;
  (void)max.convert(type.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return max.isInfinity();
}

/// float_qdq(x) -> x where the format holds every value of x's type
/// (isIdentity). (5, 10) on f16 is not one: it maps +-inf to +-65504.
struct DropIdentityFloatQDQ : OpRewritePattern<FloatQDQOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FloatQDQOp op,
                                PatternRewriter &rewriter) const override {
    auto elem = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (op.getMaxval() || !isIdentity(op.getFormat(), elem))
      return rewriter.notifyMatchFailure(op, "format does not hold the type");
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// The precision (significand bits) of a float type.
int64_t precisionOf(FloatType t) { return t.getFPMantissaWidth(); }

/// The smallest positive normal value of a float type (f16, bf16, f32 or
/// f64: exact in a double).
double smallestNormalOf(FloatType t) {
  return llvm::APFloat::getSmallestNormalized(t.getFloatSemantics())
      .convertToDouble();
}

/// Whether float_qdq with factor k on a T input is idempotent. The first
/// application yields y = RN_T(RN_P(g * k)), g on the grid; the second
/// computes RN_P(y / k) = g * (1 + d) with |d| <= u_T + 2 u_P (u = 2^-p; no
/// u_T when T == P) while g * k and the smallest nonzero g times k are normal
/// in T and P. The grid's gap around a normal g is at least g * 2^-(M+1)
/// (below a power of two), around a subnormal g at least g / 2^M, so
/// |d| < 2^-(M+3) rounds back to g, and the rest repeats. Overflow repeats
/// too: y = +-inf clamps to +-fmt_max and gives +-inf again.
bool isIdempotentWithFactor(const FloatFormat &format, FloatType t, FloatType p,
                            const llvm::APFloat &factor) {
  if (!factor.isFiniteNonZero() || factor.isNegative())
    return false;
  double uT = t == p ? 0.0 : std::ldexp(1.0, -precisionOf(t));
  double bound = uT + 2 * std::ldexp(1.0, -precisionOf(p));
  if (!(bound * (1 + 0x1p-20) < std::ldexp(1.0, -format.mantissaBits - 3)))
    return false;
  double smallestGrid =
      std::ldexp(1.0, format.minExponent() - format.mantissaBits);
  double k = factor.convertToDouble(); // an f32 value: exact
  return smallestGrid * k * (1 - 0x1p-20) >=
         std::max(smallestNormalOf(t), smallestNormalOf(p));
}

/// float_qdq(float_qdq(x)) -> float_qdq(x) with one format, maxval and
/// block_size. Without maxval the first result is on the grid within
/// +-fmt_max (or +-inf where fmt_max exceeds the type, which the clamp maps
/// back), so the second changes nothing. With one, only for a constant
/// maxval whose every factor passes isIdempotentWithFactor.
struct FoldFloatQDQOfFloatQDQ : OpRewritePattern<FloatQDQOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FloatQDQOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<FloatQDQOp>();
    if (!inner || inner.getMaxval() != op.getMaxval() ||
        inner.getBlockSizeAttr() != op.getBlockSizeAttr())
      return rewriter.notifyMatchFailure(op, "not the same float_qdq twice");
    FloatFormat format = op.getFormat(), innerFormat = inner.getFormat();
    if (format.exponentBits != innerFormat.exponentBits ||
        format.mantissaBits != innerFormat.mantissaBits ||
        format.finite != innerFormat.finite ||
        format.unsignedZero != innerFormat.unsignedZero)
      return rewriter.notifyMatchFailure(op, "different formats");
    if (Value maxval = op.getMaxval()) {
      std::optional<SmallVector<llvm::APFloat>> elements =
          constantElements(maxval);
      if (!elements)
        return rewriter.notifyMatchFailure(op, "maxval is not constant");
      auto t = cast<FloatType>(getElementTypeOrSelf(op.getType()));
      FloatType p = t.isF64() ? FloatType(rewriter.getF64Type())
                              : FloatType(rewriter.getF32Type());
      for (const llvm::APFloat &m : *elements)
        if (!isIdempotentWithFactor(
                format, t, p,
                evaluateFloatQDQFactor(op.getContext(), format, m)))
          return rewriter.notifyMatchFailure(
              op, "a second rounding could move a value");
    }
    rewriter.replaceOp(op, inner.getResult());
    return success();
  }
};

} // namespace

void FloatQDQOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<DropIdentityFloatQDQ, FoldFloatQDQOfFloatQDQ>(context);
}

void QuantAffineDialect::getCanonicalizationPatterns(
    RewritePatternSet &patterns) const {
  patterns
      .add<DropDefaultComputeType, NormalizeBlockSize, ReduceUniformEncoding,
           ReduceConstantDims, DropZeroOffset, FoldQDQOfQDQ,
           FoldDequantizeOfQuantize, FoldQuantizeOfDequantize>(getContext());
}
