//===- ExpandBF16.cpp - bf16 extf/truncf in integer arithmetic ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/PatternRoots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEEXPANDBF16PASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
/// Only upstream's bf16 extf/truncf expansion. (arith-expand with
/// include-bf16 would also expand maximumf/minimumf into a compare and
/// select that returns -0.0 for maximumf(+0.0, -0.0).)
struct ExpandBF16Pass
    : quant_affine::impl::QuantAffineExpandBF16PassBase<ExpandBF16Pass> {
  void runOnOperation() override {
    // arith-emulate-unsupported-floats marks the extf/truncf around each op
    // it widens fastmath<contract>, which lets arith's folder drop an
    // extf(truncf(x)) pair: two chained bf16 ops would then round once, not
    // after each op. Without the flag every op rounds to bf16.
    bool changed = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op))
        changed |= static_cast<bool>(op->removeAttr(
            cast<arith::ArithFastMathInterface>(op).getFastMathAttrName()));
    });
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    bool expanded = false;
    // Upstream's patterns rewrite only conversions from and to bf16: other
    // extf/truncf must not make the driver run over the whole function.
    auto isBF16Conversion = [](Operation *op) {
      return getElementTypeOrSelf(op->getOperand(0).getType()).isBF16() ||
             getElementTypeOrSelf(op->getResult(0).getType()).isBF16();
    };
    if (failed(quant_affine::applyPatternsWhereRooted(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            expanded, isBF16Conversion)))
      return signalPassFailure();
    if (!changed && !expanded)
      markAllAnalysesPreserved();
  }
};
} // namespace
