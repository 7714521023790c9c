//===- AimetQdq.cpp - AIMET's encodings as qdq on graph tensors -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// AIMET's ONNX simulation puts one quantizer on a tensor and routes every
// consumer through it; so does the importer, when the tensor is named
// (GraphImporter::set). Formats 0.6.1 and 1.0.0 do not store the axes of
// per-channel and per-block encodings: AIMET chose them from the op that
// consumes the parameter, and so does this file.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// A parameter's (channel axis, block axis) as AIMET's ONNX quantsim picks
/// them from its consumer (_get_quantization_axes): Conv (0, 1),
/// ConvTranspose (1, 0), Gemm (0, 1) with transB else (1, 0), MatMul
/// (-1, -2). Nothing for other consumers.
std::optional<std::pair<int64_t, int64_t>> consumerAxes(const OnnxGraph &graph,
                                                        llvm::StringRef name,
                                                        std::string &consumer) {
  for (const OnnxNode &node : graph.nodes) {
    auto input = llvm::find(node.inputs, name);
    if (input == node.inputs.end())
      continue;
    consumer = node.opType;
    if (input - node.inputs.begin() != 1)
      return std::nullopt;
    if (node.opType == "Conv")
      return std::make_pair(int64_t{0}, int64_t{1});
    if (node.opType == "ConvTranspose")
      return std::make_pair(int64_t{1}, int64_t{0});
    if (node.opType == "MatMul")
      return std::make_pair(int64_t{-1}, int64_t{-2});
    if (node.opType == "Gemm") {
      const OnnxAttribute *transB = node.attribute("transB");
      bool transposed =
          transB && transB->kind == OnnxAttribute::Kind::Int && transB->i != 0;
      return transposed ? std::make_pair(int64_t{0}, int64_t{1})
                        : std::make_pair(int64_t{1}, int64_t{0});
    }
    return std::nullopt;
  }
  consumer = "no node";
  return std::nullopt;
}

} // namespace

LogicalResult mlir::quant_affine::onnx_import::checkAimetEncodingNames(
    const AimetEncodingFile &file, const OnnxGraph &graph, Location loc) {
  llvm::StringSet<> tensors;
  for (const OnnxValueInfo &input : graph.inputs)
    tensors.insert(input.name);
  for (const OnnxTensor &init : graph.initializers)
    tensors.insert(init.name);
  for (const OnnxNode &node : graph.nodes)
    for (const std::string &output : node.outputs)
      tensors.insert(output);
  llvm::StringSet<> seen;
  for (const AimetEncoding &encoding : file.encodings) {
    if (!tensors.contains(encoding.name))
      return emitError(loc) << encoding.origin << ": tensor '" << encoding.name
                            << "' is not in the graph";
    if (!seen.insert(encoding.name).second)
      return emitError(loc) << encoding.origin << ": tensor '" << encoding.name
                            << "' has a second encoding";
  }
  return success();
}

FailureOr<Value> mlir::quant_affine::onnx_import::applyAimetEncoding(
    GraphImporter &importer, const AimetEncoding &encoding, Value value,
    Location loc) {
  auto fail = [&]() { return emitError(loc) << encoding.origin << ": "; };
  OpBuilder &b = importer.builder();
  auto type = cast<RankedTensorType>(value.getType());
  if (!isa<FloatType>(type.getElementType()))
    return fail() << "tensor '" << encoding.name << "' is " << type
                  << ": AIMET's encodings apply to float tensors";
  if (encoding.isFloat)
    return FloatQDQOp::create(b, loc, type, value, Value(),
                              encoding.exponentBits, encoding.mantissaBits,
                              /*finite=*/false, /*unsigned_zero=*/false,
                              DenseI64ArrayAttr())
        .getResult();

  // The scale's shape: rank 0 per tensor, else the tensor's rank with the
  // channel's size on the channel axis and the block count on the block
  // axis.
  int64_t rank = type.getRank();
  llvm::ArrayRef<int64_t> dims = type.getShape();
  SmallVector<int64_t> scaleShape;
  std::optional<int64_t> channelAxis;
  if (encoding.layout != AimetEncoding::Layout::PerTensor) {
    std::string consumer;
    std::optional<std::pair<int64_t, int64_t>> axes =
        consumerAxes(importer.onnxModel().graph, encoding.name, consumer);
    auto normalize = [&](int64_t axis) -> std::optional<int64_t> {
      if (axis < -rank || axis >= rank)
        return std::nullopt;
      return axis < 0 ? axis + rank : axis;
    };
    bool perChannel = encoding.layout == AimetEncoding::Layout::PerChannel;
    if (!encoding.scaleShape.empty()) {
      // 2.x per block: the file gives the scale's full shape.
      scaleShape.assign(encoding.scaleShape.begin(), encoding.scaleShape.end());
      if (static_cast<int64_t>(scaleShape.size()) != rank)
        return fail() << "a scale of rank " << scaleShape.size()
                      << " does not fit tensor '" << encoding.name
                      << "' of type " << type;
    } else {
      std::optional<int64_t> axis, blockAxis;
      if (encoding.axis)
        axis = normalize(*encoding.axis);
      else if (rank == 1)
        axis = 0;
      else if (axes)
        axis = normalize(axes->first);
      if (!perChannel && axes)
        blockAxis = normalize(axes->second);
      if (!axis || (!perChannel && !blockAxis))
        return fail() << "no axis for the "
                      << (perChannel ? "per-channel" : "per-block")
                      << " encoding of '" << encoding.name << "' (" << type
                      << ", consumed by " << consumer
                      << "): the file does not store it, and AIMET picks "
                         "it only for weights of Conv, ConvTranspose, "
                         "Gemm and MatMul";
      channelAxis = axis;
      scaleShape.assign(rank, 1);
      if (ShapedType::isDynamic(dims[*axis]))
        return fail() << "tensor '" << encoding.name << "' has a dynamic "
                      << "channel dim";
      scaleShape[*axis] = dims[*axis];
      if (!perChannel) {
        if (ShapedType::isDynamic(dims[*blockAxis]) ||
            dims[*blockAxis] % encoding.blockSize != 0)
          return fail() << "block_size " << encoding.blockSize
                        << " does not divide dim " << *blockAxis << " of "
                        << type;
        scaleShape[*blockAxis] = dims[*blockAxis] / encoding.blockSize;
      }
    }
  }

  // Block sizes: each dim over its scale dim, exactly.
  SmallVector<int64_t> blockSize;
  int64_t scaleCount = 1;
  for (auto [d, size] : llvm::enumerate(scaleShape)) {
    scaleCount *= size;
    if (ShapedType::isDynamic(dims[d]) || size <= 0 || dims[d] % size != 0)
      return fail() << "a scale of shape ["
                    << llvm::make_range(scaleShape.begin(), scaleShape.end())
                    << "] does not tile tensor '" << encoding.name
                    << "' of type " << type;
    blockSize.push_back(dims[d] / size);
  }
  bool lpbq = !encoding.lpbqIntScales.empty();
  size_t expected =
      lpbq ? encoding.lpbqIntScales.size() : encoding.scales.size();
  if (static_cast<int64_t>(expected) != scaleCount)
    return fail() << expected << " scales do not fit tensor '" << encoding.name
                  << "' of type " << type << " (it needs " << scaleCount << ")";

  // Scales and offsets in f32, as AIMET's quantizers hold them; an LPBQ
  // block's scale is the f32 product of its channel's scale and its
  // integer.
  SmallVector<float> scales, offsets;
  for (int64_t i = 0; i < scaleCount; ++i) {
    if (!lpbq) {
      scales.push_back(static_cast<float>(encoding.scales[i]));
      offsets.push_back(static_cast<float>(encoding.offsets[i]));
      continue;
    }
    int64_t stride = 1;
    for (int64_t d = rank - 1; d > *channelAxis; --d)
      stride *= scaleShape[d];
    int64_t channel = (i / stride) % scaleShape[*channelAxis];
    scales.push_back(static_cast<float>(encoding.scales[channel]) *
                     static_cast<float>(encoding.lpbqIntScales[i]));
    offsets.push_back(static_cast<float>(encoding.offsets[channel]));
  }
  auto encodingType = RankedTensorType::get(scaleShape, b.getF32Type());
  Value scale = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(encodingType, llvm::ArrayRef(scales)));
  Value offset = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(encodingType, llvm::ArrayRef(offsets)));
  bool tiled = llvm::any_of(llvm::enumerate(scaleShape), [&](auto pair) {
    return pair.value() != 1 && pair.value() != dims[pair.index()];
  });
  return QDQOp::create(b, loc, value, scale, offset, encoding.range,
                       tiled ? llvm::ArrayRef(blockSize)
                             : llvm::ArrayRef<int64_t>())
      .getResult();
}
