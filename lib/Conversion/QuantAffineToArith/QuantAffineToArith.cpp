//===- QuantAffineToArith.cpp - scalar/vector ops to arith and math -------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//
//
// The one place where the quantization formula becomes code. Tensor ops reach
// it through linalg.generic bodies (QuantAffineToLinalg), vectors through
// vectorization, so scalar, vector and tensor code compute the same bits.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToArith/QuantAffineToArith.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_CONVERTQUANTAFFINETOARITHPASS
#include "QuantAffine/Conversion/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// Builds arith/math for one op at `loc`, on scalars or vectors of `shape`.
class FormulaBuilder {
public:
  FormulaBuilder(OpBuilder &b, Location loc, Type shapeLike)
      : b(b), loc(loc), shapeLike(shapeLike) {}

  /// `elem` with the shape of the op's operands.
  Type like(Type elem) const {
    if (auto vec = dyn_cast<VectorType>(shapeLike))
      return vec.clone(elem);
    return elem;
  }

  /// Converts a float value to the float type `to` with one rounding, except
  /// that f64 to f16/bf16 rounds through f32, as PyTorch (and so AIMET) does.
  /// bf16 <-> f16 goes through f32, which holds either exactly.
  Value convertFloat(Value v, FloatType to) {
    auto from = cast<FloatType>(getElementTypeOrSelf(v));
    if (from == to)
      return v;
    FloatType f32 = b.getF32Type();
    bool viaF32 = (from.isF64() && (to.isF16() || to.isBF16())) ||
                  (from.getWidth() == to.getWidth());
    if (viaF32)
      return convertFloat(convertFloat(v, f32), to);
    if (from.getWidth() < to.getWidth())
      return arith::ExtFOp::create(b, loc, like(to), v);
    return arith::TruncFOp::create(b, loc, like(to), v);
  }

  /// A float or integer value read as a number in C (integers signed iff
  /// `isSigned`).
  Value toCompute(Value v, FloatType c, bool isSigned) {
    if (isa<FloatType>(getElementTypeOrSelf(v)))
      return convertFloat(v, c);
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, like(c), v);
    return arith::UIToFPOp::create(b, loc, like(c), v);
  }

  /// The C value of result `resultElem` (float: rounded; integer: toward
  /// zero, signed iff `isSigned`).
  Value fromCompute(Value v, Type resultElem, bool isSigned) {
    if (auto f = dyn_cast<FloatType>(resultElem))
      return convertFloat(v, f);
    if (isSigned)
      return arith::FPToSIOp::create(b, loc, like(resultElem), v);
    return arith::FPToUIOp::create(b, loc, like(resultElem), v);
  }

  Value constant(FloatType c, int64_t value) {
    llvm::APFloat f(c.getFloatSemantics());
    (void)f.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             llvm::APFloat::rmNearestTiesToEven);
    TypedAttr attr = b.getFloatAttr(c, f);
    if (auto vec = dyn_cast<VectorType>(like(c)))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  /// clamp(roundeven(x / s) - o, qmin, qmax), everything already in C.
  Value quantize(Value x, Value s, Value o, QuantRange range, FloatType c) {
    Value lo = constant(c, range.qmin), hi = constant(c, range.qmax);
    Value q = arith::DivFOp::create(b, loc, x, s);
    q = math::RoundEvenOp::create(b, loc, q);
    if (o)
      q = arith::SubFOp::create(b, loc, q, o);
    // min(max(q, lo), hi) as std::max/std::min: NaN stays NaN and -0.0
    // stays -0.0 (maximumf would turn max(-0.0, 0.0) into +0.0).
    Value below =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, q, lo);
    q = arith::SelectOp::create(b, loc, below, lo, q);
    Value above =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, hi, q);
    return arith::SelectOp::create(b, loc, above, hi, q);
  }

  /// (q + o) * s, everything already in C.
  Value dequantize(Value q, Value s, Value o) {
    if (o)
      q = arith::AddFOp::create(b, loc, q, o);
    return arith::MulFOp::create(b, loc, q, s);
  }

private:
  OpBuilder &b;
  Location loc;
  Type shapeLike;
};

/// Whether `op` is in scalar or vector form (tensor forms go to linalg).
bool isElementwiseForm(Operation *op) {
  return !isa<TensorType>(op->getOperand(0).getType());
}

/// Lowers one scalar/vector op; `Kind` selects the formula.
template <typename OpT, EncodingOpKind Kind>
struct EncodingOpToArith : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseForm(op))
      return rewriter.notifyMatchFailure(op, "tensor form: lower to linalg");
    Location loc = op.getLoc();
    FormulaBuilder f(rewriter, loc, op.getInput().getType());
    FloatType c = op.getEffectiveComputeType();
    QuantRange range = op.getRange();
    bool isSigned = range.isSigned();

    Value x = f.toCompute(adaptor.getInput(), c, isSigned);
    Value s = f.convertFloat(adaptor.getScale(), c);
    Value o = adaptor.getOffset() ? f.convertFloat(adaptor.getOffset(), c)
                                  : Value();
    Value result;
    if constexpr (Kind == EncodingOpKind::Dequantize)
      result = f.dequantize(x, s, o);
    else
      result = f.quantize(x, s, o, range, c);
    if constexpr (Kind == EncodingOpKind::QDQ)
      result = f.dequantize(result, s, o);
    Type resultElem = getElementTypeOrSelf(op.getResult().getType());
    rewriter.replaceOp(op, f.fromCompute(result, resultElem, isSigned));
    return success();
  }
};

struct ConvertQuantAffineToArithPass
    : quant_affine::impl::ConvertQuantAffineToArithPassBase<ConvertQuantAffineToArithPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    configureQuantAffineToArithTarget(target);
    RewritePatternSet patterns(&getContext());
    populateQuantAffineToArithConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::quant_affine::configureQuantAffineToArithTarget(
    ConversionTarget &target) {
  target.addLegalDialect<arith::ArithDialect, math::MathDialect>();
  target.addDynamicallyLegalDialect<QuantAffineDialect>(
      [](Operation *op) { return !isElementwiseForm(op); });
}

void mlir::quant_affine::populateQuantAffineToArithConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<EncodingOpToArith<QuantizeOp, EncodingOpKind::Quantize>,
               EncodingOpToArith<DequantizeOp, EncodingOpKind::Dequantize>,
               EncodingOpToArith<QDQOp, EncodingOpKind::QDQ>>(
      patterns.getContext());
}
