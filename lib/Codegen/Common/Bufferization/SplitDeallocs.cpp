//===- SplitDeallocs.cpp - one dealloc per fresh allocation ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's buffer-deallocation-simplification splits a multi-buffer
// bufferization.dealloc only after proving each buffer distinct from every
// other one of the op: quadratic in the buffers a block frees. Buffers that
// are each their own memref.alloc are distinct by construction, so their
// dealloc is split here without those queries (Passes.td has the numbers).
//
// A buffer freed unconditionally becomes a memref.dealloc at once, which is
// what the lowering and canonicalization make of it: lowered, each would be
// an `scf.if %true`, and the canonicalizer merges adjacent ifs of one
// condition one pair at a time, moving the merged body each time
// (quadratic in the buffers a block frees).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINESPLITDEALLOCSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether every buffer `dealloc` frees is the result of a memref.alloc of
/// its own, and it retains nothing (so it has no results to recompute).
bool freesDistinctAllocations(bufferization::DeallocOp dealloc) {
  if (dealloc.getMemrefs().size() < 2 || !dealloc.getRetained().empty())
    return false;
  llvm::SmallPtrSet<Operation *, 16> allocations;
  return llvm::all_of(dealloc.getMemrefs(), [&](Value buffer) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    return alloc && allocations.insert(alloc).second;
  });
}

struct QuantAffineSplitDeallocsPass
    : quant_affine::impl::QuantAffineSplitDeallocsPassBase<
          QuantAffineSplitDeallocsPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](bufferization::DeallocOp dealloc) {
      if (!freesDistinctAllocations(dealloc))
        return;
      OpBuilder builder(dealloc);
      for (auto [buffer, condition] :
           llvm::zip(dealloc.getMemrefs(), dealloc.getConditions())) {
        if (matchPattern(condition, m_One()))
          memref::DeallocOp::create(builder, dealloc.getLoc(), buffer);
        else
          bufferization::DeallocOp::create(builder, dealloc.getLoc(),
                                           ValueRange{buffer},
                                           ValueRange{condition}, ValueRange());
      }
      dealloc.erase();
      changed = true;
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
