//===- PackByBytes.h - packed codes packed from bytes -----------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANTAFFINE_CODEGEN_COMMON_PACKBYBYTES_H
#define QUANTAFFINE_CODEGEN_COMMON_PACKBYBYTES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {

/// Rewrites the packing of i1/i2/i4 codes computed in wider integers
/// (`vector.bitcast (arith.trunci %x : vector<N x iW> to vector<N x iB>)`
/// into bytes) as: per code position p in a byte, the codes at p (a strided
/// shuffle of %x), masked to B bits and shifted left by B p, or-ed together
/// in iW, then one truncation to bytes. Upstream's rewrite packs every
/// group of 8 codes into 4 bytes on its own (AVX2: an extract, two
/// shuffles and a byte shuffle per group, a 4-byte store); here whole
/// registers combine and the truncation packs them. Exact: byte k holds code
/// `8 / B * k + p` in bits [B p, B p + B), the little-endian packing of the
/// emulation. An `arith.truncf` to f4E2M1FN from f16, bf16 or f32 (not yet
/// expanded: quant-affine-expand-narrow-floats runs later) packs the same
/// way from the codes its expansion computes in i32 lanes
/// (encodeNarrowFloat).
void populatePackByBytesPatterns(RewritePatternSet &patterns);

} // namespace quant_affine
} // namespace mlir

#endif // QUANTAFFINE_CODEGEN_COMMON_PACKBYBYTES_H
