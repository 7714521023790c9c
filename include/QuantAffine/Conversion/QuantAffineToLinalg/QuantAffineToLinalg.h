//===- QuantAffineToLinalg.h - tensor ops to linalg.generic -----*- C++ -*-===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace quant_affine {

#define GEN_PASS_DECL_CONVERTQUANTAFFINETOLINALGPASS
#include "QuantAffine/Conversion/Passes.h.inc"

/// Patterns turning each tensor quant_affine op into one linalg.generic whose
/// body holds the scalar form of the op. With `runtimeChecks`, dynamic shapes
/// are asserted with cf.assert.
void populateQuantAffineToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                   bool runtimeChecks);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_H
