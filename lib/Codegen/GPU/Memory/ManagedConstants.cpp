//===- ManagedConstants.cpp - module constants kernels can read -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferization turns constant tensors into memref.global ops, which lower
// to host memory: a kernel that reads one (directly, or through a function
// the constant is passed to) dereferences a host pointer. Each host
// memref.get_global of a constant global instead yields a managed copy of
// it (gpu.alloc host_shared), made the first time the program gets there and
// kept for the rest of the run in a pointer slot of its own, so every
// kernel and the host (which may print a returned constant) can read it.
//
// MLIR has no op that makes a memref from a stored pointer: the slot is an
// llvm.mlir.global, and the memref is built from its descriptor, which
// finalize-memref-to-llvm takes as it is (the cast pair reconciles).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMANAGEDCONSTANTSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The LLVM descriptor of `type` (static shape, identity layout) whose
/// allocated and aligned pointers are `pointer`, as the memref.
Value memrefAt(OpBuilder &b, Location loc, MemRefType type, Value pointer) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(context);
  int64_t rank = type.getRank();
  SmallVector<Type> fields = {ptr, ptr, i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto descriptorType = LLVM::LLVMStructType::getLiteral(context, fields);
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor =
        LLVM::InsertValueOp::create(b, loc, descriptor, value, position);
  };
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  insert(pointer, {0});
  insert(pointer, {1});
  insert(constant(0), {2});
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  for (int64_t d = 0; d < rank; ++d) {
    insert(constant(type.getDimSize(d)), {3, d});
    insert(constant(strides[d]), {4, d});
  }
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}

struct QuantAffineManagedConstantsPass
    : quant_affine::impl::QuantAffineManagedConstantsPassBase<
          QuantAffineManagedConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<memref::GetGlobalOp> gets;
    module.walk([&](memref::GetGlobalOp get) {
      auto global =
          symbols.lookup<memref::GlobalOp>(get.getNameAttr().getValue());
      auto type = cast<MemRefType>(get.getType());
      if (quant_affine::isHostCode(get) && global && global.getConstant() &&
          type.hasStaticShape() && type.getLayout().isIdentity())
        gets.push_back(get);
    });
    if (gets.empty())
      return markAllAnalysesPreserved();
    MLIRContext *context = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(context);
    DenseMap<StringAttr, LLVM::GlobalOp> slots;
    auto slotFor = [&](memref::GetGlobalOp get) {
      StringAttr name = get.getNameAttr().getAttr();
      if (LLVM::GlobalOp slot = slots.lookup(name))
        return slot;
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      Location loc = get.getLoc();
      auto slot = LLVM::GlobalOp::create(
          b, loc, ptr, /*isConstant=*/false, LLVM::Linkage::Internal,
          ("__quant_affine_managed_" + name.getValue()).str(), Attribute());
      Block *init = b.createBlock(&slot.getInitializerRegion());
      b.setInsertionPointToStart(init);
      LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr));
      symbols.insert(slot);
      slots[name] = slot;
      return slot;
    };
    for (memref::GetGlobalOp get : gets) {
      LLVM::GlobalOp slot = slotFor(get);
      auto type = cast<MemRefType>(get.getType());
      OpBuilder b(get);
      Location loc = get.getLoc();
      Value address = LLVM::AddressOfOp::create(b, loc, slot);
      Value stored = LLVM::LoadOp::create(b, loc, ptr, address);
      Value missing =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, stored,
                               LLVM::ZeroOp::create(b, loc, ptr));
      auto ifMissing = scf::IfOp::create(
          b, loc, missing,
          [&](OpBuilder &b, Location loc) {
            // The first time: a managed copy of the constant, kept.
            Value copy =
                gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                                     /*asyncDependencies=*/ValueRange(),
                                     /*dynamicSizes=*/ValueRange(),
                                     /*symbolOperands=*/ValueRange(),
                                     /*hostShared=*/true)
                    .getMemref();
            Value original =
                memref::GetGlobalOp::create(b, loc, type, get.getNameAttr());
            memref::CopyOp::create(b, loc, original, copy);
            Value address =
                memref::ExtractAlignedPointerAsIndexOp::create(b, loc, copy);
            Value address64 =
                arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
            Value pointer = LLVM::IntToPtrOp::create(b, loc, ptr, address64);
            LLVM::StoreOp::create(b, loc, pointer,
                                  LLVM::AddressOfOp::create(b, loc, slot));
            scf::YieldOp::create(b, loc, pointer);
          },
          [&](OpBuilder &b, Location loc) {
            scf::YieldOp::create(b, loc, stored);
          });
      get.replaceAllUsesWith(memrefAt(b, loc, type, ifMissing.getResult(0)));
      get.erase();
    }
  }
};

} // namespace
