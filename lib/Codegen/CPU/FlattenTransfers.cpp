//===- FlattenTransfers.cpp - n-D transfers on contiguous memory to 1-D ---===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two things happen to vector transfers on memrefs here, before they lower:
//
// - Vectors whose elements LLVM lays out differently in a vector than in a
//   memref (i1..i7, i12, i24, ...: bit-packed in a vector, each element in
//   its own alloc size in a memref) are read and written one element at a
//   time, so memory holds what scalar code would have written.
// - Upstream's unit-dim dropping and flattening patterns make contiguous n-D
//   transfers one-dimensional, except where the flattening pattern's
//   contiguity check would read past the end of a shape (below).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"

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

/// Whether a vector of `type` is laid out in memory as a memref of `type`
/// is: LLVM packs vector elements bit by bit, while a memref gives each
/// element the alloc size of its scalar type (i1..i7 a byte, i12 two, i24
/// four). The two agree only for widths that are a power of two of at least
/// one byte, and for index. (quant-affine-vectorize keeps such generics
/// scalar by the same rule; this catches vectors the program wrote itself.)
bool hasVectorMemoryLayout(Type type) {
  if (!type.isIntOrFloat())
    return true;
  unsigned width = type.getIntOrFloatBitWidth();
  return width >= 8 && llvm::isPowerOf2_32(width);
}

/// Whether `type` is a vector that must not be loaded or stored whole.
bool needsScalarAccess(VectorType type) {
  return !type.isScalable() && !hasVectorMemoryLayout(type.getElementType());
}

/// Unrolls a vector access of `vectorType` at `indices` of `memref` into one
/// scalar access per element. `dimOf(j)` is the memref dim that vector dim j
/// moves along (none for a broadcast dim), `inBounds(j)` whether that dim is
/// known in bounds, and `maskBit(position)` the i1 that enables the element
/// at `position` (null: enabled). `access` emits the access of the element at
/// `position` and memref `indices`, under `enabled` (null: unconditional).
void unrollAccess(
    OpBuilder &b, Location loc, Value memref, ValueRange indices,
    VectorType vectorType,
    function_ref<std::optional<unsigned>(unsigned)> dimOf,
    function_ref<bool(unsigned)> inBounds,
    function_ref<Value(ArrayRef<int64_t>)> maskBit,
    function_ref<void(ArrayRef<int64_t>, ValueRange, Value)> access) {
  ArrayRef<int64_t> shape = vectorType.getShape();
  SmallVector<int64_t> strides = computeSuffixProduct(shape);
  for (int64_t linear = 0, e = vectorType.getNumElements(); linear < e;
       ++linear) {
    SmallVector<int64_t> position =
        shape.empty() ? SmallVector<int64_t>() : delinearize(linear, strides);
    SmallVector<Value> at(indices.begin(), indices.end());
    Value enabled = maskBit(position);
    auto conjoin = [&](Value condition) {
      enabled = enabled ? arith::AndIOp::create(b, loc, enabled, condition)
                        : condition;
    };
    for (unsigned j = 0; j < shape.size(); ++j) {
      std::optional<unsigned> dim = dimOf(j);
      if (!dim)
        continue;
      if (position[j] != 0)
        at[*dim] = arith::AddIOp::create(
            b, loc, at[*dim],
            arith::ConstantIndexOp::create(b, loc, position[j]));
      if (!inBounds(j)) {
        Value size = memref::DimOp::create(b, loc, memref, *dim);
        conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      at[*dim], size));
      }
    }
    access(position, at, enabled);
  }
}

/// The memref dim that each vector dim of `transfer` moves along.
std::optional<unsigned> transferDim(VectorTransferOpInterface transfer,
                                    unsigned j) {
  if (auto dim =
          dyn_cast<AffineDimExpr>(transfer.getPermutationMap().getResult(j)))
    return dim.getPosition();
  return std::nullopt;
}

/// The bit of `transfer`'s mask that enables the element at `position`: the
/// mask has one dim per memref dim the transfer moves along, in memref order.
Value transferMaskBit(OpBuilder &b, Location loc,
                      VectorTransferOpInterface transfer,
                      ArrayRef<int64_t> position) {
  Value mask = transfer.getMask();
  if (!mask)
    return {};
  AffineMap map = transfer.getPermutationMap();
  SmallVector<int64_t> maskPosition;
  for (unsigned dim = 0; dim < map.getNumDims(); ++dim)
    for (unsigned j = 0; j < map.getNumResults(); ++j)
      if (map.getResult(j) == getAffineDimExpr(dim, b.getContext()))
        maskPosition.push_back(position[j]);
  return vector::ExtractOp::create(b, loc, mask, maskPosition);
}

/// Emits `then` under `condition` (unconditionally when null); a read yields
/// `otherwise` where disabled.
Value guarded(OpBuilder &b, Location loc, Value condition, Type type,
              function_ref<Value(OpBuilder &)> then, Value otherwise = {}) {
  if (!condition)
    return then(b);
  if (!type) {
    auto branch = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
    OpBuilder inner = OpBuilder::atBlockTerminator(branch.thenBlock());
    then(inner);
    return {};
  }
  auto branch = scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &inner, Location l) {
        scf::YieldOp::create(inner, l, then(inner));
      },
      [&](OpBuilder &inner, Location l) {
        scf::YieldOp::create(inner, l, otherwise);
      });
  return branch.getResult(0);
}

/// Reads and writes of vectors that need scalar access (above), one element
/// at a time: transfers (with masks, out-of-bounds dims and broadcasts) and
/// plain or masked loads and stores.
void scalarizeAccesses(func::FuncOp func) {
  SmallVector<Operation *> accesses;
  func.walk([&](Operation *op) {
    VectorType type;
    Value base;
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      type = read.getVectorType();
      base = read.getBase();
      // A padding that is itself a vector (vectors of vectors) is left alone.
      if (isa<VectorType>(read.getPadding().getType()))
        return;
    } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
      type = write.getVectorType();
      base = write.getBase();
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      type = load.getVectorType();
      base = load.getBase();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      type = store.getVectorType();
      base = store.getBase();
    } else if (auto load = dyn_cast<vector::MaskedLoadOp>(op)) {
      type = load.getVectorType();
      base = load.getBase();
    } else if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
      type = store.getVectorType();
      base = store.getBase();
    } else {
      return;
    }
    if (isa<MemRefType>(base.getType()) && needsScalarAccess(type))
      accesses.push_back(op);
  });

  for (Operation *op : accesses) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto noMask = [](ArrayRef<int64_t>) { return Value(); };
    // Vector dims of a load or store move along the trailing memref dims.
    auto trailingDims = [](Value memref, VectorType type) {
      unsigned offset =
          cast<MemRefType>(memref.getType()).getRank() - type.getRank();
      return [offset](unsigned j) -> std::optional<unsigned> {
        return offset + j;
      };
    };
    auto maskedBit = [&](Value mask) {
      return [&b, loc, mask](ArrayRef<int64_t> position) -> Value {
        return vector::ExtractOp::create(b, loc, mask, position);
      };
    };
    auto allInBounds = [](unsigned) { return true; };
    // Builds a read of `type` from one scalar load per element.
    auto read = [&](Value memref, ValueRange indices, VectorType type,
                    function_ref<std::optional<unsigned>(unsigned)> dimOf,
                    function_ref<bool(unsigned)> inBounds,
                    function_ref<Value(ArrayRef<int64_t>)> maskBit,
                    function_ref<Value(ArrayRef<int64_t>)> otherwise) {
      Value result =
          arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      unrollAccess(
          b, loc, memref, indices, type, dimOf, inBounds, maskBit,
          [&](ArrayRef<int64_t> position, ValueRange at, Value enabled) {
            Value element = guarded(
                b, loc, enabled, type.getElementType(),
                [&](OpBuilder &inner) -> Value {
                  return memref::LoadOp::create(inner, loc, memref, at);
                },
                enabled ? otherwise(position) : Value());
            result =
                vector::InsertOp::create(b, loc, element, result, position);
          });
      op->getResult(0).replaceAllUsesWith(result);
    };
    // Writes `vector` by one scalar store per element.
    auto write = [&](Value vector, Value memref, ValueRange indices,
                     function_ref<std::optional<unsigned>(unsigned)> dimOf,
                     function_ref<bool(unsigned)> inBounds,
                     function_ref<Value(ArrayRef<int64_t>)> maskBit) {
      auto type = cast<VectorType>(vector.getType());
      unrollAccess(
          b, loc, memref, indices, type, dimOf, inBounds, maskBit,
          [&](ArrayRef<int64_t> position, ValueRange at, Value enabled) {
            Value element = vector::ExtractOp::create(b, loc, vector, position);
            guarded(b, loc, enabled, Type(), [&](OpBuilder &inner) -> Value {
              memref::StoreOp::create(inner, loc, element, memref, at);
              return {};
            });
          });
    };

    if (auto xfer = dyn_cast<vector::TransferReadOp>(op)) {
      auto transfer = cast<VectorTransferOpInterface>(op);
      read(
          xfer.getBase(), xfer.getIndices(), xfer.getVectorType(),
          [&](unsigned j) { return transferDim(transfer, j); },
          [&](unsigned j) { return xfer.isDimInBounds(j); },
          [&](ArrayRef<int64_t> position) {
            return transferMaskBit(b, loc, transfer, position);
          },
          [&](ArrayRef<int64_t>) { return xfer.getPadding(); });
    } else if (auto xfer = dyn_cast<vector::TransferWriteOp>(op)) {
      auto transfer = cast<VectorTransferOpInterface>(op);
      write(
          xfer.getVector(), xfer.getBase(), xfer.getIndices(),
          [&](unsigned j) { return transferDim(transfer, j); },
          [&](unsigned j) { return xfer.isDimInBounds(j); },
          [&](ArrayRef<int64_t> position) {
            return transferMaskBit(b, loc, transfer, position);
          });
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      read(load.getBase(), load.getIndices(), load.getVectorType(),
           trailingDims(load.getBase(), load.getVectorType()), allInBounds,
           noMask, [](ArrayRef<int64_t>) { return Value(); });
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      write(store.getValueToStore(), store.getBase(), store.getIndices(),
            trailingDims(store.getBase(), store.getVectorType()), allInBounds,
            noMask);
    } else if (auto load = dyn_cast<vector::MaskedLoadOp>(op)) {
      read(load.getBase(), load.getIndices(), load.getVectorType(),
           trailingDims(load.getBase(), load.getVectorType()), allInBounds,
           maskedBit(load.getMask()), [&](ArrayRef<int64_t> position) {
             return vector::ExtractOp::create(b, loc, load.getPassThru(),
                                              position)
                 .getResult();
           });
    } else if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
      write(store.getValueToStore(), store.getBase(), store.getIndices(),
            trailingDims(store.getBase(), store.getVectorType()), allInBounds,
            maskedBit(store.getMask()));
    }
    op->erase();
  }
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
    scalarizeAccesses(getOperation());

    // Upstream's patterns; MLIR has them but no pass that applies them.
    RewritePatternSet patterns(&getContext());
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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
