//===- WhenPresent.cpp - run a pipeline only where it has work ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEWHENPRESENTPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

struct QuantAffineWhenPresentPass
    : quant_affine::impl::QuantAffineWhenPresentPassBase<
          QuantAffineWhenPresentPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    for (const OpPassManager &pipeline : pipelines)
      pipeline.getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *) override {
    for (const std::string &entry : ops) {
      StringRef name(entry);
      (name.contains('.') ? opNames : dialects).insert(name);
    }
    return success();
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    WalkResult found = root->walk([&](Operation *op) {
      if (op == root)
        return WalkResult::advance();
      StringRef name = op->getName().getStringRef();
      return opNames.contains(name) ||
                     dialects.contains(op->getName().getDialectNamespace())
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return markAllAnalysesPreserved();
    for (OpPassManager &pipeline : pipelines)
      if (failed(runPipeline(pipeline, root)))
        return signalPassFailure();
  }

  llvm::StringSet<> opNames, dialects;
};

} // namespace
