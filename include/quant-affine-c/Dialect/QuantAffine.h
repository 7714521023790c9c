//===- QuantAffine.h - C API for the quant_affine dialect ---------*- C -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The quant_affine dialect for embedders that speak C (and the languages that
// bind to MLIR's C API): the dialect handle and builders of the three ops.
// Library: QuantAffineCAPIDialect (QuantAffine::QuantAffineCAPIDialect when
// installed; docs/Embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_C_DIALECT_QUANTAFFINE_H
#define QUANT_AFFINE_C_DIALECT_QUANTAFFINE_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__quant_affine__(): insert the dialect into a
/// registry or load it into a context with mlirDialectHandle* functions.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(QuantAffine, quant_affine);

//===----------------------------------------------------------------------===//
// Op builders
//===----------------------------------------------------------------------===//
//
// Each builder returns a new, detached operation at `location` (insert it with
// mlirBlockAppendOwnedOperation or mlirBlockInsertOwnedOperation*, or destroy
// it). It loads the dialect into the location's context if needed and does
// not verify: call mlirOperationVerify on the operation or its parent.
//
// - `offset`: a null MlirValue (`(MlirValue){NULL}`) when there is none (0).
// - `qmin`, `qmax`: the integer grid, e.g. [-8, 7] for signed int4.
// - `blockSizes`: `nBlockSizes` entries (one per scale dim; -1 is the
//   wildcard), or 0 and NULL for no block encoding.
// - `computeType`: f16, bf16, f32 or f64, or a null MlirType
//   (`(MlirType){NULL}`) for the default rule.
//
// The op descriptions (docs/generated/QuantAffineOps.md) are the contract.

/// quant_affine.quantize: q = clamp(roundeven(x / s) - o, qmin, qmax), with a
/// result of `resultType` (integer or float elements).
MLIR_CAPI_EXPORTED MlirOperation mlirQuantAffineQuantizeOpCreate(
    MlirLocation location, MlirType resultType, MlirValue input,
    MlirValue scale, MlirValue offset, int64_t qmin, int64_t qmax,
    intptr_t nBlockSizes, const int64_t *blockSizes, MlirType computeType);

/// quant_affine.dequantize: y = (q + o) * s, with a result of `resultType`
/// (float elements).
MLIR_CAPI_EXPORTED MlirOperation mlirQuantAffineDequantizeOpCreate(
    MlirLocation location, MlirType resultType, MlirValue input,
    MlirValue scale, MlirValue offset, int64_t qmin, int64_t qmax,
    intptr_t nBlockSizes, const int64_t *blockSizes, MlirType computeType);

/// quant_affine.qdq: dequantize(quantize(x)) in floating point; the result
/// has the input's type.
MLIR_CAPI_EXPORTED MlirOperation mlirQuantAffineQDQOpCreate(
    MlirLocation location, MlirValue input, MlirValue scale, MlirValue offset,
    int64_t qmin, int64_t qmax, intptr_t nBlockSizes, const int64_t *blockSizes,
    MlirType computeType);

/// quant_affine.float_qdq: rounds `input` onto the grid of the float format
/// with `exponentBits` and `mantissaBits` (`finite`, `unsignedZero`: the
/// flags of the real formats, docs/FloatQDQ.md); `maxval` is a null
/// MlirValue for none, else laid out like a scale (`blockSizes` as above).
MLIR_CAPI_EXPORTED MlirOperation mlirQuantAffineFloatQDQOpCreate(
    MlirLocation location, MlirValue input, MlirValue maxval,
    int64_t exponentBits, int64_t mantissaBits, bool finite, bool unsignedZero,
    intptr_t nBlockSizes, const int64_t *blockSizes);

/// torchao's conventions on a quantize, dequantize or qdq `op` built above:
/// `reciprocal` (quantize, qdq: multiply by 1 / s) and `float_zero_point`
/// (the offset is torchao's FLOAT-domain zero point). DESIGN.md section 8.
MLIR_CAPI_EXPORTED void
mlirQuantAffineQuantizerOpSetReciprocal(MlirOperation op, bool value);
MLIR_CAPI_EXPORTED void
mlirQuantAffineQuantizerOpSetFloatZeroPoint(MlirOperation op, bool value);

/// Whether `op` is a quant_affine.quantize, dequantize, qdq or float_qdq
/// operation.
MLIR_CAPI_EXPORTED bool mlirOperationIsAQuantAffineQuantizeOp(MlirOperation op);
MLIR_CAPI_EXPORTED bool
mlirOperationIsAQuantAffineDequantizeOp(MlirOperation op);
MLIR_CAPI_EXPORTED bool mlirOperationIsAQuantAffineQDQOp(MlirOperation op);
MLIR_CAPI_EXPORTED bool mlirOperationIsAQuantAffineFloatQDQOp(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif // QUANT_AFFINE_C_DIALECT_QUANTAFFINE_H
