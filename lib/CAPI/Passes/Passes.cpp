//===- Passes.cpp - C API for quant-affine's passes and pipelines ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "quant-affine-c/Passes.h"

#include "QuantAffine/Codegen/Passes.h"
#include "QuantAffine/Conversion/Passes.h"
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"
#include "QuantAffine/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"

void mlirRegisterQuantAffinePasses(void) {
  mlir::quant_affine::registerQuantAffinePasses();
  mlir::quant_affine::registerQuantAffineConversionPasses();
  mlir::quant_affine::registerQuantAffineCodegenPasses();
}

void mlirRegisterQuantAffinePipelines(void) {
  mlir::quant_affine::registerQuantAffinePipelines();
}

void mlirQuantAffineRegisterPipelineExtensions(MlirDialectRegistry registry) {
  mlir::quant_affine::registerPipelineExtensions(*unwrap(registry));
}
