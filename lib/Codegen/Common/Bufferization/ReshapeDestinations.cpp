//===- ReshapeDestinations.cpp - reshape destinations, not results --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINERESHAPEDESTINATIONSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// materialize(collapse_shape(r), dest)
///   -> collapse_shape(materialize(r, expand_shape(dest)))
/// with the expand_shape right after dest's definition, so that it dominates
/// the tensor.empty that empty-tensor elimination will replace.
struct MoveCollapseOntoDestination
    : OpRewritePattern<bufferization::MaterializeInDestinationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(bufferization::MaterializeInDestinationOp op,
                                PatternRewriter &rewriter) const override {
    auto collapse = op.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    Value dest = op.getDest();
    auto destType = dyn_cast<ShapedType>(dest.getType());
    if (!collapse || !destType || !destType.hasStaticShape() ||
        destType.getShape() != collapse.getResultType().getShape())
      return rewriter.notifyMatchFailure(op, "not a static collapsed source");
    bool isTensor = isa<TensorType>(destType);
    if (!isTensor && !cast<MemRefType>(destType).getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "strided destination buffer");

    // Reshape the destination right after it is defined.
    OpBuilder::InsertionGuard guard(rewriter);
    if (Operation *def = dest.getDefiningOp())
      rewriter.setInsertionPointAfter(def);
    else
      rewriter.setInsertionPointToStart(cast<BlockArgument>(dest).getOwner());
    ArrayRef<int64_t> expandedShape = collapse.getSrcType().getShape();
    auto reassociation = collapse.getReassociationIndices();
    Value expandedDest;
    if (isTensor)
      expandedDest = tensor::ExpandShapeOp::create(
          rewriter, op.getLoc(), collapse.getSrcType(), dest, reassociation);
    else
      expandedDest = memref::ExpandShapeOp::create(
          rewriter, op.getLoc(),
          MemRefType::get(expandedShape, destType.getElementType()), dest,
          reassociation);

    rewriter.setInsertionPoint(op);
    Type resultType = isTensor ? expandedDest.getType() : Type();
    auto materialized = bufferization::MaterializeInDestinationOp::create(
        rewriter, op.getLoc(), resultType, collapse.getSrc(), expandedDest,
        op.getRestrict(), op.getWritable());
    if (!isTensor) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, destType, materialized.getResult(), reassociation);
    return success();
  }
};

struct QuantAffineReshapeDestinationsPass
    : quant_affine::impl::QuantAffineReshapeDestinationsPassBase<
          QuantAffineReshapeDestinationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MoveCollapseOntoDestination>(&getContext());
    bool changed = false;
    if (failed(quant_affine::applyPatternsToRoots(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            changed)))
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
