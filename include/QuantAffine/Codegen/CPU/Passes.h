//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_CPU_PASSES_H
#define QUANT_AFFINE_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace quant_affine {

#define GEN_PASS_DECL
#include "QuantAffine/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantAffine/Codegen/CPU/Passes.h.inc"

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_CPU_PASSES_H
