//===- KernelsForHostAccesses.cpp - buffer accesses left on the host ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Some element and vector accesses of buffers end up in host code outside
// any parallel loop: a tile loop of one iteration that canonicalization
// folded away (a 1 x 1 op), and the vector-form and scalar-form ops users
// write (vector.transfer_read of an argument, tensor.extract/insert). A
// buffer may be device memory, which the host cannot touch; these accesses
// go into one-thread kernels instead.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEKERNELSFORHOSTACCESSESPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `op` may move into a one-thread kernel among its neighbours: an
/// access to a buffer element or vector (what a one-iteration tile loop
/// leaves behind when canonicalization folds it, and what vector-form ops
/// users write do), or a side-effect-free op without regions.
/// The buffer a read reads (through views), or null.
Value readRoot(Operation *op) {
  Value source;
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    source = read.getBase();
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    source = load.getBase();
  else if (auto load = dyn_cast<memref::LoadOp>(op))
    source = load.getMemRef();
  if (!source || !isa<MemRefType>(source.getType()))
    return nullptr;
  return memref::skipViewLikeOps(cast<TypedValue<MemRefType>>(source));
}

/// Whether a read of `root` may move past `op`: `op` writes nothing that may
/// be `root` (allocations, waits and copies into other buffers do not).
bool readMayMovePast(Operation *op, Value root) {
  if (isPure(op) || isa<gpu::WaitOp, gpu::AllocOp, memref::AllocOp>(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
      return true;
    Value written = e.getValue();
    if (!written || !isa<MemRefType>(written.getType()))
      return false;
    return memref::skipViewLikeOps(cast<TypedValue<MemRefType>>(written)) !=
           root;
  });
}

/// Moves side-effect-free ops and reads down to their first user in the
/// block, where nothing in between forbids it, so that a read and the
/// accesses that use it become neighbours (last op first).
void sinkToFirstUsers(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    bool pure = op->getNumRegions() == 0 && isPure(op) &&
                !op->hasTrait<OpTrait::IsTerminator>();
    Value root = readRoot(op);
    if ((!pure && !root) || op->use_empty())
      continue;
    Operation *first = nullptr;
    bool elsewhere = false; // (used in another block: stays)
    for (Operation *user : op->getUsers()) {
      Operation *inBlock = block.findAncestorOpInBlock(*user);
      elsewhere |= !inBlock;
      if (inBlock && (!first || inBlock->isBeforeInBlock(first)))
        first = inBlock;
    }
    if (elsewhere || first == op->getNextNode())
      continue;
    bool movable = true;
    if (root)
      for (Operation *between = op->getNextNode(); between != first;
           between = between->getNextNode())
        if (!readMayMovePast(between, root)) {
          movable = false;
          break;
        }
    if (movable)
      op->moveBefore(first);
  }
}

bool isLooseAccess(Operation *op) {
  return isa<vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
             vector::StoreOp, memref::LoadOp, memref::StoreOp>(op);
}
bool canJoinKernel(Operation *op) {
  return isLooseAccess(op) || (op->getNumRegions() == 0 && isPure(op) &&
                               !op->hasTrait<OpTrait::IsTerminator>());
}

/// Moves each run of neighbouring host ops that accesses buffers (and reads
/// nothing the host uses after it) into a one-iteration scf.parallel after
/// it, which becomes a one-thread kernel: the host reads and writes no
/// buffer, which may be device memory. Side-effect-free ops of the run that
/// the host also uses after it stay where they are.
void wrapLooseAccesses(func::FuncOp func) {
  SmallVector<Block *> blocks;
  func.walk([&](Block *block) {
    Operation *parent = block->getParentOp();
    if (!isa<scf::ParallelOp, gpu::LaunchOp, linalg::LinalgOp>(parent) &&
        !parent->getParentOfType<scf::ParallelOp>() &&
        !parent->getParentOfType<gpu::LaunchOp>() &&
        !parent->getParentOfType<linalg::LinalgOp>())
      blocks.push_back(block);
  });
  IRRewriter rewriter(func.getContext());
  for (Block *block : blocks) {
    sinkToFirstUsers(*block);
    SmallVector<SmallVector<Operation *>> runs(1);
    for (Operation &op : *block) {
      if (canJoinKernel(&op))
        runs.back().push_back(&op);
      else if (!runs.back().empty())
        runs.emplace_back();
    }
    for (ArrayRef<Operation *> run : runs) {
      if (llvm::none_of(run, isLooseAccess))
        continue;
      llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
      // What the host uses after the run stays on the host, with the ops of
      // the run it needs.
      llvm::SmallPtrSet<Operation *, 16> stays;
      SmallVector<Operation *> worklist;
      for (Operation *op : run)
        if (llvm::any_of(op->getUsers(), [&](Operation *user) {
              return !inRun.contains(block->findAncestorOpInBlock(*user));
            }))
          worklist.push_back(op);
      while (!worklist.empty()) {
        Operation *op = worklist.pop_back_val();
        if (!stays.insert(op).second)
          continue;
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && inRun.contains(def))
            worklist.push_back(def);
      }
      // Reads that stay (for the host, or for a later kernel that
      // quant-affine-sink-reads-into-launch gives them to) must not read
      // what an op of the run that moves below them writes.
      bool hazard = false;
      for (Operation *op : run) {
        Value root = readRoot(op);
        if (!root || !stays.contains(op))
          continue;
        for (Operation *before : run) {
          if (before == op)
            break;
          hazard |= !stays.contains(before) && !readMayMovePast(before, root);
        }
      }
      if (hazard || llvm::all_of(run, [&](Operation *op) {
            return stays.contains(op) || !isLooseAccess(op);
          }))
        continue;
      Location loc = run.front()->getLoc();
      rewriter.setInsertionPointAfter(run.back());
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      for (Operation *op : run)
        if (!stays.contains(op))
          op->moveBefore(loop.getBody()->getTerminator());
    }
  }
}

struct QuantAffineKernelsForHostAccessesPass
    : quant_affine::impl::QuantAffineKernelsForHostAccessesPassBase<
          QuantAffineKernelsForHostAccessesPass> {
  void runOnOperation() override { wrapLooseAccesses(getOperation()); }
};

} // namespace
