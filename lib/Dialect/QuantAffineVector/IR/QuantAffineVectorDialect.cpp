//===- QuantAffineVectorDialect.cpp - quant_affine_vector dialect ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVector.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::quant_affine_vector;

#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorOpsDialect.cpp.inc"

void QuantAffineVectorDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LookupOp
//===----------------------------------------------------------------------===//

LogicalResult LookupOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         LookupOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto table = dyn_cast<VectorType>(adaptor.getTable().getType());
  auto indices = dyn_cast<VectorType>(adaptor.getIndices().getType());
  if (!table || !indices)
    return failure(); // the operand constraints report it
  inferred.push_back(indices.clone(table.getElementType()));
  return success();
}

LogicalResult LookupOp::verify() {
  // Scalable lanes have no lowering here: the permute intrinsics and the
  // per-lane extracts both need the lanes counted.
  if (getTable().getType().isScalable() || getIndices().getType().isScalable())
    return emitOpError("needs fixed-length vectors, got ")
           << getTable().getType() << " and " << getIndices().getType();
  return success();
}

#define GET_OP_CLASSES
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorOps.cpp.inc"
