//===- OnnxModel.cpp - ONNX protobuf messages to plain C++ values ---------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The only file that includes protobuf (Debian's libonnx-dev 1.12 messages).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Target/ONNX/OnnxModel.h"

#include "onnx/onnx_pb.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace mlir::quant_affine::onnx_import;

std::string mlir::quant_affine::onnx_import::onnxTypeName(OnnxType type) {
  switch (type) {
  case OnnxType::Float:
    return "float";
  case OnnxType::UInt8:
    return "uint8";
  case OnnxType::Int8:
    return "int8";
  case OnnxType::UInt16:
    return "uint16";
  case OnnxType::Int16:
    return "int16";
  case OnnxType::Int32:
    return "int32";
  case OnnxType::Int64:
    return "int64";
  case OnnxType::String:
    return "string";
  case OnnxType::Bool:
    return "bool";
  case OnnxType::Float16:
    return "float16";
  case OnnxType::Double:
    return "double";
  case OnnxType::UInt32:
    return "uint32";
  case OnnxType::UInt64:
    return "uint64";
  case OnnxType::BFloat16:
    return "bfloat16";
  case OnnxType::Float8E4M3FN:
    return "float8e4m3fn";
  case OnnxType::Float8E4M3FNUZ:
    return "float8e4m3fnuz";
  case OnnxType::Float8E5M2:
    return "float8e5m2";
  case OnnxType::Float8E5M2FNUZ:
    return "float8e5m2fnuz";
  case OnnxType::UInt4:
    return "uint4";
  case OnnxType::Int4:
    return "int4";
  case OnnxType::Float4E2M1:
    return "float4e2m1";
  case OnnxType::Float8E8M0:
    return "float8e8m0";
  case OnnxType::UInt2:
    return "uint2";
  case OnnxType::Int2:
    return "int2";
  default:
    return "type " + std::to_string(static_cast<int32_t>(type));
  }
}

namespace {

/// Bytes one element takes in OnnxTensor::bytes (0: packed 4- or 2-bit; -1: not
/// a numeric type the importer holds).
int storageBytes(OnnxType type) {
  switch (type) {
  case OnnxType::Bool:
  case OnnxType::UInt8:
  case OnnxType::Int8:
  case OnnxType::Float8E4M3FN:
  case OnnxType::Float8E4M3FNUZ:
  case OnnxType::Float8E5M2:
  case OnnxType::Float8E5M2FNUZ:
  case OnnxType::Float8E8M0:
    return 1;
  case OnnxType::UInt16:
  case OnnxType::Int16:
  case OnnxType::Float16:
  case OnnxType::BFloat16:
    return 2;
  case OnnxType::Float:
  case OnnxType::Int32:
  case OnnxType::UInt32:
    return 4;
  case OnnxType::Double:
  case OnnxType::Int64:
  case OnnxType::UInt64:
    return 8;
  case OnnxType::UInt4:
  case OnnxType::Int4:
  case OnnxType::Float4E2M1:
  case OnnxType::UInt2:
  case OnnxType::Int2:
    return 0;
  default:
    return -1;
  }
}

template <typename T> void appendBytes(std::vector<char> &bytes, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

bool convertTensor(const onnx::TensorProto &proto, OnnxTensor &tensor,
                   std::string &error) {
  tensor.name = proto.name();
  tensor.type = static_cast<OnnxType>(proto.data_type());
  tensor.dims.assign(proto.dims().begin(), proto.dims().end());
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    error = "tensor '" + proto.name() + "' keeps its data in an external file";
    return false;
  }
  int width = storageBytes(tensor.type);
  if (width < 0) {
    error = "tensor '" + proto.name() + "' has element type " +
            onnxTypeName(tensor.type) + ", which the importer does not hold";
    return false;
  }
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    tensor.bytes.assign(raw.begin(), raw.end());
    return true;
  }
  std::vector<char> &bytes = tensor.bytes;
  switch (tensor.type) {
  case OnnxType::Float:
    for (float v : proto.float_data())
      appendBytes(bytes, v);
    break;
  case OnnxType::Double:
    for (double v : proto.double_data())
      appendBytes(bytes, v);
    break;
  case OnnxType::Int64:
    for (int64_t v : proto.int64_data())
      appendBytes(bytes, v);
    break;
  case OnnxType::UInt32:
    for (uint64_t v : proto.uint64_data())
      appendBytes(bytes, static_cast<uint32_t>(v));
    break;
  case OnnxType::UInt64:
    for (uint64_t v : proto.uint64_data())
      appendBytes(bytes, v);
    break;
  case OnnxType::Int32:
    for (int32_t v : proto.int32_data())
      appendBytes(bytes, v);
    break;
  default:
    // 8- and 16-bit types (and packed pairs of 4-bit ones) hold one storage
    // unit per int32_data entry.
    for (int32_t v : proto.int32_data()) {
      if (width == 2)
        appendBytes(bytes, static_cast<uint16_t>(v));
      else
        appendBytes(bytes, static_cast<uint8_t>(v));
    }
    break;
  }
  return true;
}

OnnxValueInfo convertValueInfo(const onnx::ValueInfoProto &proto) {
  OnnxValueInfo info;
  info.name = proto.name();
  if (!proto.type().has_tensor_type())
    return info;
  const onnx::TypeProto::Tensor &tensor = proto.type().tensor_type();
  info.type = static_cast<OnnxType>(tensor.elem_type());
  if (tensor.has_shape()) {
    std::vector<OnnxDim> shape;
    for (const onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim()) {
      OnnxDim d;
      if (dim.has_dim_value())
        d.size = dim.dim_value();
      else if (dim.has_dim_param())
        d.param = dim.dim_param();
      shape.push_back(d);
    }
    info.shape = std::move(shape);
  }
  return info;
}

bool convertAttribute(const onnx::AttributeProto &proto,
                      OnnxAttribute &attribute, std::string &error) {
  using A = onnx::AttributeProto;
  switch (proto.type()) {
  case A::FLOAT:
    attribute.kind = OnnxAttribute::Kind::Float;
    attribute.f = proto.f();
    break;
  case A::INT:
    attribute.kind = OnnxAttribute::Kind::Int;
    attribute.i = proto.i();
    break;
  case A::STRING:
    attribute.kind = OnnxAttribute::Kind::String;
    attribute.s = proto.s();
    break;
  case A::TENSOR:
    attribute.kind = OnnxAttribute::Kind::Tensor;
    return convertTensor(proto.t(), attribute.t, error);
  case A::FLOATS:
    attribute.kind = OnnxAttribute::Kind::Floats;
    attribute.floats.assign(proto.floats().begin(), proto.floats().end());
    break;
  case A::INTS:
    attribute.kind = OnnxAttribute::Kind::Ints;
    attribute.ints.assign(proto.ints().begin(), proto.ints().end());
    break;
  case A::STRINGS:
    attribute.kind = OnnxAttribute::Kind::Strings;
    attribute.strings.assign(proto.strings().begin(), proto.strings().end());
    break;
  default:
    attribute.kind = OnnxAttribute::Kind::Other;
    break;
  }
  return true;
}

bool readFile(llvm::StringRef path, std::string &contents, std::string &error) {
  std::ifstream file(path.str(), std::ios::binary);
  if (!file) {
    error = "cannot open '" + path.str() + "'";
    return false;
  }
  std::ostringstream buffer;
  buffer << file.rdbuf();
  contents = buffer.str();
  return true;
}

} // namespace

std::optional<OnnxModel> mlir::quant_affine::onnx_import::parseOnnxModel(
    llvm::StringRef bytes, llvm::StringRef name, std::string &error) {
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "'" + name.str() + "' is not an ONNX model (protobuf parse failed)";
    return std::nullopt;
  }
  OnnxModel model;
  for (const onnx::OperatorSetIdProto &opset : proto.opset_import())
    model.opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] =
        opset.version();
  const onnx::GraphProto &graph = proto.graph();
  model.graph.name = graph.name();
  for (const onnx::TensorProto &init : graph.initializer()) {
    OnnxTensor tensor;
    if (!convertTensor(init, tensor, error))
      return std::nullopt;
    model.graph.initializers.push_back(std::move(tensor));
  }
  for (const onnx::ValueInfoProto &info : graph.input())
    model.graph.inputs.push_back(convertValueInfo(info));
  for (const onnx::ValueInfoProto &info : graph.output())
    model.graph.outputs.push_back(convertValueInfo(info));
  for (const onnx::ValueInfoProto &info : graph.value_info())
    model.graph.valueInfos.push_back(convertValueInfo(info));
  for (const onnx::NodeProto &nodeProto : graph.node()) {
    OnnxNode node;
    node.index = model.graph.nodes.size();
    node.name = nodeProto.name();
    node.opType = nodeProto.op_type();
    node.domain = nodeProto.domain() == "ai.onnx" ? "" : nodeProto.domain();
    node.inputs.assign(nodeProto.input().begin(), nodeProto.input().end());
    node.outputs.assign(nodeProto.output().begin(), nodeProto.output().end());
    for (const onnx::AttributeProto &attr : nodeProto.attribute()) {
      OnnxAttribute attribute;
      if (!convertAttribute(attr, attribute, error)) {
        error = "node '" + node.name + "' (" + node.opType + "): " + error;
        return std::nullopt;
      }
      node.attributes[attr.name()] = std::move(attribute);
    }
    model.graph.nodes.push_back(std::move(node));
  }
  return model;
}

std::optional<OnnxTensor>
mlir::quant_affine::onnx_import::readOnnxTensor(llvm::StringRef path,
                                                std::string &error) {
  std::string contents;
  if (!readFile(path, contents, error))
    return std::nullopt;
  onnx::TensorProto proto;
  if (!proto.ParseFromString(contents)) {
    error =
        "'" + path.str() + "' is not an ONNX tensor (protobuf parse failed)";
    return std::nullopt;
  }
  OnnxTensor tensor;
  if (!convertTensor(proto, tensor, error))
    return std::nullopt;
  return tensor;
}
