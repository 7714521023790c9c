//===- MergeKernelModules.cpp - one gpu.module for a module's kernels -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernel outlining makes one gpu.module per kernel, and every gpu.module is
// then translated, linked with libdevice and compiled on its own: a fixed
// cost per kernel. The kernels of a module go into one gpu.module instead
// (one for each set of compile attributes), so that cost is paid once.
//
//===----------------------------------------------------------------------===//

#include "KernelModules.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMERGEKERNELMODULESPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using quant_affine::compileAttributes;
using quant_affine::isKernel;

namespace {

/// Whether `a` and `b` are the same declaration or bodiless global (equal
/// but for their locations; no region holds anything).
bool isSameBodilessSymbol(Operation *a, Operation *b) {
  auto bodiless = [](Operation *op) {
    return llvm::all_of(op->getRegions(),
                        [](Region &region) { return region.empty(); });
  };
  return bodiless(a) && bodiless(b) &&
         OperationEquivalence::isEquivalentTo(
             a, b, OperationEquivalence::IgnoreLocations);
}

/// A gpu.module that others are merged into, with its symbol table.
struct MergedModule {
  DictionaryAttr attributes;
  gpu::GPUModuleOp module;
  std::unique_ptr<SymbolTable> symbols;
  /// Whether the module has taken its merged name yet.
  bool named = false;
  /// How many gpu.modules it holds the contents of.
  int64_t merges = 1;
};

/// Records in `moved` that every symbol of `module` (and the module itself)
/// is now found in `into`, under `newNames` where given.
void recordMoves(gpu::GPUModuleOp module, StringAttr into,
                 const DenseMap<StringAttr, StringAttr> &newNames,
                 DenseMap<SymbolRefAttr, SymbolRefAttr> &moved) {
  StringAttr from = module.getSymNameAttr();
  for (Operation &op : module.getBody()->getOperations()) {
    StringAttr name = SymbolTable::getSymbolName(&op);
    if (!name)
      continue;
    StringAttr newName = newNames.lookup(name);
    moved[SymbolRefAttr::get(from, {FlatSymbolRefAttr::get(name)})] =
        SymbolRefAttr::get(into,
                           {FlatSymbolRefAttr::get(newName ? newName : name)});
  }
  moved[FlatSymbolRefAttr::get(from)] = FlatSymbolRefAttr::get(into);
}

/// Merges the gpu.modules directly in `host`, recording in `moved` the new
/// reference of each symbol of a merged module (and of the module itself),
/// and moves them to its top. Sets `reordered` if a module moved.
LogicalResult mergeKernelModules(ModuleOp host, int64_t maxModules,
                                 DenseMap<SymbolRefAttr, SymbolRefAttr> &moved,
                                 bool &reordered) {
  MLIRContext *context = host.getContext();
  // Names taken in the host, for the merged modules' names.
  llvm::DenseSet<StringAttr> hostNames;
  for (Operation &op : host.getBody()->getOperations())
    if (StringAttr name = SymbolTable::getSymbolName(&op))
      hostNames.insert(name);
  auto freshHostName = [&]() {
    StringAttr name = StringAttr::get(context, "kernels");
    unsigned counter = 0;
    if (hostNames.count(name))
      name = StringAttr::get(context,
                             SymbolTable::generateSymbolName<16>(
                                 "kernels",
                                 [&](StringRef candidate) {
                                   return hostNames.count(
                                       StringAttr::get(context, candidate));
                                 },
                                 counter));
    hostNames.insert(name);
    return name;
  };

  SmallVector<MergedModule> merged;
  for (auto module :
       llvm::make_early_inc_range(host.getBody()->getOps<gpu::GPUModuleOp>())) {
    DictionaryAttr attributes = compileAttributes(module);
    auto *into = llvm::find_if(merged, [&](const MergedModule &candidate) {
      return candidate.attributes == attributes &&
             (maxModules == 0 || candidate.merges < maxModules);
    });
    if (into == merged.end()) {
      merged.push_back(
          {attributes, module, std::make_unique<SymbolTable>(module)});
      continue;
    }
    // A module that holds the kernels of several is named for all of them.
    if (!into->named) {
      StringAttr name = freshHostName();
      recordMoves(into->module, name, DenseMap<StringAttr, StringAttr>(),
                  moved);
      into->module.setSymName(name);
      into->named = true;
    }

    StringAttr fromName = module.getSymNameAttr();
    SymbolTable fromSymbols(module);
    // Symbols whose names are taken get new ones, free in both modules,
    // before they move; SymbolTable::rename makes the references inside
    // this module follow. Declarations and bodiless globals the merged module
    // has already, the same, are kept once (a renamed declaration would
    // resolve to nothing).
    DenseMap<StringAttr, StringAttr> renamed;
    llvm::StringSet<> newNames;
    llvm::SmallPtrSet<Operation *, 4> duplicates;
    for (Operation &op : module.getBody()->getOperations()) {
      StringAttr name = SymbolTable::getSymbolName(&op);
      if (!name)
        continue;
      Operation *existing = into->symbols->lookup(name);
      if (!existing)
        continue;
      if (isSameBodilessSymbol(existing, &op)) {
        duplicates.insert(&op);
        continue;
      }
      auto isTaken = [&](StringRef candidate) {
        return into->symbols->lookup(candidate) ||
               fromSymbols.lookup(candidate) || newNames.contains(candidate);
      };
      StringAttr newName = fromName;
      if (!isKernel(&op) || isTaken(fromName)) {
        unsigned counter = 0;
        newName =
            StringAttr::get(context, SymbolTable::generateSymbolName<64>(
                                         name.getValue(), isTaken, counter));
      }
      newNames.insert(newName);
      renamed[name] = newName;
    }
    recordMoves(module, into->module.getSymNameAttr(), renamed, moved);
    for (auto [name, newName] : renamed)
      if (failed(fromSymbols.rename(name, newName)))
        return emitError(fromSymbols.lookup(name)->getLoc())
               << "cannot rename @" << name.getValue()
               << " to merge its gpu.module: not all of its uses are known";

    for (Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations())) {
      if (duplicates.contains(&op))
        continue;
      op.remove();
      into->module.getBody()->push_back(&op);
      if (SymbolTable::getSymbolName(&op))
        into->symbols->insert(&op);
    }
    module.erase();
    ++into->merges;
  }
  // The kernel modules (merged or not) go to the top of the host, in order:
  // the GPU dialect's verifier of a container module looks each launch's
  // module up by a scan of the host from its top, after every pass.
  reordered = false;
  Block *body = host.getBody();
  Block::iterator insertion = body->begin();
  for (MergedModule &module : merged) {
    if (Block::iterator(module.module) == insertion) {
      ++insertion;
      continue;
    }
    module.module->moveBefore(body, insertion);
    reordered = true;
  }
  return success();
}

struct QuantAffineMergeKernelModulesPass
    : quant_affine::impl::QuantAffineMergeKernelModulesPassBase<
          QuantAffineMergeKernelModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxModules < 0) {
      getOperation()->emitError("max-modules must be at least 0, got ")
          << static_cast<int64_t>(maxModules);
      return signalPassFailure();
    }
    bool changed = false;
    WalkResult result = getOperation()->walk([&](ModuleOp host) {
      FailureOr<bool> merged = mergeIn(host);
      if (failed(merged))
        return WalkResult::interrupt();
      changed |= *merged;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Merges the gpu.modules of `host` and redirects its references to them.
  /// gpu.module names are only unique within one symbol table, so each
  /// module's references are its own.
  FailureOr<bool> mergeIn(ModuleOp host) {
    DenseMap<SymbolRefAttr, SymbolRefAttr> moved;
    bool reordered = false;
    if (failed(mergeKernelModules(host, maxModules, moved, reordered)))
      return failure();
    if (moved.empty())
      return reordered;
    quant_affine::redirectHostReferences(host, moved);
    return true;
  }
};

} // namespace
