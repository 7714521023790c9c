//===- FloatSums.cpp - linalg sums that may be reassociated ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FloatSums.h"

using namespace mlir;

arith::AddFOp mlir::quant_affine::floatSumStep(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Block &body = op->getRegion(0).front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &body)
    return nullptr;
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!out.hasOneUse() || (add.getLhs() != out && add.getRhs() != out))
    return nullptr;
  if (body.walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return nullptr;
  return add;
}
