//===- CheckHostAccess.cpp - host code never touches device memory --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU pipeline's contract: a function's buffer arguments may be device
// memory, which only kernels touch, and the buffers kernels touch are
// device-accessible. Both are decided here, after the mapping made the
// launches, so that a break is a compile-time error at the op instead of a
// crash (or silently wrong values) at run time.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECHECKHOSTACCESSPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The buffer `value` views (through subviews, casts and reshapes).
Value rootOf(Value value) {
  if (auto memref = dyn_cast<TypedValue<MemRefType>>(value))
    return memref::skipViewLikeOps(memref);
  return value;
}

/// Which function arguments may be device memory: every buffer argument of
/// a public function (its caller's contract), and an argument of a private
/// function that some call in the module passes such a buffer (a helper the
/// kernel function calls; not the dealloc helpers bufferization makes,
/// which get host buffers).
class DeviceArguments {
public:
  explicit DeviceArguments(ModuleOp module) {
    module.walk(
        [&](func::CallOp call) { calls[call.getCallee()].push_back(call); });
  }

  /// The argument `value` views that may be device memory, if any.
  BlockArgument of(Value value) {
    auto argument = dyn_cast<BlockArgument>(rootOf(value));
    if (!argument)
      return nullptr;
    auto func = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (!func || argument.getOwner() != &func.getBody().front())
      return nullptr;
    return mayBeDevice(func, argument.getArgNumber()) ? argument : nullptr;
  }

private:
  bool mayBeDevice(func::FuncOp func, unsigned index) {
    if (!func.isPrivate())
      return true;
    auto key = std::make_pair(func.getOperation(), index);
    if (auto it = known.find(key); it != known.end())
      return it->second;
    known[key] = false; // (a recursive call adds nothing)
    bool device =
        llvm::any_of(calls.lookup(func.getSymName()), [&](func::CallOp call) {
          return index < call.getNumOperands() && of(call.getOperand(index));
        });
    known[key] = device;
    return device;
  }

  llvm::StringMap<SmallVector<func::CallOp>> calls;
  DenseMap<std::pair<Operation *, unsigned>, bool> known;
};

/// Host code reads or writes no buffer argument that may be device memory.
LogicalResult checkHostAccesses(func::FuncOp func, DeviceArguments &device) {
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    // gpu.memcpy goes through the driver, which may touch device memory.
    if (isa<gpu::MemcpyOp>(op))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      bool read = isa<MemoryEffects::Read>(effect.getEffect());
      if (!read && !isa<MemoryEffects::Write>(effect.getEffect()))
        continue;
      Value buffer = effect.getValue();
      if (!buffer)
        continue;
      if (BlockArgument argument = device.of(buffer)) {
        op->emitError()
            << "host code " << (read ? "reads" : "writes") << " argument #"
            << argument.getArgNumber() << " of @"
            << cast<func::FuncOp>(argument.getOwner()->getParentOp())
                   .getSymName()
            << ", which may be device memory: the GPU pipeline accesses "
               "buffer arguments in kernels only (this op is not one it maps "
               "to the GPU)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Kernels read no host-only memory: stack buffers and globals that are not
/// managed copies (a mutable memref.global).
LogicalResult checkKernelOperands(gpu::LaunchOp launch) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  for (Value value : captured) {
    if (!isa<MemRefType>(value.getType()))
      continue;
    Operation *def = rootOf(value).getDefiningOp();
    auto get = dyn_cast_if_present<memref::GetGlobalOp>(def);
    if (!get && !isa_and_present<memref::AllocaOp>(def))
      continue;
    // Only now: a diagnostic on an op prints the op (and names the values of
    // its whole function), a cost per launch that grew with the program.
    InFlightDiagnostic error = launch.emitError();
    if (!get) {
      error << "host memory reaches this GPU kernel: a stack buffer "
               "(memref.alloca)";
    } else {
      error << "host memory reaches this GPU kernel: global @" << get.getName()
            << " (a mutable or dynamically shaped global is not copied to "
               "managed memory)";
    }
    error.attachNote(def->getLoc()) << "the buffer comes from here";
    return error;
  }
  return success();
}

struct QuantAffineCheckHostAccessPass
    : quant_affine::impl::QuantAffineCheckHostAccessPassBase<
          QuantAffineCheckHostAccessPass> {
  void runOnOperation() override {
    DeviceArguments device(getOperation());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(checkHostAccesses(func, device)))
        return signalPassFailure();
    WalkResult result = getOperation().walk([&](gpu::LaunchOp launch) {
      return failed(checkKernelOperands(launch)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Only looked: the IR need not be verified again.
    markAllAnalysesPreserved();
  }
};

} // namespace
