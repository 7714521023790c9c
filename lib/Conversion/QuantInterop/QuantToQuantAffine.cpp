//===- QuantToQuantAffine.cpp - quant casts to quant_affine ops -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// quant.qcast means clamp(roundeven(x / s) + zero_point) onto the storage
// range, which is quant_affine.quantize with offset = -zero_point: the
// rounding upstream's own lower-quant-ops leaves to truncation
// (docs/Interop.md says why). Values of !quant types become their storage
// integers everywhere, as strip-func-quant-types does for signatures.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantInterop/QuantInterop.h"

#include "QuantAffine/Conversion/QuantInterop/QuantEncoding.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_CONVERTQUANTTOQUANTAFFINEPASS
#include "QuantAffine/Conversion/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// The quantized element type of `type` (a scalar or a tensor of one).
quant::QuantizedType quantElementOf(Type type) {
  return dyn_cast<quant::QuantizedType>(getElementTypeOrSelf(type));
}

/// Tensor ops move elements without looking at them: on storage integers
/// they do exactly what they did on quantized values.
bool isElementAgnosticTensorOp(Operation *op) {
  return isa_and_present<tensor::TensorDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && !isa<tensor::BitcastOp>(op);
}

/// Ops the patterns convert: the casts, and ops that only carry values.
bool isConvertedOp(Operation *op) {
  return isa_and_present<quant::QuantDialect, func::FuncDialect,
                         cf::ControlFlowDialect, scf::SCFDialect>(
             op->getDialect()) ||
         isElementAgnosticTensorOp(op);
}

/// A quant cast as the quant_affine op `AffineOp`: the quantized side's
/// type gives the encoding, as constants; the other side stays.
template <typename CastOp, typename AffineOp>
struct CastToQuantizer : public OpConversionPattern<CastOp> {
  using OpConversionPattern<CastOp>::OpConversionPattern;
  using OpAdaptor = typename CastOp::Adaptor;

  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool quantizes = std::is_same_v<CastOp, quant::QuantizeCastOp>;
    Type quantizedSide =
        quantizes ? op.getResult().getType() : op.getInput().getType();
    std::string whyNot;
    FailureOr<AffineEncoding> encoding =
        getAffineEncoding(op.getQuantizedType(), quantizedSide, whyNot);
    if (failed(encoding))
      return rewriter.notifyMatchFailure(op, whyNot);
    Location loc = op.getLoc();
    Value scale = arith::ConstantOp::create(rewriter, loc, encoding->scale);
    Value offset;
    if (encoding->offset)
      offset = arith::ConstantOp::create(rewriter, loc, encoding->offset);
    ArrayRef<int64_t> blockSize;
    if (encoding->blockSize)
      blockSize = *encoding->blockSize;
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<AffineOp>(op, resultType, adaptor.getInput(),
                                          scale, offset, encoding->range,
                                          blockSize);
    return success();
  }
};
using QuantizeCastToQuantize =
    CastToQuantizer<quant::QuantizeCastOp, QuantizeOp>;
using DequantizeCastToDequantize =
    CastToQuantizer<quant::DequantizeCastOp, DequantizeOp>;

/// A storage cast is the identity on storage integers.
struct EraseStorageCast : public OpConversionPattern<quant::StorageCastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(quant::StorageCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// A tensor op on quantized tensors, cloned onto the storage integers.
struct RetypeTensorOp : public ConversionPattern {
  RetypeTensorOp(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementAgnosticTensorOp(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    Operation *retyped = rewriter.clone(*op);
    rewriter.modifyOpInPlace(retyped, [&] {
      retyped->setOperands(operands);
      for (auto [result, type] : llvm::zip(retyped->getResults(), resultTypes))
        result.setType(type);
    });
    rewriter.replaceOp(op, retyped->getResults());
    return success();
  }
};

/// Whether `op` is a quant op or carries a quant type (function signatures
/// and block arguments included).
bool carriesQuantTypes(Operation *op) {
  if (isa_and_present<quant::QuantDialect>(op->getDialect()))
    return true;
  auto isQuant = [](Type type) { return quantElementOf(type) != nullptr; };
  if (llvm::any_of(op->getOperandTypes(), isQuant) ||
      llvm::any_of(op->getResultTypes(), isQuant))
    return true;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    return llvm::any_of(function.getArgumentTypes(), isQuant) ||
           llvm::any_of(function.getResultTypes(), isQuant);
  return false;
}

/// Reports the first op carrying a quant type: the pipelines' answer when
/// from-quant is off, instead of failing later on an op they cannot lower.
LogicalResult rejectQuantTypes(Operation *root) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([](Operation *op) {
    if (!carriesQuantTypes(op))
      return WalkResult::advance();
    op->emitOpError() << "uses the quant dialect: pass from-quant=true to the "
                         "pipeline (or run --convert-quant-to-quant-affine "
                         "first)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

struct ConvertQuantToQuantAffinePass
    : quant_affine::impl::ConvertQuantToQuantAffinePassBase<
          ConvertQuantToQuantAffinePass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    if (diagnoseOnly) {
      if (failed(rejectQuantTypes(root)))
        return signalPassFailure();
      return markAllAnalysesPreserved();
    }
    if (failed(checkQuantTypesConvertible(root)))
      return signalPassFailure();
    TypeConverter converter;
    populateQuantToQuantAffineTypeConversions(converter);
    ConversionTarget target(getContext());
    configureQuantToQuantAffineTarget(target, converter);
    RewritePatternSet patterns(&getContext());
    populateQuantToQuantAffineConversionPatterns(converter, patterns);
    // Upstream's quant folders take dcast(qcast(x)) for x: never fold.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(
            applyPartialConversion(root, target, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::quant_affine::populateQuantToQuantAffineTypeConversions(
    TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](quant::QuantizedType type) -> Type {
    return IntegerType::get(type.getContext(),
                            type.getStorageTypeIntegralWidth());
  });
  converter.addConversion([](TensorType type) -> Type {
    quant::QuantizedType element = quantElementOf(type);
    if (!element)
      return type;
    return type.clone(IntegerType::get(type.getContext(),
                                       element.getStorageTypeIntegralWidth()));
  });
}

void mlir::quant_affine::populateQuantToQuantAffineConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<QuantizeCastToQuantize, DequantizeCastToDequantize,
               EraseStorageCast, RetypeTensorOp>(converter, ctx);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  // Branches convert their successor blocks' signatures too.
  cf::populateCFStructuralTypeConversions(converter, patterns);
  scf::populateSCFStructuralTypeConversions(converter, patterns);
}

void mlir::quant_affine::configureQuantToQuantAffineTarget(
    ConversionTarget &target, const TypeConverter &converter) {
  target.addLegalDialect<QuantAffineDialect, arith::ArithDialect>();
  target.addIllegalDialect<quant::QuantDialect>();
  target.markUnknownOpDynamicallyLegal([&converter](Operation *op) {
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      return converter.isSignatureLegal(
          cast<FunctionType>(function.getFunctionType()));
    return converter.isLegal(op);
  });
  cf::populateCFStructuralTypeConversionTarget(converter, target);
  scf::populateSCFStructuralTypeConversionTarget(converter, target);
}

LogicalResult mlir::quant_affine::checkQuantTypesConvertible(Operation *root) {
  bool failedAny = false;
  // A type that cannot be expressed is reported once, at its first op (the
  // cast that makes it, usually), not at every op it flows through.
  DenseSet<Type> reported;
  root->walk([&](Operation *op) {
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      llvm::append_range(types, function.getArgumentTypes());
      llvm::append_range(types, function.getResultTypes());
    }
    for (Type type : types) {
      quant::QuantizedType element = quantElementOf(type);
      if (!element)
        continue;
      if (!isConvertedOp(op)) {
        op->emitOpError() << "carries " << type
                          << ", which this conversion cannot retype: only "
                             "quant casts, functions, calls, returns, "
                             "branches, scf control flow and tensor ops are "
                             "converted";
        failedAny = true;
        break;
      }
      // Casts need the whole encoding; other ops carry storage values only,
      // which !quant.any and !quant.calibrated do not describe either.
      bool isCast = isa<quant::QuantizeCastOp, quant::DequantizeCastOp>(op);
      if (reported.contains(type) ||
          (!isCast &&
           !isa<quant::AnyQuantizedType, quant::CalibratedQuantizedType>(
               element)))
        continue;
      std::string whyNot;
      if (succeeded(getAffineEncoding(element, type, whyNot)))
        continue;
      reported.insert(type);
      op->emitOpError() << "cannot convert " << type
                        << " to quant_affine: " << whyNot;
      failedAny = true;
      break;
    }
  });
  return failure(failedAny);
}
