//===- ScalarizeAccesses.cpp - vector memory accesses element by element --===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/ScalarizeAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

/// Unrolls a vector access of `vectorType` at `indices` of `memref` into one
/// scalar access per element. `dimOf(j)` is the memref dim that vector dim j
/// moves along (none for a broadcast dim), `inBounds(j)` whether that dim is
/// known in bounds, and `maskBit(position)` the i1 that enables the element
/// at `position` (null: enabled). `access` emits the access of the element at
/// `position` and memref `indices`, under `enabled` (null: unconditional).
void unrollAccess(
    OpBuilder &b, Location loc, Value memref, ValueRange indices,
    VectorType vectorType,
    function_ref<std::optional<unsigned>(unsigned)> dimOf,
    function_ref<bool(unsigned)> inBounds,
    function_ref<Value(ArrayRef<int64_t>)> maskBit,
    function_ref<void(ArrayRef<int64_t>, ValueRange, Value)> access) {
  ArrayRef<int64_t> shape = vectorType.getShape();
  SmallVector<int64_t> strides = computeSuffixProduct(shape);
  for (int64_t linear = 0, e = vectorType.getNumElements(); linear < e;
       ++linear) {
    SmallVector<int64_t> position =
        shape.empty() ? SmallVector<int64_t>() : delinearize(linear, strides);
    SmallVector<Value> at(indices.begin(), indices.end());
    Value enabled = maskBit(position);
    auto conjoin = [&](Value condition) {
      enabled = enabled ? arith::AndIOp::create(b, loc, enabled, condition)
                        : condition;
    };
    for (unsigned j = 0; j < shape.size(); ++j) {
      std::optional<unsigned> dim = dimOf(j);
      if (!dim)
        continue;
      if (position[j] != 0)
        at[*dim] = arith::AddIOp::create(
            b, loc, at[*dim],
            arith::ConstantIndexOp::create(b, loc, position[j]));
      if (!inBounds(j)) {
        Value size = memref::DimOp::create(b, loc, memref, *dim);
        conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      at[*dim], size));
      }
    }
    access(position, at, enabled);
  }
}

/// The memref dim that each vector dim of `transfer` moves along.
std::optional<unsigned> transferDim(VectorTransferOpInterface transfer,
                                    unsigned j) {
  if (auto dim =
          dyn_cast<AffineDimExpr>(transfer.getPermutationMap().getResult(j)))
    return dim.getPosition();
  return std::nullopt;
}

/// The bit of `transfer`'s mask that enables the element at `position`: the
/// mask has one dim per memref dim the transfer moves along, in memref order.
Value transferMaskBit(OpBuilder &b, Location loc,
                      VectorTransferOpInterface transfer,
                      ArrayRef<int64_t> position) {
  Value mask = transfer.getMask();
  if (!mask)
    return {};
  AffineMap map = transfer.getPermutationMap();
  SmallVector<int64_t> maskPosition;
  for (unsigned dim = 0; dim < map.getNumDims(); ++dim)
    for (unsigned j = 0; j < map.getNumResults(); ++j)
      if (map.getResult(j) == getAffineDimExpr(dim, b.getContext()))
        maskPosition.push_back(position[j]);
  return vector::ExtractOp::create(b, loc, mask, maskPosition);
}

/// Emits `then` under `condition` (unconditionally when null); a read yields
/// `otherwise` where disabled.
Value guarded(OpBuilder &b, Location loc, Value condition, Type type,
              function_ref<Value(OpBuilder &)> then, Value otherwise = {}) {
  if (!condition)
    return then(b);
  if (!type) {
    auto branch = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
    OpBuilder inner = OpBuilder::atBlockTerminator(branch.thenBlock());
    then(inner);
    return {};
  }
  auto branch = scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &inner, Location l) {
        scf::YieldOp::create(inner, l, then(inner));
      },
      [&](OpBuilder &inner, Location l) {
        scf::YieldOp::create(inner, l, otherwise);
      });
  return branch.getResult(0);
}

} // namespace

bool quant_affine::scalarizeVectorAccesses(
    Operation *root,
    function_ref<bool(Operation *, VectorType, Value)> needsScalar) {
  SmallVector<Operation *> accesses;
  root->walk([&](Operation *op) {
    VectorType type;
    Value base;
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      type = read.getVectorType();
      base = read.getBase();
      // A padding that is itself a vector (vectors of vectors) is left alone.
      if (isa<VectorType>(read.getPadding().getType()))
        return;
    } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
      type = write.getVectorType();
      base = write.getBase();
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      type = load.getVectorType();
      base = load.getBase();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      type = store.getVectorType();
      base = store.getBase();
    } else if (auto load = dyn_cast<vector::MaskedLoadOp>(op)) {
      type = load.getVectorType();
      base = load.getBase();
    } else if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
      type = store.getVectorType();
      base = store.getBase();
    } else {
      return;
    }
    if (isa<MemRefType>(base.getType()) && needsScalar(op, type, base))
      accesses.push_back(op);
  });

  for (Operation *op : accesses) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto noMask = [](ArrayRef<int64_t>) { return Value(); };
    // Vector dims of a load or store move along the trailing memref dims.
    auto trailingDims = [](Value memref, VectorType type) {
      unsigned offset =
          cast<MemRefType>(memref.getType()).getRank() - type.getRank();
      return [offset](unsigned j) -> std::optional<unsigned> {
        return offset + j;
      };
    };
    auto maskedBit = [&](Value mask) {
      return [&b, loc, mask](ArrayRef<int64_t> position) -> Value {
        return vector::ExtractOp::create(b, loc, mask, position);
      };
    };
    auto allInBounds = [](unsigned) { return true; };
    // Builds a read of `type` from one scalar load per element.
    auto read = [&](Value memref, ValueRange indices, VectorType type,
                    function_ref<std::optional<unsigned>(unsigned)> dimOf,
                    function_ref<bool(unsigned)> inBounds,
                    function_ref<Value(ArrayRef<int64_t>)> maskBit,
                    function_ref<Value(ArrayRef<int64_t>)> otherwise) {
      Value result =
          arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      unrollAccess(
          b, loc, memref, indices, type, dimOf, inBounds, maskBit,
          [&](ArrayRef<int64_t> position, ValueRange at, Value enabled) {
            Value element = guarded(
                b, loc, enabled, type.getElementType(),
                [&](OpBuilder &inner) -> Value {
                  return memref::LoadOp::create(inner, loc, memref, at);
                },
                enabled ? otherwise(position) : Value());
            result =
                vector::InsertOp::create(b, loc, element, result, position);
          });
      op->getResult(0).replaceAllUsesWith(result);
    };
    // Writes `vector` by one scalar store per element.
    auto write = [&](Value vector, Value memref, ValueRange indices,
                     function_ref<std::optional<unsigned>(unsigned)> dimOf,
                     function_ref<bool(unsigned)> inBounds,
                     function_ref<Value(ArrayRef<int64_t>)> maskBit) {
      auto type = cast<VectorType>(vector.getType());
      unrollAccess(
          b, loc, memref, indices, type, dimOf, inBounds, maskBit,
          [&](ArrayRef<int64_t> position, ValueRange at, Value enabled) {
            Value element = vector::ExtractOp::create(b, loc, vector, position);
            guarded(b, loc, enabled, Type(), [&](OpBuilder &inner) -> Value {
              memref::StoreOp::create(inner, loc, element, memref, at);
              return {};
            });
          });
    };

    if (auto xfer = dyn_cast<vector::TransferReadOp>(op)) {
      auto transfer = cast<VectorTransferOpInterface>(op);
      read(
          xfer.getBase(), xfer.getIndices(), xfer.getVectorType(),
          [&](unsigned j) { return transferDim(transfer, j); },
          [&](unsigned j) { return xfer.isDimInBounds(j); },
          [&](ArrayRef<int64_t> position) {
            return transferMaskBit(b, loc, transfer, position);
          },
          [&](ArrayRef<int64_t>) { return xfer.getPadding(); });
    } else if (auto xfer = dyn_cast<vector::TransferWriteOp>(op)) {
      auto transfer = cast<VectorTransferOpInterface>(op);
      write(
          xfer.getVector(), xfer.getBase(), xfer.getIndices(),
          [&](unsigned j) { return transferDim(transfer, j); },
          [&](unsigned j) { return xfer.isDimInBounds(j); },
          [&](ArrayRef<int64_t> position) {
            return transferMaskBit(b, loc, transfer, position);
          });
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      read(load.getBase(), load.getIndices(), load.getVectorType(),
           trailingDims(load.getBase(), load.getVectorType()), allInBounds,
           noMask, [](ArrayRef<int64_t>) { return Value(); });
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      write(store.getValueToStore(), store.getBase(), store.getIndices(),
            trailingDims(store.getBase(), store.getVectorType()), allInBounds,
            noMask);
    } else if (auto load = dyn_cast<vector::MaskedLoadOp>(op)) {
      read(load.getBase(), load.getIndices(), load.getVectorType(),
           trailingDims(load.getBase(), load.getVectorType()), allInBounds,
           maskedBit(load.getMask()), [&](ArrayRef<int64_t> position) {
             return vector::ExtractOp::create(b, loc, load.getPassThru(),
                                              position)
                 .getResult();
           });
    } else if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
      write(store.getValueToStore(), store.getBase(), store.getIndices(),
            trailingDims(store.getBase(), store.getVectorType()), allInBounds,
            maskedBit(store.getMask()));
    }
    op->erase();
  }
  return !accesses.empty();
}
