//===- QuantAffineToLinalg.h - tensor ops to linalg.generic -----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace quant_affine {
class RuntimeCheckEmitter;

#define GEN_PASS_DECL_CONVERTQUANTAFFINETOLINALGPASS
#include "QuantAffine/Conversion/Passes.h.inc"

/// Patterns turning each tensor quant_affine op into one linalg.generic whose
/// body holds the scalar form of the op. With `checks`, what the types leave
/// open about the shapes is checked at run time through it (it must outlive
/// the conversion). An op whose static sizes break a shape rule (possible
/// where the verifier saw a dynamic size) is left alone.
void populateQuantAffineToLinalgConversionPatterns(
    RewritePatternSet &patterns, RuntimeCheckEmitter *checks = nullptr);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H
