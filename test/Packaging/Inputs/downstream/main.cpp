//===- main.cpp - A downstream program using the installed quant-affine ---===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Registers the quant_affine dialect and the pipelines, parses a module with a
// quant_affine.qdq op, runs the CPU pipeline through a PassManager and prints
// what it produced.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *const kInput = R"mlir(
func.func @fake_quant(%x: tensor<8x64xf32>, %s: tensor<8x2xf32>)
    -> tensor<8x64xf32> {
  %y = quant_affine.qdq %x, %s range [-8, 7] block [1, 32]
      : (tensor<8x64xf32>, tensor<8x2xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
)mlir";

/// Prints the ops of `module` that the caller wants to see.
static void summarize(mlir::ModuleOp module, llvm::StringRef when) {
  module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    if (name.starts_with("quant_affine.") || name == "func.func" ||
        name == "llvm.func" || name == "llvm.fdiv") {
      llvm::outs() << when << ": " << name;
      if (auto symbol = op->getAttrOfType<mlir::StringAttr>("sym_name"))
        llvm::outs() << " @" << symbol.getValue();
      if (op->getNumResults() == 1)
        llvm::outs() << " : " << op->getResult(0).getType();
      llvm::outs() << "\n";
    }
  });
}

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::quant_affine::QuantAffineDialect,
                  mlir::func::FuncDialect>();
  mlir::quant_affine::registerPipelineExtensions(registry);
  mlir::quant_affine::registerQuantAffinePipelines();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kInput, &context);
  if (!module)
    return 1;
  summarize(*module, "input");

  // The pipeline by its registered name, on a pass manager anchored on the
  // module (buildQuantAffineCPUPipeline(pm, options) adds the same passes).
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "quant-affine-cpu-pipeline{vector-width=8}", pm)))
    return 1;
  if (mlir::failed(pm.run(*module))) {
    llvm::outs() << "pipeline failed\n";
    return 1;
  }
  summarize(*module, "output");
  return 0;
}
