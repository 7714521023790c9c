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

#define GEN_PASS_REGISTRATION
#include "QuantAffine/Codegen/GPU/Passes.h.inc"

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_GPU_PASSES_H
