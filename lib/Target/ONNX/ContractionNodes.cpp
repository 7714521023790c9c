//===- ContractionNodes.cpp - ONNX's matmuls and softmax ------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 2-D MatMul is linalg.matmul, so that a DequantizeLinear feeding it takes
// the fused dequant-matmul path of the pipelines; batched and broadcast ones
// are one linalg.generic. MatMulInteger subtracts the zero points in int32
// first, as ONNX defines it.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

Value zeroOf(OpBuilder &b, Location loc, Type element) {
  if (isa<FloatType>(element))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, 0));
}

/// numpy's matmul of `lhs` [..., M, K] and `rhs` [..., K, N] (rank-1 operands
/// promoted and the added dim dropped), with the batch dims broadcast.
FailureOr<Value> matmul(GraphImporter &importer, const OnnxNode &node,
                        Value lhs, Value rhs) {
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Type element = lhsType.getElementType();
  bool lhsVector = lhsType.getRank() == 1, rhsVector = rhsType.getRank() == 1;
  if (lhsType.getRank() == 0 || rhsType.getRank() == 0)
    return importer.emitError(node) << "needs operands of rank 1 or more";
  if (lhsVector)
    lhs = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1, lhsType.getDimSize(0)}, element), lhs,
        SmallVector<ReassociationIndices>{{0, 1}});
  if (rhsVector)
    rhs = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({rhsType.getDimSize(0), 1}, element), rhs,
        SmallVector<ReassociationIndices>{{0, 1}});
  lhsType = cast<RankedTensorType>(lhs.getType());
  rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  int64_t rank = std::max(lhsRank, rhsRank);
  int64_t k = lhsType.getDimSize(lhsRank - 1);
  int64_t k2 = rhsType.getDimSize(rhsRank - 2);
  if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(k2) && k != k2)
    return importer.emitError(node)
           << "inner dims differ: " << k << " and " << k2;
  // The result shape: broadcast batch dims, then M and N.
  SmallVector<int64_t> shape(rank, 1);
  SmallVector<std::pair<Value, int64_t>> sizeSources(rank);
  for (int64_t d = 0; d < rank - 2; ++d) {
    for (auto [value, type] :
         {std::pair(lhs, lhsType), std::pair(rhs, rhsType)}) {
      int64_t local = d - (rank - type.getRank());
      if (local < 0)
        continue;
      int64_t size = type.getDimSize(local);
      if (size != 1 && (shape[d] == 1 || ShapedType::isDynamic(shape[d]))) {
        shape[d] = size;
        sizeSources[d] = {value, local};
      }
    }
  }
  shape[rank - 2] = lhsType.getDimSize(lhsRank - 2);
  sizeSources[rank - 2] = {lhs, lhsRank - 2};
  shape[rank - 1] = rhsType.getDimSize(rhsRank - 1);
  sizeSources[rank - 1] = {rhs, rhsRank - 1};
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (ShapedType::isDynamic(shape[d]))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, sizeSources[d].first,
                                                   sizeSources[d].second));
  Value init = tensor::EmptyOp::create(b, loc, shape, element, dynamicSizes);
  Value zero = zeroOf(b, loc, element);
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);

  Value product;
  if (lhsRank == 2 && rhsRank == 2) {
    product = linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                       ValueRange{lhs, rhs}, ValueRange{acc})
                  .getResult(0);
  } else {
    // Dims: the result's, then the reduction (K) last.
    MLIRContext *ctx = importer.context();
    auto operandMap = [&](RankedTensorType type, bool isLhs) {
      SmallVector<AffineExpr> exprs;
      int64_t typeRank = type.getRank();
      for (int64_t local = 0; local < typeRank - 2; ++local) {
        int64_t d = local + (rank - typeRank);
        exprs.push_back(type.getDimSize(local) == 1 && shape[d] != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(d, ctx));
      }
      if (isLhs) {
        exprs.push_back(getAffineDimExpr(rank - 2, ctx));
        exprs.push_back(getAffineDimExpr(rank, ctx));
      } else {
        exprs.push_back(getAffineDimExpr(rank, ctx));
        exprs.push_back(getAffineDimExpr(rank - 1, ctx));
      }
      return AffineMap::get(rank + 1, 0, exprs, ctx);
    };
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps{operandMap(lhsType, true),
                                operandMap(rhsType, false),
                                AffineMap::get(rank + 1, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(element);
    product =
        linalg::GenericOp::create(
            b, loc, TypeRange{acc.getType()}, ValueRange{lhs, rhs},
            ValueRange{acc}, maps, iterators,
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              Value mul =
                  isFloat
                      ? Value(arith::MulFOp::create(nb, nl, args[0], args[1]))
                      : Value(arith::MulIOp::create(nb, nl, args[0], args[1]));
              Value add =
                  isFloat ? Value(arith::AddFOp::create(nb, nl, args[2], mul))
                          : Value(arith::AddIOp::create(nb, nl, args[2], mul));
              linalg::YieldOp::create(nb, nl, add);
            })
            .getResult(0);
  }
  // Drop the dims rank-1 operands added.
  auto productType = cast<RankedTensorType>(product.getType());
  if (lhsVector || rhsVector) {
    SmallVector<int64_t> dropped;
    SmallVector<ReassociationIndices> groups;
    int64_t r = productType.getRank();
    for (int64_t d = 0; d < r - 2; ++d) {
      groups.push_back({d});
      dropped.push_back(productType.getDimSize(d));
    }
    if (lhsVector && rhsVector) {
      if (groups.empty())
        return Value(tensor::CollapseShapeOp::create(
            b, loc, RankedTensorType::get({}, element), product,
            SmallVector<ReassociationIndices>{}));
      groups.back().append({r - 2, r - 1});
    } else if (lhsVector) {
      groups.push_back({r - 2, r - 1});
      dropped.push_back(productType.getDimSize(r - 1));
    } else {
      groups.push_back({r - 2, r - 1});
      dropped.push_back(productType.getDimSize(r - 2));
    }
    product = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(dropped, element), product, groups);
  }
  return product;
}

LogicalResult importMatMul(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 2)
    return importer.emitError(node) << "needs 2 inputs";
  FailureOr<GraphValue> lhs = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> rhs = importer.get(node, node.inputs[1]);
  if (failed(lhs) || failed(rhs))
    return failure();
  if (!isFloatType(lhs->type) || lhs->type != rhs->type)
    return importer.emitError(node)
           << "needs float inputs of one type, got " << onnxTypeName(lhs->type)
           << " and " << onnxTypeName(rhs->type);
  FailureOr<Value> product = matmul(importer, node, lhs->value, rhs->value);
  if (failed(product))
    return failure();
  importer.set(node.outputs[0], GraphValue{*product, lhs->type});
  return success();
}

/// Gemm: alpha * A' B' + beta * C, with A' and B' optionally transposed.
LogicalResult importGemm(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 or 3 inputs";
  FailureOr<GraphValue> a = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> bValue = importer.get(node, node.inputs[1]);
  if (failed(a) || failed(bValue))
    return failure();
  if (!isFloatType(a->type))
    return importer.emitError(node) << "needs float inputs";
  Location loc = importer.locationOf(node);
  Value lhs = a->value, rhs = bValue->value;
  if (cast<RankedTensorType>(lhs.getType()).getRank() != 2 ||
      cast<RankedTensorType>(rhs.getType()).getRank() != 2)
    return importer.emitError(node) << "needs 2-D A and B";
  if (importer.intAttr(node, "transA", 0))
    lhs = importer.transpose(loc, lhs, {1, 0});
  if (importer.intAttr(node, "transB", 0))
    rhs = importer.transpose(loc, rhs, {1, 0});
  FailureOr<Value> product = matmul(importer, node, lhs, rhs);
  if (failed(product))
    return failure();
  double alpha = importer.floatAttr(node, "alpha", 1.0f);
  double beta = importer.floatAttr(node, "beta", 1.0f);
  SmallVector<Value> operands{*product};
  if (std::optional<std::string> c = importer.optionalInput(node, 2)) {
    FailureOr<GraphValue> cValue = importer.get(node, *c);
    if (failed(cValue))
      return failure();
    operands.push_back(cValue->value);
  }
  Type element = cast<RankedTensorType>(product->getType()).getElementType();
  Value result = *product;
  if (alpha != 1.0 || operands.size() > 1) {
    FailureOr<Value> scaled = importer.broadcastElementwise(
        node, operands, element, [&](OpBuilder &nb, Location nl, ValueRange x) {
          Value v = x[0];
          if (alpha != 1.0)
            v = arith::MulFOp::create(
                nb, nl,
                arith::ConstantOp::create(nb, nl,
                                          nb.getFloatAttr(element, alpha)),
                v);
          if (x.size() > 1) {
            Value c = x[1];
            if (beta != 1.0)
              c = arith::MulFOp::create(
                  nb, nl,
                  arith::ConstantOp::create(nb, nl,
                                            nb.getFloatAttr(element, beta)),
                  c);
            v = arith::AddFOp::create(nb, nl, v, c);
          }
          return v;
        });
    if (failed(scaled))
      return failure();
    result = *scaled;
  }
  importer.set(node.outputs[0], GraphValue{result, a->type});
  return success();
}

/// Softmax along `axis` (opset 13 and later; earlier opsets only for the
/// last axis, where both definitions agree).
LogicalResult importSoftmax(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 1)
    return importer.emitError(node) << "needs 1 input";
  FailureOr<GraphValue> x = importer.get(node, node.inputs[0]);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->value.getType());
  int64_t rank = type.getRank();
  int64_t axis =
      importer.intAttr(node, "axis", importer.opset() >= 13 ? -1 : 1);
  if (axis < -rank || axis >= rank)
    return importer.emitError(node) << "axis " << axis << " is out of range";
  if (axis < 0)
    axis += rank;
  if (importer.opset() < 13 && axis != rank - 1)
    return importer.emitError(node)
           << "opset " << importer.opset()
           << " Softmax flattens to 2-D at the axis; only the last axis is "
              "supported";
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  Value init = importer.emptyTensor(loc, type.getShape(), type.getElementType(),
                                    x->value);
  Value result = linalg::SoftmaxOp::create(b, loc, type, x->value, init, axis)
                     .getResult()[0];
  importer.set(node.outputs[0], GraphValue{result, x->type});
  return success();
}

/// MatMulInteger: (A - a_zero_point) (B - b_zero_point) in int32.
LogicalResult importMatMulInteger(GraphImporter &importer,
                                  const OnnxNode &node) {
  if (node.inputs.size() < 2)
    return importer.emitError(node) << "needs 2 to 4 inputs";
  FailureOr<Value> lhs =
      widenToInt32(importer, node, 0, 2, /*zeroPointDim=*/-2);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs =
      widenToInt32(importer, node, 1, 3, /*zeroPointDim=*/-1);
  if (failed(rhs))
    return failure();
  FailureOr<Value> product = matmul(importer, node, *lhs, *rhs);
  if (failed(product))
    return failure();
  importer.set(node.outputs[0], GraphValue{*product, OnnxType::Int32});
  return success();
}

/// QLinearMatMul: the int32 product of the zero-point-corrected operands,
/// times a_scale * b_scale / y_scale in f32, then quantized (to nearest
/// even, plus y_zero_point, saturated) with a scale of 1.
LogicalResult importQLinearMatMul(GraphImporter &importer,
                                  const OnnxNode &node) {
  if (node.inputs.size() != 8)
    return importer.emitError(node) << "needs 8 inputs";
  FailureOr<Value> lhs =
      widenToInt32(importer, node, 0, 2, /*zeroPointDim=*/-2);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs =
      widenToInt32(importer, node, 3, 5, /*zeroPointDim=*/-1);
  if (failed(rhs))
    return failure();
  FailureOr<Value> product = matmul(importer, node, *lhs, *rhs);
  if (failed(product))
    return failure();
  SmallVector<Value> scales;
  for (size_t index : {1, 4, 6}) {
    FailureOr<GraphValue> scale = importer.get(node, node.inputs[index]);
    if (failed(scale))
      return failure();
    if (scale->type != OnnxType::Float)
      return importer.emitError(node)
             << "scale " << index << " of type " << onnxTypeName(scale->type)
             << " is not supported (float)";
    scales.push_back(scale->value);
  }
  return requantizeInt32(importer, node, *product, scales[0], scales[1],
                         scales[2], /*yZeroPointIndex=*/7);
}

} // namespace

void mlir::quant_affine::onnx_import::addContractionNodeImporters(
    NodeImporterTable &table) {
  table["MatMul"] = importMatMul;
  table["Gemm"] = importGemm;
  table["Softmax"] = importSoftmax;
  table["MatMulInteger"] = importMatMulInteger;
  table["QLinearMatMul"] = importQLinearMatMul;
}
