//===- MicrosoftNodes.cpp - com.microsoft operators (MatMulNBits) ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MatMulNBits (ONNX Runtime's contrib op): Y = A @ W^T with W [N, K] stored
// as unsigned `bits`-bit codes in blocks of `block_size` along K,
// W = (q - zero_point) * scale per block. Its packing (two 4-bit codes a
// byte, low nibble first, blocks contiguous per row) is quant_affine's
// packed i4 storage of an [N, K] tensor, so the codes become one constant
// and the weight a dequantize feeding linalg.matmul with a transposed B:
// the fused dequant-matmul path of the pipelines (docs/FusedMatmul.md).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;

namespace {

LogicalResult importMatMulNBits(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() < 3)
    return importer.emitError(node) << "needs at least 3 inputs";
  int64_t k = importer.intAttr(node, "K", 0),
          n = importer.intAttr(node, "N", 0);
  int64_t bits = importer.intAttr(node, "bits", 4);
  int64_t blockSize = importer.intAttr(node, "block_size", 0);
  if (bits != 4 && bits != 8)
    return importer.emitError(node)
           << "bits = " << bits << " is not supported (4 or 8)";
  if (k <= 0 || n <= 0 || blockSize <= 0 || k % blockSize != 0)
    return importer.emitError(node)
           << "K = " << k << ", N = " << n << ", block_size = " << blockSize
           << " is not supported: K must be a multiple of block_size";
  if (importer.optionalInput(node, 4))
    return importer.emitError(node) << "g_idx is not supported";
  FailureOr<GraphValue> a = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> packed = importer.get(node, node.inputs[1]);
  FailureOr<GraphValue> scales = importer.get(node, node.inputs[2]);
  if (failed(a) || failed(packed) || failed(scales))
    return failure();
  if (a->type != OnnxType::Float || scales->type != OnnxType::Float)
    return importer.emitError(node) << "only float A and scales are supported";
  std::optional<SmallVector<uint8_t>> codes = constantBytes(packed->value);
  if (!codes)
    return importer.emitError(node)
           << "B is not supported unless it is a constant";
  int64_t blocks = k / blockSize;
  if (static_cast<int64_t>(codes->size()) != n * k * bits / 8)
    return importer.emitError(node)
           << "B holds " << codes->size() << " bytes, not N * K * bits / 8";
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  MLIRContext *ctx = importer.context();

  // The codes as an [N, K] tensor of unsigned `bits`-bit integers. B's
  // bytes are already quant_affine's packed storage of that tensor, so a
  // blob is shared as it is.
  auto codeType = RankedTensorType::get({n, k}, b.getIntegerType(bits));
  Value q;
  auto bConstant = packed->value.getDefiningOp<arith::ConstantOp>();
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(bConstant.getValue())) {
    q = arith::ConstantOp::create(
        b, loc, codeType,
        DenseResourceElementsAttr::get(codeType, resource.getRawHandle()));
  } else {
    SmallVector<APInt> values;
    values.reserve(n * k);
    for (int64_t i = 0; i < n * k; ++i) {
      uint8_t byte = bits == 8 ? (*codes)[i] : (*codes)[i / 2];
      uint8_t code = bits == 8 ? byte : (i % 2 ? byte >> 4 : byte & 0xF);
      values.push_back(APInt(bits, code));
    }
    q = arith::ConstantOp::create(b, loc,
                                  DenseElementsAttr::get(codeType, values));
  }

  // Scales [N * blocks] as [N, blocks]; offsets -zero_point (default
  // 2^(bits-1)), packed like B when they are integers.
  auto encodingType = RankedTensorType::get({n, blocks}, b.getF32Type());
  Value scale =
      tensor::ExpandShapeOp::create(b, loc, encodingType, scales->value,
                                    SmallVector<ReassociationIndices>{{0, 1}});
  Value offset;
  if (std::optional<std::string> zpName = importer.optionalInput(node, 3)) {
    FailureOr<GraphValue> zp = importer.get(node, *zpName);
    if (failed(zp))
      return failure();
    if (zp->type == OnnxType::Float) {
      offset =
          arith::NegFOp::create(b, loc,
                                tensor::ExpandShapeOp::create(
                                    b, loc, encodingType, zp->value,
                                    SmallVector<ReassociationIndices>{{0, 1}}));
    } else {
      std::optional<SmallVector<uint8_t>> zpBytes = constantBytes(zp->value);
      if (!zpBytes)
        return importer.emitError(node)
               << "integer zero points are not supported unless constant";
      int64_t perRow = (blocks * bits + 7) / 8;
      if (static_cast<int64_t>(zpBytes->size()) != n * perRow)
        return importer.emitError(node)
               << "zero_points hold " << zpBytes->size() << " bytes";
      SmallVector<float> offsets;
      for (int64_t row = 0; row < n; ++row)
        for (int64_t j = 0; j < blocks; ++j) {
          uint8_t byte = (*zpBytes)[row * perRow + (bits == 8 ? j : j / 2)];
          uint8_t zpValue = bits == 8 ? byte : (j % 2 ? byte >> 4 : byte & 0xF);
          offsets.push_back(-static_cast<float>(zpValue));
        }
      offset = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(encodingType, ArrayRef<float>(offsets)));
    }
  } else {
    offset = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(encodingType,
                               -static_cast<float>(int64_t(1) << (bits - 1))));
  }
  QuantRange range(0, (int64_t(1) << bits) - 1);
  Value weight = DequantizeOp::create(
      b, loc, RankedTensorType::get({n, k}, b.getF32Type()), q, scale, offset,
      range, ArrayRef<int64_t>{1, blockSize});

  // A [..., K] as [M, K]; y = A @ W^T; back to [..., N].
  auto aType = cast<RankedTensorType>(a->value.getType());
  if (aType.getRank() < 2 || aType.getDimSize(aType.getRank() - 1) != k)
    return importer.emitError(node)
           << "A must be [..., " << k << "], got " << aType;
  Value lhs = a->value;
  SmallVector<ReassociationIndices> groups;
  if (aType.getRank() > 2) {
    groups.emplace_back();
    for (int64_t d = 0; d < aType.getRank() - 1; ++d)
      groups.back().push_back(d);
    groups.push_back({aType.getRank() - 1});
    lhs = tensor::CollapseShapeOp::create(b, loc, lhs, groups);
  }
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  Value init = importer.emptyTensor(loc, {lhsType.getDimSize(0), n},
                                    b.getF32Type(), lhs);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value acc = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  AffineExpr m = getAffineDimExpr(0, ctx), col = getAffineDimExpr(1, ctx),
             red = getAffineDimExpr(2, ctx);
  SmallVector<Attribute> maps{
      AffineMapAttr::get(AffineMap::get(3, 0, {m, red}, ctx)),
      AffineMapAttr::get(AffineMap::get(3, 0, {col, red}, ctx)),
      AffineMapAttr::get(AffineMap::get(3, 0, {m, col}, ctx))};
  auto matmul =
      linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                               ValueRange{lhs, weight}, ValueRange{acc},
                               ArrayRef<NamedAttribute>{b.getNamedAttr(
                                   "indexing_maps", b.getArrayAttr(maps))});
  Value y = matmul.getResult(0);
  if (aType.getRank() > 2) {
    SmallVector<int64_t> shape(aType.getShape().drop_back());
    shape.push_back(n);
    y = tensor::ExpandShapeOp::create(b, loc, aType.clone(shape), y, groups);
  }
  if (std::optional<std::string> biasName = importer.optionalInput(node, 5)) {
    FailureOr<GraphValue> bias = importer.get(node, *biasName);
    if (failed(bias))
      return failure();
    FailureOr<Value> biased = importer.broadcastElementwise(
        node, {y, bias->value}, b.getF32Type(),
        [](OpBuilder &nb, Location nl, ValueRange v) -> Value {
          return arith::AddFOp::create(nb, nl, v[0], v[1]);
        });
    if (failed(biased))
      return failure();
    y = *biased;
  }
  importer.set(node.outputs[0], GraphValue{y, OnnxType::Float});
  return success();
}

} // namespace

void mlir::quant_affine::onnx_import::addMicrosoftNodeImporters(
    NodeImporterTable &table) {
  table["com.microsoft.MatMulNBits"] = importMatMulNBits;
}
