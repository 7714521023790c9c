//===- Passes.h - every code generation pass --------------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes of the three code generation libraries, for drivers that offer
// them all. Calling registerQuantAffineCodegenPasses() links
// QuantAffineCodegenCommon, QuantAffineCodegenCPU and QuantAffineCodegenGPU.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_PASSES_H
#define QUANT_AFFINE_CODEGEN_PASSES_H

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

namespace mlir {
namespace quant_affine {

/// Registers the Common, CPU and GPU code generation passes.
inline void registerQuantAffineCodegenPasses() {
  registerQuantAffineCodegenCommonPasses();
  registerQuantAffineCodegenCPUPasses();
  registerQuantAffineCodegenGPUPasses();
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_PASSES_H
