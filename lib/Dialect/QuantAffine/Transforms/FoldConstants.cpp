//===- FoldConstants.cpp - fold quant_affine ops on large constants -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <limits>

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFOLDCONSTANTSPASS
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
/// Folds the arith.extf users of a folded block scale (the MX idiom reads
/// E8M0 scales as f32 through one), so that the quantizers they feed see
/// constants.
void foldCastsOf(OpBuilder &builder, Value constant) {
  Attribute value;
  if (!matchPattern(constant, m_Constant(&value)))
    return;
  for (Operation *user : llvm::make_early_inc_range(constant.getUsers())) {
    auto extf = dyn_cast<arith::ExtFOp>(user);
    SmallVector<OpFoldResult> results;
    if (!extf || failed(extf->fold({value}, results)) || results.size() != 1)
      continue;
    auto folded =
        dyn_cast_or_null<TypedAttr>(dyn_cast_if_present<Attribute>(results[0]));
    if (!folded)
      continue;
    builder.setInsertionPoint(extf);
    extf.replaceAllUsesWith(
        arith::ConstantOp::create(builder, extf.getLoc(), folded).getResult());
    extf.erase();
  }
}

struct QuantAffineFoldConstantsPass
    : quant_affine::impl::QuantAffineFoldConstantsPassBase<
          QuantAffineFoldConstantsPass> {
  using Base::Base;

  /// A value llvm::cl cannot parse (`max-elements=abc`) is reported by
  /// llvm::cl itself, on stderr ("for the --max-elements option: 'abc' value
  /// invalid for long argument!"), and the pass options parser then hands the
  /// driver an empty message, which it would print as a second, empty
  /// `error:` line. Keep the one clear message: pass on only messages that
  /// say something.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    std::string message;
    if (succeeded(Pass::initializeOptions(options, [&](const Twine &msg) {
          message = msg.str();
          return failure();
        })))
      return success();
    StringRef text = StringRef(message).trim();
    if (text.empty())
      return failure();
    return errorHandler(text);
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<quant_affine::QuantizerOpInterface,
              quant_affine::ComputeEncodingOp, quant_affine::BlockScaleOp,
              quant_affine::FloatQDQOp>(op))
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (Operation *op : ops) {
      // Calibrations first in program order, so that the quantizers they
      // feed see constant encodings.
      if (auto encoding = dyn_cast<quant_affine::ComputeEncodingOp>(op)) {
        Attribute input;
        SmallVector<OpFoldResult> folded;
        if (!matchPattern(encoding.getInput(), m_Constant(&input)) ||
            failed(quant_affine::foldComputeEncodingConstants(
                encoding, input, maxElements, folded)))
          continue;
        builder.setInsertionPoint(op);
        for (auto [result, value] : llvm::zip(op->getResults(), folded))
          result.replaceAllUsesWith(arith::ConstantOp::create(
              builder, op->getLoc(), cast<TypedAttr>(cast<Attribute>(value))));
        op->erase();
        continue;
      }
      SmallVector<Attribute> operands;
      for (Value operand : op->getOperands()) {
        Attribute attr;
        (void)matchPattern(operand, m_Constant(&attr));
        operands.push_back(attr);
      }
      Attribute result;
      if (auto blockScale = dyn_cast<quant_affine::BlockScaleOp>(op)) {
        result = quant_affine::foldBlockScaleConstants(
            blockScale, operands[0],
            operands.size() > 1 ? operands[1] : nullptr, maxElements);
        if (auto folded = dyn_cast_or_null<TypedAttr>(result)) {
          builder.setInsertionPoint(op);
          Value constant =
              arith::ConstantOp::create(builder, op->getLoc(), folded);
          op->getResult(0).replaceAllUsesWith(constant);
          op->erase();
          foldCastsOf(builder, constant);
        }
        continue;
      }
      if (auto floatQdq = dyn_cast<quant_affine::FloatQDQOp>(op))
        result = quant_affine::foldFloatQDQConstants(floatQdq, operands,
                                                     maxElements);
      else
        result = quant_affine::foldQuantizerConstants(
            cast<quant_affine::QuantizerOpInterface>(op), operands,
            maxElements);
      auto folded = dyn_cast_or_null<TypedAttr>(result);
      if (!folded)
        continue;
      builder.setInsertionPoint(op);
      Value constant = arith::ConstantOp::create(builder, op->getLoc(), folded);
      op->getResult(0).replaceAllUsesWith(constant);
      op->erase();
    }
  }
};
} // namespace
