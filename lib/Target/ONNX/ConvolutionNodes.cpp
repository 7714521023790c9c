//===- ConvolutionNodes.cpp - ONNX's 2-D convolution and pooling ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// NCHW convolutions and pools as upstream's named linalg ops
// (conv_2d_nchw_fchw, pooling_nchw_max/sum), padding by tensor.pad.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// The 2-D window attributes of a Conv or pool.
struct Window {
  SmallVector<int64_t> kernel, strides{1, 1}, dilations{1, 1}, pads{0, 0, 0, 0};
};

FailureOr<Window> readWindow(GraphImporter &importer, const OnnxNode &node,
                             RankedTensorType input,
                             std::optional<ArrayRef<int64_t>> kernel) {
  Window w;
  if (input.getRank() != 4)
    return importer.emitError(node)
           << "input " << input
           << " is not supported: only 2-D (NCHW, rank-4) windows are";
  if (kernel)
    w.kernel.assign(kernel->begin(), kernel->end());
  if (auto attr = importer.intsAttr(node, "kernel_shape"))
    w.kernel.assign(attr->begin(), attr->end());
  if (w.kernel.size() != 2)
    return importer.emitError(node) << "needs a 2-D kernel_shape";
  if (auto attr = importer.intsAttr(node, "strides"))
    w.strides.assign(attr->begin(), attr->end());
  if (auto attr = importer.intsAttr(node, "dilations"))
    w.dilations.assign(attr->begin(), attr->end());
  if (auto attr = importer.intsAttr(node, "pads"))
    w.pads.assign(attr->begin(), attr->end());
  if (w.strides.size() != 2 || w.dilations.size() != 2 || w.pads.size() != 4)
    return importer.emitError(node)
           << "strides, dilations and pads must be 2-D";
  const OnnxAttribute *autoPad = node.attribute("auto_pad");
  if (autoPad && autoPad->s != "NOTSET" && autoPad->s != "VALID") {
    // SAME_UPPER / SAME_LOWER: output = ceil(input / stride).
    if (!input.hasStaticShape())
      return importer.emitError(node)
             << "auto_pad " << autoPad->s << " needs static sizes";
    for (int d = 0; d < 2; ++d) {
      int64_t size = input.getDimSize(2 + d);
      int64_t out = (size + w.strides[d] - 1) / w.strides[d];
      int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
      int64_t total =
          std::max<int64_t>(0, (out - 1) * w.strides[d] + extent - size);
      int64_t small = total / 2, large = total - small;
      bool upper = autoPad->s == "SAME_UPPER";
      w.pads[d] = upper ? small : large;
      w.pads[2 + d] = upper ? large : small;
    }
  } else if (autoPad && autoPad->s == "VALID") {
    w.pads = {0, 0, 0, 0};
  }
  if (importer.intAttr(node, "ceil_mode", 0))
    return importer.emitError(node) << "ceil_mode = 1 is not supported";
  return w;
}

/// `input` padded on H and W by `pads` with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> pads, TypedAttr value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<OpFoldResult> low{b.getIndexAttr(0), b.getIndexAttr(0),
                                b.getIndexAttr(pads[0]),
                                b.getIndexAttr(pads[1])};
  SmallVector<OpFoldResult> high{b.getIndexAttr(0), b.getIndexAttr(0),
                                 b.getIndexAttr(pads[2]),
                                 b.getIndexAttr(pads[3])};
  Value padValue = arith::ConstantOp::create(b, loc, value);
  return tensor::PadOp::create(b, loc, Type(), input, low, high, padValue);
}

/// The NCHW output shape of a window over `input` (already padded).
SmallVector<int64_t> outputShape(RankedTensorType input, int64_t channels,
                                 const Window &w) {
  SmallVector<int64_t> shape{input.getDimSize(0), channels};
  for (int d = 0; d < 2; ++d) {
    int64_t size = input.getDimSize(2 + d);
    int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
    shape.push_back(ShapedType::isDynamic(size)
                        ? ShapedType::kDynamic
                        : (size - extent) / w.strides[d] + 1);
  }
  return shape;
}

/// `bias` (1-D, one per output channel) added to the NCHW `result`.
FailureOr<Value> addChannelBias(GraphImporter &importer, const OnnxNode &node,
                                Value result, Value bias) {
  OpBuilder &b = importer.builder();
  auto biasType = cast<RankedTensorType>(bias.getType());
  Value column = tensor::ExpandShapeOp::create(
      b, importer.locationOf(node),
      biasType.clone({biasType.getDimSize(0), 1, 1}), bias,
      SmallVector<ReassociationIndices>{{0, 1, 2}});
  Type element = biasType.getElementType();
  bool isFloat = isa<FloatType>(element);
  return importer.broadcastElementwise(
      node, {result, column}, element,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return isFloat ? Value(arith::AddFOp::create(nb, nl, v[0], v[1]))
                       : Value(arith::AddIOp::create(nb, nl, v[0], v[1]));
      });
}

/// The 2-D NCHW convolution of `input` by `weight` (same element type, f32
/// or i32; `group` 1), zero-padded, as linalg.conv_2d_nchw_fchw.
FailureOr<Value> convolve(GraphImporter &importer, const OnnxNode &node,
                          Value input, Value weight) {
  if (importer.intAttr(node, "group", 1) != 1)
    return importer.emitError(node) << "group != 1 is not supported";
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  if (weightType.getRank() != 4 || !weightType.hasStaticShape())
    return importer.emitError(node) << "needs a static 4-D weight";
  FailureOr<Window> w = readWindow(importer, node, inputType,
                                   weightType.getShape().drop_front(2));
  if (failed(w))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  Type element = inputType.getElementType();
  TypedAttr zeroAttr = isa<FloatType>(element)
                           ? TypedAttr(b.getFloatAttr(element, 0.0))
                           : TypedAttr(b.getIntegerAttr(element, 0));
  Value padded = padSpatial(b, loc, input, w->pads, zeroAttr);
  auto paddedType = cast<RankedTensorType>(padded.getType());
  SmallVector<int64_t> shape =
      outputShape(paddedType, weightType.getDimSize(0), *w);
  Value init = importer.emptyTensor(loc, shape, element, padded);
  Value zero = arith::ConstantOp::create(b, loc, zeroAttr);
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  return linalg::Conv2DNchwFchwOp::create(
             b, loc, TypeRange{acc.getType()}, ValueRange{padded, weight},
             ValueRange{acc}, b.getI64TensorAttr(w->strides),
             b.getI64TensorAttr(w->dilations))
      .getResult(0);
}

LogicalResult importConv(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 or 3 inputs";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> weight = importer.get(node, node.inputs[1]);
  if (failed(x) || failed(weight))
    return failure();
  if (!isFloatType(x->type))
    return importer.emitError(node)
           << "input type " << onnxTypeName(x->type) << " is not supported";
  FailureOr<Value> result = convolve(importer, node, x->value, weight->value);
  if (failed(result))
    return failure();
  if (std::optional<std::string> biasName = importer.optionalInput(node, 2)) {
    FailureOr<GraphValue> bias = importer.get(node, *biasName);
    if (failed(bias))
      return failure();
    result = addChannelBias(importer, node, *result, bias->value);
    if (failed(result))
      return failure();
  }
  importer.set(node.outputs[0], GraphValue{*result, x->type});
  return success();
}

/// ConvInteger: the int32 convolution of x - x_zero_point (padded with 0,
/// that is with the zero point) by w - w_zero_point (one per output channel
/// or one for all).
LogicalResult importConvInteger(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 to 4 inputs";
  FailureOr<Value> x = widenToInt32(importer, node, 0, 2, /*zeroPointDim=*/1);
  if (failed(x))
    return failure();
  FailureOr<Value> w = widenToInt32(importer, node, 1, 3, /*zeroPointDim=*/0);
  if (failed(w))
    return failure();
  FailureOr<Value> result = convolve(importer, node, *x, *w);
  if (failed(result))
    return failure();
  importer.set(node.outputs[0], GraphValue{*result, OnnxType::Int32});
  return success();
}

/// QLinearConv: the ConvInteger accumulation plus the int32 bias, times
/// x_scale * w_scale / y_scale in f32 (w_scale per output channel or one),
/// then quantized with y_zero_point (round to nearest even, saturate).
LogicalResult importQLinearConv(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() < 8)
    return importer.emitError(node) << "needs 8 or 9 inputs";
  FailureOr<Value> x = widenToInt32(importer, node, 0, 2, /*zeroPointDim=*/1);
  if (failed(x))
    return failure();
  FailureOr<Value> w = widenToInt32(importer, node, 3, 5, /*zeroPointDim=*/0);
  if (failed(w))
    return failure();
  FailureOr<Value> acc = convolve(importer, node, *x, *w);
  if (failed(acc))
    return failure();
  if (std::optional<std::string> biasName = importer.optionalInput(node, 8)) {
    FailureOr<GraphValue> bias = importer.get(node, *biasName);
    if (failed(bias))
      return failure();
    acc = addChannelBias(importer, node, *acc, bias->value);
    if (failed(acc))
      return failure();
  }
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  SmallVector<Value> scales;
  for (size_t index : {1, 4, 6}) {
    FailureOr<GraphValue> scale = importer.get(node, node.inputs[index]);
    if (failed(scale))
      return failure();
    Value v = scale->value;
    auto type = cast<RankedTensorType>(v.getType());
    // w_scale per output channel pairs with dim 1 of NCHW: (M, 1, 1).
    if (index == 4 && type.getRank() == 1 && type.getDimSize(0) != 1)
      v = tensor::ExpandShapeOp::create(
          b, loc, type.clone({type.getDimSize(0), 1, 1}), v,
          SmallVector<ReassociationIndices>{{0, 1, 2}});
    scales.push_back(v);
  }
  return requantizeInt32(importer, node, *acc, scales[0], scales[1], scales[2],
                         /*yZeroPointIndex=*/7);
}

/// MaxPool and AveragePool over 2-D windows. Average divides by the window
/// size: with padding, only count_include_pad = 1 is supported.
template <bool IsMax>
LogicalResult importPool(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  if (node.outputs.size() != 1)
    return importer.emitError(node) << "the Indices output is not supported";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  if (failed(x))
    return failure();
  if (!isFloatType(x->type))
    return importer.emitError(node)
           << "input type " << onnxTypeName(x->type) << " is not supported";
  auto inputType = cast<RankedTensorType>(x->value.getType());
  FailureOr<Window> w = readWindow(importer, node, inputType, std::nullopt);
  if (failed(w))
    return failure();
  bool padded = llvm::any_of(w->pads, [](int64_t p) { return p != 0; });
  if (!IsMax && padded && !importer.intAttr(node, "count_include_pad", 0))
    return importer.emitError(node)
           << "padding with count_include_pad = 0 is not supported";
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  auto element = cast<FloatType>(inputType.getElementType());
  APFloat lowest = APFloat::getInf(element.getFloatSemantics(), true);
  TypedAttr padValue = IsMax ? TypedAttr(b.getFloatAttr(element, lowest))
                             : TypedAttr(b.getFloatAttr(element, 0.0));
  Value input = padSpatial(b, loc, x->value, w->pads, padValue);
  auto paddedType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape =
      outputShape(paddedType, paddedType.getDimSize(1), *w);
  Value init = importer.emptyTensor(loc, shape, element, input);
  Value start = arith::ConstantOp::create(b, loc, padValue);
  Value acc = linalg::FillOp::create(b, loc, start, init).getResult(0);
  Value window = tensor::EmptyOp::create(b, loc, w->kernel, element);
  Value result;
  if (IsMax)
    result = linalg::PoolingNchwMaxOp::create(
                 b, loc, TypeRange{acc.getType()}, ValueRange{input, window},
                 ValueRange{acc}, b.getI64TensorAttr(w->strides),
                 b.getI64TensorAttr(w->dilations))
                 .getResult(0);
  else
    result = linalg::PoolingNchwSumOp::create(
                 b, loc, TypeRange{acc.getType()}, ValueRange{input, window},
                 ValueRange{acc}, b.getI64TensorAttr(w->strides),
                 b.getI64TensorAttr(w->dilations))
                 .getResult(0);
  if (!IsMax) {
    double count = static_cast<double>(w->kernel[0] * w->kernel[1]);
    FailureOr<Value> mean = importer.broadcastElementwise(
        node, {result}, element, [&](OpBuilder &nb, Location nl, ValueRange v) {
          Value n = arith::ConstantOp::create(nb, nl,
                                              nb.getFloatAttr(element, count));
          return Value(arith::DivFOp::create(nb, nl, v[0], n));
        });
    if (failed(mean))
      return failure();
    result = *mean;
  }
  importer.set(node.outputs[0], GraphValue{result, x->type});
  return success();
}

/// GlobalAveragePool: the mean over every spatial dim, kept as size 1.
LogicalResult importGlobalAveragePool(GraphImporter &importer,
                                      const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->value.getType());
  if (!isFloatType(x->type) || type.getRank() < 3)
    return importer.emitError(node) << "needs a float input of rank 3 or more";
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  Type element = type.getElementType();
  int64_t spatial = 1;
  SmallVector<int64_t> dims;
  for (int64_t d = 2; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d))
      return importer.emitError(node) << "needs static spatial sizes";
    spatial *= type.getDimSize(d);
    dims.push_back(d);
  }
  SmallVector<int64_t> kept{type.getDimSize(0), type.getDimSize(1)};
  Value init = importer.emptyTensor(loc, kept, element, x->value);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0));
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  auto sum = linalg::ReduceOp::create(
      b, loc, ValueRange{x->value}, ValueRange{acc}, dims,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(
            nb, nl,
            ValueRange{arith::AddFOp::create(nb, nl, args[0], args[1])});
      });
  FailureOr<Value> mean = importer.broadcastElementwise(
      node, {sum.getResult(0)}, element,
      [&](OpBuilder &nb, Location nl, ValueRange v) {
        Value n = arith::ConstantOp::create(
            nb, nl, nb.getFloatAttr(element, static_cast<double>(spatial)));
        return Value(arith::DivFOp::create(nb, nl, v[0], n));
      });
  if (failed(mean))
    return failure();
  SmallVector<int64_t> shape = kept;
  shape.append(type.getRank() - 2, 1);
  SmallVector<ReassociationIndices> groups{{0}, {1}};
  for (int64_t d = 2; d < type.getRank(); ++d)
    groups.back().push_back(d);
  Value result =
      tensor::ExpandShapeOp::create(b, loc, type.clone(shape), *mean, groups);
  importer.set(node.outputs[0], GraphValue{result, x->type});
  return success();
}

} // namespace

void mlir::quant_affine::onnx_import::addConvolutionNodeImporters(
    NodeImporterTable &table) {
  table["Conv"] = importConv;
  table["ConvInteger"] = importConvInteger;
  table["QLinearConv"] = importQLinearConv;
  table["MaxPool"] = importPool<true>;
  table["AveragePool"] = importPool<false>;
  table["GlobalAveragePool"] = importGlobalAveragePool;
}
