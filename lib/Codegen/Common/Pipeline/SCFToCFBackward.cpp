//===- SCFToCFBackward.cpp - scf to cf, the last op of a block first ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's scf-to-cf patterns, applied in an order that keeps the block
// splits they do linear in the size of the function (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINESCFTOCFBACKWARDPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

struct QuantAffineSCFToCFBackwardPass
    : quant_affine::impl::QuantAffineSCFToCFBackwardPassBase<
          QuantAffineSCFToCFBackwardPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateSCFToControlFlowConversionPatterns(set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Post-order: an op after the ops nested in it. Only ops the patterns
    // replace as a whole (their terminators go with them), and only where
    // every op around them is one too: lowered first, it leaves them in the
    // function's region. Inside anything else (scf.parallel, scf.forall,
    // omp.wsloop), blocks would break a region that must keep one.
    SmallVector<Operation *> ops;
    auto lowered = [](Operation *op) {
      return isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::IndexSwitchOp,
                 scf::ExecuteRegionOp>(op);
    };
    func::FuncOp function = getOperation();
    function.walk([&](Operation *op) {
      if (!lowered(op))
        return;
      for (Operation *parent = op->getParentOp(); parent != function;
           parent = parent->getParentOp())
        if (!lowered(parent))
          return;
      ops.push_back(op);
    });
    if (ops.empty())
      return markAllAnalysesPreserved();
    PatternApplicator applicator(patterns);
    applicator.applyDefaultCostModel();
    PatternRewriter rewriter(&getContext());
    // Reversed: the last op of each block first, and an op before the ops
    // nested in it, which the lowering moves into blocks of their own.
    for (Operation *op : llvm::reverse(ops)) {
      rewriter.setInsertionPoint(op);
      (void)applicator.matchAndRewrite(op, rewriter);
    }
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
