//===- PreparePackedAccesses.cpp - accesses the emulation takes -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Before quant-affine-emulate-narrow-types converts packed buffers, their
// accesses take the forms the conversion handles: copies between views
// become linalg copies, linalg ops on packed buffers become loops, accesses
// of a buffer of dynamic strides go through a static-stride memref.cast of
// it where one dominates them, 1-D transfers become vector loads and stores
// (others are done element by element), views fold into the accesses (the
// emulation wants them on the root buffer), and float-to-packed conversions
// go through i32 so that upstream's shuffle rewrite of bitcast(trunci)
// applies.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PackedMemory.h"
#include "QuantAffine/Codegen/Common/ScalarizeAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using quant_affine::hasStaticStrides;
using quant_affine::isPackedMemRef;
using quant_affine::isPackedType;
using quant_affine::touchesPackedMemRef;

namespace {

/// fptosi/fptoui to a packed vector type through i32 and a trunci: the same
/// value wherever the original is not poison (the value fits), and the form
/// upstream's bitcast(trunci) rewrite packs with shuffles.
template <typename ConvertOp>
struct ConvertToPackedThroughI32 : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || !isPackedType(type.getElementType()))
      return failure();
    auto wide = type.clone(rewriter.getI32Type());
    Value converted =
        ConvertOp::create(rewriter, op.getLoc(), wide, op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, converted);
    return success();
  }
};

/// Copies between views of packed buffers: a tile copied onto itself (the
/// two subviews of a forall's output tile, merged by CSE) goes away, any
/// other becomes a linalg copy, lowered to loops below. (Upstream copies only
/// whole buffers of one layout.)
void rewriteCopies(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, module);
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (touchesPackedMemRef(copy))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    if (copy.getSource() != copy.getTarget()) {
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (source == target && source.getLayout().isIdentity())
        continue; // Upstream copies the bytes.
      rewriter.setInsertionPoint(copy);
      linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
    }
    rewriter.eraseOp(copy);
  }
}

/// The 1-D mask of a transfer of a vector whose leading dims are units:
/// `create_mask 1, ..., 1, %n` becomes `create_mask %n`. Null when the
/// transfer has no mask; failure when its mask is of another form.
FailureOr<Value> innermostMask(PatternRewriter &rewriter, Location loc,
                               Value mask, VectorType flat) {
  if (!mask)
    return Value();
  auto create = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!create)
    return failure();
  OperandRange sizes = create.getOperands();
  for (Value size : sizes.drop_back())
    if (getConstantIntValue(size) != 1)
      return failure();
  return vector::CreateMaskOp::create(rewriter, loc,
                                      flat.clone(rewriter.getI1Type()),
                                      ValueRange{sizes.back()})
      .getResult();
}

/// The 1-D vector type of the same elements when `transfer` moves one
/// contiguous run of memory from its indices on: a vector whose dims are
/// units but the last, along the innermost memref dim, in bounds but for a
/// masked last dim; or, unmasked and in bounds, a vector that is a
/// contiguous slice of the memref (two blocks of 32 of rows of 4096).
template <typename TransferOp>
std::optional<VectorType> flatTransferType(TransferOp transfer) {
  VectorType type = transfer.getVectorType();
  auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
  if (!memref || !isPackedType(memref.getElementType()) || type.isScalable() ||
      type.getRank() == 0 || !transfer.getPermutationMap().isMinorIdentity())
    return std::nullopt;
  auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
  ArrayRef<int64_t> leading = type.getShape().drop_back();
  if (llvm::all_of(leading, [](int64_t size) { return size == 1; })) {
    for (int64_t j = 0; j + 1 < type.getRank(); ++j)
      if (!transfer.isDimInBounds(j))
        return std::nullopt;
    if (!transfer.isDimInBounds(type.getRank() - 1) && !transfer.getMask())
      return std::nullopt;
    return flat;
  }
  // (isContiguousSlice reads past the shapes of all-unit vectors and of
  // vectors of higher rank than the memref: excluded above and here.)
  if (transfer.getMask() || type.getRank() > memref.getRank())
    return std::nullopt;
  for (int64_t j = 0; j < type.getRank(); ++j)
    if (!transfer.isDimInBounds(j))
      return std::nullopt;
  if (!vector::isContiguousSlice(memref, type))
    return std::nullopt;
  return flat;
}

struct FlatTransferRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    std::optional<VectorType> flat = flatTransferType(read);
    if (!flat || isa<VectorType>(read.getPadding().getType()))
      return failure();
    Location loc = read.getLoc();
    FailureOr<Value> mask = innermostMask(rewriter, loc, read.getMask(), *flat);
    if (failed(mask))
      return failure();
    Value loaded;
    if (*mask) {
      Value padding =
          vector::BroadcastOp::create(rewriter, loc, *flat, read.getPadding());
      loaded =
          vector::MaskedLoadOp::create(rewriter, loc, *flat, read.getBase(),
                                       read.getIndices(), *mask, padding);
    } else {
      loaded = vector::LoadOp::create(rewriter, loc, *flat, read.getBase(),
                                      read.getIndices());
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, read.getVectorType(),
                                                     loaded);
    return success();
  }
};

struct FlatTransferWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    std::optional<VectorType> flat = flatTransferType(write);
    if (!flat || !isa<MemRefType>(write.getBase().getType()))
      return failure();
    Location loc = write.getLoc();
    FailureOr<Value> mask =
        innermostMask(rewriter, loc, write.getMask(), *flat);
    if (failed(mask))
      return failure();
    Value value =
        vector::ShapeCastOp::create(rewriter, loc, *flat, write.getVector());
    if (*mask)
      vector::MaskedStoreOp::create(rewriter, loc, write.getBase(),
                                    write.getIndices(), *mask, value);
    else
      vector::StoreOp::create(rewriter, loc, value, write.getBase(),
                              write.getIndices());
    rewriter.eraseOp(write);
    return success();
  }
};

/// Accesses of a packed buffer of dynamic strides through a memref.cast of
/// it to static strides that dominates them: canonicalization folds casts
/// into accesses (to the less static type), but a caller that casts a
/// returned buffer to the shape it knows gives the strides packing needs.
void accessThroughStaticCasts(ModuleOp module) {
  DominanceInfo dominance;
  module.walk([&](Operation *op) {
    if (!isa<memref::LoadOp, memref::StoreOp, vector::TransferReadOp,
             vector::TransferWriteOp, vector::LoadOp, vector::StoreOp,
             vector::MaskedLoadOp, vector::MaskedStoreOp>(op))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type || !isPackedType(type.getElementType()) ||
          hasStaticStrides(type))
        continue;
      for (Operation *user : operand.get().getUsers()) {
        auto cast = dyn_cast<memref::CastOp>(user);
        auto castType =
            cast ? dyn_cast<MemRefType>(cast.getType()) : MemRefType();
        if (castType && hasStaticStrides(castType) &&
            dominance.properlyDominates(cast.getOperation(), op)) {
          operand.set(cast.getResult());
          break;
        }
      }
    }
  });
}

/// Linalg ops on packed buffers to loops, which the emulation understands.
LogicalResult lowerLinalgToLoops(ModuleOp module, bool parallel) {
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    if (touchesPackedMemRef(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    if (parallel ? failed(linalg::linalgOpToParallelLoops(rewriter, op))
                 : failed(linalg::linalgOpToLoops(rewriter, op)))
      return op.emitOpError("could not be lowered to loops on packed buffers");
    rewriter.eraseOp(op);
  }
  return success();
}

LogicalResult prepare(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<vector::TransferReadOp, vector::TransferWriteOp, memref::LoadOp,
            memref::StoreOp, vector::LoadOp, vector::StoreOp,
            vector::MaskedLoadOp, vector::MaskedStoreOp, memref::SubViewOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::DimOp>(
            op) &&
        touchesPackedMemRef(op))
      ops.push_back(op);
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(module.getContext());
  // Tiles (1x1x16 too) to 1-D loads and stores.
  patterns.add<FlatTransferRead, FlatTransferWrite>(module.getContext(),
                                                    /*benefit=*/2);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  patterns.add<ConvertToPackedThroughI32<arith::FPToSIOp>,
               ConvertToPackedThroughI32<arith::FPToUIOp>>(module.getContext());
  FrozenRewritePatternSet frozen(std::move(patterns));
  // No folding: an access's folder would look through a memref.cast to the
  // dynamic buffer it came from (a result cast back to the static shape the
  // caller knows), whose strides packing cannot recover.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableFolding(false);
  if (failed(applyOpPatternsGreedily(ops, frozen, config)))
    return failure();
  // What did not become a plain or masked 1-D access (out-of-bounds dims,
  // broadcasts, n-D) goes element by element; views then fold into those.
  bool scalarized = false;
  quant_affine::scalarizeVectorAccesses(module, [&](Operation *op, VectorType,
                                                    Value base) {
    bool packed = isa<vector::TransferReadOp, vector::TransferWriteOp>(op) &&
                  isPackedMemRef(base.getType());
    scalarized |= packed;
    return packed;
  });
  if (!scalarized)
    return success();
  ops.clear();
  module.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::SubViewOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::DimOp>(
            op) &&
        touchesPackedMemRef(op))
      ops.push_back(op);
  });
  if (failed(applyOpPatternsGreedily(ops, frozen, config)))
    return failure();
  // Bounds checks of the scalarized accesses ask for static dims.
  IRRewriter rewriter(module.getContext());
  module.walk([&](memref::DimOp dim) {
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!type || !isPackedType(type.getElementType()) || !index ||
        *index >= type.getRank() || type.isDynamicDim(*index))
      return;
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        dim, type.getDimSize(*index));
  });
  return success();
}

} // namespace

LogicalResult quant_affine::preparePackedAccesses(ModuleOp module,
                                                  bool parallelLoops) {
  rewriteCopies(module);
  accessThroughStaticCasts(module);
  if (failed(lowerLinalgToLoops(module, parallelLoops)))
    return failure();
  return prepare(module);
}
