//===- DeduplicateKernels.cpp - one gpu.module per distinct kernel --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernel outlining makes a gpu.module for every launch, so a program that
// repeats a layer (an MLP of identical blocks, a model unrolled over its
// layers) repeats its kernels, each lowered and compiled by the NVPTX back
// end again. A gpu.module that is another one's copy but for the names of
// its kernels (which outlining makes unique) is dropped, and its launches
// go to the copy kept.
//
// Kernel names are the one thing the comparison ignores, so a module in
// which anything names one of its own kernels is left out, and a module
// that device code names stays (that reference is not rewritten).
//
// Modules are bucketed by a hash of everything the comparison looks at (ops,
// types, attributes; not locations, nor kernel names), and a module is
// compared with the first module of each class its hash shares, so the pass
// is linear in the size of the device code.
//
//===----------------------------------------------------------------------===//

#include "KernelModules.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEDEDUPLICATEKERNELSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

constexpr OperationEquivalence::Flags kIgnoreLocations =
    OperationEquivalence::IgnoreLocations;

/// A gpu.func kernel: the one op whose name the comparison ignores.
bool isGPUKernel(Operation *op) {
  auto function = dyn_cast<gpu::GPUFuncOp>(op);
  return function && function.isKernel();
}

/// A kernel's attributes and properties but its name.
DictionaryAttr attributesButName(Operation *kernel) {
  NamedAttrList attributes(kernel->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  return attributes.getDictionary(kernel->getContext());
}

/// A hash of what `isSameOp` compares: each nested op's name, attributes and
/// types, in walk order; the values they use are left to the comparison.
llvm::hash_code hashOp(Operation *op) {
  llvm::hash_code hash =
      isGPUKernel(op)
          ? llvm::hash_combine(op->getName(), attributesButName(op))
          : OperationEquivalence::computeHash(
                op, OperationEquivalence::ignoreHashValue,
                OperationEquivalence::ignoreHashValue, kIgnoreLocations);
  op->walk([&](Operation *nested) {
    if (nested != op)
      hash = llvm::hash_combine(
          hash, OperationEquivalence::computeHash(
                    nested, OperationEquivalence::ignoreHashValue,
                    OperationEquivalence::ignoreHashValue, kIgnoreLocations));
  });
  return hash;
}

llvm::hash_code hashModule(gpu::GPUModuleOp module) {
  llvm::hash_code hash = llvm::hash_value(
      quant_affine::compileAttributes(module).getAsOpaquePointer());
  for (Operation &op : module.getBody()->getOperations())
    hash = llvm::hash_combine(hash, hashOp(&op));
  return hash;
}

/// Whether two ops of gpu.module bodies are the same but for locations, and
/// for their names where both are kernels. Other symbols (helper functions,
/// declarations, globals) keep their names, so a kernel body's references
/// to them mean the same in both modules.
bool isSameOp(Operation *a, Operation *b) {
  if (!isGPUKernel(a) || !isGPUKernel(b))
    return OperationEquivalence::isEquivalentTo(a, b, kIgnoreLocations);
  if (a->getName() != b->getName() || a->getNumOperands() != 0 ||
      b->getNumOperands() != 0 || a->getNumResults() != 0 ||
      b->getNumResults() != 0 || attributesButName(a) != attributesButName(b) ||
      a->getNumRegions() != b->getNumRegions())
    return false;
  for (auto [regionA, regionB] : llvm::zip(a->getRegions(), b->getRegions()))
    if (!OperationEquivalence::isRegionEquivalentTo(&regionA, &regionB,
                                                    kIgnoreLocations))
      return false;
  return true;
}

bool isSameModule(gpu::GPUModuleOp a, gpu::GPUModuleOp b) {
  if (quant_affine::compileAttributes(a) != quant_affine::compileAttributes(b))
    return false;
  Block::OpListType &opsA = a.getBody()->getOperations();
  Block::OpListType &opsB = b.getBody()->getOperations();
  if (opsA.size() != opsB.size())
    return false;
  for (auto [opA, opB] : llvm::zip(opsA, opsB))
    if (!isSameOp(&opA, &opB))
      return false;
  return true;
}

/// Records in `moved` that `duplicate`'s symbols (and itself) are found in
/// `kept`, each under the name of the op at its place there.
void recordMoves(gpu::GPUModuleOp duplicate, gpu::GPUModuleOp kept,
                 DenseMap<SymbolRefAttr, SymbolRefAttr> &moved) {
  StringAttr from = duplicate.getSymNameAttr();
  StringAttr into = kept.getSymNameAttr();
  for (auto [op, keptOp] : llvm::zip(duplicate.getBody()->getOperations(),
                                     kept.getBody()->getOperations())) {
    StringAttr name = SymbolTable::getSymbolName(&op);
    if (!name)
      continue;
    moved[SymbolRefAttr::get(from, {FlatSymbolRefAttr::get(name)})] =
        SymbolRefAttr::get(into, {FlatSymbolRefAttr::get(
                                     SymbolTable::getSymbolName(&keptOp))});
  }
  moved[FlatSymbolRefAttr::get(from)] = FlatSymbolRefAttr::get(into);
}

/// What the device code of `host`'s gpu.modules names: `selfNaming` gets
/// each module in which a reference names one of its own kernels (the
/// comparison ignores kernel names, so such a module is never compared),
/// `named` the first name of every reference (a gpu.module of the host that
/// device code may launch stays). Fails where a module's references cannot
/// be known (an unregistered op that may be a symbol table).
LogicalResult scanDeviceReferences(ModuleOp host,
                                   DenseSet<Operation *> &selfNaming,
                                   DenseSet<StringAttr> &named) {
  for (auto module : host.getBody()->getOps<gpu::GPUModuleOp>()) {
    llvm::SmallDenseSet<StringAttr, 4> kernels;
    for (Operation &op : module.getBody()->getOperations())
      if (isGPUKernel(&op))
        kernels.insert(SymbolTable::getSymbolName(&op));
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return failure();
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr root = use.getSymbolRef().getRootReference();
      if (kernels.contains(root))
        selfNaming.insert(module);
      named.insert(root);
    }
  }
  return success();
}

/// Drops the gpu.modules directly in `host` that copy an earlier one and
/// redirects the host's references to them. Returns whether any was dropped.
bool deduplicateIn(ModuleOp host) {
  DenseSet<Operation *> selfNaming;
  DenseSet<StringAttr> named;
  if (failed(scanDeviceReferences(host, selfNaming, named)))
    return false;
  // The modules kept, by hash (more than one where hashes collide).
  DenseMap<llvm::hash_code, SmallVector<gpu::GPUModuleOp, 1>> kept;
  DenseMap<SymbolRefAttr, SymbolRefAttr> moved;
  for (auto module :
       llvm::make_early_inc_range(host.getBody()->getOps<gpu::GPUModuleOp>())) {
    if (selfNaming.contains(module))
      continue;
    SmallVector<gpu::GPUModuleOp, 1> &candidates = kept[hashModule(module)];
    auto *same = llvm::find_if(candidates, [&](gpu::GPUModuleOp candidate) {
      return isSameModule(candidate, module);
    });
    if (same == candidates.end() || named.contains(module.getSymNameAttr())) {
      candidates.push_back(module);
      continue;
    }
    recordMoves(module, *same, moved);
    module.erase();
  }
  quant_affine::redirectHostReferences(host, moved);
  return !moved.empty();
}

struct QuantAffineDeduplicateKernelsPass
    : quant_affine::impl::QuantAffineDeduplicateKernelsPassBase<
          QuantAffineDeduplicateKernelsPass> {
  void runOnOperation() override {
    // This module's gpu.modules only: a nested module's may be named from
    // outside it (`@inner::@m::@f`), which its own walk would not see.
    if (!deduplicateIn(getOperation()))
      markAllAnalysesPreserved();
  }
};

} // namespace
