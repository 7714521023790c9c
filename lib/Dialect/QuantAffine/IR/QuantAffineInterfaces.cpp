//===- QuantAffineInterfaces.cpp - QuantizerOpInterface -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

using namespace mlir;
using namespace mlir::quant_affine;

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineInterfaces.cpp.inc"

QuantizerOpInterface QuantizerOpInterface::cloneWith(OpBuilder &builder,
                                                     Value input, Value scale,
                                                     Value offset,
                                                     Type resultType) {
  // A clone keeps every property and attribute, present and future.
  Operation *copy = builder.clone(*getOperation());
  SmallVector<Value, 3> operands = {input, scale};
  if (offset)
    operands.push_back(offset);
  copy->setOperands(operands);
  copy->getResult(0).setType(resultType);
  return cast<QuantizerOpInterface>(copy);
}
