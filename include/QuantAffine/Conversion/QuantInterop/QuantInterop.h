//===- QuantInterop.h - upstream quant <-> quant_affine ---------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTINTEROP_H
#define QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTINTEROP_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
class RewriterBase;
class TypeConverter;

namespace quant_affine {
class QuantizerOpInterface;

#define GEN_PASS_DECL_CONVERTQUANTTOQUANTAFFINEPASS
#define GEN_PASS_DECL_CONVERTQUANTAFFINETOQUANTPASS
#include "QuantAffine/Conversion/Passes.h.inc"

//===----------------------------------------------------------------------===//
// quant -> quant_affine
//===----------------------------------------------------------------------===//

/// Maps every !quant type (scalar or tensor element) to its storage type, the
/// signless integer of the storage width, as strip-func-quant-types does.
void populateQuantToQuantAffineTypeConversions(TypeConverter &converter);

/// quant.qcast and quant.dcast become quant_affine.quantize and dequantize
/// with constant scales and offsets; quant.scast disappears; functions,
/// calls, returns, branches, scf control flow and tensor ops carrying !quant
/// types are retyped to the storage integers.
void populateQuantToQuantAffineConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns);

/// Makes the quant dialect and every op with a !quant type illegal (scf ops
/// through upstream's structural legality, which the patterns need).
void configureQuantToQuantAffineTarget(ConversionTarget &target,
                                       const TypeConverter &converter);

/// Reports, as an error at the op, each use of a !quant type that the
/// patterns cannot express (!quant.any, !quant.calibrated, unranked tensors,
/// ops other than those above). Fails when there is one.
LogicalResult checkQuantTypesConvertible(Operation *root);

//===----------------------------------------------------------------------===//
// quant_affine -> quant
//===----------------------------------------------------------------------===//

/// Rewrites a quantize (dequantize) into quant.qcast + quant.scast
/// (quant.scast + quant.dcast) when a !quant.uniform type encodes exactly
/// what it computes. Otherwise leaves it and sets `whyNot`.
LogicalResult rewriteAsQuantCasts(RewriterBase &rewriter,
                                  QuantizerOpInterface op, std::string &whyNot);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTINTEROP_QUANTINTEROP_H
