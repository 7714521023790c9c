//===- Passes.h - quant-affine conversion passes ----------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_PASSES_H
#define QUANT_AFFINE_CONVERSION_PASSES_H

#include "QuantAffine/Conversion/QuantAffineToArith/QuantAffineToArith.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/QuantAffineToLinalg.h"
#include "QuantAffine/Conversion/QuantInterop/QuantInterop.h"

namespace mlir {
namespace quant_affine {

#define GEN_PASS_REGISTRATION
#include "QuantAffine/Conversion/Passes.h.inc"

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_PASSES_H
