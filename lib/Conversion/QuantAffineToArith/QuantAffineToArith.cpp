//===- QuantAffineToArith.cpp - scalar/vector ops to arith and math -------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//
//
// Emits the formula of Utils/Formula.h as arith and math ops. Tensor ops reach
// this through linalg.generic bodies (QuantAffineToLinalg), vectors through
// vectorization, so scalar, vector and tensor code compute the same bits, and
// the constant folder evaluates the same template with APFloat.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToArith/QuantAffineToArith.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

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

/// The formula's arithmetic as arith/math ops at `loc`, on scalars or on
/// vectors shaped like `shapeLike` (see Utils/Formula.h).
class ArithEmitter {
public:
  using Value = mlir::Value;

  ArithEmitter(OpBuilder &b, Location loc, Type shapeLike, FloatType compute)
      : compute(compute), b(b), loc(loc), shapeLike(shapeLike) {}

  FloatType compute;

  Value constant(int64_t value) {
    llvm::APFloat f(compute.getFloatSemantics());
    (void)f.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             llvm::APFloat::rmNearestTiesToEven);
    TypedAttr attr = b.getFloatAttr(compute, f);
    if (auto vec = dyn_cast<VectorType>(like(compute)))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
  Value less(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value p, Value x, Value y) {
    return arith::SelectOp::create(b, loc, p, x, y);
  }
  Value toFloat(Value v, FloatType to) {
    auto from = cast<FloatType>(getElementTypeOrSelf(v));
    if (from == to)
      return v;
    if (std::optional<FloatType> via = conversionIntermediate(from, to))
      return toFloat(toFloat(v, *via), to);
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
    if (isSigned)
      return arith::FPToSIOp::create(b, loc, like(to), v);
    return arith::FPToUIOp::create(b, loc, like(to), v);
  }

private:
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
    ArithEmitter emitter(rewriter, op.getLoc(), op.getInput().getType(),
                         op.getEffectiveComputeType());
    std::optional<Value> offset;
    Type offsetElem;
    if (Value o = adaptor.getOffset()) {
      offset = o;
      offsetElem = getElementTypeOrSelf(o);
    }
    Value result = evaluateEncodingOp(
        emitter, Kind, op.getRange(), adaptor.getInput(),
        getElementTypeOrSelf(adaptor.getInput()), adaptor.getScale(),
        getElementTypeOrSelf(adaptor.getScale()), offset, offsetElem,
        getElementTypeOrSelf(op.getResult().getType()));
    rewriter.replaceOp(op, result);
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
