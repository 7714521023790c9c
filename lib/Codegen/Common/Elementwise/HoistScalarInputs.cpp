//===- HoistScalarInputs.cpp - 0-D inputs read once, as scalars -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One-Shot Analysis costs the square of the number of ops that read one
// tensor; a per-tensor scale is read by every fused generic of a chain. Each
// 0-D input of an elementwise generic becomes one tensor.extract, where the
// tensor is defined, that the generics capture (Passes.td has the numbers).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEHOISTSCALARINPUTSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The closest op around `region` that is isolated from above.
Operation *isolatedScope(Region *region) {
  Operation *op = region->getParentOp();
  return op->hasTrait<OpTrait::IsIsolatedFromAbove>()
             ? op
             : op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
}

/// The inputs of `generic` that may become captured scalars: 0-D tensors
/// defined in the generic's isolated-from-above scope.
SmallVector<OpOperand *> scalarInputs(linalg::GenericOp generic) {
  SmallVector<OpOperand *> scalars;
  if (!generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return scalars;
  Operation *scope = isolatedScope(&generic.getRegion());
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (type && type.getRank() == 0 &&
        isolatedScope(input->get().getParentRegion()) == scope)
      scalars.push_back(input);
  }
  return scalars;
}

/// The element of `tensor` for `generic`: extracted right before the
/// generic with `beforeEachUser`, else once, right after its definition.
Value extractFor(RewriterBase &rewriter, linalg::GenericOp generic,
                 Value tensor, bool beforeEachUser,
                 DenseMap<Value, Value> &extracted) {
  OpBuilder::InsertionGuard guard(rewriter);
  if (beforeEachUser) {
    rewriter.setInsertionPoint(generic);
    return tensor::ExtractOp::create(rewriter, tensor.getLoc(), tensor,
                                     ValueRange());
  }
  Value &element = extracted[tensor];
  if (element)
    return element;
  if (Operation *def = tensor.getDefiningOp())
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointToStart(tensor.getParentBlock());
  element = tensor::ExtractOp::create(rewriter, tensor.getLoc(), tensor,
                                      ValueRange());
  return element;
}

/// Drops the inputs `scalars` of `generic`, in place (its results, which
/// later generics may use as 0-D inputs, stay the same values); their block
/// arguments become the captured elements.
void captureScalars(RewriterBase &rewriter, linalg::GenericOp generic,
                    ArrayRef<OpOperand *> scalars, bool beforeEachUser,
                    DenseMap<Value, Value> &extracted) {
  Block &body = generic.getRegion().front();
  llvm::BitVector erased(body.getNumArguments());
  SmallVector<unsigned> inputPositions;
  for (OpOperand *input : scalars) {
    BlockArgument argument = generic.getMatchingBlockArgument(input);
    rewriter.replaceAllUsesWith(
        argument,
        extractFor(rewriter, generic, input->get(), beforeEachUser, extracted));
    erased.set(argument.getArgNumber());
    inputPositions.push_back(argument.getArgNumber());
  }
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : generic->getOpOperands())
    if (!llvm::is_contained(scalars, &operand))
      maps.push_back(generic.getMatchingIndexingMap(&operand));
  rewriter.modifyOpInPlace(generic, [&] {
    // Inputs come first, in block-argument order: erase from the back.
    llvm::sort(inputPositions, std::greater<unsigned>());
    for (unsigned position : inputPositions)
      generic.getInputsMutable().erase(position);
    generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    body.eraseArguments(erased);
  });
}

struct QuantAffineHoistScalarInputsPass
    : quant_affine::impl::QuantAffineHoistScalarInputsPassBase<
          QuantAffineHoistScalarInputsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<OpOperand *>>> work;
    getOperation().walk([&](linalg::GenericOp generic) {
      SmallVector<OpOperand *> scalars = scalarInputs(generic);
      if (!scalars.empty())
        work.emplace_back(generic, std::move(scalars));
    });
    if (work.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    IRRewriter rewriter(&getContext());
    DenseMap<Value, Value> extracted;
    for (auto &[generic, scalars] : work)
      captureScalars(rewriter, generic, scalars, beforeEachUser, extracted);
  }
};

} // namespace
