//===- UniformReads.cpp - transfer reads of one element into every lane ---===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/UniformReads.h"

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
