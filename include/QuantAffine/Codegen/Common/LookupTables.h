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
void lookUpPackedCodesInTables(Operation *root);

/// Removes the marks above (they must not reach the LLVM dialect; the last
/// pass that reads them, quant-affine-prefetch-weights, calls this). Returns
/// whether there were any.
bool dropLanesSummedMarks(Operation *root);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_LOOKUPTABLES_H
