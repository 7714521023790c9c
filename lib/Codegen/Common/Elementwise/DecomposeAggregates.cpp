//===- DecomposeAggregates.cpp - softmax and friends to linalg.generic ----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEDECOMPOSEAGGREGATESPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
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
    if (aggregates.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      // Upstream's softmax decomposition types its generics after the input;
      // when canonicalization has made the output more (or less) static than
      // the input, those would not match the result. Give the input the
      // output's type first (the shapes are compatible by the verifier).
      if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op.getOperation())) {
        Type outputType = softmax.getOutput().getType();
        if (isa<RankedTensorType>(outputType) &&
            softmax.getInput().getType() != outputType) {
          Value cast = tensor::CastOp::create(rewriter, softmax.getLoc(),
                                              outputType, softmax.getInput());
          rewriter.modifyOpInPlace(
              softmax, [&] { softmax.getInputMutable().set(cast); });
        }
      }
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
