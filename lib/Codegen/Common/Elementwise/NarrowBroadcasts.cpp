//===- NarrowBroadcasts.cpp - compute on a broadcast before it ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowBroadcasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

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

static bool isSplatConstant(Value v) {
  Attribute attr;
  auto dense = matchPattern(v, m_Constant(&attr))
                   ? dyn_cast<DenseElementsAttr>(attr)
                   : DenseElementsAttr();
  return dense && dense.isSplat();
}

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
  if (ops.empty())
    return;
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  (void)applyOpPatternsGreedily(
      ops.getArrayRef(), std::move(patterns),
      GreedyRewriteConfig().setStrictness(
          GreedyRewriteStrictness::ExistingAndNewOps));
}
