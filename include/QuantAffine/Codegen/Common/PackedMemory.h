//===- PackedMemory.h - the steps of packing narrow buffers -----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// quant-affine-emulate-narrow-types packs i1, i2, i4 and f4E2M1FN buffers
// with upstream's narrow-type emulation. What upstream leaves to its users
// is split by step, one file each: PreparePackedAccesses.cpp puts accesses
// in the forms the conversion handles, PackedAccesses.cpp converts vector
// and scalar loads and stores, PackedStorage.cpp allocations, globals and
// the ops whose meaning does not depend on the element layout.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_PACKEDMEMORY_H
#define QUANT_AFFINE_CODEGEN_COMMON_PACKEDMEMORY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace quant_affine {

/// Before the conversion: copies between views of packed buffers, accesses
/// through static casts, linalg ops to loops (parallel ones with
/// `parallelLoops`), transfers to 1-D loads and stores (or element by
/// element), views folded into the accesses.
LogicalResult preparePackedAccesses(ModuleOp module, bool parallelLoops);

/// Rejects, with a diagnostic, accesses of a packed buffer whose element
/// position is not known (dynamic strides of a buffer not allocated here).
LogicalResult checkPackedAccessesAddressable(ModuleOp module);
/// Vector and scalar loads and stores of packed buffers, on bytes.
void populatePackedAccessPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  PatternBenefit benefit);

/// Rejects, with a diagnostic, a packed global whose dense_resource does not
/// hold exactly its packed bytes.
LogicalResult checkPackedResourceSizes(ModuleOp module);
/// Allocations and globals of packed buffers, and the ops whose meaning does
/// not depend on the element layout (memref.cast, the aligned pointer).
void populatePackedStoragePatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   PatternBenefit benefit);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_PACKEDMEMORY_H
