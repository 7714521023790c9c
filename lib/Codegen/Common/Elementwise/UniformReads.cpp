//===- UniformReads.cpp - one value in every lane ------------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/UniformReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

bool quant_affine::readsOneElement(vector::TransferReadOp read) {
  VectorType type = read.getVectorType();
  if (read.getMask() || type.isScalable())
    return false;
  AffineMap map = read.getPermutationMap();
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    auto constant = dyn_cast<AffineConstantExpr>(map.getResult(dim));
    if (size != 1 && !(constant && constant.getValue() == 0))
      return false;
  }
  return true;
}

bool quant_affine::isSplatConstant(Value v) {
  Attribute attr;
  auto dense = matchPattern(v, m_Constant(&attr))
                   ? dyn_cast<DenseElementsAttr>(attr)
                   : DenseElementsAttr();
  return dense && dense.isSplat();
}

Value quant_affine::broadcastScalar(Value v) {
  auto broadcast = v.getDefiningOp<vector::BroadcastOp>();
  return broadcast && !isa<VectorType>(broadcast.getSourceType())
             ? broadcast.getSource()
             : Value();
}

Value quant_affine::oneValueAs(OpBuilder &b, Location loc, Value v,
                               VectorType shape) {
  VectorType type = shape.clone(getElementTypeOrSelf(v));
  if (Value scalar = broadcastScalar(v))
    return vector::BroadcastOp::create(b, loc, type, scalar);
  Attribute attr;
  (void)matchPattern(v, m_Constant(&attr));
  return arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(
          type, cast<DenseElementsAttr>(attr).getSplatValue<Attribute>()));
}
