//===- BlockScale.cpp - block_scale's formulas as arith ops ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Instantiates Utils/BlockScaleFormula.h with the arith emitter the
// quantizers' lowering uses.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/BlockScale.h"

#include "QuantAffine/Conversion/QuantAffineToArith/ArithEmitter.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/BlockScaleFormula.h"

using namespace mlir;
using namespace mlir::quant_affine;

Value mlir::quant_affine::emitBlockScale(OpBuilder &b, Location loc,
                                         const BlockScaleRule &rule, Value amax,
                                         Value tensorScale, Type result) {
  // Scalars computed in f32, bit-level steps in i32.
  ArithEmitter emitter(b, loc, b.getF32Type(), b.getF32Type());
  return blockScaleFormula(emitter, rule, amax, tensorScale != nullptr,
                           tensorScale, result);
}
