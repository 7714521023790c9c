//===- CarryBF16AsI16.cpp - bf16 values in LLVM IR carried as i16 ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// By the end of the CPU pipeline no bf16 arithmetic is left (it is emulated
// in f32 and rounded in integer arithmetic), but bf16 *values* still move:
// loads, stores, vector inserts and shuffles, phis. The x86 backend keeps a
// bf16 that lives across basic blocks (every value at -O0, phis at any level)
// in an f32 register and rounds it back where it is used. With AVX512-BF16
// or AVX-NE-CONVERT that rounding is VCVTNEPS2BF16, which flushes subnormals
// to zero (llvm/llvm-project#221052), so a subnormal bf16 scale read before
// a branch became 0 under mlir-runner's default -O0.
//
// This pass retypes every op that only moves bits (and every phi) from bf16
// to i16, element types and aggregates included, so no bf16 value is left to
// be rounded. Ops that really take or make bf16 (calls, returns, anything
// not listed below) keep their types: a bitcast next to them converts, in
// the same block. Function signatures keep bf16 so the ABI is unchanged.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECARRYBF16ASI16PASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// `type` with every bf16 in it replaced by i16, or null when it has none.
Type carrierType(Type type) {
  MLIRContext *context = type.getContext();
  if (type.isBF16())
    return IntegerType::get(context, 16);
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = carrierType(vector.getElementType());
    return element ? vector.clone(element) : Type();
  }
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    Type element = carrierType(array.getElementType());
    return element ? LLVM::LLVMArrayType::get(element, array.getNumElements())
                   : Type();
  }
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structType.isIdentified())
      return {};
    bool changed = false;
    SmallVector<Type> body;
    for (Type member : structType.getBody()) {
      Type converted = carrierType(member);
      changed |= static_cast<bool>(converted);
      body.push_back(converted ? converted : member);
    }
    return changed ? LLVM::LLVMStructType::getLiteral(context, body,
                                                      structType.isPacked())
                   : Type();
  }
  return {};
}

/// The constant's value with bf16 elements reinterpreted as i16, or null.
Attribute carrierAttr(Attribute value) {
  MLIRContext *context = value.getContext();
  auto i16 = IntegerType::get(context, 16);
  if (auto fp = dyn_cast<FloatAttr>(value)) {
    if (!fp.getType().isBF16())
      return {};
    return IntegerAttr::get(i16, fp.getValue().bitcastToAPInt());
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (!dense.getElementType().isBF16())
      return {};
    return dense.bitcast(i16);
  }
  return {};
}

/// Ops that only move bits: their bf16 operands and results can be i16.
bool onlyMovesBits(Operation *op) {
  if (auto constant = dyn_cast<LLVM::ConstantOp>(op))
    return !carrierType(constant.getType()) ||
           static_cast<bool>(carrierAttr(constant.getValue()));
  if (auto select = dyn_cast<LLVM::SelectOp>(op))
    return select.getFastmathFlags() == LLVM::FastmathFlags::none;
  return isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MaskedLoadOp,
             LLVM::MaskedStoreOp, LLVM::masked_gather, LLVM::masked_scatter,
             LLVM::ExtractElementOp, LLVM::InsertElementOp,
             LLVM::ShuffleVectorOp, LLVM::ExtractValueOp, LLVM::InsertValueOp,
             LLVM::BitcastOp, LLVM::FreezeOp, LLVM::PoisonOp, LLVM::UndefOp,
             LLVM::ZeroOp, LLVM::BrOp, LLVM::CondBrOp, LLVM::SwitchOp>(op);
}

/// A bitcast of `value` to `type` right after `value` is defined.
Value castAfterDef(OpBuilder &builder, Value value, Type type) {
  builder.setInsertionPointAfterValue(value);
  return LLVM::BitcastOp::create(builder, value.getLoc(), type, value);
}

struct CarryBF16AsI16Pass
    : quant_affine::impl::QuantAffineCarryBF16AsI16PassBase<
          CarryBF16AsI16Pass> {
  /// Whether some value in `func` has bf16 in its type: most have none.
  static bool carriesBF16(LLVM::LLVMFuncOp func) {
    auto carried = [](Value value) {
      return static_cast<bool>(carrierType(value.getType()));
    };
    return func
        .walk([&](Block *block) {
          if (llvm::any_of(block->getArguments(), carried))
            return WalkResult::interrupt();
          for (Operation &op : *block)
            if (llvm::any_of(op.getResults(), carried))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

  void runOnOperation() override {
    LLVM::LLVMFuncOp func = getOperation();
    if (func.isExternal() || !carriesBF16(func))
      return markAllAnalysesPreserved();
    OpBuilder builder(&getContext());

    // 1. Where a value crosses from an op that keeps bf16 to one that is
    //    retyped (or back), a bitcast in the defining block does the move.
    //    Both casts start as bf16 -> bf16 and get their i16 side in step 2.
    SmallVector<Operation *> keeps, moves;
    func.walk([&](Operation *op) {
      if (op != func)
        (onlyMovesBits(op) ? moves : keeps).push_back(op);
    });
    // Aggregates cannot be bitcast: leave such rare functions as they are.
    auto isAggregateWithBF16 = [](Type type) {
      return carrierType(type) && !isa<VectorType>(type) && !type.isBF16();
    };
    for (Operation *op : keeps)
      if (llvm::any_of(op->getOperandTypes(), isAggregateWithBF16) ||
          llvm::any_of(op->getResultTypes(), isAggregateWithBF16))
        return;
    if (llvm::any_of(func.getArgumentTypes(), isAggregateWithBF16))
      return;
    SmallVector<Value> bf16Sources;
    for (BlockArgument arg : func.getBody().front().getArguments())
      bf16Sources.push_back(arg);
    for (Operation *op : keeps)
      llvm::append_range(bf16Sources, op->getResults());
    SmallVector<Operation *> sourceCasts;
    for (Value source : bf16Sources) {
      Type carrier = carrierType(source.getType());
      if (!carrier || source.use_empty())
        continue;
      Value cast = castAfterDef(builder, source, source.getType());
      source.replaceAllUsesExcept(cast, cast.getDefiningOp());
      sourceCasts.push_back(cast.getDefiningOp());
    }
    for (Operation *op : keeps) {
      for (OpOperand &operand : op->getOpOperands()) {
        Type type = operand.get().getType();
        if (!carrierType(type))
          continue;
        builder.setInsertionPoint(op);
        operand.set(LLVM::BitcastOp::create(builder, op->getLoc(), type,
                                            operand.get()));
      }
    }

    // 2. Retype: phis, bit-moving ops, and the i16 side of each cast.
    func.walk([&](Block *block) {
      if (block->isEntryBlock())
        return;
      for (BlockArgument arg : block->getArguments())
        if (Type carrier = carrierType(arg.getType()))
          arg.setType(carrier);
    });
    for (Operation *op : moves) {
      if (auto constant = dyn_cast<LLVM::ConstantOp>(op))
        if (Attribute value = carrierAttr(constant.getValue()))
          constant.setValueAttr(value);
      for (OpResult result : op->getResults())
        if (Type carrier = carrierType(result.getType()))
          result.setType(carrier);
    }
    for (Operation *cast : sourceCasts)
      cast->getResult(0).setType(carrierType(cast->getResult(0).getType()));

    // 3. Casts between equal types are gone.
    func.walk([&](LLVM::BitcastOp cast) {
      if (cast.getArg().getType() != cast.getType())
        return;
      cast.replaceAllUsesWith(cast.getArg());
      cast.erase();
    });
  }
};

} // namespace
