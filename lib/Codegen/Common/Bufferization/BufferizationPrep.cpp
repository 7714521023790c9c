//===- BufferizationPrep.cpp - work around upstream bufferization limits --===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Four passes the pipelines run around bufferization, each working around a
// limitation of upstream MLIR 22 (guard-empty-tensor-elimination and
// unshare-empty-tensors are described at their classes):
//
// quant-affine-prepare-tensor-destinations (before one-shot bufferization)
//   `%r = bufferization.materialize_in_destination %y in %d` with a tensor
//   %d must bufferize in place into %d's buffer. One-Shot Analysis checks
//   that requirement before any other decision, and accepts the read of %y
//   only if %y's reverse use-def chain ends in a value equivalent to %d that
//   is an OpResult: a function argument (a BlockArgument) never matches, so
//   a loop that writes its tiles into %d (what empty-tensor elimination and
//   tiling make of any elementwise op) fails with "cannot avoid RaW
//   conflict". So every such destination is first renamed by a same-type
//   tensor.cast (which folds away after bufferization). Where writing into
//   %d is impossible (%d's old value is read after the write, ...), the
//   analysis still fails; then the op that it names as the conflicting write
//   is replaced by its source, whose value it has: the result lives in a new
//   buffer and the destination is left as it is. The analysis is run on a
//   copy of the module until it succeeds or names no such op.
//
// quant-affine-localize-region-results (before buffer deallocation)
//   Ownership-based buffer deallocation computes liveness once, then
//   replaces each region op with memref results (scf.for, scf.if, ...) by a
//   copy with ownership results, erasing the original. In a function with
//   unstructured control flow it then reads the liveness sets of later
//   blocks, which still hold the erased op's results: a use after free that
//   crashes or, when the memory is reused, frees a buffer that is still
//   live (llvm/llvm-project#119863, fixed after 22.1). So in such functions
//   each memref result of a region op that is used outside the op's block
//   is first passed through a same-type memref.cast in that block: the
//   liveness sets then name the cast, which is never replaced.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEPREPARETENSORDESTINATIONSPASS
#define GEN_PASS_DEF_QUANTAFFINEGUARDEMPTYTENSORELIMINATIONPASS
#define GEN_PASS_DEF_QUANTAFFINELOCALIZEREGIONRESULTSPASS
#define GEN_PASS_DEF_QUANTAFFINEUNSHAREEMPTYTENSORSPASS
#define GEN_PASS_DEF_QUANTAFFINEELIMINATEEMPTYTENSORSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

bufferization::OneShotBufferizePassOptions
mlir::quant_affine::getInPlaceBufferizePassOptions() {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop-carried tensor rewritten out of place each iteration (a qdq of
  // the iter_arg into a fresh destination) yields a new buffer; the
  // deallocation pipeline frees the previous one.
  bufferize.allowReturnAllocsFromLoops = true;
  return bufferize;
}

namespace {

/// The analysis options that one-shot-bufferize derives from the pipeline's
/// pass options (those it sets and those that affect the analysis).
bufferization::OneShotBufferizationOptions inPlaceAnalysisOptions() {
  bufferization::OneShotBufferizePassOptions pass =
      quant_affine::getInPlaceBufferizePassOptions();
  bufferization::OneShotBufferizationOptions options;
  options.allowReturnAllocsFromLoops = pass.allowReturnAllocsFromLoops;
  options.allowUnknownOps = pass.allowUnknownOps;
  options.bufferizeFunctionBoundaries = pass.bufferizeFunctionBoundaries;
  options.checkParallelRegions = pass.checkParallelRegions;
  options.setFunctionBoundaryTypeConversion(
      pass.functionBoundaryTypeConversion);
  return options;
}

/// The materialize_in_destination ops with a tensor destination.
SmallVector<bufferization::MaterializeInDestinationOp>
collectTensorDestinations(Operation *root) {
  SmallVector<bufferization::MaterializeInDestinationOp> ops;
  root->walk([&](bufferization::MaterializeInDestinationOp op) {
    if (isa<TensorType>(op.getDest().getType()))
      ops.push_back(op);
  });
  return ops;
}

/// Gives `dest` a new name, a same-type tensor.cast right after its
/// definition, and uses it everywhere `dest` was used.
void renameDestination(Value dest) {
  OpBuilder builder(dest.getContext());
  if (Operation *def = dest.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(cast<BlockArgument>(dest).getOwner());
  auto renamed =
      tensor::CastOp::create(builder, dest.getLoc(), dest.getType(), dest);
  dest.replaceAllUsesExcept(renamed.getResult(), renamed);
}

/// Runs One-Shot Module Analysis as one-shot-bufferize will on a copy of
/// `module`. On a "cannot avoid RaW conflict" failure, returns the op of
/// `module` that the failing check named as the conflicting write (the last
/// conflict the analysis annotated); otherwise (success or another failure)
/// nullptr.
Operation *findUnavoidableConflict(ModuleOp module) {
  IRMapping mapping;
  OwningOpRef<Operation *> copy = module->clone(mapping);
  DenseMap<Operation *, Operation *> original;
  module->walk([&](Operation *op) {
    if (Operation *copied = mapping.lookupOrNull(op))
      original[copied] = op;
  });

  bool rawConflict = false;
  LogicalResult analyzed = success();
  {
    // The copy's diagnostics are ours to read, never the user's.
    ScopedDiagnosticHandler silence(module.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error &&
          StringRef(d.str()).contains("cannot avoid RaW conflict"))
        rawConflict = true;
      return success();
    });
    bufferization::OneShotBufferizationOptions options =
        inPlaceAnalysisOptions();
    options.printConflicts = true;
    bufferization::OneShotAnalysisState state(copy.get(), options);
    analyzed = bufferization::analyzeModuleOp(copy.get(), state);
  }
  if (succeeded(analyzed) || !rawConflict)
    return nullptr;

  // Conflicts are annotated "C_<n>[CONFL-WRITE: <operand>]" with n counting
  // up; the failing check annotates its conflict last.
  Operation *writer = nullptr;
  uint64_t last = 0;
  copy.get()->walk([&](Operation *op) {
    for (NamedAttribute attr : op->getDiscardableAttrs()) {
      StringRef name = attr.getName().getValue();
      uint64_t id;
      if (!name.consume_front("C_") || name.consumeInteger(10, id) ||
          !name.starts_with("[CONFL-WRITE"))
        continue;
      if (!writer || id > last) {
        writer = op;
        last = id;
      }
    }
  });
  return writer ? original.lookup(writer) : nullptr;
}

struct PrepareTensorDestinationsPass
    : quant_affine::impl::QuantAffinePrepareTensorDestinationsPassBase<
          PrepareTensorDestinationsPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<bufferization::MaterializeInDestinationOp> ops =
        collectTensorDestinations(module);
    if (ops.empty())
      return markAllAnalysesPreserved();
    SetVector<Value> dests;
    for (auto op : ops)
      dests.insert(op.getDest());
    for (Value dest : dests)
      renameDestination(dest);

    // Each round drops one op, so this ends.
    while (Operation *writer = findUnavoidableConflict(module)) {
      auto op = dyn_cast<bufferization::MaterializeInDestinationOp>(writer);
      if (!op || !isa<TensorType>(op.getDest().getType()))
        return; // Not ours to relax: one-shot-bufferize reports it.
      op.getResult().replaceAllUsesWith(op.getSource());
      op.erase();
    }
  }
};

/// Walks back from `source` along what it may be computed in: the tied init
/// of a destination-style op; otherwise every tensor operand of its op
/// (reshapes, and conservatively a call whose callee returns its argument)
/// and the tensors its regions yield (scf.if, scf.for); with
/// `throughRegionArguments`, also from a region's argument to its op's
/// tensor operands. `visit(value, def)` sees each value once (values already
/// in `visited` are not followed again; `def` is null for an argument) and
/// says whether to follow it, skip past it, or stop the walk. Returns
/// whether the walk was stopped.
enum class ChainStep { Follow, Skip, Stop };
template <typename Visit>
bool walkDestinationChain(Value source, llvm::SmallPtrSetImpl<Value> &visited,
                          bool throughRegionArguments, Visit visit) {
  SmallVector<Value> worklist = {source};
  auto pushTensors = [&](ValueRange values) {
    for (Value value : values)
      if (isa<TensorType>(value.getType()))
        worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    Operation *def = value.getDefiningOp();
    ChainStep step = visit(value, def);
    if (step == ChainStep::Stop)
      return true;
    if (step == ChainStep::Skip)
      continue;
    if (!def) {
      Operation *owner = cast<BlockArgument>(value).getOwner()->getParentOp();
      if (throughRegionArguments && owner)
        pushTensors(owner->getOperands());
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      if (OpOperand *init = dps.getTiedOpOperand(cast<OpResult>(value)))
        worklist.push_back(init->get());
      continue;
    }
    pushTensors(def->getOperands());
    for (Region &region : def->getRegions())
      for (Block &block : region)
        if (block.mightHaveTerminator())
          pushTensors(block.getTerminator()->getOperands());
  }
  return false;
}

/// Upstream eliminate-empty-tensors replaces the tensor.empty at the root of
/// a materialize_in_destination source's destination chain (DPS inits) with
/// the destination, without asking whether a value on that chain is used
/// elsewhere: `%r = reduce(fill(empty)); %i = insert %v into %r;
/// materialize %i in %out; return %r` then computes %r in %out's buffer and
/// the insert overwrites it while %r is still returned. Where any value on
/// the chain has another use, the root becomes a bufferization.alloc_tensor
/// (the same uninitialized tensor, which the elimination leaves alone): the
/// chain then computes in a buffer of its own and is copied into the
/// destination.
struct GuardEmptyTensorEliminationPass
    : quant_affine::impl::QuantAffineGuardEmptyTensorEliminationPassBase<
          GuardEmptyTensorEliminationPass> {

  /// The tensor.empty ops that `source` may be computed in (through DPS
  /// inits, reshapes, the values region ops yield and, conservatively, every
  /// tensor operand of any other op, such as a call whose callee returns its
  /// argument), if a value on the way has another use; none otherwise.
  static SmallVector<tensor::EmptyOp> findUnsafeRoots(Value source) {
    bool shared = false;
    SmallVector<tensor::EmptyOp> roots;
    llvm::SmallPtrSet<Value, 16> visited;
    walkDestinationChain(source, visited, /*throughRegionArguments=*/false,
                         [&](Value value, Operation *def) {
                           // (One tensor.empty may start several chains:
                           // upstream handles each.)
                           if (auto empty =
                                   dyn_cast_if_present<tensor::EmptyOp>(def)) {
                             roots.push_back(empty);
                             return ChainStep::Skip;
                           }
                           if (def && !value.hasOneUse())
                             shared = true;
                           return ChainStep::Follow;
                         });
    if (!shared)
      roots.clear();
    return roots;
  }

  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> roots;
    getOperation()->walk([&](bufferization::MaterializeInDestinationOp op) {
      llvm::append_range(roots, findUnsafeRoots(op.getSource()));
    });
    if (roots.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 8> replaced;
    for (tensor::EmptyOp empty : roots) {
      if (!replaced.insert(empty).second)
        continue;
      rewriter.setInsertionPoint(empty);
      rewriter.replaceOpWithNewOp<bufferization::AllocTensorOp>(
          empty, empty.getType(), empty.getDynamicSizes());
    }
  }
};

/// One-Shot Analysis treats the destinations of all users of one
/// tensor.empty as one alias set and checks every write into it against
/// every other use: quadratic in the number of users, which CSE makes every
/// op of a long chain. Each use after the first gets a clone of its own.
struct UnshareEmptyTensorsPass
    : quant_affine::impl::QuantAffineUnshareEmptyTensorsPassBase<
          UnshareEmptyTensorsPass> {

  using Base::Base;

  void runOnOperation() override {
    bool changed = allocTensors ? false : unshareFills();
    SmallVector<tensor::EmptyOp> shared;
    getOperation()->walk([&](tensor::EmptyOp empty) {
      if (allocTensors ? !empty->use_empty()
                       : !empty->hasOneUse() && !empty->use_empty())
        shared.push_back(empty);
    });
    if (shared.empty()) {
      if (!changed)
        markAllAnalysesPreserved();
      return;
    }
    IRRewriter rewriter(&getContext());
    if (allocTensors) {
      for (tensor::EmptyOp empty : shared) {
        rewriter.setInsertionPoint(empty);
        rewriter.replaceOpWithNewOp<bufferization::AllocTensorOp>(
            empty, empty.getType(), empty.getDynamicSizes());
      }
      return;
    }
    // Each use gets a clone right before its op (or the op's ancestor in the
    // empty's block): what it becomes is allocated where it is first needed.
    for (tensor::EmptyOp empty : shared) {
      Block *block = empty->getBlock();
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : empty->getUses())
        uses.push_back(&use);
      for (OpOperand *use : uses) {
        rewriter.setInsertionPoint(
            block->findAncestorOpInBlock(*use->getOwner()));
        use->set(rewriter.clone(*empty)->getResult(0));
      }
      rewriter.eraseOp(empty);
    }
  }

  /// A linalg.fill of a tensor.empty is as fresh a destination: CSE makes
  /// one zero-filled accumulator the destination of every matmul of a
  /// function, which One-Shot Analysis then checks pairwise (and
  /// bufferization copies for each). Each use after the first gets its own
  /// tensor.empty and fill, right before its op. Returns whether any did.
  bool unshareFills() {
    SmallVector<linalg::FillOp> shared;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->hasOneUse() &&
          !fill->use_empty() &&
          fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>())
        shared.push_back(fill);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::FillOp fill : shared) {
      Operation *empty = fill.getOutputs().front().getDefiningOp();
      Block *block = fill->getBlock();
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : fill->getUses())
        uses.push_back(&use);
      for (OpOperand *use : llvm::drop_begin(uses)) {
        rewriter.setInsertionPoint(
            block->findAncestorOpInBlock(*use->getOwner()));
        IRMapping mapping;
        rewriter.clone(*empty, mapping);
        use->set(rewriter.clone(*fill, mapping)->getResult(0));
      }
    }
    return !shared.empty();
  }
};

/// Whether a tensor.empty is on `source`'s destination chain (through region
/// arguments too: a superset of upstream's chain). Values in `visited` were
/// followed before and are not again.
bool reachesEmptyTensor(Value source, llvm::SmallPtrSetImpl<Value> &visited) {
  return walkDestinationChain(source, visited, /*throughRegionArguments=*/true,
                              [](Value, Operation *def) {
                                return isa_and_present<tensor::EmptyOp>(def)
                                           ? ChainStep::Stop
                                           : ChainStep::Follow;
                              });
}

struct EliminateEmptyTensorsPass
    : quant_affine::impl::QuantAffineEliminateEmptyTensorsPassBase<
          EliminateEmptyTensorsPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::SmallPtrSet<Value, 16> visited;
    WalkResult found = module->walk([&](SubsetInsertionOpInterface op) {
      return reachesEmptyTensor(op.getSourceOperand().get(), visited)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (!found.wasInterrupted()) {
      markAllAnalysesPreserved();
      return;
    }
    OpPassManager upstream(ModuleOp::getOperationName());
    upstream.addPass(bufferization::createEmptyTensorEliminationPass());
    if (failed(runPipeline(upstream, module)))
      signalPassFailure();
  }
};

struct LocalizeRegionResultsPass
    : quant_affine::impl::QuantAffineLocalizeRegionResultsPassBase<
          LocalizeRegionResultsPass> {

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool unstructured = false;
    func->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        if (!region.empty() && !region.hasOneBlock())
          unstructured = true;
      return unstructured ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!unstructured)
      return markAllAnalysesPreserved();
    func->walk([&](RegionBranchOpInterface op) {
      Block *block = op->getBlock();
      for (OpResult result : op->getResults()) {
        auto type = dyn_cast<MemRefType>(result.getType());
        if (!type || llvm::all_of(result.getUsers(), [&](Operation *user) {
              return user->getBlock() == block;
            }))
          continue;
        OpBuilder builder(op);
        builder.setInsertionPointAfter(op);
        auto local = memref::CastOp::create(builder, op.getLoc(), type, result);
        result.replaceAllUsesExcept(local.getResult(), local);
      }
    });
  }
};

} // namespace
