//===- QuantAffineToQuant.cpp - exact encodings back to quant casts -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A quantize or dequantize becomes quant casts only when a !quant.uniform
// type says exactly what it computes, so that converting back
// (--convert-quant-to-quant-affine) gives an op with the same results for
// every input. Everything else stays, with a remark naming the reason.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantInterop/QuantInterop.h"

#include "QuantAffine/Conversion/QuantInterop/QuantEncoding.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_CONVERTQUANTAFFINETOQUANTPASS
#include "QuantAffine/Conversion/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// `type` (a scalar or a ranked tensor) with element type `element`.
Type withElementType(Type type, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(element);
  return element;
}

/// The constant value of `value` (a FloatAttr or dense elements), if any.
Attribute constantFloats(Value value) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr)))
    return {};
  if (isa<FloatAttr, DenseElementsAttr>(attr))
    return attr;
  return {};
}

/// Why `op` has no quant counterpart, or the empty string when it has one.
std::string whyNotQuantCast(QuantizerOpInterface op,
                            const QuantizerSpec &spec) {
  if (spec.formula.kind == QuantizerKind::QDQ)
    return "qdq keeps NaN and never leaves floating point; quant has no "
           "fake-quantize op, and qcast + dcast would make a NaN input poison";
  if (spec.formula.reciprocal)
    return "'reciprocal' multiplies by 1 / s, quant casts divide by s";
  if (spec.formula.floatZeroPoint)
    return "'float_zero_point' is torchao's FLOAT domain; quant zero points "
           "are integers on the grid";
  bool quantizes = spec.formula.kind == QuantizerKind::Quantize;
  Type floatSide =
      quantizes ? op.getInput().getType() : op.getResult().getType();
  Type gridSide =
      quantizes ? op.getResult().getType() : op.getInput().getType();
  if (!isa<RankedTensorType>(floatSide) && isa<ShapedType>(floatSide))
    return llvm::formatv("quant casts take scalars and tensors, not {0}",
                         floatSide);
  if (!isa<IntegerType>(getElementTypeOrSelf(gridSide)))
    return llvm::formatv(
        "the grid values are held in {0}, not in an integer storage type",
        gridSide);
  auto floatType = cast<FloatType>(getElementTypeOrSelf(floatSide));
  FloatType defaultType =
      getEffectiveComputeType(spec.formula.kind, floatType, spec.range);
  if (spec.computeType != defaultType)
    return llvm::formatv("'compute_type' {0} is not the default rule's {1}, "
                         "which is what quant casts compute in",
                         spec.computeType, defaultType);
  if (!constantFloats(op.getScale()))
    return "the scale is not a constant";
  if (op.getOffset() && !constantFloats(op.getOffset()))
    return "the offset is not a constant";
  return "";
}

struct ConvertQuantAffineToQuantPass
    : quant_affine::impl::ConvertQuantAffineToQuantPassBase<
          ConvertQuantAffineToQuantPass> {
  void runOnOperation() override {
    SmallVector<QuantizerOpInterface> ops;
    getOperation()->walk([&](QuantizerOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (QuantizerOpInterface op : ops) {
      std::string whyNot;
      if (failed(rewriteAsQuantCasts(rewriter, op, whyNot)))
        op->emitRemark() << "not converted to quant: " << whyNot;
    }
  }
};

} // namespace

LogicalResult mlir::quant_affine::rewriteAsQuantCasts(RewriterBase &rewriter,
                                                      QuantizerOpInterface op,
                                                      std::string &whyNot) {
  QuantizerSpec spec = op.getSpec();
  whyNot = whyNotQuantCast(op, spec);
  if (!whyNot.empty())
    return failure();
  bool quantizes = spec.formula.kind == QuantizerKind::Quantize;
  Value input = op.getInput(), result = op.getResult();
  Type floatSide = quantizes ? input.getType() : result.getType();
  Type gridSide = quantizes ? result.getType() : input.getType();
  FailureOr<quant::QuantizedType> quantType = getQuantType(
      floatSide, cast<IntegerType>(getElementTypeOrSelf(gridSide)), spec.range,
      spec.getBlockSize(), constantFloats(op.getScale()),
      constantFloats(op.getOffset()), spec.computeType, whyNot);
  if (failed(quantType))
    return failure();

  Type quantized = withElementType(floatSide, *quantType);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value replacement;
  if (quantizes) {
    Value cast = quant::QuantizeCastOp::create(rewriter, loc, quantized, input);
    replacement = quant::StorageCastOp::create(rewriter, loc, gridSide, cast);
  } else {
    Value cast = quant::StorageCastOp::create(rewriter, loc, quantized, input);
    replacement =
        quant::DequantizeCastOp::create(rewriter, loc, floatSide, cast);
  }
  rewriter.replaceOp(op, replacement);
  return success();
}
