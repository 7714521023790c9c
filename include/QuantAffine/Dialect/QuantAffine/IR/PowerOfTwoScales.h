//===- PowerOfTwoScales.h - scales whose reciprocal is exact ----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Microscaling scales are powers of two: dividing by one is multiplying by
// its reciprocal, bit for bit, and multiplying is what vector units do fast.
// Where that holds for a quantizer, `reciprocal` changes nothing but speed.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_POWEROFTWOSCALES_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_POWEROFTWOSCALES_H

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

namespace mlir {
namespace quant_affine {

/// Whether every value `scale` (f32 elements) can hold is a NaN or +-2^k
/// whose reciprocal 2^-k is an f32: the value of an E8M0 scale (arith.extf
/// from f8E8M0FNU: 2^-127 to 2^127 and NaN), block_scale's f32 result with
/// `rounding` (the same set), or a constant of such powers of two.
bool hasExactReciprocal(Value scale);

/// Whether `op` may multiply by its scale's reciprocal (`reciprocal`)
/// without changing any result: it quantizes by dividing (neither
/// `reciprocal` nor `float_zero_point`), its scale is f32 with an exact
/// reciprocal, and C (f32 or f64) holds the scale and its reciprocal
/// exactly. Then x * (1 / s) and x / s are the same real number rounded
/// once in C: equal for every x, ties, subnormals, overflow, signed zeros,
/// infinities and NaN included.
bool canMultiplyByReciprocal(QuantizerOpInterface op);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_POWEROFTWOSCALES_H
