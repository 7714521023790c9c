//===- TestLaunchesOnCPU.cpp - gpu.launch bodies as CPU loops (tests) -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the GPU pipeline's mapped kernels where there is no GPU: each
// gpu.launch becomes loops over blocks and threads around its unchanged
// body, so that what the mapping computes (tile offsets, guards, warp sums)
// is executed and compared bit for bit with the CPU pipeline.
//
// Threads that exchange values (gpu.shuffle, gpu.barrier) cannot run one
// after another. The body is cut at those points into pieces; each piece
// runs for every thread of the block before the next (the usual way of
// running SPMD kernels on a CPU). A value that crosses pieces is recomputed
// when it is side-effect free, and otherwise kept in a per-thread buffer.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINETESTLAUNCHESONCPUPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

bool isSync(Operation *op) { return isa<gpu::ShuffleOp, gpu::BarrierOp>(op); }

bool containsSync(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isSync(nested) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// An enclosing scf.if that was cut into pieces: each piece re-checks it.
struct Condition {
  Value value;
  bool whenTrue;
};

/// One piece of a block's body, run by every thread before the next.
struct Piece {
  enum Kind { Ops, Publish, Shuffle } kind;
  SmallVector<Operation *> ops; // Ops: the ops; Publish, Shuffle: the shuffle
  SmallVector<Condition> conditions;
};

class LaunchEmulator {
public:
  explicit LaunchEmulator(gpu::LaunchOp launch) : launch(launch) {}

  LogicalResult run();

private:
  LogicalResult cut(Block &block, SmallVector<Condition> conditions);
  void closePiece(const SmallVector<Condition> &conditions);
  LogicalResult markNeeded(Value value, unsigned piece);
  LogicalResult markUses(Operation *op, unsigned piece);
  bool definedInLaunch(Value value) const;
  std::optional<unsigned> pieceOf(Operation *op) const;
  bool recomputable(Operation *op) const;
  bool spillable(Type type) const;

  Value get(OpBuilder &b, Value value, IRMapping &map);
  void emitPiece(OpBuilder &b, unsigned index, ValueRange blockIds);

  gpu::LaunchOp launch;
  SmallVector<Piece> pieces;
  SmallVector<Operation *> open;
  DenseMap<Operation *, unsigned> pieceOfOp;
  llvm::SetVector<Value> spilled;
  DenseMap<Value, Value> spillBuffer;
  DenseMap<Operation *, Value> published;
  Value threadCount;
  Value linearThread; // in the piece being emitted
};

void LaunchEmulator::closePiece(const SmallVector<Condition> &conditions) {
  if (open.empty())
    return;
  pieces.push_back({Piece::Ops, open, conditions});
  for (Operation *op : open)
    pieceOfOp[op] = pieces.size() - 1;
  open.clear();
}

/// Cuts `block` into pieces at shuffles and barriers, and inside scf.if ops
/// without results that hold one.
LogicalResult LaunchEmulator::cut(Block &block,
                                  SmallVector<Condition> conditions) {
  for (Operation &op : block.without_terminator()) {
    if (!containsSync(&op)) {
      open.push_back(&op);
      continue;
    }
    closePiece(conditions);
    if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
      pieces.push_back({Piece::Publish, {shuffle}, conditions});
      pieces.push_back({Piece::Shuffle, {shuffle}, conditions});
      pieceOfOp[shuffle] = pieces.size() - 1;
      continue;
    }
    if (isa<gpu::BarrierOp>(op)) {
      pieceOfOp[&op] = pieces.size();
      continue;
    }
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp || ifOp.getNumResults() != 0)
      return op.emitError("cannot run this op on the CPU: it holds a "
                          "shuffle or barrier that all threads of the block "
                          "must reach together");
    SmallVector<Condition> inThen(conditions);
    inThen.push_back({ifOp.getCondition(), true});
    if (failed(cut(*ifOp.thenBlock(), inThen)))
      return failure();
    closePiece(inThen);
    if (Block *elseBlock = ifOp.elseBlock()) {
      SmallVector<Condition> inElse(conditions);
      inElse.push_back({ifOp.getCondition(), false});
      if (failed(cut(*elseBlock, inElse)))
        return failure();
      closePiece(inElse);
    }
  }
  closePiece(conditions);
  return success();
}

bool LaunchEmulator::definedInLaunch(Value value) const {
  Region &body = gpu::LaunchOp(launch).getBody();
  return body.isAncestor(value.getParentRegion());
}

std::optional<unsigned> LaunchEmulator::pieceOf(Operation *op) const {
  for (; op && op != launch; op = op->getParentOp())
    if (auto it = pieceOfOp.find(op); it != pieceOfOp.end())
      return it->second;
  return std::nullopt;
}

bool LaunchEmulator::recomputable(Operation *op) const {
  // (gpu.shuffle is pure too, but its value is another thread's.)
  return isPure(op) && op->getNumRegions() == 0 && !isSync(op);
}

bool LaunchEmulator::spillable(Type type) const {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return type.isIntOrIndexOrFloat();
}

/// Notes what piece `piece` needs of `value`: nothing when it is made in
/// that piece or outside the launch; a per-thread buffer when it comes from
/// an op of another piece that cannot simply be recomputed.
LogicalResult LaunchEmulator::markNeeded(Value value, unsigned piece) {
  bool launchArgument = isa<BlockArgument>(value) &&
                        value.getParentBlock() == &launch.getBody().front();
  if (!definedInLaunch(value) || launchArgument)
    return success();
  Operation *def = value.getDefiningOp();
  if (!def)
    return success(); // an argument of a nested region of this piece
  std::optional<unsigned> from = pieceOf(def);
  if (from && *from == piece)
    return success();
  if (recomputable(def)) {
    for (Value operand : def->getOperands())
      if (failed(markNeeded(operand, piece)))
        return failure();
    return success();
  }
  if (!spillable(value.getType()))
    return def->emitError("cannot run this kernel on the CPU: a value of type ")
           << value.getType() << " crosses a shuffle or barrier";
  spilled.insert(value);
  return success();
}

LogicalResult LaunchEmulator::markUses(Operation *op, unsigned piece) {
  for (Value operand : op->getOperands())
    if (failed(markNeeded(operand, piece)))
      return failure();
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  for (Value value : above)
    if (failed(markNeeded(value, piece)))
      return failure();
  return success();
}

/// The value of `value` in the piece being emitted (mapped, recomputed or
/// loaded from its per-thread buffer).
Value LaunchEmulator::get(OpBuilder &b, Value value, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  if (!definedInLaunch(value))
    return value;
  Location loc = launch.getLoc();
  if (spilled.contains(value)) {
    Value loaded = memref::LoadOp::create(b, loc, spillBuffer.lookup(value),
                                          ValueRange{linearThread});
    map.map(value, loaded);
    return loaded;
  }
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    get(b, operand, map);
  Operation *clone = b.clone(*def, map);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

void LaunchEmulator::emitPiece(OpBuilder &b, unsigned index,
                               ValueRange blockIds) {
  const Piece &piece = pieces[index];
  Location loc = launch.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = constant(0), one = constant(1);
  gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
  // Threads z, y, x, outermost first.
  scf::LoopNest threads = scf::buildLoopNest(
      b, loc, {zero, zero, zero}, {blockSizes.z, blockSizes.y, blockSizes.x},
      {one, one, one});
  b.setInsertionPoint(threads.loops.back().getBody()->getTerminator());
  Value tz = threads.loops[0].getInductionVar();
  Value ty = threads.loops[1].getInductionVar();
  Value tx = threads.loops[2].getInductionVar();
  linearThread = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, tz, blockSizes.y), ty),
          blockSizes.x),
      tx);

  IRMapping map;
  gpu::KernelDim3 ids = launch.getBlockIds();
  map.map(ids.z, blockIds[0]);
  map.map(ids.y, blockIds[1]);
  map.map(ids.x, blockIds[2]);
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  map.map(threadIds.z, tz);
  map.map(threadIds.y, ty);
  map.map(threadIds.x, tx);
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 gridSizes = launch.getGridSizeOperandValues();
  map.map(gridArgs.x, gridSizes.x);
  map.map(gridArgs.y, gridSizes.y);
  map.map(gridArgs.z, gridSizes.z);
  gpu::KernelDim3 blockArgs = launch.getBlockSize();
  map.map(blockArgs.x, blockSizes.x);
  map.map(blockArgs.y, blockSizes.y);
  map.map(blockArgs.z, blockSizes.z);

  Value active;
  for (const Condition &condition : piece.conditions) {
    Value value = get(b, condition.value, map);
    if (!condition.whenTrue)
      value = arith::XOrIOp::create(b, loc, value,
                                    arith::ConstantIntOp::create(b, loc, 1, 1));
    active = active ? arith::AndIOp::create(b, loc, active, value) : value;
  }
  if (active) {
    auto guard = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
  }

  auto store = [&](Value original, Value value) {
    if (spilled.contains(original))
      memref::StoreOp::create(b, loc, value, spillBuffer.lookup(original),
                              ValueRange{linearThread});
  };
  switch (piece.kind) {
  case Piece::Ops:
    for (Operation *op : piece.ops) {
      for (Value operand : op->getOperands())
        get(b, operand, map);
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(op->getRegions(), above);
      for (Value value : above)
        get(b, value, map);
      Operation *clone = b.clone(*op, map);
      for (auto [original, result] :
           llvm::zip(op->getResults(), clone->getResults()))
        store(original, result);
    }
    break;
  case Piece::Publish: {
    auto shuffle = cast<gpu::ShuffleOp>(piece.ops.front());
    memref::StoreOp::create(b, loc, get(b, shuffle.getValue(), map),
                            published.lookup(shuffle),
                            ValueRange{linearThread});
    break;
  }
  case Piece::Shuffle: {
    // shfl.sync: lanes are numbered within segments of `width` threads; a
    // partner outside the segment (or past the block) gives the thread's
    // own value and valid = false.
    auto shuffle = cast<gpu::ShuffleOp>(piece.ops.front());
    auto toIndex = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                        get(b, v, map));
    };
    Value offset = toIndex(shuffle.getOffset());
    Value width = toIndex(shuffle.getWidth());
    Value lane = arith::RemUIOp::create(b, loc, linearThread, width);
    Value segmentStart = arith::SubIOp::create(b, loc, linearThread, lane);
    Value partner; // a lane, as a signed index
    switch (shuffle.getMode()) {
    case gpu::ShuffleMode::XOR:
      partner = arith::XOrIOp::create(b, loc, lane, offset);
      break;
    case gpu::ShuffleMode::UP:
      partner = arith::SubIOp::create(b, loc, lane, offset);
      break;
    case gpu::ShuffleMode::DOWN:
      partner = arith::AddIOp::create(b, loc, lane, offset);
      break;
    case gpu::ShuffleMode::IDX:
      partner = offset;
      break;
    }
    Value partnerThread = arith::AddIOp::create(b, loc, segmentStart, partner);
    Value valid = arith::AndIOp::create(
        b, loc,
        arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, partner,
                                  zero),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, partner,
                                  width)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, partnerThread,
                              threadCount));
    Value source =
        arith::SelectOp::create(b, loc, valid, partnerThread, linearThread);
    Value result = memref::LoadOp::create(b, loc, published.lookup(shuffle),
                                          ValueRange{source});
    store(shuffle.getShuffleResult(), result);
    store(shuffle.getValid(), valid);
    break;
  }
  }
  linearThread = Value();
}

LogicalResult LaunchEmulator::run() {
  if (!launch.getBody().hasOneBlock())
    return launch.emitError("cannot run a kernel of several blocks on the CPU");
  if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() ||
      launch.getDynamicSharedMemorySize())
    return launch.emitError("cannot run an asynchronous launch or one with "
                            "dynamic shared memory on the CPU");
  WalkResult unsupported = launch.getBody().walk([](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()) &&
        !isa<gpu::ShuffleOp, gpu::BarrierOp, gpu::TerminatorOp>(op)) {
      op->emitError("cannot run this GPU op on the CPU");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  if (failed(cut(launch.getBody().front(), {})))
    return failure();
  for (auto [index, piece] : llvm::enumerate(pieces)) {
    if (piece.kind == Piece::Ops) {
      for (Operation *op : piece.ops)
        if (failed(markUses(op, index)))
          return failure();
    } else {
      auto shuffle = cast<gpu::ShuffleOp>(piece.ops.front());
      if (piece.kind == Piece::Publish &&
          failed(markNeeded(shuffle.getValue(), index)))
        return failure();
      if (piece.kind == Piece::Shuffle &&
          (failed(markNeeded(shuffle.getOffset(), index)) ||
           failed(markNeeded(shuffle.getWidth(), index))))
        return failure();
    }
    for (const Condition &condition : piece.conditions)
      if (failed(markNeeded(condition.value, index)))
        return failure();
  }

  OpBuilder b(launch);
  Location loc = launch.getLoc();
  gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
  threadCount = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, blockSizes.x, blockSizes.y),
      blockSizes.z);
  SmallVector<Value> buffers;
  auto perThread = [&](Type type) {
    Value buffer = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{threadCount});
    buffers.push_back(buffer);
    return buffer;
  };
  for (Value value : spilled)
    spillBuffer[value] = perThread(value.getType());
  for (const Piece &piece : pieces)
    if (piece.kind == Piece::Publish) {
      auto shuffle = cast<gpu::ShuffleOp>(piece.ops.front());
      published[shuffle] = perThread(shuffle.getValue().getType());
    }

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  scf::LoopNest blocks = scf::buildLoopNest(
      b, loc, {zero, zero, zero}, {grid.z, grid.y, grid.x}, {one, one, one});
  SmallVector<Value> blockIds;
  for (scf::ForOp loop : blocks.loops)
    blockIds.push_back(loop.getInductionVar());
  for (unsigned index = 0; index < pieces.size(); ++index) {
    OpBuilder inBlock(blocks.loops.back().getBody()->getTerminator());
    emitPiece(inBlock, index, blockIds);
  }
  b.setInsertionPointAfter(blocks.loops.front());
  for (Value buffer : buffers)
    memref::DeallocOp::create(b, loc, buffer);
  launch.erase();
  return success();
}

/// Host-side GPU memory operations in their memref forms; tokens go away.
void replaceHostGPUOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::WaitOp>(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      Value buffer = memref::AllocOp::create(
          rewriter, loc, alloc.getMemref().getType(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands());
      rewriter.replaceAllUsesWith(alloc.getMemref(), buffer);
    } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
      memref::DeallocOp::create(rewriter, loc, dealloc.getMemref());
    } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      memref::CopyOp::create(rewriter, loc, copy.getSrc(), copy.getDst());
    }
  }
  for (Operation *op : llvm::reverse(ops)) {
    op->dropAllUses();
    rewriter.eraseOp(op);
  }
}

struct QuantAffineTestLaunchesOnCPUPass
    : quant_affine::impl::QuantAffineTestLaunchesOnCPUPassBase<
          QuantAffineTestLaunchesOnCPUPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(LaunchEmulator(launch).run()))
        return signalPassFailure();
    replaceHostGPUOps(getOperation());
  }
};

} // namespace
