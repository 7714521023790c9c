//===- FlattenVectors.cpp - an op applied to its vector flattened ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FlattenVectors.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

Value quant_affine::flattenedVectorOp(OpBuilder &b, Location loc, Value input,
                                      function_ref<Value(Value)> apply) {
  auto type = dyn_cast<VectorType>(input.getType());
  if (!type || type.getRank() <= 1)
    return apply(input);
  auto flat = VectorType::get(type.getNumElements(), type.getElementType());
  Value result =
      apply(vector::ShapeCastOp::create(b, loc, flat, input).getResult());
  return vector::ShapeCastOp::create(
      b, loc, type.clone(getElementTypeOrSelf(result.getType())), result);
}
