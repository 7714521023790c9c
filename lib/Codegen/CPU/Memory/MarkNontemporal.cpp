//===- MarkNontemporal.cpp - non-temporal vector stores -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// x86 streams a vector store past the caches (vmovntps) only when the store
// is aligned to its size; otherwise a non-temporal store costs more than a
// plain one. Whether the caller's buffer is aligned is known only at run
// time, so the function body is versioned: when every buffer the stores
// write is aligned to the widest store (its size rounded up to a power of
// two), a copy runs whose stores are non-temporal and carry the largest
// power-of-two alignment that and their offsets prove (below);
// otherwise the original, with plain stores. Both compute the same values.
//
// Non-temporal stores pay off only where the output would not stay in
// cache for its consumer anyway; with `large-op-bytes` (the CPU pipeline
// passes the last-level cache size) only the stores of loop nests that move
// more than that many bytes into a buffer of static shape stream.
//
// (memref.assume_alignment would say the same, but expand-strided-metadata
// folds the metadata of its result to that of its operand, after which the
// pure assumption is dead and erased.)
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/NestFootprint.h"
#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMARKNONTEMPORALPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

using quant_affine::rootBuffer;

/// Whether `store` belongs to a loop nest that moves more than `limit`
/// bytes into a buffer of static shape (NestFootprint.h).
bool inLargeNest(vector::StoreOp store, int64_t limit,
                 DenseMap<Operation *, int64_t> &nestBytes) {
  if (!quant_affine::staticBytes(rootBuffer(store.getBase())))
    return false;
  return quant_affine::nestFootprintBytes(store, nestBytes) > limit;
}

/// Whether `root` is a buffer this function allocates and does not return:
/// a temporary, read again in this function (streaming it past the caches
/// would make that read go to memory), and not known to be aligned, so that
/// marking it would leave the function unversioned and every stream
/// unaligned (x86 then splits each vector into 8-byte `movnti`s).
bool isTemporary(Value root) {
  Operation *def = root.getDefiningOp();
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def) &&
         llvm::none_of(def->getUsers(), [](Operation *user) {
           return isa<func::ReturnOp>(user);
         });
}

/// The function argument a store's memref views, if it views one.
BlockArgument rootArgument(Value memref, Block &entry) {
  auto arg = dyn_cast<BlockArgument>(rootBuffer(memref));
  return arg && arg.getOwner() == &entry ? arg : BlockArgument();
}

using quant_affine::kMaxKnownDivisor;
using quant_affine::powerOfTwoDividing;

/// The largest power of two (bytes, up to 2^20) known to divide the distance
/// from the start of the root buffer to the element `store` writes; 1 when
/// the views in between are not static-strided subviews and reshapes.
int64_t knownByteDivisor(vector::StoreOp store) {
  auto type = cast<MemRefType>(store.getBase().getType());
  // Elements whose size is not a power of two of bytes (i24: 3 bytes of data
  // in 4) contribute the power of two their data size has, a lower bound.
  int64_t bytes = powerOfTwoDividing(
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1));
  int64_t divisor = kMaxKnownDivisor;
  // Adds sum(offset_i * stride_i) of `of`'s strides to what is known.
  auto addTerms = [&](ArrayRef<OpFoldResult> offsets, MemRefType of) {
    SmallVector<int64_t> strides;
    int64_t ignored;
    if (failed(of.getStridesAndOffset(strides, ignored)))
      return false;
    for (auto [offset, stride] : llvm::zip(offsets, strides)) {
      if (ShapedType::isDynamic(stride))
        return false;
      int64_t term = powerOfTwoDividing(stride) *
                     quant_affine::knownDivisor(offset) * bytes;
      divisor = std::min(divisor, std::min(term, kMaxKnownDivisor));
    }
    return true;
  };
  if (!addTerms(getAsOpFoldResult(store.getIndices()), type))
    return 1;
  Value memref = store.getBase();
  while (Operation *def = memref.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
      if (!addTerms(subview.getMixedOffsets(), subview.getSourceType()))
        return 1;
      memref = subview.getSource();
    } else if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def)) {
      memref = def->getOperand(0);
    } else {
      return 1;
    }
  }
  return divisor;
}

/// The alignment a buffer needs for `store` to stream: its size in bytes,
/// rounded up to a power of two (a 12 x i32 row, 48 bytes, asks for 64, so
/// that each power-of-two part LLVM splits it into is aligned to its size).
int64_t storeAlignment(vector::StoreOp store) {
  VectorType type = store.getVectorType();
  int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
  return static_cast<int64_t>(
      llvm::PowerOf2Ceil(static_cast<uint64_t>(std::max<int64_t>(bytes, 1))));
}

struct QuantAffineMarkNontemporalPass
    : quant_affine::impl::QuantAffineMarkNontemporalPassBase<
          QuantAffineMarkNontemporalPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (largeOpBytes < 0) {
      func.emitError("large-op-bytes must be at least 0, got ")
          << static_cast<int64_t>(largeOpBytes);
      return signalPassFailure();
    }
    // Unmasked 1-D transfer writes become vector.store, which can be marked.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    bool lowered = false;
    if (failed(quant_affine::applyPatternsToRoots(
            func, FrozenRewritePatternSet(std::move(patterns)), lowered)))
      return signalPassFailure();

    // The stores to stream: all of them, or those of large loop nests; not
    // those a later loop of the nest reads back (a streamed line would be
    // fetched from memory again), nor those into temporaries.
    llvm::SetVector<Operation *> stores;
    DenseMap<Operation *, int64_t> nestBytes;
    func.walk([&](vector::StoreOp store) {
      if ((largeOpBytes == 0 || inLargeNest(store, largeOpBytes, nestBytes)) &&
          !quant_affine::readBackInNest(store, store.getBase()) &&
          !isTemporary(rootBuffer(store.getBase())))
        stores.insert(store);
    });
    if (stores.empty()) {
      if (!lowered)
        markAllAnalysesPreserved();
      return;
    }
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return mark(stores);

    // The alignment each written buffer needs: its widest store.
    Block &entry = func.front();
    llvm::MapVector<BlockArgument, int64_t> alignments;
    bool allRooted = true;
    for (Operation *op : stores) {
      auto store = cast<vector::StoreOp>(op);
      BlockArgument root = rootArgument(store.getBase(), entry);
      if (!root) {
        allRooted = false;
        continue;
      }
      int64_t &alignment = alignments[root];
      alignment = std::max(alignment, storeAlignment(store));
    }
    Operation *ret = entry.getTerminator();
    bool returnsArguments = llvm::all_of(
        ret->getOperands(), [](Value v) { return isa<BlockArgument>(v); });
    if (alignments.empty() || !allRooted || !returnsArguments)
      return mark(stores);
    version(func, alignments, stores);
  }

  static void mark(const llvm::SetVector<Operation *> &stores) {
    for (Operation *store : stores)
      cast<vector::StoreOp>(store).setNontemporal(true);
  }

  /// Moves the body into the branch taken when every buffer in `alignments`
  /// is aligned, where `stores` stream; the other branch runs a copy with
  /// plain stores.
  static void version(func::FuncOp func,
                      const llvm::MapVector<BlockArgument, int64_t> &alignments,
                      const llvm::SetVector<Operation *> &stores) {
    Block &entry = func.front();
    Operation *ret = entry.getTerminator();
    SmallVector<Operation *> body;
    for (Operation &op : entry.without_terminator())
      body.push_back(&op);

    OpBuilder b(ret);
    Location loc = func.getLoc();
    Value aligned = arith::ConstantIntOp::create(b, loc, 1, /*width=*/1);
    for (auto [arg, alignment] : alignments) {
      Value address =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
      Value rem = arith::RemUIOp::create(
          b, loc, address, arith::ConstantIndexOp::create(b, loc, alignment));
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value ok =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero);
      aligned = arith::AndIOp::create(b, loc, aligned, ok);
    }
    auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);

    // Plain stores where a buffer is not aligned: a copy of the body.
    Block *plain = branch.elseBlock();
    b.setInsertionPoint(plain->getTerminator());
    IRMapping mapping;
    for (Operation *op : body)
      b.clone(*op, mapping);

    // The original body streams, each store with the alignment its buffer
    // has (checked above) and its offset keeps.
    Block *streaming = branch.thenBlock();
    for (Operation *op : body)
      op->moveBefore(streaming->getTerminator());
    for (Operation *op : stores) {
      auto store = cast<vector::StoreOp>(op);
      store.setNontemporal(true);
      BlockArgument root = rootArgument(store.getBase(), entry);
      // Both are powers of two; the attribute takes nothing else.
      int64_t alignment = powerOfTwoDividing(
          std::min(alignments.lookup(root), knownByteDivisor(store)));
      // A truncated value narrower than a line: LLVM folds an aligned store
      // of it into a truncating store (vpmovdb to memory), which is not
      // non-temporal; unaligned, it streams (movnti). Packed int4/int2
      // quantization ran 1.2 times slower with the plain stores (Zen 5).
      if (store.getValueToStore().getDefiningOp<arith::TruncIOp>() &&
          storeAlignment(store) < 64)
        alignment = 1;
      if (alignment > 1)
        store.setAlignment(static_cast<uint64_t>(alignment));
    }
  }
};
} // namespace
