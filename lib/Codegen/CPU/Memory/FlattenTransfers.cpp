//===- FlattenTransfers.cpp - n-D transfers on contiguous memory to 1-D ---===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Three things happen to vector transfers on memrefs here, before they lower:
//
// - Vectors whose elements LLVM lays out differently in a vector than in a
//   memref (i1..i7, i12, i24, ...: bit-packed in a vector, each element in
//   its own alloc size in a memref) are read and written one element at a
//   time, so memory holds what scalar code would have written.
// - Upstream's unit-dim dropping and flattening patterns make contiguous n-D
//   transfers one-dimensional, except where the flattening pattern's
//   contiguity check would read past the end of a shape (below).
// - A read in which every lane is the same element (a per-row scale or
//   maxval broadcast along the row) becomes one scalar load and a broadcast.
//   Upstream lowers such a read as a loop of one load and one insert per
//   lane; LLVM's -O2 collapses it, but without optimization (llc, a JIT at
//   -O0) it stays a chain of 64 stack round trips per row.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"
#include "QuantAffine/Codegen/Common/ScalarizeAccesses.h"
#include "QuantAffine/Codegen/Common/UniformReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFLATTENTRANSFERSPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `type` is a vector that must not be loaded or stored whole.
bool needsScalarAccess(VectorType type) {
  return !type.isScalable() &&
         !quant_affine::hasVectorMemoryLayout(type.getElementType());
}

/// Whether upstream's vector::isContiguousSlice, which the flattening
/// patterns call on every n-D transfer of a memref, can look at `transfer`
/// safely. It drops the vector's leading unit dims and then takes the
/// remaining dims' count from the back of the memref's shape and the first
/// of them off both: with no dim left (an all-unit vector, 1x1x1, which the
/// unit-dim patterns leave when the transfer broadcasts) or more dims than
/// the memref has (a broadcast read of a lower-rank memref) it reads past the
/// end of a shape and crashes (MLIR 22.1).
bool contiguityCheckIsSafe(Operation *op) {
  auto transfer = dyn_cast<VectorTransferOpInterface>(op);
  if (!transfer)
    return true;
  auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
  VectorType vector = transfer.getVectorType();
  if (!memref || vector.isScalable() || vector.getRank() <= 1)
    return true;
  ArrayRef<int64_t> shape =
      vector.getShape().drop_while([](int64_t size) { return size == 1; });
  return !shape.empty() &&
         static_cast<int64_t>(shape.size()) <= memref.getRank();
}

/// A read whose lanes all hold base[indices], in bounds (a read that may
/// pad keeps its transfer).
struct UniformReadToBroadcast : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vector = read.getVectorType();
    if (!memref || !quant_affine::readsOneElement(read) ||
        read.hasOutOfBoundsDim() ||
        memref.getElementType() != vector.getElementType() ||
        vector.getNumElements() == 1)
      return failure();
    Value scalar = memref::LoadOp::create(rewriter, read.getLoc(),
                                          read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, vector, scalar);
    return success();
  }
};

/// Applies `inner` only where the contiguity check is safe; a transfer it
/// skips stays n-D, which lowers as before.
struct GuardedPattern : RewritePattern {
  GuardedPattern(std::unique_ptr<RewritePattern> inner, StringRef root,
                 ArrayRef<StringRef> generated)
      : RewritePattern(root, inner->getBenefit(), inner->getContext(),
                       generated),
        inner(std::move(inner)) {
    setDebugName(this->inner->getDebugName());
    if (this->inner->hasBoundedRewriteRecursion())
      setHasBoundedRewriteRecursion();
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!contiguityCheckIsSafe(op))
      return rewriter.notifyMatchFailure(op, "unsafe contiguity check");
    return inner->matchAndRewrite(op, rewriter);
  }

  std::unique_ptr<RewritePattern> inner;
};

struct QuantAffineFlattenTransfersPass
    : quant_affine::impl::QuantAffineFlattenTransfersPassBase<
          QuantAffineFlattenTransfersPass> {
  void runOnOperation() override {
    bool scalarized = quant_affine::scalarizeVectorAccesses(
        getOperation(), [](Operation *, VectorType type, Value) {
          return needsScalarAccess(type);
        });

    // Upstream's patterns; MLIR has them but no pass that applies them.
    RewritePatternSet patterns(&getContext());
    patterns.add<UniformReadToBroadcast>(&getContext(), /*benefit=*/2);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    RewritePatternSet flatten(&getContext());
    vector::populateFlattenVectorTransferPatterns(flatten);
    for (std::unique_ptr<RewritePattern> &pattern :
         flatten.getNativePatterns()) {
      std::optional<OperationName> root = pattern->getRootKind();
      if (!root ||
          (root->getStringRef() != vector::TransferReadOp::getOperationName() &&
           root->getStringRef() !=
               vector::TransferWriteOp::getOperationName())) {
        patterns.add(std::move(pattern));
        continue;
      }
      SmallVector<StringRef> generated;
      for (OperationName name : pattern->getGeneratedOps())
        generated.push_back(name.getStringRef());
      patterns.add(std::make_unique<GuardedPattern>(
          std::move(pattern), root->getStringRef(), generated));
    }
    bool changed = false;
    if (failed(quant_affine::applyPatternsToRoots(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            changed)))
      return signalPassFailure();
    if (!scalarized && !changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
