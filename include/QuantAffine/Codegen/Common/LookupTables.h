//===- LookupTables.h - packed codes dequantized by table lookup -*- C++
//-*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_LOOKUPTABLES_H
#define QUANT_AFFINE_CODEGEN_COMMON_LOOKUPTABLES_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace quant_affine {

/// Marks a product `x * w` whose vector lanes are only ever summed together
/// (the partial sums of quant-affine-vectorize-contractions): its lanes may
/// be permuted, as long as both factors are permuted alike.
constexpr StringLiteral kLanesSummedAttrName = "quant_affine.lanes_summed";

/// Where a vector of packed int4 codes (`vector.bitcast` of bytes) is
/// converted to float and then only combined with lane-uniform values (a
/// block's scale and offset) before it multiplies a marked product, computes
/// that chain once on the 16 possible codes (a table, by the same ops, so
/// every value is bit for bit what the chain gives) and looks each code up
/// in it (`vector.extract` at a dynamic position, which x86 selects as
/// `vpermps`). The codes are taken low nibbles first, then high nibbles,
/// and the product's other factor is shuffled to the same order.
///
/// `int4` enables this for int4 codes (sitofp/uitofp); `float4TableLanes`
/// (0, 8 or 16) for f4E2M1FN codes (arith.extf). With 16 they go the int4
/// way. With 8 (a permute of 8 f32, AVX2), the chain is computed on codes
/// 0-7 and on codes 8-15 (the sign bit set), each code is looked up in both
/// by its low 3 bits and takes the entry its sign bit selects: the codes
/// stay in their own order and nothing is shuffled. Either way each weight
/// is the chain's own value on its code, bit for bit (-0.0, infinities,
/// NaNs included).
void lookUpPackedCodesInTables(Operation *root, bool int4,
                               int64_t float4TableLanes);

/// Removes the marks above (they must not reach the LLVM dialect; the last
/// pass that reads them, quant-affine-prefetch-weights, calls this). Returns
/// whether there were any.
bool dropLanesSummedMarks(Operation *root);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_LOOKUPTABLES_H
