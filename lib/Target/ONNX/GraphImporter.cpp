//===- GraphImporter.cpp - An ONNX graph as a func.func -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Target/ONNX/Import.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;

Type mlir::quant_affine::onnx_import::elementTypeOf(OnnxType type,
                                                    MLIRContext *ctx) {
  Builder b(ctx);
  switch (type) {
  case OnnxType::Float:
    return b.getF32Type();
  case OnnxType::Double:
    return b.getF64Type();
  case OnnxType::Float16:
    return b.getF16Type();
  case OnnxType::BFloat16:
    return b.getBF16Type();
  case OnnxType::Float8E4M3FN:
    return b.getType<Float8E4M3FNType>();
  case OnnxType::Float8E4M3FNUZ:
    return b.getType<Float8E4M3FNUZType>();
  case OnnxType::Float8E5M2:
    return b.getType<Float8E5M2Type>();
  case OnnxType::Float8E5M2FNUZ:
    return b.getType<Float8E5M2FNUZType>();
  case OnnxType::Float4E2M1:
    return b.getType<Float4E2M1FNType>();
  case OnnxType::Float8E8M0:
    return b.getType<Float8E8M0FNUType>();
  case OnnxType::Bool:
    return b.getI1Type();
  case OnnxType::Int2:
  case OnnxType::UInt2:
    return b.getIntegerType(2);
  case OnnxType::Int4:
  case OnnxType::UInt4:
    return b.getIntegerType(4);
  case OnnxType::Int8:
  case OnnxType::UInt8:
    return b.getI8Type();
  case OnnxType::Int16:
  case OnnxType::UInt16:
    return b.getI16Type();
  case OnnxType::Int32:
  case OnnxType::UInt32:
    return b.getI32Type();
  case OnnxType::Int64:
  case OnnxType::UInt64:
    return b.getI64Type();
  default:
    return {};
  }
}

bool mlir::quant_affine::onnx_import::isUnsignedInteger(OnnxType type) {
  return type == OnnxType::UInt2 || type == OnnxType::UInt4 ||
         type == OnnxType::UInt8 || type == OnnxType::UInt16 ||
         type == OnnxType::UInt32 || type == OnnxType::UInt64;
}

bool mlir::quant_affine::onnx_import::isFloatType(OnnxType type) {
  switch (type) {
  case OnnxType::Float:
  case OnnxType::Double:
  case OnnxType::Float16:
  case OnnxType::BFloat16:
  case OnnxType::Float8E4M3FN:
  case OnnxType::Float8E4M3FNUZ:
  case OnnxType::Float8E5M2:
  case OnnxType::Float8E5M2FNUZ:
  case OnnxType::Float4E2M1:
    return true;
  default:
    return false;
  }
}

std::optional<QuantRange>
mlir::quant_affine::onnx_import::integerRange(OnnxType type) {
  unsigned width;
  switch (type) {
  case OnnxType::Int2:
  case OnnxType::UInt2:
    width = 2;
    break;
  case OnnxType::Int4:
  case OnnxType::UInt4:
    width = 4;
    break;
  case OnnxType::Int8:
  case OnnxType::UInt8:
    width = 8;
    break;
  case OnnxType::Int16:
  case OnnxType::UInt16:
    width = 16;
    break;
  case OnnxType::Int32:
    width = 32;
    break;
  default:
    return std::nullopt;
  }
  return QuantRange::ofInteger(width, !isUnsignedInteger(type));
}

Value mlir::quant_affine::onnx_import::offsetOf(OpBuilder &b, Location loc,
                                                GraphValue zeroPoint,
                                                FloatType floatType) {
  auto type = cast<RankedTensorType>(zeroPoint.value.getType());
  auto floatTensor = type.clone(floatType);
  Value converted;
  if (isFloatType(zeroPoint.type))
    converted = arith::ExtFOp::create(b, loc, floatTensor, zeroPoint.value);
  else if (isUnsignedInteger(zeroPoint.type))
    converted = arith::UIToFPOp::create(b, loc, floatTensor, zeroPoint.value);
  else
    converted = arith::SIToFPOp::create(b, loc, floatTensor, zeroPoint.value);
  return arith::NegFOp::create(b, loc, converted);
}

DenseElementsAttr
mlir::quant_affine::onnx_import::denseAttrOf(const OnnxTensor &tensor,
                                             RankedTensorType type) {
  Type element = type.getElementType();
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t count = type.getNumElements();
  // Bits of element `i` of the little-endian storage (4- and 2-bit types
  // packed 8 / bits a byte, lowest bits first).
  auto bitsOf = [&](int64_t i) -> std::optional<APInt> {
    if (bits == 4 || bits == 2) {
      int64_t perByte = 8 / bits;
      size_t byte = static_cast<size_t>(i / perByte);
      if (byte >= tensor.bytes.size())
        return std::nullopt;
      uint8_t packed = static_cast<uint8_t>(tensor.bytes[byte]);
      return APInt(bits, (packed >> (i % perByte * bits)) & ((1u << bits) - 1));
    }
    unsigned width = bits == 1 ? 8 : bits;
    size_t bytes = width / 8;
    size_t start = static_cast<size_t>(i) * bytes;
    if (start + bytes > tensor.bytes.size())
      return std::nullopt;
    uint64_t value = 0;
    for (size_t k = 0; k < bytes; ++k)
      value |= uint64_t(static_cast<uint8_t>(tensor.bytes[start + k]))
               << (8 * k);
    if (bits == 1)
      return APInt(1, value != 0);
    return APInt(bits, value);
  };
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < count; ++i) {
      std::optional<APInt> raw = bitsOf(i);
      if (!raw)
        return {};
      values.push_back(APFloat(floatType.getFloatSemantics(), *raw));
    }
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<APInt> values;
  for (int64_t i = 0; i < count; ++i) {
    std::optional<APInt> raw = bitsOf(i);
    if (!raw)
      return {};
    values.push_back(*raw);
  }
  return DenseElementsAttr::get(type, values);
}

GraphImporter::GraphImporter(const OnnxModel &model, OpBuilder &builder,
                             llvm::StringRef sourceName,
                             const ImportOptions &options)
    : model(model), b(builder), sourceName(sourceName.str()), options(options) {
  if (options.aimetEncodings)
    for (const AimetEncoding &encoding : options.aimetEncodings->encodings)
      encodings[encoding.name] = &encoding;
  auto it = model.opsets.find("");
  if (it != model.opsets.end())
    defaultOpset = it->second;
}

void GraphImporter::set(llvm::StringRef name, GraphValue value) {
  if (const AimetEncoding *encoding = encodings.lookup(name)) {
    Location loc = NameLoc::get(
        StringAttr::get(context(), name),
        FileLineColLoc::get(context(), options.aimetEncodingsPath, 0, 0));
    FailureOr<Value> quantized =
        applyAimetEncoding(*this, *encoding, value.value, loc);
    if (failed(quantized))
      failedEncoding = true;
    else
      value.value = *quantized;
  }
  values[name] = value;
}

Location GraphImporter::locationOf(const OnnxNode &node) {
  std::string name = node.name.empty()
                         ? node.opType + " #" + std::to_string(node.index)
                         : node.name;
  return NameLoc::get(StringAttr::get(context(), name),
                      FileLineColLoc::get(context(), sourceName, 0, 0));
}

InFlightDiagnostic GraphImporter::emitError(const OnnxNode &node) {
  InFlightDiagnostic diag = mlir::emitError(locationOf(node));
  if (node.name.empty())
    diag << "node #" << node.index << " (" << node.opType << "): ";
  else
    diag << "node '" << node.name << "' (" << node.opType << "): ";
  return diag;
}

FailureOr<GraphValue> GraphImporter::get(const OnnxNode &node,
                                         llvm::StringRef name) {
  auto it = values.find(name);
  if (it == values.end())
    return emitError(node) << "input '" << name
                           << "' is not produced by any earlier node, "
                              "initializer or graph input";
  return it->second;
}

std::optional<std::string> GraphImporter::optionalInput(const OnnxNode &node,
                                                        size_t index) const {
  if (index >= node.inputs.size() || node.inputs[index].empty())
    return std::nullopt;
  return node.inputs[index];
}

int64_t GraphImporter::intAttr(const OnnxNode &node, llvm::StringRef name,
                               int64_t fallback) const {
  const OnnxAttribute *attribute = node.attribute(name);
  if (!attribute || attribute->kind != OnnxAttribute::Kind::Int)
    return fallback;
  return attribute->i;
}

FailureOr<GraphValue> GraphImporter::constantOf(const OnnxTensor &tensor,
                                                Location loc) {
  Type element = elementTypeOf(tensor.type, context());
  if (!element)
    return mlir::emitError(loc)
           << "tensor '" << tensor.name << "' has element type "
           << onnxTypeName(tensor.type) << ", which the importer does not hold";
  auto type = RankedTensorType::get(tensor.dims, element);
  auto tooFew = [&] {
    return mlir::emitError(loc)
           << "tensor '" << tensor.name << "' holds " << tensor.bytes.size()
           << " bytes, too few for " << type;
  };
  unsigned bits = element.getIntOrFloatBitWidth();
  // ONNX packs 4- and 2-bit values as the narrow-type emulation does (lowest
  // bits first): their bytes are the blob as they are.
  bool blobLayout = bits % 8 == 0 || bits == 4 || bits == 2;
  if (options.resourceBytes >= 0 && blobLayout &&
      static_cast<int64_t>(tensor.bytes.size()) > options.resourceBytes) {
    size_t size = static_cast<size_t>((type.getNumElements() * bits + 7) / 8);
    if (tensor.bytes.size() < size)
      return tooFew();
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        llvm::ArrayRef<char>(tensor.bytes).take_front(size), alignof(uint64_t));
    auto attr = DenseResourceElementsAttr::get(
        type, tensor.name.empty() ? "initializer" : tensor.name,
        std::move(blob));
    Value constant = arith::ConstantOp::create(b, loc, type, attr);
    return GraphValue{constant, tensor.type};
  }
  DenseElementsAttr attr = denseAttrOf(tensor, type);
  if (!attr)
    return tooFew();
  Value constant = arith::ConstantOp::create(b, loc, attr);
  return GraphValue{constant, tensor.type};
}

std::optional<SmallVector<uint8_t>>
mlir::quant_affine::onnx_import::constantBytes(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    llvm::ArrayRef<char> data = blob->getData();
    return SmallVector<uint8_t>(data.begin(), data.end());
  }
  auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  if (!dense || dense.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  SmallVector<uint8_t> bytes;
  unsigned width = dense.getElementType().getIntOrFloatBitWidth() / 8;
  for (const APInt &v : dense.getValues<APInt>())
    for (unsigned k = 0; k < width; ++k)
      bytes.push_back(static_cast<uint8_t>(v.extractBitsAsZExtValue(8, 8 * k)));
  return bytes;
}

float GraphImporter::floatAttr(const OnnxNode &node, llvm::StringRef name,
                               float fallback) const {
  const OnnxAttribute *attribute = node.attribute(name);
  if (!attribute || attribute->kind != OnnxAttribute::Kind::Float)
    return fallback;
  return attribute->f;
}

std::optional<std::vector<int64_t>>
GraphImporter::intsAttr(const OnnxNode &node, llvm::StringRef name) const {
  const OnnxAttribute *attribute = node.attribute(name);
  if (!attribute || attribute->kind != OnnxAttribute::Kind::Ints)
    return std::nullopt;
  return attribute->ints;
}

FailureOr<SmallVector<int64_t>>
GraphImporter::constantInts(const OnnxNode &node, Value value,
                            llvm::StringRef what) {
  SmallVector<int64_t> ints;
  DenseIntElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr))) {
    for (const APInt &v : attr.getValues<APInt>())
      ints.push_back(v.getSExtValue());
    return ints;
  }
  // A large shape or index initializer kept as a blob (int32 or int64).
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<SmallVector<uint8_t>> bytes = constantBytes(value);
  unsigned bits = type ? type.getElementTypeBitWidth() : 0;
  if (!bytes || (bits != 32 && bits != 64))
    return emitError(node) << what;
  for (size_t i = 0; i + bits / 8 <= bytes->size(); i += bits / 8) {
    uint64_t raw = 0;
    for (unsigned k = 0; k < bits / 8; ++k)
      raw |= uint64_t((*bytes)[i + k]) << (8 * k);
    ints.push_back(APInt(bits, raw).getSExtValue());
  }
  return ints;
}

Value GraphImporter::emptyTensor(Location loc, llvm::ArrayRef<int64_t> shape,
                                 Type element, Value like) {
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, like, dim));
  return tensor::EmptyOp::create(b, loc, shape, element, dynamicSizes);
}

Value GraphImporter::transpose(Location loc, Value value,
                               llvm::ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
    if (type.isDynamicDim(p))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, value, p));
  }
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType(),
                                       dynamicSizes);
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

FailureOr<Value> GraphImporter::broadcastElementwise(
    const OnnxNode &node, llvm::ArrayRef<Value> operands, Type resultElement,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Location loc = locationOf(node);
  int64_t rank = 0;
  for (Value operand : operands)
    rank = std::max(rank, cast<RankedTensorType>(operand.getType()).getRank());
  // The result shape, right-aligned: a static size other than 1 wins; a
  // dynamic dim is taken from the first operand that has it.
  SmallVector<int64_t> shape(rank, 1);
  SmallVector<Value> sizeSource(rank);
  for (Value operand : operands) {
    ArrayRef<int64_t> dims =
        cast<RankedTensorType>(operand.getType()).getShape();
    int64_t lead = rank - static_cast<int64_t>(dims.size());
    for (auto [i, size] : llvm::enumerate(dims)) {
      int64_t &out = shape[lead + i];
      if (size == 1)
        continue;
      if (out != 1 && !ShapedType::isDynamic(out) &&
          !ShapedType::isDynamic(size) && out != size)
        return emitError(node) << "shapes do not broadcast: dim " << lead + i
                               << " is " << out << " and " << size;
      if (out == 1 || ShapedType::isDynamic(out)) {
        if (ShapedType::isDynamic(size) && ShapedType::isDynamic(out))
          continue;
        out = size;
        if (ShapedType::isDynamic(size))
          sizeSource[lead + i] = operand;
      }
    }
  }
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!ShapedType::isDynamic(shape[d]))
      continue;
    Value source = sizeSource[d];
    int64_t lead = rank - cast<RankedTensorType>(source.getType()).getRank();
    dynamicSizes.push_back(tensor::DimOp::create(b, loc, source, d - lead));
  }
  Value init =
      tensor::EmptyOp::create(b, loc, shape, resultElement, dynamicSizes);
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    ArrayRef<int64_t> dims =
        cast<RankedTensorType>(operand.getType()).getShape();
    int64_t lead = rank - static_cast<int64_t>(dims.size());
    SmallVector<AffineExpr> exprs;
    for (auto [i, size] : llvm::enumerate(dims))
      exprs.push_back(size == 1 && shape[lead + i] != 1
                          ? getAffineConstantExpr(0, context())
                          : getAffineDimExpr(lead + i, context()));
    maps.push_back(AffineMap::get(rank, 0, exprs, context()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, operands, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

FailureOr<Value> mlir::quant_affine::onnx_import::widenToInt32(
    GraphImporter &importer, const OnnxNode &node, size_t index,
    size_t zeroPointIndex, int64_t zeroPointDim) {
  OpBuilder &b = importer.builder();
  Type i32 = b.getI32Type();
  FailureOr<GraphValue> value = importer.get(node, node.inputs[index]);
  if (failed(value))
    return failure();
  if (value->type != OnnxType::UInt8 && value->type != OnnxType::Int8)
    return importer.emitError(node)
           << "input " << index << " of type " << onnxTypeName(value->type)
           << " is not supported (int8 or uint8)";
  bool isUnsigned = value->type == OnnxType::UInt8;
  SmallVector<Value> operands{value->value};
  if (std::optional<std::string> zp =
          importer.optionalInput(node, zeroPointIndex)) {
    FailureOr<GraphValue> zeroPoint = importer.get(node, *zp);
    if (failed(zeroPoint))
      return failure();
    Value z = zeroPoint->value;
    auto zType = cast<RankedTensorType>(z.getType());
    int64_t rank = cast<RankedTensorType>(value->value.getType()).getRank();
    int64_t dim = zeroPointDim < 0 ? zeroPointDim + rank : zeroPointDim;
    // (C) pairs with dim `dim`: (C, 1, ..., 1) of rank `rank - dim`.
    if (zType.getRank() == 1 && zType.getDimSize(0) != 1 && dim < rank - 1) {
      SmallVector<int64_t> shape(rank - dim, 1);
      shape[0] = zType.getDimSize(0);
      ReassociationIndices group;
      for (int64_t d = 0; d < rank - dim; ++d)
        group.push_back(d);
      z = tensor::ExpandShapeOp::create(
          b, importer.locationOf(node), zType.clone(shape), z,
          SmallVector<ReassociationIndices>{group});
    }
    operands.push_back(z);
  }
  return importer.broadcastElementwise(
      node, operands, i32, [&](OpBuilder &nb, Location nl, ValueRange x) {
        auto extend = [&](Value v) -> Value {
          return isUnsigned ? Value(arith::ExtUIOp::create(nb, nl, i32, v))
                            : Value(arith::ExtSIOp::create(nb, nl, i32, v));
        };
        Value v = extend(x[0]);
        if (x.size() > 1)
          v = arith::SubIOp::create(nb, nl, v, extend(x[1]));
        return v;
      });
}

LogicalResult mlir::quant_affine::onnx_import::requantizeInt32(
    GraphImporter &importer, const OnnxNode &node, Value accumulation,
    Value xScale, Value wScale, Value yScale, size_t yZeroPointIndex) {
  FailureOr<GraphValue> yZeroPoint =
      importer.get(node, node.inputs[yZeroPointIndex]);
  if (failed(yZeroPoint))
    return failure();
  std::optional<QuantRange> grid = integerRange(yZeroPoint->type);
  if (!grid || yZeroPoint->type == OnnxType::Int32)
    return importer.emitError(node)
           << "output type " << onnxTypeName(yZeroPoint->type)
           << " is not supported";
  OpBuilder &b = importer.builder();
  Location loc = importer.locationOf(node);
  Type f32 = b.getF32Type();
  FailureOr<Value> factor = importer.broadcastElementwise(
      node, {xScale, wScale, yScale}, f32,
      [](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return arith::DivFOp::create(
            nb, nl, arith::MulFOp::create(nb, nl, v[0], v[1]), v[2]);
      });
  if (failed(factor))
    return failure();
  FailureOr<Value> scaled = importer.broadcastElementwise(
      node, {accumulation, *factor}, f32,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        return arith::MulFOp::create(
            nb, nl, arith::SIToFPOp::create(nb, nl, f32, v[0]), v[1]);
      });
  if (failed(scaled))
    return failure();
  auto zType = cast<RankedTensorType>(yZeroPoint->value.getType());
  Value offset = offsetOf(b, loc, *yZeroPoint, cast<FloatType>(f32));
  Value one = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(zType.clone(f32), b.getF32FloatAttr(1)));
  auto scaledType = cast<RankedTensorType>(scaled->getType());
  Value y = QuantizeOp::create(b, loc, scaledType.clone(zType.getElementType()),
                               *scaled, one, offset, *grid);
  importer.set(node.outputs[0], GraphValue{y, yZeroPoint->type});
  return success();
}

OnnxType mlir::quant_affine::onnx_import::onnxTypeOf(Type element) {
  if (element.isF32())
    return OnnxType::Float;
  if (element.isF16())
    return OnnxType::Float16;
  if (element.isBF16())
    return OnnxType::BFloat16;
  if (element.isF64())
    return OnnxType::Double;
  return OnnxType::Undefined;
}

static const NodeImporterTable &nodeImporters() {
  static const NodeImporterTable table = [] {
    NodeImporterTable t;
    addQuantNodeImporters(t);
    addElementwiseNodeImporters(t);
    addShapeNodeImporters(t);
    addContractionNodeImporters(t);
    addConvolutionNodeImporters(t);
    addNormalizationNodeImporters(t);
    addMicrosoftNodeImporters(t);
    return t;
  }();
  return table;
}

LogicalResult GraphImporter::importNode(const OnnxNode &node) {
  if (!node.domain.empty() && node.domain != "com.microsoft")
    return emitError(node) << "domain '" << node.domain << "' is not supported";
  const NodeImporterTable &table = nodeImporters();
  std::string key =
      node.domain.empty() ? node.opType : node.domain + "." + node.opType;
  auto it = table.find(key);
  if (it == table.end())
    return emitError(node) << "op type '" << key << "' is not supported";
  if (failed(it->second(*this, node)) || failedEncoding)
    return failure();
  return success();
}

namespace {

/// The tensor type of a graph input or output, dynamic where the model
/// gives no size.
FailureOr<RankedTensorType> tensorTypeOf(const OnnxValueInfo &info,
                                         MLIRContext *ctx, Location loc) {
  Type element = elementTypeOf(info.type, ctx);
  if (!element)
    return mlir::emitError(loc)
           << "graph value '" << info.name << "' has element type "
           << onnxTypeName(info.type) << ", which the importer does not hold";
  if (!info.shape)
    return mlir::emitError(loc) << "graph value '" << info.name
                                << "' has no shape (its rank is unknown)";
  SmallVector<int64_t> dims;
  for (const OnnxDim &dim : *info.shape)
    dims.push_back(dim.size ? *dim.size : ShapedType::kDynamic);
  return RankedTensorType::get(dims, element);
}

} // namespace

OwningOpRef<ModuleOp> mlir::quant_affine::onnx_import::importOnnxModel(
    const OnnxModel &model, llvm::StringRef sourceName, MLIRContext *ctx,
    const ImportOptions &options) {
  ctx->loadDialect<arith::ArithDialect, cf::ControlFlowDialect,
                   func::FuncDialect, linalg::LinalgDialect, math::MathDialect,
                   tensor::TensorDialect, QuantAffineDialect>();
  Location fileLoc = FileLineColLoc::get(ctx, sourceName, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module->getBody());

  const OnnxGraph &graph = model.graph;
  llvm::StringSet<> initializerNames;
  for (const OnnxTensor &init : graph.initializers)
    initializerNames.insert(init.name);

  // Graph inputs that an initializer does not provide are the arguments.
  SmallVector<const OnnxValueInfo *> arguments;
  SmallVector<Type> argumentTypes, resultTypes;
  for (const OnnxValueInfo &input : graph.inputs) {
    if (initializerNames.contains(input.name))
      continue;
    FailureOr<RankedTensorType> type = tensorTypeOf(input, ctx, fileLoc);
    if (failed(type))
      return nullptr;
    arguments.push_back(&input);
    argumentTypes.push_back(*type);
  }
  for (const OnnxValueInfo &output : graph.outputs) {
    FailureOr<RankedTensorType> type = tensorTypeOf(output, ctx, fileLoc);
    if (failed(type))
      return nullptr;
    resultTypes.push_back(*type);
  }

  auto function =
      func::FuncOp::create(builder, fileLoc, kGraphFunctionName,
                           builder.getFunctionType(argumentTypes, resultTypes));
  if (!graph.name.empty())
    function->setAttr("onnx.graph_name", builder.getStringAttr(graph.name));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  if (options.aimetEncodings &&
      failed(checkAimetEncodingNames(
          *options.aimetEncodings, graph,
          FileLineColLoc::get(ctx, options.aimetEncodingsPath, 0, 0))))
    return nullptr;
  GraphImporter importer(model, builder, sourceName, options);
  for (auto [info, argument] : llvm::zip(arguments, entry->getArguments()))
    importer.set(info->name, GraphValue{argument, info->type});
  for (const OnnxTensor &init : graph.initializers) {
    FailureOr<GraphValue> constant = importer.constantOf(init, fileLoc);
    if (failed(constant))
      return nullptr;
    importer.set(init.name, *constant);
  }
  if (importer.encodingFailed())
    return nullptr;
  for (const OnnxNode &node : graph.nodes)
    if (failed(importer.importNode(node)))
      return nullptr;

  SmallVector<Value> results;
  for (auto [output, type] : llvm::zip(graph.outputs, resultTypes)) {
    OnnxNode returnNode;
    returnNode.name = output.name;
    returnNode.opType = "graph output";
    FailureOr<GraphValue> value = importer.get(returnNode, output.name);
    if (failed(value))
      return nullptr;
    Value result = value->value;
    if (result.getType() != type)
      result = tensor::CastOp::create(builder, fileLoc, type, result);
    results.push_back(result);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  return module;
}
