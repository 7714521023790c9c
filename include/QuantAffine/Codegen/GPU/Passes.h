//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_GPU_PASSES_H
#define QUANT_AFFINE_CODEGEN_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace quant_affine {

#define GEN_PASS_DECL
#include "QuantAffine/Codegen/GPU/Passes.h.inc"

/// The one rule for `block-size`, shared by `quant-affine-map-to-gpu` and
/// the pipeline options that configure it: in [1, 1024], the threads a CUDA
/// block may have. Reports a violation through `error` (the message names
/// the option and the value) and fails.
/// Whether `op` runs on the host: outside any gpu.launch and gpu.module.
bool isHostCode(Operation *op);

LogicalResult checkBlockSize(int64_t blockSize,
                             function_ref<LogicalResult(const Twine &)> error);

#define GEN_PASS_REGISTRATION
#include "QuantAffine/Codegen/GPU/Passes.h.inc"

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_GPU_PASSES_H
