//===- QuantAffineToArith.h - scalar/vector ops to arith --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_H

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class ConversionTarget;

namespace quant_affine {
struct FloatFormat;

#define GEN_PASS_DECL_CONVERTQUANTAFFINETOARITHPASS
#include "QuantAffine/Conversion/Passes.h.inc"

/// Patterns lowering the scalar and vector forms of the quant_affine ops to
/// arith and math. They are the only place the formula becomes code.
void populateQuantAffineToArithConversionPatterns(RewritePatternSet &patterns);

/// Marks scalar and vector quant_affine ops illegal and arith/math legal.
void configureQuantAffineToArithTarget(ConversionTarget &target);

/// float_qdq of scalar or vector `input` as arith and math ops
/// (Utils/FloatFormula.h). `maxval` is null, a maxval of `input`'s shape, or
/// with `maxvalIsFactor` its factor k already (f32, see emitFloatQDQFactor).
Value emitFloatQDQ(OpBuilder &b, Location loc, const FloatFormat &format,
                   Value input, Value maxval, bool maxvalIsFactor = false);

/// The factor k (f32) of a scalar or vector `maxval`.
Value emitFloatQDQFactor(OpBuilder &b, Location loc, const FloatFormat &format,
                         Value maxval);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOARITH_H
