//===- UnpackByShifts.h - packed codes unpacked by per-lane shifts -*- C++ -*-//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANTAFFINE_CODEGEN_COMMON_UNPACKBYSHIFTS_H
#define QUANTAFFINE_CODEGEN_COMMON_UNPACKBYSHIFTS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {

/// Rewrites the extension or conversion to float of packed i1/i2/i4 codes
/// loaded as bytes (`ext(vector.bitcast vector<N x i8> to vector<M x iB>)`)
/// into 32-bit lanes: each 32-bit word of the bytes is repeated in the lanes
/// of its codes, shifted left by a per-lane amount that puts the lane's code
/// at the top, and shifted right (arithmetically for signed codes) by
/// `32 - B`. Per 8 int4 codes: a broadcast, a variable shift (AVX2
/// `vpsllvd`, NEON `sshl`), a shift and the conversion, where upstream's
/// byte-wise unpacking costs byte shifts x86 does not have, an interleave and
/// a sign extension. Codes must fill whole words (N a multiple of 4); results
/// narrower than 32 bits keep upstream's rewrite.
void populateUnpackByShiftsPatterns(RewritePatternSet &patterns);

/// The step those patterns share with table lookups (LookupTables.h): for
/// each 32-bit word of the bytes `bitcast` reinterprets as packed codes, the
/// word repeated in one i32 lane per code, lane j shifted left so that code
/// j is the lane's top bits (its sign bit the lane's). Bytes loaded from a
/// rank-1 buffer are loaded again word by word. The bytes must fill whole
/// words.
SmallVector<Value> spreadCodesToLaneTops(OpBuilder &b, Location loc,
                                         vector::BitCastOp bitcast);

/// 1-D vectors `pieces` joined side by side, pairwise (vector.shuffle).
Value joinSideBySide(OpBuilder &b, Location loc, ArrayRef<Value> pieces);

} // namespace quant_affine
} // namespace mlir

#endif // QUANTAFFINE_CODEGEN_COMMON_UNPACKBYSHIFTS_H
