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
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEKERNELSFORHOSTACCESSESPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

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

/// An access to a buffer element or vector: what a one-iteration tile loop
/// leaves behind when canonicalization folds it, what vector-form ops users
/// write become, and what packing sub-byte elements adds (masked stores,
/// atomic read-modify-writes of a shared byte).
bool isAccess(Operation *op) {
  return isa<vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
             vector::StoreOp, vector::MaskedLoadOp, vector::MaskedStoreOp,
             memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp>(op);
}

/// Whether `op` is an access, or an scf.for/scf.if around accesses and
/// side-effect-free ops only.
bool isLooseAccess(Operation *op) {
  if (isAccess(op))
    return true;
  if (!isa<scf::ForOp, scf::IfOp>(op))
    return false;
  bool accesses = false;
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op || isa<scf::YieldOp, scf::ForOp, scf::IfOp>(nested))
      return WalkResult::advance();
    if (isAccess(nested)) {
      accesses = true;
      return WalkResult::advance();
    }
    return nested->getNumRegions() == 0 && isPure(nested)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return accesses && !result.wasInterrupted();
}

/// Whether `op` may move into a one-thread kernel among its neighbours.
bool canJoinKernel(Operation *op) {
  return isLooseAccess(op) || (op->getNumRegions() == 0 && isPure(op) &&
                               !op->hasTrait<OpTrait::IsTerminator>());
}

/// The runs of neighbouring ops of `block` that may join a kernel, in order.
SmallVector<SmallVector<Operation *>> joinableRuns(Block &block) {
  SmallVector<SmallVector<Operation *>> runs(1);
  for (Operation &op : block) {
    if (canJoinKernel(&op))
      runs.back().push_back(&op);
    else if (!runs.back().empty())
      runs.emplace_back();
  }
  return runs;
}

/// Gives each later run of ops that may join a kernel (joinableRuns) that
/// uses a read its own copy of the read, right before
/// its first user there, where nothing in between may write what the read
/// reads; likewise the side-effect-free ops that carry a read's value. Each
/// run may then become its own kernel: a read that two of them share would
/// otherwise stay on the host. (Last op first, so that a copied op's
/// operands are copied for the run in turn; one copy per run.)
void copyReadsPerRun(Block &block) {
  // The run of each op that may join a kernel (the others stay on the
  // host), and the reads and the ops carrying their values, in order.
  DenseMap<Operation *, int> runOf;
  llvm::SmallPtrSet<Operation *, 16> carriesRead;
  SmallVector<Operation *> candidates;
  for (auto [index, run] : llvm::enumerate(joinableRuns(block))) {
    for (Operation *op : run) {
      runOf[op] = index;
      bool fromRead = !readRoot(op) && !isLooseAccess(op) &&
                      llvm::any_of(op->getOperands(), [&](Value v) {
                        return carriesRead.contains(v.getDefiningOp());
                      });
      if (readRoot(op) || fromRead) {
        carriesRead.insert(op);
        candidates.push_back(op);
      }
    }
  }
  for (Operation *op : llvm::reverse(candidates)) {
    // The uses of `op` in each other run, and the first op there that has
    // one, in order of the runs.
    llvm::MapVector<int, std::pair<Operation *, SmallVector<OpOperand *>>>
        byRun;
    for (OpOperand &use : op->getUses()) {
      Operation *inBlock = block.findAncestorOpInBlock(*use.getOwner());
      auto userRun = inBlock ? runOf.find(inBlock) : runOf.end();
      if (userRun == runOf.end() || userRun->second == runOf.lookup(op))
        continue;
      auto &[first, uses] = byRun[userRun->second];
      if (!first || inBlock->isBeforeInBlock(first))
        first = inBlock;
      uses.push_back(&use);
    }
    SmallVector<int> runs;
    for (auto &entry : byRun)
      runs.push_back(entry.first);
    llvm::sort(runs);
    Value root = readRoot(op);
    Operation *between = op->getNextNode();
    for (int userRun : runs) {
      auto &[first, uses] = byRun[userRun];
      bool movable = true;
      for (; movable && between != first; between = between->getNextNode())
        movable = !root || readMayMovePast(between, root);
      if (!movable)
        break;
      Operation *copy = OpBuilder(first).clone(*op);
      runOf[copy] = userRun;
      for (OpOperand *use : uses)
        use->set(copy->getResult(cast<OpResult>(use->get()).getResultNumber()));
    }
    // (A read whose own run does not use it is left with no users.)
    if (op->use_empty())
      op->erase();
  }
}

/// Moves each run of neighbouring host ops that accesses buffers into
/// one-iteration scf.parallel ops, which become one-thread kernels: the host
/// reads and writes no buffer, which may be device memory. What the host
/// uses after the run stays where it is: side-effect-free ops, and reads
/// (with what they need), which cut the run into pieces.
void wrapLooseAccesses(func::FuncOp func) {
  // Outer blocks first: a loop around accesses joins the run around it.
  SmallVector<Block *> blocks;
  func.walk<WalkOrder::PreOrder>(
      [&](Block *block) { blocks.push_back(block); });
  IRRewriter rewriter(func.getContext());
  for (Block *block : blocks) {
    Operation *parent = block->getParentOp();
    if (isa<scf::ParallelOp, gpu::LaunchOp, linalg::LinalgOp>(parent) ||
        parent->getParentOfType<scf::ParallelOp>() ||
        parent->getParentOfType<gpu::LaunchOp>() ||
        parent->getParentOfType<linalg::LinalgOp>())
      continue;
    copyReadsPerRun(*block);
    sinkToFirstUsers(*block);
    for (ArrayRef<Operation *> run : joinableRuns(*block)) {
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
      SmallVector<SmallVector<Operation *>> pieces;
      do {
        while (!worklist.empty()) {
          Operation *op = worklist.pop_back_val();
          if (!stays.insert(op).second)
            continue;
          SmallVector<Value> used(op->getOperands());
          op->walk([&](Operation *nested) {
            llvm::append_range(used, nested->getOperands());
          });
          for (Value operand : used)
            if (Operation *def = operand.getDefiningOp();
                def && inRun.contains(def))
              worklist.push_back(def);
        }
        // The ops that stay and have effects (reads the host or a later
        // kernel needs) split the run into pieces; each piece's other ops
        // move into a loop at the piece's end, so no access changes order
        // with them.
        pieces.assign(1, {});
        DenseMap<Operation *, unsigned> pieceOf;
        for (Operation *op : run) {
          if (stays.contains(op) && !isPure(op)) {
            pieces.emplace_back();
            continue;
          }
          if (!stays.contains(op)) {
            pieceOf[op] = pieces.size() - 1;
            pieces.back().push_back(op);
          }
        }
        // An op that a later piece (or the host, for a piece that is not
        // a loop) also uses stays too, and the pieces are cut again.
        for (ArrayRef<Operation *> piece : pieces) {
          bool loop = llvm::any_of(piece, isLooseAccess);
          for (Operation *op : piece)
            if (llvm::any_of(op->getUsers(), [&](Operation *user) {
                  auto it = pieceOf.find(block->findAncestorOpInBlock(*user));
                  return it == pieceOf.end() ||
                         (loop && it->second != pieceOf.lookup(op));
                }))
              worklist.push_back(op);
        }
      } while (!worklist.empty());
      for (ArrayRef<Operation *> piece : pieces) {
        if (llvm::none_of(piece, isLooseAccess))
          continue;
        Location loc = piece.front()->getLoc();
        rewriter.setInsertionPointAfter(piece.back());
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
        auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
        for (Operation *op : piece)
          op->moveBefore(loop.getBody()->getTerminator());
      }
    }
  }
}

struct QuantAffineKernelsForHostAccessesPass
    : quant_affine::impl::QuantAffineKernelsForHostAccessesPassBase<
          QuantAffineKernelsForHostAccessesPass> {
  void runOnOperation() override { wrapLooseAccesses(getOperation()); }
};

} // namespace
