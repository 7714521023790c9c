//===- SinkReadsIntoLaunch.cpp - kernels read their own buffers -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Hoisting takes loop-invariant reads out of the tile loops before they become
// kernels; the host would then read buffers that may live in device memory.
// This moves such reads, and the side-effect-free ops that carry their
// values, back into the kernels.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINESINKREADSINTOLAUNCHPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The buffer a view was taken of: a function argument or an allocation.
Value rootOf(Value buffer) {
  if (auto memref = dyn_cast<MemrefValue>(buffer))
    return memref::skipViewLikeOps(memref);
  return buffer;
}

/// Adds to `roots` the roots of the buffers that `op` (with the ops nested
/// in it) writes or frees; false when some write names no buffer or some op
/// has unknown effects.
bool addWrittenRoots(Operation *op, llvm::SmallPtrSet<Value, 8> &roots) {
  WalkResult walk = op->walk([&](Operation *nested) {
    // (Waiting for a stream writes no buffer; nor does a failed run-time
    // check, which prints with dprintf and aborts.)
    if (isa<gpu::WaitOp>(nested))
      return WalkResult::advance();
    if (auto call = dyn_cast<LLVM::CallOp>(nested);
        call && call.getCallee() &&
        llvm::is_contained({"dprintf", "abort"}, *call.getCallee()))
      return WalkResult::advance();
    // A call reaches memory only through its buffer operands.
    if (auto call = dyn_cast<func::CallOp>(nested)) {
      for (Value operand : call.getOperands())
        if (isa<MemRefType>(operand.getType()))
          roots.insert(rootOf(operand));
      return WalkResult::advance();
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects) {
      // Unknown effects: only ops with regions say so through their bodies.
      return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      if (!effect.getValue())
        return WalkResult::interrupt();
      roots.insert(rootOf(effect.getValue()));
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The roots of the buffers that `launch` writes; null when some write names
/// no buffer (then nothing is sunk).
std::optional<llvm::SmallPtrSet<Value, 8>> writtenRoots(gpu::LaunchOp launch) {
  llvm::SmallPtrSet<Value, 8> roots;
  for (Block &block : launch.getBody())
    for (Operation &op : block)
      if (!addWrittenRoots(&op, roots))
        return std::nullopt;
  return roots;
}

/// What the ops after a read (in its block) write, up to the last anchor it
/// was asked about: the roots of the buffers written by the ops strictly
/// between, or `unknown` once one of them names no buffer. Launches come in
/// program order, so each read's block is scanned once, not once per launch
/// (a read hoisted to the function's entry, such as a per-tensor scale, is
/// captured by every kernel).
struct WritesAfter {
  Operation *anchor = nullptr;
  llvm::SmallPtrSet<Value, 8> roots;
  bool unknown = false;
};
using WritesAfterReads = DenseMap<Operation *, WritesAfter>;

/// Whether an op between `read` and `anchor` (same block) may write or free
/// a buffer that `read` reads: then the read must stay where it is. An
/// anchor other than the launch is the loop or branch around it in the
/// read's block, and none of its ops (in any iteration) may write it either.
bool overwrittenBefore(Operation *read, Operation *anchor, gpu::LaunchOp launch,
                       WritesAfterReads &cache) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(read);
  SmallVector<MemoryEffects::EffectInstance> instances;
  if (effects)
    effects.getEffects(instances);
  if (instances.empty())
    return false;
  WritesAfter &after = cache[read];
  // Resumes after the last anchor when this one is later in the block (the
  // last one is then between too); starts over otherwise.
  Operation *from = read->getNextNode();
  if (after.anchor && after.anchor != anchor &&
      after.anchor->isBeforeInBlock(anchor)) {
    if (!after.unknown && !addWrittenRoots(after.anchor, after.roots))
      after.unknown = true;
    from = after.anchor->getNextNode();
  } else if (after.anchor != anchor) {
    after = WritesAfter();
  } else {
    from = anchor;
  }
  for (Operation *op = from; op != anchor && !after.unknown;
       op = op->getNextNode())
    if (!addWrittenRoots(op, after.roots))
      after.unknown = true;
  after.anchor = anchor;
  if (after.unknown)
    return true;
  llvm::SmallPtrSet<Value, 8> around;
  if (anchor != launch.getOperation() && !addWrittenRoots(anchor, around))
    return true;
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    Value root = rootOf(e.getValue());
    return after.roots.contains(root) || around.contains(root);
  });
}

/// Whether `op` only reads buffers, none of them one in `written`.
bool readsUnwritten(Operation *op, const llvm::SmallPtrSet<Value, 8> &written) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  if (instances.empty())
    return true;
  return llvm::all_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect()) && e.getValue() &&
           !written.contains(rootOf(e.getValue()));
  });
}

/// Clones into `launch`'s body the ops before it, in its block, that the body
/// uses and that only read buffers it does not write (or have no effects),
/// and that no op between them and the launch writes, with such ops that
/// feed them. (Upstream's sinkOperationsIntoLaunchOp sinks
/// an op only if each of its operands is sunk too or already used in the
/// body; a read's buffer usually is not.)
bool sinkReads(gpu::LaunchOp launch, const llvm::SmallPtrSet<Value, 8> &written,
               WritesAfterReads &cache) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  llvm::SetVector<Operation *> sunk;
  SmallVector<Value> worklist(captured.begin(), captured.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val().getDefiningOp();
    // In the launch's block, or in a block around it (a read that
    // loop-invariant code motion took out of the loop around the launch).
    Operation *anchor =
        op ? op->getBlock()->findAncestorOpInBlock(*launch) : nullptr;
    if (!op || !anchor || sunk.contains(op) || !readsUnwritten(op, written) ||
        overwrittenBefore(op, anchor, launch, cache))
      continue;
    sunk.insert(op);
    llvm::append_range(worklist, op->getOperands());
  }
  if (sunk.empty())
    return false;
  SmallVector<Operation *> ordered(sunk.begin(), sunk.end());
  // Program order: ops of an outer block before those of a block nested
  // in it (which may use them), in order within a block.
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    if (a->getBlock() == b->getBlock())
      return a->isBeforeInBlock(b);
    return a->getParentRegion()->isProperAncestor(b->getParentRegion());
  });
  OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
  IRMapping mapping;
  for (Operation *op : ordered)
    builder.clone(*op, mapping);
  // One walk of the body redirects its uses; replacing each value's uses in
  // the region would visit every use in the function, and a value defined at
  // the entry (a per-tensor scale) is used by every launch: quadratic.
  launch.getBody().walk([&](Operation *user) {
    for (OpOperand &operand : user->getOpOperands())
      if (Value clone = mapping.lookupOrNull(operand.get()))
        operand.set(clone);
  });
  // What the host no longer uses goes; the rest stays for the host.
  for (Operation *op : llvm::reverse(ordered)) {
    if (op->use_empty()) {
      cache.erase(op);
      op->erase();
    }
  }
  return true;
}

struct QuantAffineSinkReadsIntoLaunchPass
    : quant_affine::impl::QuantAffineSinkReadsIntoLaunchPassBase<
          QuantAffineSinkReadsIntoLaunchPass> {
  void runOnOperation() override {
    WritesAfterReads cache;
    bool changed = false;
    getOperation().walk([&](gpu::LaunchOp launch) {
      if (std::optional<llvm::SmallPtrSet<Value, 8>> written =
              writtenRoots(launch))
        changed |= sinkReads(launch, *written, cache);
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
