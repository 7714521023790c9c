//===- EmulateNarrowTypes.cpp - packed i1/i2/i4 buffers -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Packs i1, i2 and i4 buffers 8 / N values a byte with upstream's narrow-type
// emulation (f4E2M1FN like i4, by its bits: scalar accesses bitcast it to and
// from i4). The pass runs the steps (PackedMemory.h): accesses prepared
// (PreparePackedAccesses.cpp), then one conversion with upstream's patterns,
// ours for loads and stores (PackedAccesses.cpp), for allocations, globals
// and layout-agnostic ops (PackedStorage.cpp) and the function, call,
// return, branch and scf boundaries; then the rewrites that pack and unpack
// in registers.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/LookupTables.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PackByBytes.h"
#include "QuantAffine/Codegen/Common/PackedMemory.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/UnpackByShifts.h"
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVector.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/NarrowTypeEmulationConverter.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEEMULATENARROWTYPESPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using quant_affine::isPackedMemRef;
using quant_affine::isPackedType;
using quant_affine::touchesPackedMemRef;

namespace {

/// Keeps the conversions out of and into packed types next to the bitcasts
/// of the loads and stores, where upstream's shuffle rewrites find them:
/// `ext(shape_cast(bitcast))` becomes `shape_cast(ext(bitcast))` and
/// `bitcast(shape_cast(trunc))` becomes `bitcast(trunc(shape_cast))`.
/// (Otherwise LLVM unpacks the nibbles of the n-D vector one by one.)
struct MoveShapeCastPastPackedCast : RewritePattern {
  MoveShapeCastPastPackedCast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::TruncIOp>(op))
      return failure();
    auto source = dyn_cast<VectorType>(op->getOperand(0).getType());
    auto result = dyn_cast<VectorType>(op->getResult(0).getType());
    if (!source || !result)
      return failure();
    Location loc = op->getLoc();
    // From a packed type: the shape_cast moves below.
    if (isPackedType(source.getElementType())) {
      auto shapeCast = op->getOperand(0).getDefiningOp<vector::ShapeCastOp>();
      if (!shapeCast)
        return failure();
      VectorType flat = shapeCast.getSourceVectorType();
      OperationState state(
          loc, op->getName().getIdentifier(), ValueRange{shapeCast.getSource()},
          TypeRange{flat.clone(result.getElementType())}, op->getAttrs());
      Value converted = rewriter.create(state)->getResult(0);
      rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, result, converted);
      return success();
    }
    // To a packed type, used by one shape_cast: that moves above.
    if (!isPackedType(result.getElementType()) || !op->hasOneUse())
      return failure();
    auto shapeCast = dyn_cast<vector::ShapeCastOp>(*op->user_begin());
    if (!shapeCast)
      return failure();
    VectorType flat = shapeCast.getResultVectorType();
    Value reshaped = vector::ShapeCastOp::create(
        rewriter, loc, flat.clone(source.getElementType()), op->getOperand(0));
    OperationState state(loc, op->getName().getIdentifier(),
                         ValueRange{reshaped}, TypeRange{flat}, op->getAttrs());
    rewriter.replaceOp(shapeCast, rewriter.create(state)->getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether `module` holds a packed buffer anywhere: else the pass has nothing
/// to do.
bool usesPackedMemory(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    if (touchesPackedMemRef(op))
      return WalkResult::interrupt();
    if (auto global = dyn_cast<memref::GlobalOp>(op))
      if (isPackedMemRef(global.getType()))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), isPackedMemRef))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

struct QuantAffineEmulateNarrowTypesPass
    : quant_affine::impl::QuantAffineEmulateNarrowTypesPassBase<
          QuantAffineEmulateNarrowTypesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (float4TableLanes != 0 && float4TableLanes != 8 &&
        float4TableLanes != 16) {
      module.emitError("float4-table-lanes must be 0, 8 or 16, got ")
          << static_cast<int64_t>(float4TableLanes);
      return signalPassFailure();
    }
    if (!usesPackedMemory(module))
      return markAllAnalysesPreserved();
    if (failed(quant_affine::preparePackedAccesses(module, parallelLoops)))
      return signalPassFailure();
    if (failed(quant_affine::passPackedLogicalSizes(module)) ||
        failed(checkShapesKnown(module)) ||
        failed(quant_affine::checkPackedAccessesAddressable(module)) ||
        failed(quant_affine::checkPackedResourceSizes(module)))
      return signalPassFailure();

    arith::NarrowTypeEmulationConverter converter(/*targetBitwidth=*/8);
    memref::populateMemRefNarrowTypeEmulationConversions(converter);
    // Tried first: only i1, i2 and i4 are packed; i3, i5, ... keep a byte.
    converter.addConversion([](MemRefType type) -> std::optional<Type> {
      if (!isPackedType(type.getElementType()))
        return type;
      return std::nullopt;
    });

    ConversionTarget target(*context);
    auto legal = [&](Operation *op) { return converter.isLegal(op); };
    target.markUnknownOpDynamicallyLegal(legal);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<memref::GlobalOp>(
        [](memref::GlobalOp op) { return !isPackedMemRef(op.getType()); });
    target.addDynamicallyLegalOp<memref::GetGlobalOp>(legal);

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    arith::populateArithNarrowTypeEmulationPatterns(converter, patterns);
    memref::populateMemRefNarrowTypeEmulationPatterns(converter, patterns);
    quant_affine::populatePackedAccessPatterns(converter, patterns,
                                               /*benefit=*/2);
    quant_affine::populatePackedStoragePatterns(converter, patterns,
                                                /*benefit=*/2);
    // No folding (as in preparePackedAccesses): an access folded through a
    // memref.cast would address the dynamic buffer the cast came from.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, target, std::move(patterns),
                                      config)))
      return signalPassFailure();

    GreedyRewriteConfig structured = quant_affine::structuredCodeConfig();
    // Packs and unpacks in registers with shuffles and shifts.
    RewritePatternSet moves(context);
    moves.add<MoveShapeCastPastPackedCast>(context);
    if (failed(applyPatternsGreedily(module, std::move(moves), structured)))
      return signalPassFailure();
    if (tableLookup || float4TableLanes)
      quant_affine::lookUpPackedCodesInTables(module, tableLookup,
                                              float4TableLanes);
    if (shiftUnpack || bytePack) {
      RewritePatternSet targeted(context);
      if (shiftUnpack)
        quant_affine::populateUnpackByShiftsPatterns(targeted);
      if (bytePack)
        quant_affine::populatePackByBytesPatterns(targeted);
      if (failed(
              applyPatternsGreedily(module, std::move(targeted), structured)))
        return signalPassFailure();
    }
    RewritePatternSet upstream(context);
    vector::populateVectorNarrowTypeRewritePatterns(upstream);
    RewritePatternSet rewrites(context);
    for (std::unique_ptr<RewritePattern> &pattern :
         upstream.getNativePatterns()) {
      // Its extsi of a shuffled, masked and logically shifted field extends
      // the zero-extended value (an i1 of 1 became 1, not -1; MLIR 22.1).
      // The i2/i4 patterns sign-extend correctly; other widths fall back to
      // LLVM's own extension of the bitcast vector.
      if (pattern->getDebugName().contains(
              "RewriteExtOfBitCast<mlir::arith::ExtSIOp>"))
        continue;
      rewrites.add(std::move(pattern));
    }
    if (failed(applyPatternsGreedily(module, std::move(rewrites), structured)))
      return signalPassFailure();
  }

  /// A packed buffer keeps no shape: its dims must not be asked for.
  static LogicalResult checkShapesKnown(ModuleOp module) {
    WalkResult walk = module.walk([](memref::DimOp dim) {
      auto type = dyn_cast<MemRefType>(dim.getSource().getType());
      if (!type || !isPackedType(type.getElementType()))
        return WalkResult::advance();
      std::optional<int64_t> index = dim.getConstantIndex();
      if (index && !type.isDynamicDim(*index))
        return WalkResult::advance();
      dim.emitError() << "the size of a dynamic dim of " << type
                      << " is not known once it is packed into bytes: give "
                         "the op an operand or destination of the same shape "
                         "in another type, or a static shape";
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }
};

} // namespace
