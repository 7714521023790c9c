//===- NestFootprint.cpp - bytes a loop nest moves ------------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/NestFootprint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

Value mlir::quant_affine::rootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

std::optional<int64_t> mlir::quant_affine::staticBytes(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  uint64_t elementBytes = llvm::PowerOf2Ceil(
      llvm::divideCeil(type.getElementTypeBitWidth(), uint64_t(8)));
  return type.getNumElements() * static_cast<int64_t>(elementBytes);
}

int64_t mlir::quant_affine::nestFootprintBytes(
    Operation *op, llvm::DenseMap<Operation *, int64_t> &cache) {
  Operation *nest = op;
  for (Operation *parent = op->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      nest = parent;
  auto [it, inserted] = cache.try_emplace(nest, 0);
  if (inserted) {
    llvm::SetVector<Value> buffers;
    nest->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (isa<MemRefType>(operand.getType()))
          buffers.insert(rootBuffer(operand));
    });
    for (Value buffer : buffers)
      it->second += staticBytes(buffer).value_or(0);
  }
  return it->second;
}
