//===- NormalizationNodes.cpp - ONNX's LayerNormalization -----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LayerNormalization over the dims from `axis` on, as ONNX's function body
// defines it: mean, then the mean of squared deviations, InvStdDev =
// 1 / sqrt(var + epsilon), Y = (X - mean) * InvStdDev * Scale + B. All in the
// input's type (stash_type = float32, the only one supported, for f32).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// The mean of `x` over dims [axis, rank), shaped like x with those dims 1.
Value meanOver(GraphImporter &importer, Location loc, Value x, int64_t axis) {
  OpBuilder &b = importer.builder();
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  int64_t rank = type.getRank(), count = 1;
  SmallVector<int64_t> dims, kept;
  for (int64_t d = 0; d < rank; ++d) {
    if (d >= axis) {
      dims.push_back(d);
      count *= type.getDimSize(d);
    } else {
      kept.push_back(type.getDimSize(d));
    }
  }
  Value init = importer.emptyTensor(loc, kept, element, x);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0));
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  Value sum =
      linalg::ReduceOp::create(
          b, loc, ValueRange{x}, ValueRange{acc}, dims,
          [](OpBuilder &nb, Location nl, ValueRange args) {
            linalg::YieldOp::create(
                nb, nl,
                ValueRange{arith::AddFOp::create(nb, nl, args[0], args[1])});
          })
          .getResult(0);
  // Back to rank `rank`, the reduced dims of size 1.
  SmallVector<int64_t> shape = kept;
  shape.append(rank - axis, 1);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < axis; ++d)
    groups.push_back({d});
  if (groups.empty()) {
    sum = tensor::ExpandShapeOp::create(b, loc, type.clone(shape), sum,
                                        SmallVector<ReassociationIndices>{});
  } else {
    for (int64_t d = axis; d < rank; ++d)
      groups.back().push_back(d);
    sum = tensor::ExpandShapeOp::create(b, loc, type.clone(shape), sum, groups);
  }
  Value n = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          type.clone(shape),
          b.getFloatAttr(element, static_cast<double>(count))));
  return arith::DivFOp::create(b, loc, sum, n);
}

LogicalResult importLayerNormalization(GraphImporter &importer,
                                       const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 or 3 inputs";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> scale = importer.get(node, node.inputs[1]);
  if (failed(x) || failed(scale))
    return failure();
  auto type = cast<RankedTensorType>(x->value.getType());
  if (!type.getElementType().isF32() || !type.hasStaticShape())
    return importer.emitError(node)
           << "input " << type << " is not supported: only static f32";
  int64_t rank = type.getRank();
  int64_t axis = importer.intAttr(node, "axis", -1);
  if (axis < -rank || axis >= rank)
    return importer.emitError(node) << "axis " << axis << " is out of range";
  if (axis < 0)
    axis += rank;
  float epsilon = importer.floatAttr(node, "epsilon", 1e-5f);
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  Type element = type.getElementType();

  Value mean = meanOver(importer, loc, x->value, axis);
  FailureOr<Value> deviation = importer.broadcastElementwise(
      node, {x->value, mean}, element,
      [](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return arith::SubFOp::create(nb, nl, v[0], v[1]);
      });
  if (failed(deviation))
    return failure();
  FailureOr<Value> squared = importer.broadcastElementwise(
      node, {*deviation}, element,
      [](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return arith::MulFOp::create(nb, nl, v[0], v[0]);
      });
  if (failed(squared))
    return failure();
  Value variance = meanOver(importer, loc, *squared, axis);
  FailureOr<Value> invStdDev = importer.broadcastElementwise(
      node, {variance}, element,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        Value eps = arith::ConstantOp::create(
            nb, nl, nb.getFloatAttr(element, epsilon));
        Value one =
            arith::ConstantOp::create(nb, nl, nb.getFloatAttr(element, 1.0));
        Value root = math::SqrtOp::create(
            nb, nl, arith::AddFOp::create(nb, nl, v[0], eps));
        return arith::DivFOp::create(nb, nl, one, root);
      });
  if (failed(invStdDev))
    return failure();
  SmallVector<Value> operands{*deviation, *invStdDev, scale->value};
  bool hasBias = false;
  if (std::optional<std::string> bias = importer.optionalInput(node, 2)) {
    FailureOr<GraphValue> biasValue = importer.get(node, *bias);
    if (failed(biasValue))
      return failure();
    operands.push_back(biasValue->value);
    hasBias = true;
  }
  FailureOr<Value> y = importer.broadcastElementwise(
      node, operands, element, [&](OpBuilder &nb, Location nl, ValueRange v) {
        Value normalized = arith::MulFOp::create(nb, nl, v[0], v[1]);
        Value scaled = arith::MulFOp::create(nb, nl, normalized, v[2]);
        return hasBias ? Value(arith::AddFOp::create(nb, nl, scaled, v[3]))
                       : scaled;
      });
  if (failed(y))
    return failure();
  importer.set(node.outputs[0], GraphValue{*y, x->type});
  if (node.outputs.size() > 1 && !node.outputs[1].empty())
    importer.set(node.outputs[1], GraphValue{mean, x->type});
  if (node.outputs.size() > 2 && !node.outputs[2].empty())
    importer.set(node.outputs[2], GraphValue{*invStdDev, x->type});
  (void)b;
  return success();
}

} // namespace

void mlir::quant_affine::onnx_import::addNormalizationNodeImporters(
    NodeImporterTable &table) {
  table["LayerNormalization"] = importLayerNormalization;
}
