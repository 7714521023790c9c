//===- NarrowBroadcasts.cpp - compute on a broadcast before it ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowBroadcasts.h"
#include "QuantAffine/Codegen/Common/UniformReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using quant_affine::broadcastScalar;
using quant_affine::isSplatConstant;
using quant_affine::oneValueAs;

/// Whether `read` spreads its elements over vector dims it does not read
/// along (a constant 0 in its permutation map), unmasked.
static bool broadcastsDims(vector::TransferReadOp read) {
  return !read.getMask() &&
         llvm::any_of(read.getPermutationMap().getResults(),
                      [](AffineExpr e) { return isa<AffineConstantExpr>(e); });
}

/// Sub-byte vectors are left as they are: the narrow-type emulation that
/// packs them expects the shapes of transfers.
static bool hasWholeBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0;
}

namespace {

/// How a vector operand replicates a smaller vector: a vector.broadcast of
/// it, under at most one vector.transpose (a block's scale spread over its
/// tile, as the vectorizer writes it).
struct Replication {
  Value source;
  VectorType broadcastType;
  std::optional<ArrayRef<int64_t>> permutation;

  static std::optional<Replication> of(Value v) {
    auto transpose = v.getDefiningOp<vector::TransposeOp>();
    auto broadcast = (transpose ? transpose.getVector() : v)
                         .getDefiningOp<vector::BroadcastOp>();
    if (!broadcast || !isa<VectorType>(broadcast.getSourceType()))
      return std::nullopt;
    Replication r{broadcast.getSource(), broadcast.getResultVectorType(), {}};
    if (transpose)
      r.permutation = transpose.getPermutation();
    return r;
  }
  bool sameAs(const Replication &other) const {
    return source.getType() == other.source.getType() &&
           broadcastType.getShape() == other.broadcastType.getShape() &&
           permutation == other.permutation;
  }
  /// `v` (of the source's shape) replicated as the original operands were.
  Value apply(PatternRewriter &rewriter, Location loc, Value v) const {
    auto type =
        VectorType::get(broadcastType.getShape(), getElementTypeOrSelf(v),
                        broadcastType.getScalableDims());
    Value wide = vector::BroadcastOp::create(rewriter, loc, type, v);
    if (permutation)
      wide = vector::TransposeOp::create(rewriter, loc, wide, *permutation);
    return wide;
  }
};

/// An elementwise op whose vector operands replicate the same smaller
/// vector in the same way, or hold one value in every lane, computes on
/// the smaller vector and replicates its result: a block scale times the
/// per-tensor scale (two-level NVFP4) once per block, not once per lane.
/// Upstream's sink patterns take only operands that are all broadcasts of
/// one source type, or all transposes; not a transposed broadcast beside a
/// broadcast scalar, which is how the vectorizer writes a block's scale
/// next to a per-tensor one.
struct ComputeBeforeReplicating : OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !isa<VectorType>(op->getResult(0).getType()) ||
        !hasWholeBytes(op->getResult(0).getType()) ||
        !llvm::all_of(op->getOperandTypes(), hasWholeBytes))
      return failure();
    std::optional<Replication> replication;
    SmallVector<bool> replicated;
    for (Value operand : op->getOperands()) {
      std::optional<Replication> r = Replication::of(operand);
      if (r && replication && !r->sameAs(*replication))
        return failure();
      if (r && !replication)
        replication = r;
      if (!r && !broadcastScalar(operand) && !isSplatConstant(operand))
        return failure();
      replicated.push_back(r.has_value());
    }
    if (!replication)
      return failure();
    auto narrow = cast<VectorType>(replication->source.getType());
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (auto [operand, isReplicated] :
         llvm::zip(op->getOperands(), replicated)) {
      if (isReplicated) {
        operands.push_back(Replication::of(operand)->source);
        continue;
      }
      operands.push_back(oneValueAs(rewriter, loc, operand, narrow));
    }
    Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
    Operation *computed =
        rewriter.create(loc, op->getName().getIdentifier(), operands,
                        {narrow.clone(resultElement)}, op->getAttrs());
    // (The wide operands, now unused, are erased by the driver.)
    rewriter.replaceOp(
        op, replication->apply(rewriter, loc, computed->getResult(0)));
    return success();
  }
};

} // namespace

void mlir::quant_affine::narrowBroadcastComputations(Operation *root) {
  // Each broadcasting read that an elementwise op computes on, and the
  // elementwise ops whose vector operands are all such reads, ops already
  // taken, or splats. Reads nothing computes on stay as they are.
  llvm::SetVector<Operation *> ops;
  auto computesOnlyOn = [&](Operation *user,
                            const llvm::SetVector<Operation *> &taken) {
    return user->getNumResults() == 1 &&
           OpTrait::hasElementwiseMappableTraits(user) &&
           isa<VectorType>(user->getResult(0).getType()) &&
           hasWholeBytes(user->getResult(0).getType()) &&
           llvm::all_of(user->getOperandTypes(), hasWholeBytes) &&
           llvm::all_of(user->getOperands(), [&](Value v) {
             Operation *def = v.getDefiningOp();
             return (def && taken.contains(def)) || isSplatConstant(v);
           });
  };
  root->walk([&](vector::TransferReadOp read) {
    if (!broadcastsDims(read) || !hasWholeBytes(read.getVectorType()))
      return;
    llvm::SetVector<Operation *> chain;
    chain.insert(read);
    SmallVector<Operation *> worklist{read};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Operation *user : op->getUsers())
        if (!chain.contains(user) && computesOnlyOn(user, chain)) {
          chain.insert(user);
          worklist.push_back(user);
        }
    }
    if (chain.size() > 1)
      ops.insert(chain.begin(), chain.end());
  });
  MLIRContext *ctx = root->getContext();
  if (!ops.empty()) {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    (void)applyOpPatternsGreedily(
        ops.getArrayRef(), std::move(patterns),
        GreedyRewriteConfig().setStrictness(
            GreedyRewriteStrictness::ExistingAndNewOps));
  }
  // Then the elementwise ops on replicated vectors beside uniform ones
  // (ComputeBeforeReplicating), and what they feed in turn: any op, so
  // that the users of a replicated result are visited and the wide
  // operands left unused are erased.
  SmallVector<Operation *> onReplicated;
  root->walk([&](Operation *op) {
    if (OpTrait::hasElementwiseMappableTraits(op) &&
        llvm::any_of(op->getOperands(),
                     [](Value v) { return Replication::of(v).has_value(); }))
      onReplicated.push_back(op);
  });
  if (onReplicated.empty())
    return;
  RewritePatternSet patterns(ctx);
  patterns.add<ComputeBeforeReplicating>(ctx);
  (void)applyOpPatternsGreedily(
      onReplicated, std::move(patterns),
      GreedyRewriteConfig().setStrictness(GreedyRewriteStrictness::AnyOp));
}
