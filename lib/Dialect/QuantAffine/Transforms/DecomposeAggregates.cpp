//===- DecomposeAggregates.cpp - softmax and friends to linalg.generic ----===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEDECOMPOSEAGGREGATESPASS
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct QuantAffineDecomposeAggregatesPass
    : quant_affine::impl::QuantAffineDecomposeAggregatesPassBase<
          QuantAffineDecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        mlir::emitError(op->getLoc())
            << "'" << op->getName() << "' could not be decomposed";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
