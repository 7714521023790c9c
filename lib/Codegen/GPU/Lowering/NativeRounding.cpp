//===- NativeRounding.cpp - rounding as PTX cvt instructions --------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's NVVM conversion sends math.roundeven/floor/ceil/trunc to
// libdevice, element by element. Each libdevice function is one cvt
// instruction that the NVPTX back end also selects for the LLVM intrinsic,
// so the intrinsic gives the same PTX without the calls, the vector
// unpacking around them, the libdevice link and the inlining.
//
// A direct walk, not a pattern driver: each op maps to one op, with nothing
// to fold or revisit.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FlattenVectors.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINENATIVEROUNDINGPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// f32 and f64, and vectors of them with static shapes (the element types
/// PTX's cvt rounds in place). Not 0-D vectors, which LLVM has no type for.
/// Without ftz (the pipeline never sets it) the intrinsics select the same
/// cvt instructions as libdevice's functions, for every input; with ftz,
/// libdevice would follow __nvvm_reflect and the intrinsics the function's
/// denormal mode, which MLIR does not set.
bool hasNativeRounding(Type type) {
  Type element = getElementTypeOrSelf(type);
  auto vectorType = dyn_cast<VectorType>(type);
  return (element.isF32() || element.isF64()) &&
         (type == element ||
          (vectorType && !vectorType.isScalable() && vectorType.getRank() > 0));
}

/// The LLVM intrinsic that rounds as `op` does.
StringRef intrinsicFor(Operation *op) {
  return TypeSwitch<Operation *, StringRef>(op)
      .Case([](math::RoundEvenOp) { return "llvm.roundeven"; })
      .Case([](math::FloorOp) { return "llvm.floor"; })
      .Case([](math::CeilOp) { return "llvm.ceil"; })
      .Case([](math::TruncOp) { return "llvm.trunc"; })
      .Default([](Operation *) { return StringRef(); });
}

struct QuantAffineNativeRoundingPass
    : quant_affine::impl::QuantAffineNativeRoundingPassBase<
          QuantAffineNativeRoundingPass> {
  void runOnOperation() override {
    SmallVector<Operation *> rounding;
    getOperation()->walk([&](Operation *op) {
      if (!intrinsicFor(op).empty() &&
          hasNativeRounding(op->getResult(0).getType()))
        rounding.push_back(op);
    });
    if (rounding.empty())
      return markAllAnalysesPreserved();

    // llvm.call_intrinsic, not llvm.intr.roundeven and its siblings: the
    // NVVM conversion marks those illegal, to send them to libdevice too.
    // LLVM's intrinsics take 1-D vectors: an n-D one is flattened around
    // the call (flattenedVectorOp; convert-vector-to-llvm lowers the casts).
    IRRewriter rewriter(&getContext());
    for (Operation *op : rounding) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      Value rounded = quant_affine::flattenedVectorOp(
          rewriter, loc, op->getOperand(0), [&](Value input) {
            return LLVM::CallIntrinsicOp::create(
                       rewriter, loc, input.getType(),
                       rewriter.getStringAttr(intrinsicFor(op)), input)
                .getResult(0);
          });
      rewriter.replaceOp(op, rounded);
    }
  }
};

} // namespace
