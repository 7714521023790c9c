//===- PrefetchStreams.cpp - prefetch the inputs of streaming loops -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Large elementwise loops stream their outputs past the caches; their inputs
// come from memory too, a row per thread, and on some machines the hardware
// prefetchers do not run far enough ahead of them. Upstream has the op
// (memref.prefetch) but no pass that places it.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/NestFootprint.h"
#include "QuantAffine/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEPREFETCHSTREAMSPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

using quant_affine::rootBuffer;

/// Buffers up to this size are not prefetched.
constexpr int64_t kCacheResidentBytes = 32 << 10;
/// A cache line.
constexpr int64_t kLineBytes = 64;

/// Whether `block` holds a non-temporal vector store.
bool streamsStores(Block &block) {
  return llvm::any_of(block, [](Operation &op) {
    auto store = dyn_cast<vector::StoreOp>(op);
    return store && store.getNontemporal();
  });
}

/// Whether `load`, in a loop, reads a function argument in a nest that
/// moves more than `limit` bytes, and its loop prefetches nothing yet (the
/// fused contractions' weights have their own pass).
bool readsLargeNest(vector::LoadOp load, int64_t limit,
                    DenseMap<Operation *, int64_t> &nestBytes) {
  Block *block = load->getBlock();
  // A single element (a broadcast activation of an outer-product step) is
  // read a line at a time over 16 steps: a prefetch per step would cost more
  // than the misses it hides.
  if (load.getVectorType().getNumElements() == 1)
    return false;
  if (!isa_and_nonnull<LoopLikeOpInterface>(block->getParentOp()) ||
      !isa<BlockArgument>(rootBuffer(load.getBase())) ||
      llvm::any_of(*block,
                   [](Operation &op) { return isa<memref::PrefetchOp>(op); }))
    return false;
  return quant_affine::nestFootprintBytes(load, nestBytes) > limit;
}

/// Prefetches the element `distanceBytes` after the first one `load` reads,
/// in its root memref's row-major order, clamped to the last element, with
/// the given temporal locality.
void prefetchAhead(vector::LoadOp load, int64_t distanceBytes,
                   unsigned locality) {
  auto rootType = dyn_cast<MemRefType>(rootBuffer(load.getBase()).getType());
  if (!rootType || !rootType.hasStaticShape() ||
      !rootType.getLayout().isIdentity() || rootType.getNumElements() == 0)
    return;
  Type elem = rootType.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8)
    return;
  // A buffer this small stays in the L1 cache; one an earlier loop of the
  // nest wrote (a row tile's encodings) is in the cache already.
  if (quant_affine::staticBytes(rootBuffer(load.getBase())).value_or(0) <=
          kCacheResidentBytes ||
      quant_affine::producedInNest(load, load.getBase()))
    return;
  int64_t ahead = distanceBytes / (elem.getIntOrFloatBitWidth() / 8);
  if (ahead <= 0)
    return;
  OpBuilder b(load);
  Location loc = load.getLoc();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, load.getBase());
  // The linear index, in the root, of the first element read.
  Value linear = metadata.getOffset();
  for (auto [index, stride] :
       llvm::zip(load.getIndices(), metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  int64_t total = rootType.getNumElements();
  auto flatType = MemRefType::get({total}, elem);
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, metadata.getBaseBuffer(), /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{total}, /*strides=*/ArrayRef<int64_t>{1});
  // One prefetch per cache line the load reads (a 64-lane f32 load reads
  // four).
  int64_t elementBytes = elem.getIntOrFloatBitWidth() / 8;
  int64_t loadBytes = load.getVectorType().getNumElements() * elementBytes;
  int64_t lines = std::max<int64_t>(1, loadBytes / kLineBytes);
  Value last = arith::ConstantIndexOp::create(b, loc, total - 1);
  for (int64_t line = 0; line < lines; ++line) {
    Value target = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, linear,
            arith::ConstantIndexOp::create(
                b, loc, ahead + line * kLineBytes / elementBytes)),
        last);
    memref::PrefetchOp::create(b, loc, flat, ValueRange{target},
                               /*isWrite=*/false, /*localityHint=*/locality,
                               /*isDataCache=*/true);
  }
}

struct QuantAffinePrefetchStreamsPass
    : quant_affine::impl::QuantAffinePrefetchStreamsPassBase<
          QuantAffinePrefetchStreamsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (distance <= 0)
      return;
    if (locality > 3) {
      getOperation().emitError("locality must be 0 to 3, got ")
          << static_cast<unsigned>(locality);
      return signalPassFailure();
    }
    if (largeNestBytes < 0) {
      getOperation().emitError("large-nest-bytes must be at least 0, got ")
          << static_cast<int64_t>(largeNestBytes);
      return signalPassFailure();
    }
    // Unmasked 1-D transfer reads become vector.load (as
    // quant-affine-mark-nontemporal does for writes), which is what is
    // prefetched: without streamed stores no pass did it before.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    SmallVector<vector::LoadOp> loads;
    DenseMap<Operation *, int64_t> nestBytes;
    getOperation().walk([&](Block *block) {
      bool streams = streamsStores(*block);
      for (Operation &op : *block)
        if (auto load = dyn_cast<vector::LoadOp>(op))
          if (streams || (largeNestBytes > 0 &&
                          readsLargeNest(load, largeNestBytes, nestBytes)))
            loads.push_back(load);
    });
    for (vector::LoadOp load : loads)
      prefetchAhead(load, distance, locality);
  }
};

} // namespace
