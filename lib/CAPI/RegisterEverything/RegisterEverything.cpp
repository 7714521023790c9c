//===- RegisterEverything.cpp - What quant-affine-opt registers, in C -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "quant-affine-c/RegisterEverything.h"

#include "QuantAffine/InitAll.h"

#include "mlir/CAPI/IR.h"

void mlirQuantAffineRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::quant_affine::registerAllDialects(*unwrap(registry));
}

void mlirQuantAffineRegisterAllPasses(void) {
  mlir::quant_affine::registerAllPasses();
}
