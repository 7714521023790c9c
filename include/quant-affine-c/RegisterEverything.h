//===- RegisterEverything.h - What quant-affine-opt registers -----*- C -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The dialects, extensions, passes and pipelines quant-affine-opt offers, in
// two calls, for embedders that want the driver's environment.
// Library: QuantAffineCAPIRegisterEverything
// (QuantAffine::QuantAffineCAPIRegisterEverything when installed).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_C_REGISTEREVERYTHING_H
#define QUANT_AFFINE_C_REGISTEREVERYTHING_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds quant_affine, the upstream dialects the pipelines consume and
/// produce (func, tensor, linalg, arith, memref, vector, llvm, gpu, nvvm, ...)
/// and their interface extensions to `registry`.
MLIR_CAPI_EXPORTED void
mlirQuantAffineRegisterAllDialects(MlirDialectRegistry registry);

/// Registers quant-affine's passes and pipelines and the upstream passes the
/// driver offers beside them (canonicalize, cse, the conversions to LLVM, ...).
MLIR_CAPI_EXPORTED void mlirQuantAffineRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // QUANT_AFFINE_C_REGISTEREVERYTHING_H
