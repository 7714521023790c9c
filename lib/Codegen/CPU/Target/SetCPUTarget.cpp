//===- SetCPUTarget.cpp - the planned CPU recorded on the LLVM module -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/CPUTarget.h"
#include "QuantAffine/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINESETCPUTARGETPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct SetCPUTargetPass
    : quant_affine::impl::QuantAffineSetCPUTargetPassBase<SetCPUTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<quant_affine::CPUTarget> target = quant_affine::resolveCPUTarget(
        targetTriple, cpu, features,
        [&](const Twine &message) { return module.emitError(message); });
    if (failed(target))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(context, target->triple));
    auto cpuName = StringAttr::get(context, target->cpu);
    auto featureSet = LLVM::TargetFeaturesAttr::get(context, target->features);
    module.walk([&](LLVM::LLVMFuncOp function) {
      if (function.isExternal())
        return;
      function.setTargetCpuAttr(cpuName);
      if (!target->features.empty())
        function.setTargetFeaturesAttr(featureSet);
    });
  }
};
} // namespace
