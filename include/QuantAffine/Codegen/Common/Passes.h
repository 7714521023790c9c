//===- Passes.h - target-independent codegen passes -------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The code generation passes both pipelines run (Passes.td), and the rules
// and options they share with the pipelines that configure them.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_PASSES_H
#define QUANT_AFFINE_CODEGEN_COMMON_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace bufferization {
struct OneShotBufferizePassOptions;
} // namespace bufferization

namespace quant_affine {

#define GEN_PASS_DECL
#include "QuantAffine/Codegen/Common/Passes.h.inc"

/// The one rule for `vector-width`, shared by `quant-affine-vectorize` and
/// the pipeline options that configure it: at least 1. Reports a violation
/// through `error` (the message names the option and the value) and fails.
LogicalResult
checkVectorWidth(int64_t vectorWidth,
                 function_ref<LogicalResult(const Twine &)> error);

/// The one-shot-bufferize options the pipelines bufferize with (across
/// function boundaries, identity layouts, loops may yield new buffers);
/// `quant-affine-prepare-tensor-destinations` analyses with the same ones.
bufferization::OneShotBufferizePassOptions getInPlaceBufferizePassOptions();

#define GEN_PASS_REGISTRATION
#include "QuantAffine/Codegen/Common/Passes.h.inc"

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_PASSES_H
