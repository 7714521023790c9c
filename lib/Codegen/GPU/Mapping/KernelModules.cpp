//===- KernelModules.cpp - what the kernel-module passes share ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every reference is rewritten in one walk over the host code, from a map of
// old to new references, rather than with SymbolTable::replaceAllSymbolUses
// per symbol, which walks the whole module each time.
//
//===----------------------------------------------------------------------===//

#include "KernelModules.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

bool quant_affine::isKernel(Operation *op) {
  return op->hasAttr(gpu::GPUDialect::getKernelFuncAttrName());
}

DictionaryAttr quant_affine::compileAttributes(gpu::GPUModuleOp module) {
  NamedAttrList attributes(module->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  return attributes.getDictionary(module.getContext());
}

/// The new reference of `ref` under `moved`: the longest of its first two
/// levels (`@m::@f`, then `@m`) that `moved` maps, with the rest of `ref`
/// appended (`@m::@f::@g` follows `@m::@f`). Null if none is mapped.
static SymbolRefAttr
movedReference(SymbolRefAttr ref,
               const llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> &moved) {
  ArrayRef<FlatSymbolRefAttr> nested = ref.getNestedReferences();
  auto append = [&](SymbolRefAttr prefix, ArrayRef<FlatSymbolRefAttr> rest) {
    SmallVector<FlatSymbolRefAttr> all(prefix.getNestedReferences());
    all.append(rest.begin(), rest.end());
    return SymbolRefAttr::get(prefix.getRootReference(), all);
  };
  if (!nested.empty()) {
    auto it = moved.find(
        SymbolRefAttr::get(ref.getRootReference(), {nested.front()}));
    if (it != moved.end())
      return append(it->second, nested.drop_front());
  }
  auto it = moved.find(FlatSymbolRefAttr::get(ref.getRootReference()));
  if (it != moved.end())
    return append(it->second, nested);
  return nullptr;
}

void quant_affine::redirectHostReferences(
    ModuleOp host, const llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> &moved) {
  if (moved.empty())
    return;
  AttrTypeReplacer redirect;
  // A reference is replaced whole: the leaf of @m::@f is not the module @f.
  redirect.addReplacement(
      [&](SymbolRefAttr ref) -> std::pair<Attribute, WalkResult> {
        SymbolRefAttr newRef = movedReference(ref, moved);
        return {newRef ? newRef : ref, WalkResult::skip()};
      });
  // The host's own attributes, then its code.
  redirect.replaceElementsIn(host, /*replaceAttrs=*/true,
                             /*replaceLocs=*/false, /*replaceTypes=*/false);
  host.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp, ModuleOp>(op))
      return WalkResult::skip();
    redirect.replaceElementsIn(op, /*replaceAttrs=*/true,
                               /*replaceLocs=*/false, /*replaceTypes=*/false);
    return WalkResult::advance();
  });
}
