//===- CheckLowered.cpp - the pipelines' output must be translatable ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECHECKLOWEREDPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct QuantAffineCheckLoweredPass
    : quant_affine::impl::QuantAffineCheckLoweredPassBase<
          QuantAffineCheckLoweredPass> {
  using Base::Base;

  /// Dialects and ops are matched by name, so that this library links no
  /// target dialect: a loaded dialect's namespace names it, and a registered
  /// op's name names its op class.
  bool isTranslatable(Operation *op) const {
    if (isa<ModuleOp>(op))
      return true;
    if (Dialect *dialect = op->getDialect())
      if (llvm::is_contained({"llvm", "omp"}, dialect->getNamespace()))
        return true;
    return allowGPU && op->isRegistered() &&
           llvm::is_contained({"gpu.binary", "gpu.launch_func"},
                              op->getName().getStringRef());
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
      return signalPassFailure();
    // Only looked: the output need not be verified again.
    markAllAnalysesPreserved();
  }
};
} // namespace
