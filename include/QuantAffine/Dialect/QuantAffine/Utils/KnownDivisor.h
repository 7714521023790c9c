//===- KnownDivisor.h - Powers of two known to divide an index --*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What divides an index value, read off the IR that computes it: packed
// accesses and streaming stores (lib/Codegen) ask whether an offset is a
// multiple of a byte or a line, tiling (TilingInterfaceImpl.h) whether a tile
// starts on a block boundary. One analysis for all of them, in a library of
// its own so that the dialect's interface models need no codegen library.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_KNOWNDIVISOR_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_KNOWNDIVISOR_H

#include "mlir/IR/OpDefinition.h"

#include <cstdint>

namespace mlir {
namespace quant_affine {

/// The cap of what the divisibility helpers below report.
constexpr int64_t kMaxKnownDivisor = int64_t(1) << 20;

/// The largest power of two dividing `c`, capped at kMaxKnownDivisor (the cap
/// for 0, which every power divides).
int64_t powerOfTwoDividing(int64_t c);

/// The largest power of two (up to 2^20) known to divide an index:
/// constants, induction variables of loops (lower bound and step), sums,
/// products, casts and affine.apply of those.
int64_t knownDivisor(OpFoldResult value);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_KNOWNDIVISOR_H
