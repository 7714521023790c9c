//===- NestFootprint.h - bytes a loop nest moves ----------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Whether a loop streams from or to memory, judged by the static sizes of
// the buffers its outermost loop nest references (the CPU passes that mark
// stores non-temporal and prefetch loads).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_CPU_NESTFOOTPRINT_H
#define QUANT_AFFINE_CODEGEN_CPU_NESTFOOTPRINT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir {
namespace quant_affine {

/// The buffer `memref` views (through subviews, reshapes, casts, and the
/// iter_args and results of scf.for loops that carry it).
Value rootBuffer(Value memref);

/// Bytes of a buffer of static shape (elements take the power of two of
/// bytes that holds them, as memrefs lay them out); none otherwise.
std::optional<int64_t> staticBytes(Value buffer);

/// Whether `op` is a loop: a LoopLikeOpInterface op or an omp.loop_nest.
bool isLoop(Operation *op);

/// The outermost loop around `op` (below the function; an omp.loop_nest
/// counts), or `op` itself outside loops.
Operation *outermostLoop(Operation *op);

/// Whether `op` is a read (vector or scalar load, transfer read, gather) of
/// the buffer `root` (through views: rootBuffer).
bool readsRoot(Operation *op, Value root);

/// Whether the nest of `store` (outermostLoop) reads the buffer `store`
/// writes in another block than the store's: a later loop reads back what
/// it wrote (the encodings a row tile quantizes with). A read in the same
/// block (an in-place update) does not count.
bool readBackInNest(Operation *store, Value storedBuffer);

/// Whether the nest of `load` writes the buffer `load` reads in another
/// block than the load's: an earlier loop produced what it reads (a row
/// tile's encodings). A write in the same block does not count.
bool producedInNest(Operation *load, Value loadedBuffer);

/// Bytes that the outermost loop around `op` (`op` itself outside loops)
/// references: each buffer of static shape counted once at its size.
/// Memoized per nest in `cache`.
int64_t nestFootprintBytes(Operation *op,
                           llvm::DenseMap<Operation *, int64_t> &cache);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_CPU_NESTFOOTPRINT_H
