//===- ShapeNodes.cpp - ONNX's data movement operators --------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "RuntimeShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// `value` as a tensor of the static `shape` (same element count).
Value reshapeTo(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  auto shapeType = RankedTensorType::get({static_cast<int64_t>(shape.size())},
                                         b.getI64Type());
  Value shapeValue = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(shapeType, shape));
  return tensor::ReshapeOp::create(b, loc, type.clone(shape), value,
                                   shapeValue);
}

/// Reshape: 0 copies the input's dim (unless allowzero), -1 is inferred.
LogicalResult importReshape(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 2)
    return importer.emitError(node) << "needs 2 inputs";
  FailureOr<GraphValue> data = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> shapeInput = importer.get(node, node.inputs[1]);
  if (failed(data) || failed(shapeInput))
    return failure();
  bool allowZero = importer.intAttr(node, "allowzero", 0);
  auto type = cast<RankedTensorType>(data->value.getType());
  auto shapeType = cast<RankedTensorType>(shapeInput->value.getType());
  if (!matchPattern(shapeInput->value, m_Constant()) ||
      !type.hasStaticShape()) {
    // A shape computed by the graph (or an input of unknown size): the
    // sizes are worked out, and checked, when the model runs.
    if (shapeType.getRank() != 1 || shapeType.isDynamicDim(0) ||
        !shapeType.getElementType().isInteger(64))
      return importer.emitError(node)
             << "needs a 1-D int64 shape of static length, got " << shapeType;
    Value result =
        reshapeAtRuntime(importer.builder(), importer.locationOf(node),
                         data->value, shapeInput->value, allowZero, "Reshape");
    importer.set(node.outputs[0], GraphValue{result, data->type});
    return success();
  }
  FailureOr<SmallVector<int64_t>> shape = importer.constantInts(
      node, shapeInput->value, "needs a constant integer shape");
  if (failed(shape))
    return failure();
  int64_t known = 1, inferred = -1;
  for (auto [i, size] : llvm::enumerate(*shape)) {
    if (size == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= type.getRank())
        return importer.emitError(node)
               << "shape entry " << i << " copies a dim the input lacks";
      size = type.getDimSize(i);
    }
    if (size == -1) {
      if (inferred >= 0)
        return importer.emitError(node) << "more than one -1 in the shape";
      inferred = i;
      continue;
    }
    if (size < 0)
      return importer.emitError(node) << "negative shape entry " << size;
    known *= size;
  }
  if (inferred >= 0) {
    if (known == 0 || type.getNumElements() % known != 0)
      return importer.emitError(node) << "cannot infer the -1 of the shape";
    (*shape)[inferred] = type.getNumElements() / known;
  } else if (known != type.getNumElements()) {
    return importer.emitError(node)
           << "the shape holds " << known << " elements, the input "
           << type.getNumElements();
  }
  Value result = reshapeTo(importer.builder(), importer.locationOf(node),
                           data->value, *shape);
  importer.set(node.outputs[0], GraphValue{result, data->type});
  return success();
}

/// Flatten: [prod(dims before axis), prod(dims from axis)].
LogicalResult importFlatten(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  FailureOr<GraphValue> data = importer.get(node, node.inputs[0]);
  if (failed(data))
    return failure();
  auto type = cast<RankedTensorType>(data->value.getType());
  if (!type.hasStaticShape())
    return importer.emitError(node)
           << "needs a static input shape, got " << type;
  int64_t rank = type.getRank();
  int64_t axis = importer.intAttr(node, "axis", 1);
  if (axis < -rank || axis > rank)
    return importer.emitError(node) << "axis " << axis << " is out of range";
  if (axis < 0)
    axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= type.getDimSize(d);
  Value result = reshapeTo(importer.builder(), importer.locationOf(node),
                           data->value, {outer, inner});
  importer.set(node.outputs[0], GraphValue{result, data->type});
  return success();
}

/// Transpose: linalg.transpose by `perm` (reversed dims by default).
LogicalResult importTranspose(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  FailureOr<GraphValue> data = importer.get(node, node.inputs[0]);
  if (failed(data))
    return failure();
  auto type = cast<RankedTensorType>(data->value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm;
  if (std::optional<std::vector<int64_t>> attr =
          importer.intsAttr(node, "perm"))
    perm.assign(attr->begin(), attr->end());
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  SmallVector<bool> seen(rank, false);
  if (static_cast<int64_t>(perm.size()) != rank)
    return importer.emitError(node)
           << "perm has " << perm.size() << " entries for rank " << rank;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return importer.emitError(node) << "perm is not a permutation";
    seen[p] = true;
  }
  Value result =
      importer.transpose(importer.locationOf(node), data->value, perm);
  importer.set(node.outputs[0], GraphValue{result, data->type});
  return success();
}

/// Concat along `axis`.
LogicalResult importConcat(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.empty())
    return importer.emitError(node) << "needs inputs";
  SmallVector<Value> parts;
  OnnxType onnxType = OnnxType::Undefined;
  for (const std::string &name : node.inputs) {
    FailureOr<GraphValue> part = importer.get(node, name);
    if (failed(part))
      return failure();
    parts.push_back(part->value);
    onnxType = part->type;
  }
  int64_t rank = cast<RankedTensorType>(parts[0].getType()).getRank();
  int64_t axis = importer.intAttr(node, "axis", 0);
  if (axis < -rank || axis >= rank)
    return importer.emitError(node) << "axis " << axis << " is out of range";
  if (axis < 0)
    axis += rank;
  if (parts.size() == 1) {
    importer.set(node.outputs[0], GraphValue{parts[0], onnxType});
    return success();
  }
  Value result = tensor::ConcatOp::create(
      importer.builder(), importer.locationOf(node), axis, parts);
  importer.set(node.outputs[0], GraphValue{result, onnxType});
  return success();
}

/// Gather along `axis`: out[i..., j..., k...] = data[i..., idx[j...], k...],
/// negative indices counted from the end.
LogicalResult importGather(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 2)
    return importer.emitError(node) << "needs 2 inputs";
  FailureOr<GraphValue> data = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> indices = importer.get(node, node.inputs[1]);
  if (failed(data) || failed(indices))
    return failure();
  if (indices->type != OnnxType::Int64 && indices->type != OnnxType::Int32)
    return importer.emitError(node)
           << "indices of type " << onnxTypeName(indices->type)
           << " are not supported";
  auto dataType = cast<RankedTensorType>(data->value.getType());
  auto indexType = cast<RankedTensorType>(indices->value.getType());
  int64_t rank = dataType.getRank(), indexRank = indexType.getRank();
  int64_t axis = importer.intAttr(node, "axis", 0);
  if (axis < -rank || axis >= rank)
    return importer.emitError(node) << "axis " << axis << " is out of range";
  if (axis < 0)
    axis += rank;
  if (!dataType.hasStaticShape() || !indexType.hasStaticShape())
    return importer.emitError(node) << "dynamic shapes are not supported";
  SmallVector<int64_t> shape(dataType.getShape().take_front(axis));
  llvm::append_range(shape, indexType.getShape());
  llvm::append_range(shape, dataType.getShape().drop_front(axis + 1));
  int64_t outRank = shape.size();
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  MLIRContext *ctx = importer.context();
  Value init =
      tensor::EmptyOp::create(b, loc, shape, dataType.getElementType());
  SmallVector<AffineExpr> indexExprs;
  for (int64_t d = 0; d < indexRank; ++d)
    indexExprs.push_back(getAffineDimExpr(axis + d, ctx));
  SmallVector<AffineMap> maps{AffineMap::get(outRank, 0, indexExprs, ctx),
                              b.getMultiDimIdentityMap(outRank)};
  SmallVector<utils::IteratorType> iterators(outRank,
                                             utils::IteratorType::parallel);
  int64_t axisSize = dataType.getDimSize(axis);
  Value source = data->value;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices->value},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value index =
            arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0]);
        Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
        Value size = arith::ConstantIndexOp::create(nb, nl, axisSize);
        Value negative = arith::CmpIOp::create(
            nb, nl, arith::CmpIPredicate::slt, index, zero);
        index = arith::SelectOp::create(
            nb, nl, negative, arith::AddIOp::create(nb, nl, index, size),
            index);
        SmallVector<Value> position;
        for (int64_t d = 0; d < axis; ++d)
          position.push_back(linalg::IndexOp::create(nb, nl, d));
        position.push_back(index);
        for (int64_t d = axis + 1; d < rank; ++d)
          position.push_back(
              linalg::IndexOp::create(nb, nl, d - 1 + indexRank));
        Value element = tensor::ExtractOp::create(nb, nl, source, position);
        linalg::YieldOp::create(nb, nl, element);
      });
  importer.set(node.outputs[0], GraphValue{generic.getResult(0), data->type});
  return success();
}

/// Unsqueeze and Squeeze: the axes (an attribute before opset 13, a
/// constant input since) inserted or removed, as a reshape.
template <bool Insert>
LogicalResult importSqueezeLike(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.empty())
    return importer.emitError(node) << "needs an input";
  FailureOr<GraphValue> data = importer.get(node, node.inputs[0]);
  if (failed(data))
    return failure();
  auto type = cast<RankedTensorType>(data->value.getType());
  SmallVector<int64_t> axes;
  if (std::optional<std::string> axesName = importer.optionalInput(node, 1)) {
    FailureOr<GraphValue> axesValue = importer.get(node, *axesName);
    if (failed(axesValue))
      return failure();
    auto axesType = cast<RankedTensorType>(axesValue->value.getType());
    if (!matchPattern(axesValue->value, m_Constant()) ||
        !type.hasStaticShape()) {
      // Axes computed by the graph: the result's sizes are worked out, and
      // checked, when the model runs.
      if (axesType.getRank() != 1 || axesType.isDynamicDim(0) ||
          !axesType.getElementType().isInteger(64))
        return importer.emitError(node)
               << "needs 1-D int64 axes of static length, got " << axesType;
      Value result = squeezeAtRuntime(
          importer.builder(), importer.locationOf(node), data->value,
          axesValue->value, Insert, Insert ? "Unsqueeze" : "Squeeze");
      importer.set(node.outputs[0], GraphValue{result, data->type});
      return success();
    }
    FailureOr<SmallVector<int64_t>> constant = importer.constantInts(
        node, axesValue->value, "needs constant integer axes");
    if (failed(constant))
      return failure();
    axes = *constant;
  } else if (auto attr = importer.intsAttr(node, "axes")) {
    axes.assign(attr->begin(), attr->end());
  }
  if (!type.hasStaticShape())
    return importer.emitError(node)
           << "an input of dynamic shape needs its axes as an input";
  int64_t rank =
      type.getRank() + (Insert ? static_cast<int64_t>(axes.size()) : 0);
  for (int64_t &axis : axes) {
    if (axis < -rank || axis >= rank)
      return importer.emitError(node) << "axis " << axis << " is out of range";
    if (axis < 0)
      axis += rank;
  }
  SmallVector<int64_t> shape;
  if (Insert) {
    ArrayRef<int64_t> dims = type.getShape();
    size_t next = 0;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(llvm::is_contained(axes, d) ? 1 : dims[next++]);
  } else {
    for (int64_t d = 0; d < type.getRank(); ++d) {
      bool listed =
          axes.empty() ? type.getDimSize(d) == 1 : llvm::is_contained(axes, d);
      if (listed && type.getDimSize(d) != 1)
        return importer.emitError(node) << "dim " << d << " has size "
                                        << type.getDimSize(d) << ", not 1";
      if (!listed)
        shape.push_back(type.getDimSize(d));
    }
  }
  Value result = reshapeTo(importer.builder(), importer.locationOf(node),
                           data->value, shape);
  importer.set(node.outputs[0], GraphValue{result, data->type});
  return success();
}

} // namespace

void mlir::quant_affine::onnx_import::addShapeNodeImporters(
    NodeImporterTable &table) {
  table["Reshape"] = importReshape;
  table["Flatten"] = importFlatten;
  table["Transpose"] = importTranspose;
  table["Concat"] = importConcat;
  table["Gather"] = importGather;
  table["Unsqueeze"] = importSqueezeLike<true>;
  table["Squeeze"] = importSqueezeLike<false>;
}
