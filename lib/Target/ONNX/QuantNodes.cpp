//===- QuantNodes.cpp - ONNX's quantization operators ---------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// QuantizeLinear is saturate(roundeven(x / y_scale) + y_zero_point), which is
// quant_affine.quantize with offset = -y_zero_point over the output type's
// range; DequantizeLinear is (x - x_zero_point) * x_scale, dequantize with
// the same offset. Per-axis scales become (C, 1, ..., 1); blocked ones keep
// their shape with block_size, and a partial last block (which ONNX allows
// and quant_affine does not) is quantized on its own and concatenated.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/CalibrationFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// The largest finite value of a narrow float storage type (float8 and
/// float4 values are integers above 1).
int64_t largestFiniteInteger(Type type) {
  return static_cast<int64_t>(largestFinite(cast<FloatType>(type)));
}

/// An ONNX scale (or zero point) laid out for quant_affine over an input of
/// rank `rank`: per-tensor as it is, per-axis `(C)` as `(C, 1, ..., 1)` of
/// rank `rank - axis`.
Value layoutPerAxis(OpBuilder &b, Location loc, Value encoding, int64_t rank,
                    int64_t axis) {
  auto type = cast<RankedTensorType>(encoding.getType());
  if (type.getRank() != 1 || axis == rank - 1)
    return encoding;
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = type.getDimSize(0);
  SmallVector<ReassociationIndices> groups(1);
  for (int64_t d = 0; d < rank - axis; ++d)
    groups[0].push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), encoding,
                                       groups);
}

/// What a QuantizeLinear or DequantizeLinear node reads.
struct QuantNode {
  GraphValue x, scale;
  /// Of the scale's shape.
  std::optional<GraphValue> zeroPoint;
  int64_t axis = 1, blockSize = 0;
  /// One scale for all of x (a one-element scale without block_size).
  bool perTensor = false;
};

/// A one-element static tensor `value` as `shape` (also one element).
Value reshapeOneElement(OpBuilder &b, Location loc, Value value,
                        ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<ReassociationIndices> none;
  if (type.getRank() > 0)
    value = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({}, type.getElementType()), value, none);
  if (!shape.empty())
    value =
        tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value, none);
  return value;
}

FailureOr<QuantNode> readQuantNode(GraphImporter &importer,
                                   const OnnxNode &node) {
  QuantNode q;
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs at least 2 inputs";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> scale = importer.get(node, node.inputs[1]);
  if (failed(x) || failed(scale))
    return failure();
  q.x = *x;
  q.scale = *scale;
  if (std::optional<std::string> name = importer.optionalInput(node, 2)) {
    FailureOr<GraphValue> zeroPoint = importer.get(node, *name);
    if (failed(zeroPoint))
      return failure();
    q.zeroPoint = *zeroPoint;
  }
  auto xType = dyn_cast<RankedTensorType>(q.x.value.getType());
  auto scaleType = dyn_cast<RankedTensorType>(q.scale.value.getType());
  if (!xType || !scaleType)
    return importer.emitError(node) << "needs ranked tensors";
  int64_t rank = xType.getRank();
  q.blockSize = importer.intAttr(node, "block_size", 0);
  // The axis matters (and must be valid) for per-axis and blocked scales.
  q.perTensor = q.blockSize == 0 && scaleType.hasStaticShape() &&
                scaleType.getNumElements() == 1;
  q.axis = importer.intAttr(node, "axis", 1);
  if (!q.perTensor && (q.axis < -rank || q.axis >= rank))
    return importer.emitError(node)
           << "axis " << q.axis << " is out of range for rank " << rank;
  if (q.axis < 0)
    q.axis += rank;
  if (q.blockSize < 0)
    return importer.emitError(node)
           << "block_size " << q.blockSize << " is negative";
  if (q.blockSize > 0 && scaleType.getRank() != rank)
    return importer.emitError(node)
           << "a blocked scale must have the input's rank " << rank << ", got "
           << scaleType;
  if (q.blockSize == 0 && scaleType.getRank() > 1)
    return importer.emitError(node)
           << "the scale must be a scalar or 1-D without block_size, got "
           << scaleType;
  if (q.zeroPoint) {
    // ONNX models pair a scalar scale with a shape-[1] zero point (and the
    // reverse): one element is one value whatever its shape.
    Value zeroPoint = q.zeroPoint->value;
    auto zeroPointType = dyn_cast<RankedTensorType>(zeroPoint.getType());
    if (!zeroPointType)
      return importer.emitError(node) << "needs ranked tensors";
    if (zeroPointType.getShape() != scaleType.getShape()) {
      if (!zeroPointType.hasStaticShape() ||
          zeroPointType.getNumElements() != 1 || !scaleType.hasStaticShape() ||
          scaleType.getNumElements() != 1)
        return importer.emitError(node)
               << "the zero point " << zeroPointType
               << " does not have the scale's shape " << scaleType;
      q.zeroPoint->value =
          reshapeOneElement(importer.builder(), importer.locationOf(node),
                            zeroPoint, scaleType.getShape());
    }
  }
  return q;
}

/// Emits the quantize or dequantize of `q` (results of `resultType`), with
/// a partial last block split off.
template <typename AffineOp>
Value emitQuantizer(OpBuilder &b, Location loc, const QuantNode &q,
                    Value offset, RankedTensorType resultType,
                    QuantRange range) {
  Value x = q.x.value, scale = q.scale.value;
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  if (q.perTensor) {
    // Rank 0 unless x has a rank for the scale's (all-ones) shape.
    auto scaleType = cast<RankedTensorType>(scale.getType());
    if (scaleType.getRank() > rank) {
      scale = reshapeOneElement(b, loc, scale, {});
      if (offset)
        offset = reshapeOneElement(b, loc, offset, {});
    }
    return AffineOp::create(b, loc, resultType, x, scale, offset, range);
  }
  if (q.blockSize == 0) {
    scale = layoutPerAxis(b, loc, scale, rank, q.axis);
    if (offset)
      offset = layoutPerAxis(b, loc, offset, rank, q.axis);
    return AffineOp::create(b, loc, resultType, x, scale, offset, range);
  }
  SmallVector<int64_t> blocks(rank, 1);
  blocks[q.axis] = q.blockSize;
  int64_t size = xType.getDimSize(q.axis);
  int64_t count = cast<RankedTensorType>(scale.getType()).getDimSize(q.axis);
  int64_t tail = ShapedType::isDynamic(size) || ShapedType::isDynamic(count)
                     ? 0
                     : size - (count - 1) * q.blockSize;
  if (tail <= 0 || tail == q.blockSize)
    return AffineOp::create(b, loc, resultType, x, scale, offset, range,
                            blocks);
  // ONNX's partial last block: the full blocks, then the tail, each with
  // its own slice of the scales, concatenated along the axis.
  auto slice = [&](Value v, int64_t start, int64_t length) -> Value {
    if (!v)
      return v;
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    offsets[q.axis] = b.getIndexAttr(start);
    sizes[q.axis] = b.getIndexAttr(length);
    return tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
  };
  int64_t fullLength = (count - 1) * q.blockSize;
  SmallVector<Value> parts;
  auto partType = [&](Value part) {
    return cast<RankedTensorType>(part.getType())
        .clone(resultType.getElementType());
  };
  if (count > 1) {
    Value head = slice(x, 0, fullLength);
    parts.push_back(AffineOp::create(
        b, loc, partType(head), head, slice(scale, 0, count - 1),
        slice(offset, 0, count - 1), range, blocks));
  }
  SmallVector<int64_t> tailBlocks = blocks;
  tailBlocks[q.axis] = tail;
  Value rest = slice(x, fullLength, tail);
  parts.push_back(
      AffineOp::create(b, loc, partType(rest), rest, slice(scale, count - 1, 1),
                       slice(offset, count - 1, 1), range, tailBlocks));
  if (parts.size() == 1)
    return parts.front();
  return tensor::ConcatOp::create(b, loc, resultType, q.axis, parts);
}

LogicalResult importQuantizeLinear(GraphImporter &importer,
                                   const OnnxNode &node) {
  FailureOr<QuantNode> q = readQuantNode(importer, node);
  if (failed(q))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  // The output type: the zero point's, else output_dtype, else uint8.
  OnnxType outputType = OnnxType::UInt8;
  if (q->zeroPoint)
    outputType = q->zeroPoint->type;
  else if (int64_t dtype = importer.intAttr(node, "output_dtype", 0))
    outputType = static_cast<OnnxType>(dtype);
  Type element = elementTypeOf(outputType, importer.context());
  if (!element || outputType == OnnxType::Bool ||
      outputType == OnnxType::Int64 || outputType == OnnxType::UInt64 ||
      outputType == OnnxType::UInt32 || outputType == OnnxType::Float ||
      outputType == OnnxType::Double || outputType == OnnxType::Float16 ||
      outputType == OnnxType::BFloat16)
    return importer.emitError(node)
           << "output type " << onnxTypeName(outputType)
           << " is not a quantized type";
  QuantRange range;
  if (std::optional<QuantRange> grid = integerRange(outputType)) {
    range = *grid;
  } else {
    // Float8/float4: saturate (the default) clamps to the largest finite
    // value; without it values past it overflow as truncf makes them.
    int64_t limit = importer.intAttr(node, "saturate", 1)
                        ? largestFiniteInteger(element)
                        : int64_t(1) << 40;
    range = QuantRange(-limit, limit);
  }
  auto xType = cast<RankedTensorType>(q->x.value.getType());
  auto floatType = cast<FloatType>(
      cast<RankedTensorType>(q->scale.value.getType()).getElementType());
  Value offset;
  if (q->zeroPoint)
    offset = offsetOf(b, loc, *q->zeroPoint, floatType);
  Value result = emitQuantizer<QuantizeOp>(b, loc, *q, offset,
                                           xType.clone(element), range);
  importer.set(node.outputs[0], GraphValue{result, outputType});
  return success();
}

LogicalResult importDequantizeLinear(GraphImporter &importer,
                                     const OnnxNode &node) {
  FailureOr<QuantNode> q = readQuantNode(importer, node);
  if (failed(q))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  QuantRange range;
  Type element = cast<RankedTensorType>(q->x.value.getType()).getElementType();
  if (std::optional<QuantRange> grid = integerRange(q->x.type))
    range = *grid;
  else if (isFloatType(q->x.type) && element.getIntOrFloatBitWidth() <= 8)
    range = QuantRange(-largestFiniteInteger(element),
                       largestFiniteInteger(element));
  else
    return importer.emitError(node) << "input type " << onnxTypeName(q->x.type)
                                    << " is not a quantized type";
  auto scaleType = cast<RankedTensorType>(q->scale.value.getType());
  auto floatType = cast<FloatType>(scaleType.getElementType());
  Value offset;
  if (q->zeroPoint)
    offset = offsetOf(b, loc, *q->zeroPoint, floatType);
  auto xType = cast<RankedTensorType>(q->x.value.getType());
  Value result = emitQuantizer<DequantizeOp>(b, loc, *q, offset,
                                             xType.clone(floatType), range);
  OnnxType floatOnnx = floatType.isF32()    ? OnnxType::Float
                       : floatType.isF16()  ? OnnxType::Float16
                       : floatType.isBF16() ? OnnxType::BFloat16
                                            : OnnxType::Double;
  importer.set(node.outputs[0], GraphValue{result, floatOnnx});
  return success();
}

/// DynamicQuantizeLinear: the uint8 encoding of x's min and max (with 0),
/// which is compute_encoding's asymmetric one on [0, 255].
LogicalResult importDynamicQuantizeLinear(GraphImporter &importer,
                                          const OnnxNode &node) {
  if (node.inputs.size() != 1 || node.outputs.size() != 3)
    return importer.emitError(node) << "needs 1 input and 3 outputs";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  if (failed(x))
    return failure();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  auto xType = cast<RankedTensorType>(x->value.getType());
  if (!xType.getElementType().isF32())
    return importer.emitError(node) << "input must be float, got " << xType;
  auto scalarType = RankedTensorType::get({}, b.getF32Type());
  QuantRange range(0, 255);
  auto encoding = ComputeEncodingOp::create(
      b, loc, scalarType, scalarType, x->value, b.getI64IntegerAttr(range.qmin),
      b.getI64IntegerAttr(range.qmax),
      /*symmetric=*/UnitAttr(), /*torchao=*/UnitAttr(),
      /*no_clipping_err=*/UnitAttr(), /*no_preserve_zero=*/UnitAttr(),
      /*float_zero_point=*/UnitAttr(), /*eps=*/FloatAttr(),
      /*block_size=*/DenseI64ArrayAttr());
  Value scale = encoding.getResult(0), offset = encoding.getResult(1);
  Value y = QuantizeOp::create(b, loc, xType.clone(b.getI8Type()), x->value,
                               scale, offset, range);
  Value zeroPoint =
      arith::FPToUIOp::create(b, loc, scalarType.clone(b.getI8Type()),
                              arith::NegFOp::create(b, loc, offset));
  importer.set(node.outputs[0], GraphValue{y, OnnxType::UInt8});
  importer.set(node.outputs[1], GraphValue{scale, OnnxType::Float});
  importer.set(node.outputs[2], GraphValue{zeroPoint, OnnxType::UInt8});
  return success();
}

} // namespace

void mlir::quant_affine::onnx_import::addQuantNodeImporters(
    NodeImporterTable &table) {
  table["QuantizeLinear"] = importQuantizeLinear;
  table["DequantizeLinear"] = importDequantizeLinear;
  table["DynamicQuantizeLinear"] = importDynamicQuantizeLinear;
}
