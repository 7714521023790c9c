//===- NarrowTypes.h - packed sub-byte integers in memory -------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the codegen passes agree on about element types in memory: i1, i2 and
// i4 are stored packed (quant-affine-emulate-narrow-types), so their vectors
// are laid out as their buffers are; other widths below a byte or not a power
// of two (i3, i12, i24) take whole bytes per element, and their vectors are
// not.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_NARROWTYPES_H
#define QUANT_AFFINE_CODEGEN_COMMON_NARROWTYPES_H

// knownDivisor, which the packed accesses use.
#include "QuantAffine/Dialect/QuantAffine/Utils/KnownDivisor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace quant_affine {

/// Whether buffers of `type` are stored packed: i1, i2, i4 and f4E2M1FN.
bool isPackedType(Type type);
/// Whether `type` is a memref whose elements are stored packed.
bool isPackedMemRef(Type type);
/// Whether an operand or result of `op` is a packed memref.
bool touchesPackedMemRef(Operation *op);
/// Whether `type`'s strides and offset are all static.
bool hasStaticStrides(MemRefType type);

/// Whether a vector of `type` elements is laid out in memory as a buffer of
/// them is: widths that are a power of two of at least a byte, index, and
/// the packed types (both bit by bit).
bool hasVectorMemoryLayout(Type type);

/// The f32 values of narrow float codes (`format`, a float8 or float4
/// storage type) held zero-extended in i32 lanes: the decoding that
/// quant-affine-expand-narrow-floats gives arith.extf.
Value decodeNarrowFloat(PatternRewriter &rewriter, Location loc, Value codes,
                        FloatType format);

/// The codes of `x` (f16, bf16, f32 or f64, scalar or vector) rounded to
/// `format` (a float8, float6 or float4 storage type): the encoding that
/// quant-affine-expand-narrow-floats gives arith.truncf, an arith.trunci to
/// the format's width of the codes in i32 (f64: i64) lanes, whose bits above
/// the width may be set.
Value encodeNarrowFloat(PatternRewriter &rewriter, Location loc, Value x,
                        FloatType format);

/// The logical sizes of packed buffers' dynamic dims across function
/// boundaries (DESIGN.md section 9): one index argument (result) per
/// dynamic dim of each packed argument (result), after the others, added to
/// every function, call and return of `module`; memref.dim of such an
/// argument or call result becomes that index.
LogicalResult passPackedLogicalSizes(ModuleOp module);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_COMMON_NARROWTYPES_H
