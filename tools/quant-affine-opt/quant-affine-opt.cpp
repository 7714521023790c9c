//===- quant-affine-opt.cpp - The quant-affine optimizer driver -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mlir-opt of this project: parses, verifies, transforms and prints IR
// using the quant_affine dialect and the upstream dialects registered in
// InitAll.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::quant_affine::registerAllDialects(registry);
  mlir::quant_affine::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "quant-affine optimizer driver\n", registry));
}
