//===- Passes.h - C API for quant-affine's passes and pipelines ---*- C -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Registration of quant-affine's passes and of the CPU and GPU pipelines, so
// that textual pipelines (mlirParsePassPipeline, mlirOpPassManagerAddPipeline)
// can name them, e.g. "builtin.module(quant-affine-cpu-pipeline)".
// Library: QuantAffineCAPIPasses (QuantAffine::QuantAffineCAPIPasses when
// installed; docs/Embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_C_PASSES_H
#define QUANT_AFFINE_C_PASSES_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every quant-affine pass (the dialect's transforms, the
/// conversions and the code generation passes) under its command-line name.
MLIR_CAPI_EXPORTED void mlirRegisterQuantAffinePasses(void);

/// Registers --quant-affine-cpu-pipeline and --quant-affine-gpu-pipeline
/// (their options are those of quant-affine-opt; docs/Pipelines.md).
MLIR_CAPI_EXPORTED void mlirRegisterQuantAffinePipelines(void);

/// Adds the interface models the pipelines rely on (bufferization, tiling,
/// value bounds, subsets, the GPU pipeline's LLVM translations) to
/// `registry`. A context that runs a pipeline needs them, besides the
/// quant_affine and func dialects its input uses.
MLIR_CAPI_EXPORTED void
mlirQuantAffineRegisterPipelineExtensions(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // QUANT_AFFINE_C_PASSES_H
