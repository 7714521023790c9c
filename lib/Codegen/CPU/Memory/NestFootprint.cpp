//===- NestFootprint.cpp - bytes a loop nest moves ------------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/NestFootprint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

Value mlir::quant_affine::rootBuffer(Value memref) {
  while (true) {
    if (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
      memref = view.getViewSource();
    } else if (auto loop = memref.getDefiningOp<scf::ForOp>()) {
      memref = loop.getInitArgs()[cast<OpResult>(memref).getResultNumber()];
    } else if (auto arg = dyn_cast<BlockArgument>(memref);
               arg &&
               isa_and_nonnull<scf::ForOp>(arg.getOwner()->getParentOp()) &&
               arg.getArgNumber() > 0) {
      auto loop = cast<scf::ForOp>(arg.getOwner()->getParentOp());
      memref = loop.getInitArgs()[arg.getArgNumber() - 1];
    } else {
      return memref;
    }
  }
}

std::optional<int64_t> mlir::quant_affine::staticBytes(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  uint64_t elementBytes = llvm::PowerOf2Ceil(
      llvm::divideCeil(type.getElementTypeBitWidth(), uint64_t(8)));
  return type.getNumElements() * static_cast<int64_t>(elementBytes);
}

bool mlir::quant_affine::isLoop(Operation *op) {
  return isa_and_nonnull<LoopLikeOpInterface, omp::LoopNestOp>(op);
}

Operation *mlir::quant_affine::outermostLoop(Operation *op) {
  Operation *nest = op;
  for (Operation *parent = op->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp())
    if (isLoop(parent))
      nest = parent;
  return nest;
}

bool mlir::quant_affine::readsRoot(Operation *op, Value root) {
  return isa<vector::LoadOp, vector::TransferReadOp, vector::MaskedLoadOp,
             vector::GatherOp, memref::LoadOp>(op) &&
         rootBuffer(op->getOperand(0)) == root;
}

/// Whether an op of `op`'s nest outside `op`'s block reads (or, with
/// `writes`, writes) the buffer `buffer` views.
static bool accessedElsewhereInNest(Operation *op, Value buffer, bool writes) {
  Value root = mlir::quant_affine::rootBuffer(buffer);
  Operation *nest = mlir::quant_affine::outermostLoop(op);
  WalkResult result = nest->walk([&](Operation *other) {
    if (other->getBlock() == op->getBlock())
      return WalkResult::advance();
    bool accessed =
        writes
            ? isa<vector::StoreOp, vector::TransferWriteOp,
                  vector::MaskedStoreOp, memref::StoreOp>(other) &&
                  mlir::quant_affine::rootBuffer(other->getOperand(1)) == root
            : mlir::quant_affine::readsRoot(other, root);
    return accessed ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool mlir::quant_affine::readBackInNest(Operation *store, Value storedBuffer) {
  return accessedElsewhereInNest(store, storedBuffer, /*writes=*/false);
}

bool mlir::quant_affine::producedInNest(Operation *load, Value loadedBuffer) {
  return accessedElsewhereInNest(load, loadedBuffer, /*writes=*/true);
}

int64_t mlir::quant_affine::nestFootprintBytes(
    Operation *op, llvm::DenseMap<Operation *, int64_t> &cache) {
  Operation *nest = outermostLoop(op);
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
