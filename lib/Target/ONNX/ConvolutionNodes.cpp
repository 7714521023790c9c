//===- ConvolutionNodes.cpp - ONNX's convolutions and pools ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Convolutions and pools over 1-D to 3-D windows of (N, C, D...) tensors,
// padded by tensor.pad: upstream's named conv_2d_nchw_fchw for the common
// 2-D single-group convolution, one linalg.generic for the rest (groups,
// 1-D and 3-D, pools with dilations and ceil_mode), whose indexing maps
// read the input at o * stride + r * dilation.
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

/// The window attributes of a Conv or pool over the k spatial dims of an
/// (N, C, D1, ..., Dk) input: pads are the k begins, then the k ends.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads;
  /// ceil_mode: extra padding at the end of each dim so that the last
  /// partial window counts (it is not part of `pads`).
  SmallVector<int64_t> ceilPads;

  size_t rank() const { return kernel.size(); }
  int64_t extent(size_t d) const { return (kernel[d] - 1) * dilations[d] + 1; }
};

FailureOr<Window> readWindow(GraphImporter &importer, const OnnxNode &node,
                             RankedTensorType input,
                             std::optional<ArrayRef<int64_t>> kernel) {
  Window w;
  int64_t k = input.getRank() - 2;
  if (k < 1 || k > 3)
    return importer.emitError(node)
           << "input " << input
           << " is not supported: only 1-D to 3-D windows (rank 3 to 5) are";
  if (kernel)
    w.kernel.assign(kernel->begin(), kernel->end());
  if (auto attr = importer.intsAttr(node, "kernel_shape"))
    w.kernel.assign(attr->begin(), attr->end());
  w.strides.assign(k, 1);
  w.dilations.assign(k, 1);
  w.pads.assign(2 * k, 0);
  if (auto attr = importer.intsAttr(node, "strides"))
    w.strides.assign(attr->begin(), attr->end());
  if (auto attr = importer.intsAttr(node, "dilations"))
    w.dilations.assign(attr->begin(), attr->end());
  if (auto attr = importer.intsAttr(node, "pads"))
    w.pads.assign(attr->begin(), attr->end());
  if (static_cast<int64_t>(w.kernel.size()) != k ||
      static_cast<int64_t>(w.strides.size()) != k ||
      static_cast<int64_t>(w.dilations.size()) != k ||
      static_cast<int64_t>(w.pads.size()) != 2 * k)
    return importer.emitError(node)
           << "kernel_shape, strides, dilations and pads must have " << k
           << " spatial dims (pads twice that)";
  for (size_t d = 0; d < w.rank(); ++d)
    if (w.kernel[d] < 1 || w.strides[d] < 1 || w.dilations[d] < 1 ||
        w.pads[d] < 0 || w.pads[w.rank() + d] < 0)
      return importer.emitError(node)
             << "kernel_shape, strides and dilations must be positive, pads "
                "not negative";
  const OnnxAttribute *autoPad = node.attribute("auto_pad");
  if (autoPad && autoPad->s != "NOTSET" && autoPad->s != "VALID") {
    // SAME_UPPER / SAME_LOWER: output = ceil(input / stride).
    if (!input.hasStaticShape())
      return importer.emitError(node)
             << "auto_pad " << autoPad->s << " needs static sizes";
    for (size_t d = 0; d < w.rank(); ++d) {
      int64_t size = input.getDimSize(2 + d);
      int64_t out = (size + w.strides[d] - 1) / w.strides[d];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * w.strides[d] + w.extent(d) - size);
      int64_t small = total / 2, large = total - small;
      bool upper = autoPad->s == "SAME_UPPER";
      w.pads[d] = upper ? small : large;
      w.pads[w.rank() + d] = upper ? large : small;
    }
  } else if (autoPad && autoPad->s == "VALID") {
    w.pads.assign(2 * k, 0);
  }
  w.ceilPads.assign(k, 0);
  if (importer.intAttr(node, "ceil_mode", 0)) {
    // Output ceil((P - E) / s) + 1, less the last window when it would
    // start past the input and its begin padding (ONNX's rule).
    for (size_t d = 0; d < w.rank(); ++d) {
      int64_t size = input.getDimSize(2 + d);
      if (ShapedType::isDynamic(size))
        return importer.emitError(node) << "ceil_mode needs static sizes";
      int64_t padded = size + w.pads[d] + w.pads[w.rank() + d];
      if (padded < w.extent(d))
        continue;
      int64_t out =
          (padded - w.extent(d) + w.strides[d] - 1) / w.strides[d] + 1;
      if ((out - 1) * w.strides[d] >= size + w.pads[d])
        --out;
      w.ceilPads[d] =
          std::max<int64_t>(0, (out - 1) * w.strides[d] + w.extent(d) - padded);
    }
  }
  return w;
}

/// `input` padded on its spatial dims by `pads` (and `extraEnd` at their
/// ends) with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input, const Window &w,
                 TypedAttr value, bool withCeilPads) {
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0)),
      high(2, b.getIndexAttr(0));
  bool any = false;
  for (size_t d = 0; d < w.rank(); ++d) {
    int64_t end = w.pads[w.rank() + d] + (withCeilPads ? w.ceilPads[d] : 0);
    low.push_back(b.getIndexAttr(w.pads[d]));
    high.push_back(b.getIndexAttr(end));
    any |= w.pads[d] != 0 || end != 0;
  }
  if (!any)
    return input;
  Value padValue = arith::ConstantOp::create(b, loc, value);
  return tensor::PadOp::create(b, loc, Type(), input, low, high, padValue);
}

/// The (N, C, O1, ..., Ok) output shape of a window over `input` (already
/// padded).
SmallVector<int64_t> outputShape(RankedTensorType input, int64_t channels,
                                 const Window &w) {
  SmallVector<int64_t> shape{input.getDimSize(0), channels};
  for (size_t d = 0; d < w.rank(); ++d) {
    int64_t size = input.getDimSize(2 + d);
    shape.push_back(ShapedType::isDynamic(size)
                        ? ShapedType::kDynamic
                        : (size - w.extent(d)) / w.strides[d] + 1);
  }
  return shape;
}

/// The affine maps of a window loop nest (`outer` parallel dims, the k
/// output dims, `inner` reduction dims, the k kernel dims): the padded
/// input's spatial index o * stride + r * dilation for each spatial dim.
SmallVector<AffineExpr> windowIndices(MLIRContext *ctx, const Window &w,
                                      unsigned firstOutput,
                                      unsigned firstKernel) {
  SmallVector<AffineExpr> indices;
  for (size_t d = 0; d < w.rank(); ++d)
    indices.push_back(getAffineDimExpr(firstOutput + d, ctx) * w.strides[d] +
                      getAffineDimExpr(firstKernel + d, ctx) * w.dilations[d]);
  return indices;
}

/// A 1-D per-channel `vector` (C) as (C, 1, ..., 1), which broadcasts over
/// the `spatialDims` dims after the channel.
Value channelColumn(OpBuilder &b, Location loc, Value vector,
                    int64_t spatialDims) {
  auto type = cast<RankedTensorType>(vector.getType());
  SmallVector<int64_t> shape{type.getDimSize(0)};
  shape.append(spatialDims, 1);
  ReassociationIndices all;
  for (int64_t d = 0; d <= spatialDims; ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), vector,
                                       SmallVector<ReassociationIndices>{all});
}

/// `bias` (1-D, one per output channel) added to the (N, C, D...) `result`.
FailureOr<Value> addChannelBias(GraphImporter &importer, const OnnxNode &node,
                                Value result, Value bias) {
  OpBuilder &b = importer.builder();
  auto biasType = cast<RankedTensorType>(bias.getType());
  Value column =
      channelColumn(b, importer.locationOf(node), bias,
                    cast<RankedTensorType>(result.getType()).getRank() - 2);
  Type element = biasType.getElementType();
  bool isFloat = isa<FloatType>(element);
  return importer.broadcastElementwise(
      node, {result, column}, element,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return isFloat ? Value(arith::AddFOp::create(nb, nl, v[0], v[1]))
                       : Value(arith::AddIOp::create(nb, nl, v[0], v[1]));
      });
}

/// `result` plus the optional bias (input `index`), one per output channel.
FailureOr<Value> withOptionalBias(GraphImporter &importer, const OnnxNode &node,
                                  Value result, size_t index) {
  std::optional<std::string> biasName = importer.optionalInput(node, index);
  if (!biasName)
    return result;
  FailureOr<GraphValue> bias = importer.get(node, *biasName);
  if (failed(bias))
    return failure();
  return addChannelBias(importer, node, result, bias->value);
}

/// Sets Conv's or ConvTranspose's output: `result` plus the optional bias
/// (input 2).
LogicalResult setWithBias(GraphImporter &importer, const OnnxNode &node,
                          Value result, OnnxType type) {
  FailureOr<Value> biased = withOptionalBias(importer, node, result, 2);
  if (failed(biased))
    return failure();
  importer.set(node.outputs[0], GraphValue{*biased, type});
  return success();
}

/// The convolution of `input` (N, G*C, D...) by `weight` (G*F, C, K...)
/// (same element type, float or i32), zero-padded: linalg's named
/// conv_2d_nchw_fchw for 2-D windows of one group, else one linalg.generic
/// over (n, g, f, o..., c, r...) on the group-split shapes.
FailureOr<Value> convolve(GraphImporter &importer, const OnnxNode &node,
                          Value input, Value weight) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  if (weightType.getRank() != inputType.getRank() ||
      !weightType.hasStaticShape())
    return importer.emitError(node)
           << "needs a static weight of the input's rank";
  int64_t groups = importer.intAttr(node, "group", 1);
  int64_t filters = weightType.getDimSize(0),
          channels = weightType.getDimSize(1);
  if (groups < 1 || filters % groups != 0 ||
      (!inputType.isDynamicDim(1) &&
       inputType.getDimSize(1) != groups * channels))
    return importer.emitError(node)
           << "group = " << groups << " does not fit input " << inputType
           << " and weight " << weightType;
  FailureOr<Window> w = readWindow(importer, node, inputType,
                                   weightType.getShape().drop_front(2));
  if (failed(w))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  MLIRContext *ctx = b.getContext();
  Type element = inputType.getElementType();
  TypedAttr zeroAttr = isa<FloatType>(element)
                           ? TypedAttr(b.getFloatAttr(element, 0.0))
                           : TypedAttr(b.getIntegerAttr(element, 0));
  Value padded = padSpatial(b, loc, input, *w, zeroAttr, false);
  auto paddedType = cast<RankedTensorType>(padded.getType());
  SmallVector<int64_t> shape = outputShape(paddedType, filters, *w);
  Value zero = arith::ConstantOp::create(b, loc, zeroAttr);
  if (groups == 1 && w->rank() == 2) {
    Value init = importer.emptyTensor(loc, shape, element, padded);
    Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
    return linalg::Conv2DNchwFchwOp::create(
               b, loc, TypeRange{acc.getType()}, ValueRange{padded, weight},
               ValueRange{acc}, b.getI64TensorAttr(w->strides),
               b.getI64TensorAttr(w->dilations))
        .getResult(0);
  }
  if (paddedType.isDynamicDim(1))
    return importer.emitError(node) << "needs a static channel count";
  // Split the channels by group: the input (N, G*C, D...) as
  // (N, G, C, D...), the weight (G*F, C, K...) as (G, F, C, K...).
  unsigned k = w->rank();
  SmallVector<ReassociationIndices> inputGroups{{0}, {1, 2}},
      weightGroups{{0, 1}, {2}};
  for (unsigned d = 0; d < k; ++d) {
    inputGroups.push_back({static_cast<int64_t>(3 + d)});
    weightGroups.push_back({static_cast<int64_t>(3 + d)});
  }
  SmallVector<int64_t> inputDims{paddedType.getDimSize(0), groups, channels};
  llvm::append_range(inputDims, paddedType.getShape().drop_front(2));
  SmallVector<int64_t> weightDims{groups, filters / groups, channels};
  llvm::append_range(weightDims, weightType.getShape().drop_front(2));
  Value x = tensor::ExpandShapeOp::create(b, loc, paddedType.clone(inputDims),
                                          padded, inputGroups);
  Value f = tensor::ExpandShapeOp::create(b, loc, weightType.clone(weightDims),
                                          weight, weightGroups);
  SmallVector<int64_t> splitShape{shape[0], groups, filters / groups};
  llvm::append_range(splitShape, ArrayRef(shape).drop_front(2));
  SmallVector<Value> dynamicSizes;
  if (ShapedType::isDynamic(shape[0]))
    dynamicSizes.push_back(tensor::DimOp::create(b, loc, padded, 0));
  Value init =
      tensor::EmptyOp::create(b, loc, splitShape, element, dynamicSizes);
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  // Dims: n, g, f, o1..ok, c, r1..rk.
  unsigned count = 4 + 2 * k;
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xIndex{dim(0), dim(1), dim(3 + k)};
  llvm::append_range(xIndex, windowIndices(ctx, *w, 3, 4 + k));
  SmallVector<AffineExpr> fIndex{dim(1), dim(2), dim(3 + k)};
  SmallVector<AffineExpr> outIndex{dim(0), dim(1), dim(2)};
  for (unsigned d = 0; d < k; ++d) {
    fIndex.push_back(dim(4 + k + d));
    outIndex.push_back(dim(3 + d));
  }
  SmallVector<AffineMap> maps{AffineMap::get(count, 0, xIndex, ctx),
                              AffineMap::get(count, 0, fIndex, ctx),
                              AffineMap::get(count, 0, outIndex, ctx)};
  SmallVector<utils::IteratorType> iterators(3 + k,
                                             utils::IteratorType::parallel);
  iterators.append(1 + k, utils::IteratorType::reduction);
  bool isFloat = isa<FloatType>(element);
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{acc.getType()}, ValueRange{x, f}, ValueRange{acc},
          maps, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value sum =
                isFloat ? Value(arith::AddFOp::create(
                              nb, nl, args[2],
                              arith::MulFOp::create(nb, nl, args[0], args[1])))
                        : Value(arith::AddIOp::create(
                              nb, nl, args[2],
                              arith::MulIOp::create(nb, nl, args[0], args[1])));
            linalg::YieldOp::create(nb, nl, sum);
          })
          .getResult(0);
  return tensor::CollapseShapeOp::create(b, loc, result, inputGroups)
      .getResult();
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
  return setWithBias(importer, node, *result, x->type);
}

/// ConvTranspose (float, 1-D to 3-D, groups): the gradient of a
/// convolution. The input is spread out by the strides (zeros between its
/// elements) and padded by what the window reaches past it, then correlated
/// with the flipped kernel in one linalg.generic over (n, g, f, o..., c,
/// r...), like the grouped convolution above.
LogicalResult importConvTranspose(GraphImporter &importer,
                                  const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 or 3 inputs";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> weight = importer.get(node, node.inputs[1]);
  if (failed(x) || failed(weight))
    return failure();
  auto xType = cast<RankedTensorType>(x->value.getType());
  auto wType = cast<RankedTensorType>(weight->value.getType());
  if (!isa<FloatType>(xType.getElementType()))
    return importer.emitError(node)
           << "input type " << onnxTypeName(x->type) << " is not supported";
  int64_t k = xType.getRank() - 2;
  if (k < 1 || k > 3 || !xType.hasStaticShape() || !wType.hasStaticShape() ||
      wType.getRank() != xType.getRank())
    return importer.emitError(node)
           << "needs static 1-D to 3-D input and weight, got " << xType
           << " and " << wType;
  int64_t groups = importer.intAttr(node, "group", 1);
  int64_t channels = wType.getDimSize(0), perGroup = wType.getDimSize(1);
  if (groups < 1 || channels != xType.getDimSize(1) || channels % groups)
    return importer.emitError(node)
           << "group = " << groups << " does not fit input " << xType
           << " and weight " << wType;
  auto ints = [&](llvm::StringRef name, int64_t fallback, int64_t count) {
    if (auto attr = importer.intsAttr(node, name))
      return SmallVector<int64_t>(attr->begin(), attr->end());
    return SmallVector<int64_t>(count, fallback);
  };
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  SmallVector<int64_t> strides = ints("strides", 1, k),
                       dilations = ints("dilations", 1, k),
                       outputPadding = ints("output_padding", 0, k),
                       pads = ints("pads", 0, 2 * k);
  std::optional<std::vector<int64_t>> outputShape =
      importer.intsAttr(node, "output_shape");
  const OnnxAttribute *autoPad = node.attribute("auto_pad");
  std::string autoPadMode = autoPad ? autoPad->s : "NOTSET";
  if (static_cast<int64_t>(strides.size()) != k ||
      static_cast<int64_t>(dilations.size()) != k ||
      static_cast<int64_t>(outputPadding.size()) != k ||
      static_cast<int64_t>(pads.size()) != 2 * k ||
      (outputShape && static_cast<int64_t>(outputShape->size()) != k))
    return importer.emitError(node)
           << "strides, dilations, output_padding, output_shape and pads "
              "must have "
           << k << " spatial dims (pads twice that)";
  SmallVector<int64_t> extents;
  for (int64_t d = 0; d < k; ++d)
    extents.push_back((kernel[d] - 1) * dilations[d] + 1);
  // output_shape, or SAME padding, fixes the total padding: split evenly,
  // the odd one at the end (SAME_UPPER, and output_shape alone) or at the
  // start (SAME_LOWER), as ONNX defines.
  if (outputShape || autoPadMode == "SAME_UPPER" ||
      autoPadMode == "SAME_LOWER") {
    for (int64_t d = 0; d < k; ++d) {
      int64_t in = xType.getDimSize(2 + d);
      int64_t out = outputShape ? (*outputShape)[d] : in * strides[d];
      int64_t total =
          strides[d] * (in - 1) + outputPadding[d] + extents[d] - out;
      int64_t half = total / 2;
      bool lower = autoPadMode == "SAME_LOWER";
      pads[d] = lower ? total - half : half;
      pads[k + d] = lower ? half : total - half;
    }
  } else if (autoPadMode == "VALID") {
    pads.assign(2 * k, 0);
  }
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  MLIRContext *ctx = b.getContext();
  Type element = xType.getElementType();
  // The spread and padded input: x at low + i * stride in zeros.
  SmallVector<int64_t> padded{xType.getDimSize(0), channels};
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)),
      sizes{b.getIndexAttr(xType.getDimSize(0)), b.getIndexAttr(channels)},
      steps(2, b.getIndexAttr(1));
  for (int64_t d = 0; d < k; ++d) {
    int64_t low = extents[d] - 1 - pads[d];
    int64_t high = extents[d] - 1 - pads[k + d] + outputPadding[d];
    if (low < 0 || high < 0 || strides[d] < 1)
      return importer.emitError(node)
             << "pads larger than the dilated kernel are not supported";
    int64_t in = xType.getDimSize(2 + d);
    padded.push_back(low + (in - 1) * strides[d] + 1 + high);
    offsets.push_back(b.getIndexAttr(low));
    sizes.push_back(b.getIndexAttr(in));
    steps.push_back(b.getIndexAttr(strides[d]));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0.0));
  Value zeros =
      linalg::FillOp::create(
          b, loc, zero,
          ValueRange{tensor::EmptyOp::create(b, loc, padded, element)})
          .getResult(0);
  Value spread = tensor::InsertSliceOp::create(b, loc, x->value, zeros, offsets,
                                               sizes, steps);
  // (N, G, C/G, P...) and the weight (G, C/G, F/G, K...).
  int64_t inPerGroup = channels / groups;
  SmallVector<ReassociationIndices> inputGroups{{0}, {1, 2}},
      weightGroups{{0, 1}, {2}};
  for (int64_t d = 0; d < k; ++d) {
    inputGroups.push_back({3 + d});
    weightGroups.push_back({3 + d});
  }
  SmallVector<int64_t> xDims{padded[0], groups, inPerGroup};
  llvm::append_range(xDims, ArrayRef(padded).drop_front(2));
  SmallVector<int64_t> wDims{groups, inPerGroup, perGroup};
  llvm::append_range(wDims, kernel);
  Value xs = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(xDims, element), spread, inputGroups);
  Value ws = tensor::ExpandShapeOp::create(b, loc, wType.clone(wDims),
                                           weight->value, weightGroups);
  SmallVector<int64_t> outDims{padded[0], groups, perGroup};
  for (int64_t d = 0; d < k; ++d)
    outDims.push_back(padded[2 + d] - extents[d] + 1);
  Value acc = linalg::FillOp::create(
                  b, loc, zero,
                  ValueRange{tensor::EmptyOp::create(b, loc, outDims, element)})
                  .getResult(0);
  // Dims: n, g, f, o1..ok, c, r1..rk; the kernel read flipped.
  unsigned count = 4 + 2 * k;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xIndex{dim(0), dim(1), dim(3 + k)},
      wIndex{dim(1), dim(3 + k), dim(2)}, outIndex{dim(0), dim(1), dim(2)};
  for (int64_t d = 0; d < k; ++d) {
    xIndex.push_back(dim(3 + d) + dim(4 + k + d) * dilations[d]);
    wIndex.push_back(kernel[d] - 1 - dim(4 + k + d));
    outIndex.push_back(dim(3 + d));
  }
  // The flipped kernel index alone cannot size the kernel loops: an
  // unread window operand (as pooling uses) gives them their extents.
  SmallVector<AffineExpr> windowIndex;
  for (int64_t d = 0; d < k; ++d)
    windowIndex.push_back(dim(4 + k + d));
  Value window = tensor::EmptyOp::create(b, loc, kernel, element);
  SmallVector<AffineMap> maps{AffineMap::get(count, 0, xIndex, ctx),
                              AffineMap::get(count, 0, wIndex, ctx),
                              AffineMap::get(count, 0, windowIndex, ctx),
                              AffineMap::get(count, 0, outIndex, ctx)};
  SmallVector<utils::IteratorType> iterators(3 + k,
                                             utils::IteratorType::parallel);
  iterators.append(1 + k, utils::IteratorType::reduction);
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{acc.getType()}, ValueRange{xs, ws, window},
          ValueRange{acc}, maps, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value product = arith::MulFOp::create(nb, nl, args[0], args[1]);
            linalg::YieldOp::create(
                nb, nl,
                ValueRange{arith::AddFOp::create(nb, nl, args[3], product)});
          })
          .getResult(0);
  return setWithBias(
      importer, node,
      tensor::CollapseShapeOp::create(b, loc, result, inputGroups).getResult(),
      x->type);
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
  acc = withOptionalBias(importer, node, *acc, 8);
  if (failed(acc))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  SmallVector<Value> scales;
  for (size_t index : {1, 4, 6}) {
    FailureOr<GraphValue> scale = importer.get(node, node.inputs[index]);
    if (failed(scale))
      return failure();
    Value v = scale->value;
    auto type = cast<RankedTensorType>(v.getType());
    // w_scale per output channel pairs with dim 1 of (N, M, D...).
    if (index == 4 && type.getRank() == 1 && type.getDimSize(0) != 1)
      v = channelColumn(b, loc, v,
                        cast<RankedTensorType>(acc->getType()).getRank() - 2);
    scales.push_back(v);
  }
  return requantizeInt32(importer, node, *acc, scales[0], scales[1], scales[2],
                         /*yZeroPointIndex=*/7);
}

/// How many elements of the window at each output position lie in the
/// counted span of each spatial dim (the padded input without ceil_mode's
/// extra, or the input alone), as an (1, 1, O...) constant.
Value windowCounts(OpBuilder &b, Location loc, const Window &w,
                   RankedTensorType input, ArrayRef<int64_t> output,
                   bool includePad, FloatType element) {
  SmallVector<SmallVector<double>> perDim;
  for (size_t d = 0; d < w.rank(); ++d) {
    int64_t size = input.getDimSize(2 + d);
    int64_t begin = includePad ? 0 : w.pads[d];
    int64_t end =
        includePad ? size + w.pads[d] + w.pads[w.rank() + d] : w.pads[d] + size;
    SmallVector<double> counts;
    for (int64_t o = 0; o < output[2 + d]; ++o) {
      int64_t n = 0;
      for (int64_t r = 0; r < w.kernel[d]; ++r) {
        int64_t at = o * w.strides[d] + r * w.dilations[d];
        n += at >= begin && at < end;
      }
      counts.push_back(static_cast<double>(n));
    }
    perDim.push_back(counts);
  }
  SmallVector<int64_t> shape{1, 1};
  llvm::append_range(shape, output.drop_front(2));
  SmallVector<APFloat> values;
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  for (int64_t i = 0; i < total; ++i) {
    double count = 1;
    int64_t rest = i;
    for (int64_t d = static_cast<int64_t>(w.rank()) - 1; d >= 0; --d) {
      count *= perDim[d][rest % output[2 + d]];
      rest /= output[2 + d];
    }
    bool losesInfo = false;
    APFloat value(count);
    value.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    values.push_back(value);
  }
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get(shape, element), values));
}

/// MaxPool (float or integer) and AveragePool (float) over 1-D to 3-D
/// windows, with pads, strides, dilations and ceil_mode: one linalg.generic
/// over (n, c, o..., r...) of the padded input. Average divides by the
/// window's size, or with count_include_pad = 0 by the number of input
/// elements in it; ceil_mode's extra padding never counts.
template <bool IsMax>
LogicalResult importPool(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  if (node.outputs.size() != 1)
    return importer.emitError(node) << "the Indices output is not supported";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  if (failed(x))
    return failure();
  auto inputType = cast<RankedTensorType>(x->value.getType());
  Type element = inputType.getElementType();
  bool isFloat = isa<FloatType>(element);
  if (!isFloat && (!IsMax || !integerRange(x->type)))
    return importer.emitError(node)
           << "input type " << onnxTypeName(x->type) << " is not supported";
  FailureOr<Window> w = readWindow(importer, node, inputType, std::nullopt);
  if (failed(w))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  MLIRContext *ctx = b.getContext();
  // The identity of the reduction pads: -Inf or the type's lowest value
  // for max, 0 for the sum.
  TypedAttr padValue;
  if (auto floatType = dyn_cast<FloatType>(element))
    padValue = b.getFloatAttr(
        element, IsMax ? APFloat::getInf(floatType.getFloatSemantics(), true)
                       : APFloat::getZero(floatType.getFloatSemantics()));
  else
    padValue = b.getIntegerAttr(element, integerRange(x->type)->qmin);
  Value input = padSpatial(b, loc, x->value, *w, padValue, true);
  auto paddedType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape =
      outputShape(paddedType, paddedType.getDimSize(1), *w);
  Value init = importer.emptyTensor(loc, shape, element, input);
  Value start = arith::ConstantOp::create(b, loc, padValue);
  Value acc = linalg::FillOp::create(b, loc, start, init).getResult(0);
  Value window = tensor::EmptyOp::create(b, loc, w->kernel, element);
  // Dims: n, c, o1..ok, r1..rk.
  unsigned k = w->rank(), count = 2 + 2 * k;
  SmallVector<AffineExpr> xIndex{getAffineDimExpr(0, ctx),
                                 getAffineDimExpr(1, ctx)};
  llvm::append_range(xIndex, windowIndices(ctx, *w, 2, 2 + k));
  SmallVector<AffineExpr> windowIndex,
      outIndex{getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)};
  for (unsigned d = 0; d < k; ++d) {
    windowIndex.push_back(getAffineDimExpr(2 + k + d, ctx));
    outIndex.push_back(getAffineDimExpr(2 + d, ctx));
  }
  SmallVector<AffineMap> maps{AffineMap::get(count, 0, xIndex, ctx),
                              AffineMap::get(count, 0, windowIndex, ctx),
                              AffineMap::get(count, 0, outIndex, ctx)};
  SmallVector<utils::IteratorType> iterators(2 + k,
                                             utils::IteratorType::parallel);
  iterators.append(k, utils::IteratorType::reduction);
  bool isUnsigned = isUnsignedInteger(x->type);
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{acc.getType()}, ValueRange{input, window},
          ValueRange{acc}, maps, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value next;
            if (!IsMax)
              next = arith::AddFOp::create(nb, nl, args[2], args[0]);
            else if (isFloat)
              // NaN propagates, as numpy's max does.
              next = arith::MaximumFOp::create(nb, nl, args[2], args[0]);
            else if (isUnsigned)
              next = arith::MaxUIOp::create(nb, nl, args[2], args[0]);
            else
              next = arith::MaxSIOp::create(nb, nl, args[2], args[0]);
            linalg::YieldOp::create(nb, nl, next);
          })
          .getResult(0);
  if (!IsMax) {
    bool includePad = importer.intAttr(node, "count_include_pad", 0) != 0;
    bool uniform =
        llvm::all_of(w->ceilPads, [](int64_t p) { return p == 0; }) &&
        (includePad || llvm::all_of(w->pads, [](int64_t p) { return p == 0; }));
    Value counts;
    if (uniform) {
      int64_t size = 1;
      for (int64_t extent : w->kernel)
        size *= extent;
      counts = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, element),
                                 b.getFloatAttr(element, size).getValue()));
    } else if (!inputType.hasStaticShape()) {
      return importer.emitError(node)
             << "padding that does not count needs static sizes";
    } else {
      counts = windowCounts(b, loc, *w, inputType, shape, includePad,
                            cast<FloatType>(element));
    }
    FailureOr<Value> mean = importer.broadcastElementwise(
        node, {result, counts}, element,
        [&](OpBuilder &nb, Location nl, ValueRange v) {
          return Value(arith::DivFOp::create(nb, nl, v[0], v[1]));
        });
    if (failed(mean))
      return failure();
    result = *mean;
  }
  importer.set(node.outputs[0], GraphValue{result, x->type});
  return success();
}

/// GlobalAveragePool and GlobalMaxPool: the mean or the maximum over every
/// spatial dim, kept as size 1.
template <bool IsMax>
LogicalResult importGlobalPool(GraphImporter &importer, const OnnxNode &node) {
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
  const llvm::fltSemantics &semantics =
      cast<FloatType>(element).getFloatSemantics();
  Value start = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(element, IsMax ? APFloat::getInf(semantics, true)
                                    : APFloat::getZero(semantics)));
  Value acc = linalg::FillOp::create(b, loc, start, init).getResult(0);
  auto reduced = linalg::ReduceOp::create(
      b, loc, ValueRange{x->value}, ValueRange{acc}, dims,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Value next =
            IsMax ? Value(arith::MaximumFOp::create(nb, nl, args[0], args[1]))
                  : Value(arith::AddFOp::create(nb, nl, args[0], args[1]));
        linalg::YieldOp::create(nb, nl, ValueRange{next});
      });
  FailureOr<Value> mean = reduced.getResult(0);
  if (!IsMax)
    mean = importer.broadcastElementwise(
        node, {reduced.getResult(0)}, element,
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
  table["ConvTranspose"] = importConvTranspose;
  table["QLinearConv"] = importQLinearConv;
  table["MaxPool"] = importPool<true>;
  table["AveragePool"] = importPool<false>;
  table["GlobalAveragePool"] = importGlobalPool<false>;
  table["GlobalMaxPool"] = importGlobalPool<true>;
}
