//===- CheckLowered.cpp - the pipelines' output must be translatable ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECHECKLOWEREDPASS
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct QuantAffineCheckLoweredPass
    : quant_affine::impl::QuantAffineCheckLoweredPassBase<
          QuantAffineCheckLoweredPass> {
  using Base::Base;

  bool isTranslatable(Operation *op) const {
    if (isa<ModuleOp>(op))
      return true;
    if (isa<LLVM::LLVMDialect, omp::OpenMPDialect>(op->getDialect()))
      return true;
    return allowGPU && isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op);
  }

  void runOnOperation() override {
    llvm::StringSet<> reported;
    bool failed = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isTranslatable(op))
        return WalkResult::advance();
      failed = true;
      // One error per op name; without the op attached, so no IR dump.
      if (reported.insert(op->getName().getStringRef()).second)
        mlir::emitError(op->getLoc())
            << "'" << op->getName() << "' is not lowered by " << pipelineName
            << ": its output must hold only LLVM dialect"
            << (allowGPU ? ", OpenMP and GPU binary/launch ops"
                         : " and OpenMP ops");
      // What is nested in an unlowered op is not reported separately.
      return WalkResult::skip();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
