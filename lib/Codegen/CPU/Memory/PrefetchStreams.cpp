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
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEPREFETCHSTREAMSPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

using quant_affine::isLoop;
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

/// A rank-1 view of the whole root memref of `base` and the linear index in
/// it of the element at `indices`, built at `b`; failure where the root has
/// no static identity layout of byte-sized elements.
struct FlatAddress {
  Value view, linear;
  int64_t elements = 0, elementBytes = 0;
};
FailureOr<FlatAddress> flatAddress(OpBuilder &b, Location loc, Value base,
                                   ValueRange indices) {
  auto rootType = dyn_cast<MemRefType>(rootBuffer(base).getType());
  if (!rootType || !rootType.hasStaticShape() ||
      !rootType.getLayout().isIdentity() || rootType.getNumElements() == 0)
    return failure();
  Type elem = rootType.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8)
    return failure();
  FlatAddress address;
  address.elements = rootType.getNumElements();
  address.elementBytes = elem.getIntOrFloatBitWidth() / 8;
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, base);
  address.linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    address.linear = arith::AddIOp::create(
        b, loc, address.linear, arith::MulIOp::create(b, loc, index, stride));
  address.view = memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get({address.elements}, elem),
      metadata.getBaseBuffer(), /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{address.elements},
      /*strides=*/ArrayRef<int64_t>{1});
  return address;
}

/// One prefetch per cache line `load` reads (a 64-lane f32 load reads four),
/// from `aheadElements` after `address`. The first line is clamped so that
/// the last one is at most the last element, and the others follow at
/// constant distances (an addressing mode's displacement): one clamp per
/// load, where a clamp per line cost four instructions per line, more than
/// a 512-lane reduction's own work.
void prefetchLines(OpBuilder &b, Location loc, vector::LoadOp load,
                   const FlatAddress &address, int64_t aheadElements,
                   unsigned locality) {
  int64_t loadBytes =
      load.getVectorType().getNumElements() * address.elementBytes;
  int64_t lineElements = kLineBytes / address.elementBytes;
  int64_t lines = std::max<int64_t>(1, loadBytes / kLineBytes);
  // (A buffer shorter than the lines: fewer lines.)
  lines =
      std::min(lines, std::max<int64_t>(1, address.elements / lineElements));
  int64_t lastFirst = address.elements - 1 - (lines - 1) * lineElements;
  Value first = arith::MinUIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, address.linear,
          arith::ConstantIndexOp::create(b, loc, aheadElements)),
      arith::ConstantIndexOp::create(b, loc, lastFirst));
  for (int64_t line = 0; line < lines; ++line) {
    Value target =
        line == 0 ? first
                  : arith::AddIOp::create(b, loc, first,
                                          arith::ConstantIndexOp::create(
                                              b, loc, line * lineElements),
                                          arith::IntegerOverflowFlags::nuw);
    memref::PrefetchOp::create(b, loc, address.view, ValueRange{target},
                               /*isWrite=*/false, /*localityHint=*/locality,
                               /*isDataCache=*/true);
  }
}

/// Whether `load` cannot profit from a prefetch: a buffer this small stays
/// in the L1 cache; one an earlier loop of the nest wrote (a row tile's
/// encodings) is in the cache already.
bool inCacheAlready(vector::LoadOp load) {
  return quant_affine::staticBytes(rootBuffer(load.getBase())).value_or(0) <=
             kCacheResidentBytes ||
         quant_affine::producedInNest(load, load.getBase());
}

/// Whether an op of `block` before `op` (or nested in one) reads `root`.
bool readBefore(Operation *op, Value root) {
  for (Operation &earlier : *op->getBlock()) {
    if (&earlier == op)
      return false;
    WalkResult found = earlier.walk([&](Operation *nested) {
      return quant_affine::readsRoot(nested, root) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
    });
    if (found.wasInterrupted())
      return true;
  }
  return false;
}

/// Where `load`, in loops, rereads what an earlier loop of the same row
/// tile read (the quantization after a block reduction): the bytes of the
/// tile's view of the buffer, a static contiguous slab made in the body of
/// the enclosing loop (the rows). The lines `load` reads are in the cache;
/// the same place in the next slab, the next row's, is what to prefetch,
/// so that the next reduction reads the cache instead of waiting on memory
/// while this loop computes.
std::optional<int64_t> rereadSlabBytes(vector::LoadOp load) {
  Value root = rootBuffer(load.getBase());
  for (Operation *loop = load->getParentOp(); isLoop(loop);
       loop = loop->getParentOp()) {
    Block *rows = loop->getBlock();
    if (!isLoop(rows->getParentOp()))
      return std::nullopt;
    if (!readBefore(loop, root))
      continue;
    for (Value view = load.getBase();;) {
      auto viewOp = view.getDefiningOp<ViewLikeOpInterface>();
      if (!viewOp)
        return std::nullopt;
      auto type = dyn_cast<MemRefType>(view.getType());
      if (viewOp->getBlock() == rows && type &&
          memref::isStaticShapeAndContiguousRowMajor(type))
        return quant_affine::staticBytes(view);
      view = viewOp.getViewSource();
    }
  }
  return std::nullopt;
}

/// Prefetches the element `distanceBytes` after the first one `load` reads
/// (where it rereads a row tile's slab, the slab's bytes instead), in its
/// root memref's row-major order, clamped to the last element, with the
/// given temporal locality (`rereadLocality` for a slab).
void prefetchAhead(vector::LoadOp load, int64_t distanceBytes,
                   unsigned locality, unsigned rereadLocality) {
  if (inCacheAlready(load))
    return;
  if (std::optional<int64_t> slab = rereadSlabBytes(load)) {
    distanceBytes = *slab;
    locality = rereadLocality;
  }
  OpBuilder b(load);
  Location loc = load.getLoc();
  FailureOr<FlatAddress> address =
      flatAddress(b, loc, load.getBase(), load.getIndices());
  if (failed(address))
    return;
  int64_t ahead = distanceBytes / address->elementBytes;
  if (ahead > 0)
    prefetchLines(b, loc, load, *address, ahead, locality);
}

/// The loop whose next iteration `load` should prefetch, if any: `load`
/// reads a register tile's accumulators (its value flows, through vector
/// inserts, into the init of a loop later in the same body). That body
/// runs a whole reduction before the next tile, long enough to hide its
/// misses, while "distance bytes ahead" would be another column of tiles.
scf::ForOp tileLoopOf(vector::LoadOp load) {
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!loop || !getConstantIntValue(loop.getStep()))
    return {};
  SmallVector<Value> values = {load.getResult()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != load->getBlock() || !seen.insert(user).second)
        continue;
      if (auto inner = dyn_cast<scf::ForOp>(user))
        if (llvm::is_contained(inner.getInitArgs(), v))
          return loop;
      if (isa<vector::InsertStridedSliceOp, vector::InsertOp,
              vector::ShapeCastOp>(user))
        llvm::append_range(values, user->getResults());
    }
  }
  return {};
}

/// Prefetches what `load` reads in the next iteration of `loop` (the last
/// iteration, its own tile again): the address ops of the body are cloned
/// with the induction variable advanced by one step.
void prefetchNextIteration(vector::LoadOp load, scf::ForOp loop,
                           unsigned locality) {
  if (inCacheAlready(load))
    return;
  Block *body = loop.getBody();
  // The ops of the body the address depends on, in order; all pure.
  SetVector<Operation *> chain;
  SmallVector<Value> pending(load.getIndices().begin(),
                             load.getIndices().end());
  pending.push_back(load.getBase());
  while (!pending.empty()) {
    Operation *def = pending.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || chain.contains(def))
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions())
      return;
    chain.insert(def);
    llvm::append_range(pending, def->getOperands());
  }
  OpBuilder b(load);
  Location loc = load.getLoc();
  Value iv = loop.getInductionVar();
  Value next = arith::AddIOp::create(b, loc, iv, loop.getStep());
  Value inRange =
      arith::CmpIOp::create(b, loc,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                            next, loop.getUpperBound());
  IRMapping mapping;
  mapping.map(iv, arith::SelectOp::create(b, loc, inRange, next, iv));
  SmallVector<Operation *> ordered(chain.begin(), chain.end());
  llvm::sort(ordered,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  for (Operation *op : ordered)
    b.clone(*op, mapping);
  SmallVector<Value> indices;
  for (Value index : load.getIndices())
    indices.push_back(mapping.lookupOrDefault(index));
  FailureOr<FlatAddress> address =
      flatAddress(b, loc, mapping.lookupOrDefault(load.getBase()), indices);
  if (succeeded(address))
    prefetchLines(b, loc, load, *address, /*aheadElements=*/0, locality);
}

struct QuantAffinePrefetchStreamsPass
    : quant_affine::impl::QuantAffinePrefetchStreamsPassBase<
          QuantAffinePrefetchStreamsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (distance <= 0)
      return markAllAnalysesPreserved();
    for (auto [name, value] :
         {std::pair<StringRef, unsigned>{"locality", locality},
          {"reread-locality", rereadLocality}})
      if (value > 3) {
        getOperation().emitError() << name << " must be 0 to 3, got " << value;
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
    bool lowered = false;
    if (failed(quant_affine::applyPatternsToRoots(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            lowered)))
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
    if (loads.empty() && !lowered)
      return markAllAnalysesPreserved();
    for (vector::LoadOp load : loads) {
      if (scf::ForOp loop = tileLoopOf(load))
        prefetchNextIteration(load, loop, locality);
      else
        prefetchAhead(load, distance, locality, rereadLocality);
    }
  }
};

} // namespace
