//===- PowerOfTwoScales.cpp - scales whose reciprocal is exact ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/PowerOfTwoScales.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::quant_affine;

/// A finite power of two whose reciprocal is a normal f32 (APFloat's exact
/// inverse): 2^-126 to 2^126 and their negatives.
static bool isPowerOfTwoWithExactInverse(const llvm::APFloat &v) {
  return v.isFinite() && v.getExactInverse(nullptr);
}

bool mlir::quant_affine::hasExactReciprocal(Value scale) {
  if (!getElementTypeOrSelf(scale.getType()).isF32())
    return false;
  if (auto extf = scale.getDefiningOp<arith::ExtFOp>())
    return isa<Float8E8M0FNUType>(getElementTypeOrSelf(extf.getIn()));
  if (auto blockScale = scale.getDefiningOp<BlockScaleOp>())
    return blockScale.getRoundingAttr() != nullptr;
  Attribute attr;
  if (!matchPattern(scale, m_Constant(&attr)))
    return false;
  if (auto value = dyn_cast<FloatAttr>(attr))
    return isPowerOfTwoWithExactInverse(value.getValue());
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  return dense && llvm::all_of(dense.getValues<llvm::APFloat>(),
                               isPowerOfTwoWithExactInverse);
}

bool mlir::quant_affine::canMultiplyByReciprocal(QuantizerOpInterface op) {
  QuantizerFormula formula = op.getFormula();
  if (!formula.quantizes() || formula.reciprocal || formula.floatZeroPoint)
    return false;
  FloatType c = op.getEffectiveComputeType();
  return (c.isF32() || c.isF64()) && hasExactReciprocal(op.getScale());
}
