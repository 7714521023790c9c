//===- FlattenBitCounts.cpp - n-D bit counts as 1-D ones ------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FlattenVectors.h"
#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFLATTENBITCOUNTSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

struct FlattenBitCountsPass
    : quant_affine::impl::QuantAffineFlattenBitCountsPassBase<
          FlattenBitCountsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> counts;
    getOperation()->walk([&](Operation *op) {
      if (!isa<math::CountLeadingZerosOp, math::CountTrailingZerosOp,
               math::CtPopOp>(op))
        return;
      auto type = dyn_cast<VectorType>(op->getResult(0).getType());
      if (type && type.getRank() > 1 && !type.isScalable())
        counts.push_back(op);
    });
    if (counts.empty())
      return markAllAnalysesPreserved();

    IRRewriter rewriter(&getContext());
    for (Operation *op : counts) {
      rewriter.setInsertionPoint(op);
      Value count = quant_affine::flattenedVectorOp(
          rewriter, op->getLoc(), op->getOperand(0), [&](Value flat) {
            Operation *clone = rewriter.clone(*op);
            clone->setOperand(0, flat);
            clone->getResult(0).setType(flat.getType());
            return clone->getResult(0);
          });
      rewriter.replaceOp(op, count);
    }
  }
};

} // namespace
