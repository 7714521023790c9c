//===- NarrowBroadcasts.h - compute on a broadcast before it ----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_NARROWBROADCASTS_H
#define QUANT_AFFINE_CODEGEN_COMMON_NARROWBROADCASTS_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace quant_affine {

/// Elementwise ops that read only a broadcasting vector.transfer_read (a
/// block's scale spread over its block's lanes) and splat constants run on
/// the values read, before the broadcast: a scale's decoding and its
/// reciprocal once per block instead of once per element. The reads become
/// reads of their own elements plus vector.broadcast/transpose (upstream's
/// transfer permutation lowering), and the ops sink past those (upstream's
/// sink patterns). Then elementwise ops whose operands replicate one
/// smaller vector the same way (a vector.broadcast under at most one
/// vector.transpose), beside broadcast scalars and splat constants, compute
/// on the smaller vector and replicate their result (a block scale times a
/// per-tensor scale once per block), which upstream's sink patterns do not
/// take. Other ops are left alone.
void narrowBroadcastComputations(Operation *root);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_NARROWBROADCASTS_H
