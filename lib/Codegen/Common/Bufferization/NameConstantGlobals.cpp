//===- NameConstantGlobals.cpp - constant globals named by first use ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One-Shot Module Bufferize turns each tensor constant into a private
// memref.global named after its type (`__constant_4xf32`, then
// `__constant_4xf32_0`, ...), each placed first in the module. In LLVM 22 it
// bufferizes the functions of a module in an order that iterates a map
// keyed by pointers (llvm/llvm-project#184722, fixed after 22), so with
// several functions the names and the order of these globals changed from
// run to run. Here they are named and placed as bufferization names and
// places them when it meets the constants in program order: output that
// is the same on every run, and unchanged where there was one order only.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINENAMECONSTANTGLOBALSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The name bufferization gives a constant of `global`'s type before making
/// it unique: `__constant_`, the sizes joined by `x`, `x`, the element type
/// (`__constant_4xf32`, and `__constant_xf32` for rank 0).
std::string baseName(memref::GlobalOp global) {
  std::string name = "__constant_";
  llvm::raw_string_ostream os(name);
  MemRefType type = global.getType();
  llvm::interleave(type.getShape(), os, "x");
  os << 'x' << type.getElementType();
  return name;
}

/// Whether `global` is one that bufferization made of a tensor constant.
bool isBufferizedConstant(memref::GlobalOp global) {
  return global.isPrivate() && global.getConstant() &&
         global.getInitialValue() &&
         global.getSymName().starts_with(baseName(global));
}

struct QuantAffineNameConstantGlobalsPass
    : quant_affine::impl::QuantAffineNameConstantGlobalsPassBase<
          QuantAffineNameConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<memref::GlobalOp> constants;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (isBufferizedConstant(global))
        constants[global.getSymName()] = global;
    // In program order of their first use (memref.get_global is what names
    // them once bufferized).
    SmallVector<memref::GlobalOp> order;
    DenseMap<memref::GlobalOp, SmallVector<memref::GetGlobalOp>> uses;
    module.walk([&](memref::GetGlobalOp get) {
      // A nested module's globals are its own.
      if (get->getParentWithTrait<OpTrait::SymbolTable>() != module)
        return;
      auto it = constants.find(get.getName());
      if (it == constants.end())
        return;
      SmallVector<memref::GetGlobalOp> &globalUses = uses[it->second];
      if (globalUses.empty())
        order.push_back(it->second);
      globalUses.push_back(get);
    });
    // One constant has one order only. An unused one has no place in the
    // order: all are left as they are then.
    if (order.size() < 2 || order.size() != constants.size())
      return markAllAnalysesPreserved();

    // The names bufferization gives them in that order: a taken name gets
    // the first free `_<n>` of one counter for the whole module (the symbol
    // table's).
    llvm::StringSet<> taken;
    for (Operation &op : module.getOps())
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        if (!constants.count(symbol.getName()))
          taken.insert(symbol.getName());
    unsigned counter = 0;
    SmallVector<StringAttr> names;
    for (memref::GlobalOp global : order) {
      std::string base = baseName(global);
      std::string name = base;
      while (taken.contains(name))
        name = base + "_" + std::to_string(counter++);
      taken.insert(name);
      names.push_back(StringAttr::get(&getContext(), name));
    }
    for (auto [global, name] : llvm::zip_equal(order, names)) {
      global.setSymNameAttr(name);
      for (memref::GetGlobalOp get : uses[global])
        get.setNameAttr(FlatSymbolRefAttr::get(name));
      // Each first in the module, as bufferization places them.
      global->moveBefore(&module.front());
    }
  }
};

} // namespace
