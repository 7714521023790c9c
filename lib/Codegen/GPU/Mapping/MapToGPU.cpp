//===- MapToGPU.cpp - scf.parallel to a grid of blocks and threads --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMAPTOGPUPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;
// CUDA's limits on gridDim.y and gridDim.z (gridDim.x goes to 2^31 - 1).
constexpr int64_t kMaxGridYZ = 65535;

/// Iterations of each dim of `loop`, or kDynamic where not constant.
SmallVector<int64_t> getTripCounts(scf::ParallelOp loop) {
  SmallVector<int64_t> trips;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    trips.push_back(l && u && s && *s > 0
                        ? std::max<int64_t>(llvm::divideCeil(*u - *l, *s), 0)
                        : kDynamic);
  }
  return trips;
}

/// Threads per block along each dim: the innermost three dims take what the
/// block has left, innermost first; the others get one.
SmallVector<int64_t> chooseThreadTile(ArrayRef<int64_t> trips,
                                      int64_t blockSize) {
  SmallVector<int64_t> tile(trips.size(), 1);
  int64_t left = blockSize;
  for (int64_t d = trips.size() - 1, mapped = 0; d >= 0 && mapped < 3;
       --d, ++mapped) {
    int64_t size = trips[d] == kDynamic ? left : std::min(trips[d], left);
    tile[d] = std::max<int64_t>(size, 1);
    left = std::max<int64_t>(left / tile[d], 1);
  }
  return tile;
}

gpu::ParallelLoopDimMappingAttr mapTo(OpBuilder &b, gpu::Processor processor) {
  AffineMap identity = b.getDimIdentityMap();
  return gpu::ParallelLoopDimMappingAttr::get(b.getContext(), processor,
                                              identity, identity);
}

/// Innermost dim on thread x, the next on y and z; the rest run in order.
SmallVector<gpu::ParallelLoopDimMappingAttr> mapThreads(OpBuilder &b,
                                                        unsigned rank) {
  const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                    gpu::Processor::ThreadY,
                                    gpu::Processor::ThreadZ};
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0; d < rank; ++d) {
    unsigned fromInner = rank - 1 - d;
    mapping.push_back(mapTo(b, fromInner < 3 ? threads[fromInner]
                                             : gpu::Processor::Sequential));
  }
  return mapping;
}

/// The dim with the most blocks (dynamic counts as most) on block x, which
/// has the large limit; then y and z for the next dims in order, when their
/// static block count fits; the rest run in order.
SmallVector<gpu::ParallelLoopDimMappingAttr>
mapBlocks(OpBuilder &b, ArrayRef<int64_t> blockCounts) {
  unsigned rank = blockCounts.size();
  auto weight = [](int64_t n) {
    return n == kDynamic ? std::numeric_limits<int64_t>::max() : n;
  };
  unsigned widest = 0;
  for (unsigned d = 1; d < rank; ++d)
    if (weight(blockCounts[d]) > weight(blockCounts[widest]))
      widest = d;
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
      rank, mapTo(b, gpu::Processor::Sequential));
  mapping[widest] = mapTo(b, gpu::Processor::BlockX);
  const gpu::Processor others[] = {gpu::Processor::BlockY,
                                   gpu::Processor::BlockZ};
  unsigned next = 0;
  for (unsigned d = 0; d < rank && next < 2; ++d) {
    if (d == widest || blockCounts[d] == kDynamic ||
        blockCounts[d] > kMaxGridYZ)
      continue;
    mapping[d] = mapTo(b, others[next++]);
  }
  return mapping;
}

/// Splits `loop` into a loop over blocks around a loop over the threads of a
/// block, `tile[d]` threads along dim d. The one place the mapping derives
/// its indices from the tile shape: the block loop steps by `step * tile`,
/// the thread loop counts threads (0 to tile, step 1), a thread's index is
/// `block + thread * step`, and that index is guarded against the bound
/// wherever the tile may overrun it (a dynamic or non-divisible dim).
/// (Upstream's scf::tileParallelLoop with noMinMaxBounds scales the inner
/// index by the step twice in its guard, which silently skipped all but the
/// first vector tile of rows with a dynamic dim elsewhere.)
std::pair<scf::ParallelOp, scf::ParallelOp>
tileForBlocksAndThreads(OpBuilder &b, scf::ParallelOp loop,
                        ArrayRef<int64_t> trips, ArrayRef<int64_t> tile) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> blockSteps, threadBounds, zeros, ones;
  for (auto [step, size] : llvm::zip(loop.getStep(), tile)) {
    blockSteps.push_back(arith::MulIOp::create(b, loc, step, index(size)));
    threadBounds.push_back(index(size));
    zeros.push_back(index(0));
    ones.push_back(index(1));
  }
  auto blocks = scf::ParallelOp::create(b, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), blockSteps);
  b.setInsertionPoint(blocks.getBody()->getTerminator());
  auto threads = scf::ParallelOp::create(b, loc, zeros, threadBounds, ones);
  b.setInsertionPoint(threads.getBody()->getTerminator());
  SmallVector<Value> ivs;
  Value inBounds;
  for (auto [d, blockIv, threadIv] :
       llvm::enumerate(blocks.getInductionVars(), threads.getInductionVars())) {
    Value offset = arith::MulIOp::create(b, loc, threadIv, loop.getStep()[d]);
    Value iv = arith::AddIOp::create(b, loc, blockIv, offset);
    ivs.push_back(iv);
    if (trips[d] != kDynamic && trips[d] % tile[d] == 0)
      continue;
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, iv,
                                     loop.getUpperBound()[d]);
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, in) : in;
  }
  Block *body = threads.getBody();
  if (inBounds) {
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
    body = guard.thenBlock();
  }
  // The original body, minus its scf.reduce, before the new terminator.
  Block &original = *loop.getBody();
  IRRewriter rewriter(b);
  rewriter.eraseOp(original.getTerminator());
  rewriter.inlineBlockBefore(&original, body->getTerminator(), ivs);
  rewriter.eraseOp(loop);
  return {blocks, threads};
}

/// A parallel loop directly in a thread's work (an element loop where a tile
/// was not vectorized) runs in order in that thread. Upstream's conversion
/// to launches handles such a loop only with a mapping, and gives up on the
/// whole nest, silently leaving it on the host, without one. (A parallel
/// loop under another op, such as an scf.for, is cloned into the kernel as
/// it is and keeps no mapping, or it would become a launch of its own.)
void mapNestedLoopsInOrder(OpBuilder &b, scf::ParallelOp loop) {
  for (Operation &op : *loop.getBody()) {
    auto nested = dyn_cast<scf::ParallelOp>(op);
    if (!nested || nested->hasAttr(gpu::getMappingAttrName()))
      continue;
    (void)gpu::setMappingAttr(
        nested,
        SmallVector<gpu::ParallelLoopDimMappingAttr>(
            nested.getNumLoops(), mapTo(b, gpu::Processor::Sequential)));
    mapNestedLoopsInOrder(b, nested);
  }
}

struct QuantAffineMapToGPUPass
    : quant_affine::impl::QuantAffineMapToGPUPassBase<QuantAffineMapToGPUPass> {
  using Base::Base;

  /// Linalg ops left outside any loop (not tiled: scalar ones) become
  /// parallel loops here; an op without parallel loops (rank 0, or a
  /// reduction to one element), which would run on the host on device
  /// memory, goes into a one-iteration scf.parallel.
  LogicalResult loopsForUntiledOps() {
    // Copies that bufferization leaves on the host (of tensor.pad,
    // tensor.concat, insert_slice) may read or write device memory: as
    // linalg.copy they become parallel loops below, and kernels. (Stack
    // buffers stay on the host, which alone can reach them.)
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto onStack = [](Value buffer) {
        Value root =
            memref::skipViewLikeOps(cast<TypedValue<MemRefType>>(buffer));
        return root.getDefiningOp<memref::AllocaOp>() != nullptr;
      };
      if (!copy->getParentOfType<scf::ParallelOp>() &&
          !copy->getParentOfType<gpu::LaunchOp>() &&
          !onStack(copy.getSource()) && !onStack(copy.getTarget()))
        copies.push_back(copy);
    });
    IRRewriter copyRewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      copyRewriter.setInsertionPoint(copy);
      copyRewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                      copy.getTarget());
    }
    SmallVector<linalg::LinalgOp> untiled;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<scf::ParallelOp>() &&
          !op->getParentOfType<gpu::LaunchOp>())
        untiled.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : untiled) {
      rewriter.setInsertionPoint(op);
      // (A reduction with no parallel dim too: as loops it would be scf.for
      // loops on the host, reading device memory.)
      if (op.getNumParallelLoops() == 0) {
        Location loc = op.getLoc();
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
        auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
        op->moveBefore(loop.getBody()->getTerminator());
        continue;
      }
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
        return op->emitError("could not turn this op into parallel loops for "
                             "the GPU");
      rewriter.eraseOp(op);
    }
    return success();
  }

  void runOnOperation() override {
    if (failed(
            quant_affine::checkBlockSize(blockSize, [&](const Twine &message) {
              return getOperation().emitError(message);
            })))
      return signalPassFailure();
    if (failed(loopsForUntiledOps()))
      return signalPassFailure();
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        outermost.push_back(loop);
    });
    OpBuilder b(&getContext());
    for (scf::ParallelOp loop : outermost) {
      SmallVector<int64_t> trips = getTripCounts(loop);
      SmallVector<int64_t> tile = chooseThreadTile(trips, blockSize);
      SmallVector<int64_t> blockCounts;
      for (auto [trip, size] : llvm::zip(trips, tile))
        blockCounts.push_back(trip == kDynamic ? kDynamic
                                               : llvm::divideCeil(trip, size));
      if (loop.getNumResults() != 0) {
        loop.emitError("cannot map a parallel loop with reductions to GPU "
                       "blocks and threads");
        return signalPassFailure();
      }
      auto [blocks, threads] = tileForBlocksAndThreads(b, loop, trips, tile);
      if (failed(gpu::setMappingAttr(threads, mapThreads(b, tile.size()))) ||
          failed(gpu::setMappingAttr(blocks, mapBlocks(b, blockCounts)))) {
        blocks.emitError("could not map this loop to GPU blocks and threads");
        return signalPassFailure();
      }
      mapNestedLoopsInOrder(b, threads);
    }
  }
};

} // namespace

LogicalResult mlir::quant_affine::checkBlockSize(
    int64_t blockSize, function_ref<LogicalResult(const Twine &)> error) {
  if (blockSize < 1 || blockSize > 1024)
    return error("block-size must be in [1, 1024], got " + Twine(blockSize));
  return success();
}
