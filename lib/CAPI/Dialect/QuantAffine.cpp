//===- QuantAffine.cpp - C API for the quant_affine dialect ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Only the ODS-generated builders and the op classes are used here, so the
// C API follows the ODS definition of the ops without restating it.
//
//===----------------------------------------------------------------------===//

#include "quant-affine-c/Dialect/QuantAffine.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::quant_affine;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(QuantAffine, quant_affine,
                                      QuantAffineDialect)

namespace {
/// The block_size property from the C arguments (none for 0 sizes).
DenseI64ArrayAttr blockSizeAttrOf(OpBuilder &builder, intptr_t nBlockSizes,
                                  const int64_t *blockSizes) {
  if (nBlockSizes <= 0)
    return {};
  return builder.getDenseI64ArrayAttr(
      ArrayRef<int64_t>(blockSizes, static_cast<size_t>(nBlockSizes)));
}

/// Builds a detached `OpTy` through the ODS-generated builder that takes the
/// attributes, after translating the C arguments' "absent" forms.
template <typename OpTy>
MlirOperation createQuantizerOp(MlirLocation location, Type resultType,
                                MlirValue input, MlirValue scale,
                                MlirValue offset, int64_t qmin, int64_t qmax,
                                intptr_t nBlockSizes, const int64_t *blockSizes,
                                MlirType computeType) {
  Location loc = unwrap(location);
  MLIRContext *context = loc.getContext();
  context->getOrLoadDialect<QuantAffineDialect>();
  OpBuilder builder(context);
  DenseI64ArrayAttr blockSizeAttr =
      blockSizeAttrOf(builder, nBlockSizes, blockSizes);
  TypeAttr computeTypeAttr;
  if (!mlirTypeIsNull(computeType))
    computeTypeAttr = TypeAttr::get(unwrap(computeType));
  Value offsetValue = mlirValueIsNull(offset) ? Value() : unwrap(offset);
  auto op = OpTy::create(builder, loc, resultType, unwrap(input), unwrap(scale),
                         offsetValue, builder.getI64IntegerAttr(qmin),
                         builder.getI64IntegerAttr(qmax), blockSizeAttr,
                         computeTypeAttr);
  return wrap(op.getOperation());
}
} // namespace

MlirOperation mlirQuantAffineQuantizeOpCreate(
    MlirLocation location, MlirType resultType, MlirValue input,
    MlirValue scale, MlirValue offset, int64_t qmin, int64_t qmax,
    intptr_t nBlockSizes, const int64_t *blockSizes, MlirType computeType) {
  return createQuantizerOp<QuantizeOp>(location, unwrap(resultType), input,
                                       scale, offset, qmin, qmax, nBlockSizes,
                                       blockSizes, computeType);
}

MlirOperation mlirQuantAffineDequantizeOpCreate(
    MlirLocation location, MlirType resultType, MlirValue input,
    MlirValue scale, MlirValue offset, int64_t qmin, int64_t qmax,
    intptr_t nBlockSizes, const int64_t *blockSizes, MlirType computeType) {
  return createQuantizerOp<DequantizeOp>(location, unwrap(resultType), input,
                                         scale, offset, qmin, qmax, nBlockSizes,
                                         blockSizes, computeType);
}

MlirOperation mlirQuantAffineQDQOpCreate(MlirLocation location, MlirValue input,
                                         MlirValue scale, MlirValue offset,
                                         int64_t qmin, int64_t qmax,
                                         intptr_t nBlockSizes,
                                         const int64_t *blockSizes,
                                         MlirType computeType) {
  return createQuantizerOp<QDQOp>(location, unwrap(input).getType(), input,
                                  scale, offset, qmin, qmax, nBlockSizes,
                                  blockSizes, computeType);
}

MlirOperation mlirQuantAffineFloatQDQOpCreate(
    MlirLocation location, MlirValue input, MlirValue maxval,
    int64_t exponentBits, int64_t mantissaBits, bool finite, bool unsignedZero,
    intptr_t nBlockSizes, const int64_t *blockSizes) {
  Location loc = unwrap(location);
  MLIRContext *context = loc.getContext();
  context->getOrLoadDialect<QuantAffineDialect>();
  OpBuilder builder(context);
  DenseI64ArrayAttr blockSizeAttr =
      blockSizeAttrOf(builder, nBlockSizes, blockSizes);
  Value maxvalValue = mlirValueIsNull(maxval) ? Value() : unwrap(maxval);
  auto op = FloatQDQOp::create(
      builder, loc, unwrap(input).getType(), unwrap(input), maxvalValue,
      exponentBits, mantissaBits, finite, unsignedZero, blockSizeAttr);
  return wrap(op.getOperation());
}

void mlirQuantAffineQuantizerOpSetReciprocal(MlirOperation op, bool value) {
  Operation *operation = unwrap(op);
  operation->setAttr("reciprocal", value
                                       ? UnitAttr::get(operation->getContext())
                                       : Attribute());
}

void mlirQuantAffineQuantizerOpSetFloatZeroPoint(MlirOperation op, bool value) {
  Operation *operation = unwrap(op);
  operation->setAttr("float_zero_point",
                     value ? UnitAttr::get(operation->getContext())
                           : Attribute());
}

bool mlirOperationIsAQuantAffineQuantizeOp(MlirOperation op) {
  return isa<QuantizeOp>(unwrap(op));
}

bool mlirOperationIsAQuantAffineDequantizeOp(MlirOperation op) {
  return isa<DequantizeOp>(unwrap(op));
}

bool mlirOperationIsAQuantAffineQDQOp(MlirOperation op) {
  return isa<QDQOp>(unwrap(op));
}

bool mlirOperationIsAQuantAffineFloatQDQOp(MlirOperation op) {
  return isa<FloatQDQOp>(unwrap(op));
}
