//===- QuantAffineToArith.cpp - scalar/vector ops to arith and math -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

#include "QuantAffine/Conversion/QuantAffineToArith/ArithEmitter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/FloatFormula.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
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

/// Whether `op` is in scalar or vector form (tensor forms go to linalg).
bool isElementwiseForm(Operation *op) {
  return !isa<TensorType>(op->getOperand(0).getType());
}

/// Lowers one scalar/vector quantizer op: its spec's formula, emitted.
struct QuantizerToArith : OpInterfaceConversionPattern<QuantizerOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(QuantizerOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseForm(op))
      return rewriter.notifyMatchFailure(op, "tensor form: lower to linalg");
    QuantizerSpec spec = op.getSpec();
    Value input = operands[0], scale = operands[1];
    ArithEmitter emitter(rewriter, op.getLoc(), input.getType(),
                         spec.computeType);
    std::optional<Value> offset;
    Type offsetElem;
    if (operands.size() > 2) {
      offset = operands[2];
      offsetElem = getElementTypeOrSelf(operands[2]);
    }
    Value result = evaluateQuantizer(
        emitter, spec.formula, spec.range, input, getElementTypeOrSelf(input),
        scale, getElementTypeOrSelf(scale), offset, offsetElem,
        getElementTypeOrSelf(op.getResult().getType()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Lowers one scalar/vector float_qdq by Utils/FloatFormula.h.
struct FloatQDQToArith : OpConversionPattern<FloatQDQOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FloatQDQOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseForm(op))
      return rewriter.notifyMatchFailure(op, "tensor form: lower to linalg");
    rewriter.replaceOp(op,
                       emitFloatQDQ(rewriter, op.getLoc(), op.getFormat(),
                                    adaptor.getInput(), adaptor.getMaxval()));
    return success();
  }
};

struct ConvertQuantAffineToArithPass
    : quant_affine::impl::ConvertQuantAffineToArithPassBase<
          ConvertQuantAffineToArithPass> {
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
  patterns.add<QuantizerToArith, FloatQDQToArith>(patterns.getContext());
}

Value mlir::quant_affine::emitFloatQDQFactor(OpBuilder &b, Location loc,
                                             const FloatFormat &format,
                                             Value maxval) {
  Type shape = maxval.getType();
  ArithEmitter f32(b, loc, shape, b.getF32Type());
  ArithEmitter f64(b, loc, shape, b.getF64Type());
  return maxvalFactor(f32, f64, maxval, format);
}

Value mlir::quant_affine::emitFloatQDQ(OpBuilder &b, Location loc,
                                       const FloatFormat &format, Value input,
                                       Value maxval, bool maxvalIsFactor) {
  Type shape = input.getType();
  auto elem = cast<FloatType>(getElementTypeOrSelf(shape));
  ArithEmitter w(b, loc, shape, format.fakeCastType(elem));
  ArithEmitter p(b, loc, shape,
                 elem.isF64() ? FloatType(b.getF64Type())
                              : FloatType(b.getF32Type()));
  std::optional<Value> k;
  if (maxval)
    k = maxvalIsFactor ? maxval : emitFloatQDQFactor(b, loc, format, maxval);
  return evaluateFloatQdq(w, p, input, elem, k, format);
}
