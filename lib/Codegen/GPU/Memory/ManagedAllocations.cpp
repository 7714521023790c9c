//===- ManagedAllocations.cpp - host buffers kernels can reach ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferization allocates with memref.alloc, which lowers to malloc: memory a
// GPU kernel cannot touch. In host code that launches kernels, every buffer
// it allocates is read or written by one, so allocate managed memory instead
// (gpu.alloc host_shared, cuMemAllocManaged), which the host can still read
// when such a buffer is returned. Deallocations of such buffers (and of ones
// the program made with gpu.alloc, which buffer deallocation frees with
// memref.dealloc, that is free()) become gpu.dealloc.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMANAGEDALLOCATIONSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `copy` reads or writes a buffer the caller passed (through
/// views), which may be device memory the host cannot touch, with identity
/// layouts of one element type and rank on both sides (what gpu.memcpy
/// lowers; dynamic sizes come from the descriptor). The copy that returns a
/// tensor computed into an argument's buffer is one.
bool copiesArgument(memref::CopyOp copy) {
  auto rootIsArgument = [](MemrefValue buffer) {
    auto root = dyn_cast<BlockArgument>(memref::skipViewLikeOps(buffer));
    return root && isa<FunctionOpInterface>(root.getOwner()->getParentOp());
  };
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  return source && target &&
         source.getElementType() == target.getElementType() &&
         source.getRank() == target.getRank() &&
         source.getLayout().isIdentity() && target.getLayout().isIdentity() &&
         (rootIsArgument(copy.getSource()) || rootIsArgument(copy.getTarget()));
}

/// Whether `copy` copies a buffer onto itself: one is a memref.cast of the
/// other (what materializing a function's result into the argument it was
/// computed in leaves). A no-op, erased.
bool copiesOntoItself(memref::CopyOp copy) {
  auto strip = [](Value v) {
    while (auto cast = v.getDefiningOp<memref::CastOp>())
      v = cast.getSource();
    return v;
  };
  return strip(copy.getSource()) == strip(copy.getTarget());
}

struct QuantAffineManagedAllocationsPass
    : quant_affine::impl::QuantAffineManagedAllocationsPassBase<
          QuantAffineManagedAllocationsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    SmallVector<memref::CopyOp> argumentCopies, selfCopies;
    getOperation().walk([&](Operation *op) {
      if (auto copy = dyn_cast<memref::CopyOp>(op);
          copy && quant_affine::isHostCode(op) && copiesOntoItself(copy))
        selfCopies.push_back(copy);
      else if (copy && quant_affine::isHostCode(op) && copiesArgument(copy))
        argumentCopies.push_back(copy);
      if (auto alloc = dyn_cast<memref::AllocOp>(op);
          alloc && quant_affine::isHostCode(op))
        allocs.push_back(alloc);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
          dealloc && quant_affine::isHostCode(op))
        deallocs.push_back(dealloc);
    });
    if (selfCopies.empty() && argumentCopies.empty() && allocs.empty() &&
        deallocs.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : selfCopies)
      rewriter.eraseOp(copy);
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOpWithNewOp<gpu::AllocOp>(
          alloc, alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/true);
    }
    // gpu-to-llvm lowers only the async forms of gpu.dealloc and gpu.memcpy:
    // each runs on a stream of its own, waited for.
    auto replaceBySyncedAsync = [&](Operation *op, auto createAsync) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value start = gpu::WaitOp::create(rewriter, loc, token, ValueRange())
                        .getAsyncToken();
      Value done = createAsync(loc, token, start);
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{done});
      rewriter.eraseOp(op);
    };
    for (memref::CopyOp copy : argumentCopies)
      replaceBySyncedAsync(copy, [&](Location loc, Type token, Value start) {
        return gpu::MemcpyOp::create(rewriter, loc, token, ValueRange{start},
                                     copy.getTarget(), copy.getSource())
            .getAsyncToken();
      });
    for (memref::DeallocOp dealloc : deallocs)
      replaceBySyncedAsync(dealloc, [&](Location loc, Type token, Value start) {
        return gpu::DeallocOp::create(rewriter, loc, token, ValueRange{start},
                                      dealloc.getMemref())
            .getAsyncToken();
      });
  }
};

} // namespace

bool mlir::quant_affine::isHostCode(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() &&
         !op->getParentOfType<gpu::GPUModuleOp>();
}
