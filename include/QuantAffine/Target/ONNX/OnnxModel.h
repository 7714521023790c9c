//===- OnnxModel.h - An ONNX model as plain C++ values ----------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the importer reads from an ONNX file, copied out of the protobuf
// messages: the rest of the importer never includes protobuf (OnnxModel.cpp
// is the only file that does), and element types newer than Debian's ONNX
// 1.12 enum (float8: 17-20, int4: 21-22, float4: 23, int2: 25-26) are plain
// numbers.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TARGET_ONNX_ONNXMODEL_H
#define QUANT_AFFINE_TARGET_ONNX_ONNXMODEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace quant_affine {
namespace onnx_import {

/// TensorProto.DataType values (all of ONNX 1.20's, as numbers).
enum class OnnxType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  BFloat16 = 16,
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26,
};

/// The name ONNX gives `type` (`uint8`, `float8e4m3fn`, ...).
std::string onnxTypeName(OnnxType type);

/// A dimension: a size, or a symbolic name (`dim_param`), or unknown.
struct OnnxDim {
  std::optional<int64_t> size;
  std::string param;
};

/// A graph input, output or value_info entry.
struct OnnxValueInfo {
  std::string name;
  OnnxType type = OnnxType::Undefined;
  /// Absent when the value has no shape (rank unknown).
  std::optional<std::vector<OnnxDim>> shape;
};

/// A tensor's values in row-major order as little-endian bytes of the
/// element type's storage (1 byte for bool and 8-bit types, 2 for 16-bit
/// floats, ...; int4, uint4 and float4 packed two a byte, low nibble first;
/// int2 and uint2 four a byte, lowest bits first).
struct OnnxTensor {
  std::string name;
  OnnxType type = OnnxType::Undefined;
  std::vector<int64_t> dims;
  std::vector<char> bytes;
};

/// A node attribute (the kinds the importer reads).
struct OnnxAttribute {
  enum class Kind { Float, Int, String, Tensor, Floats, Ints, Strings, Other };
  Kind kind = Kind::Other;
  float f = 0;
  int64_t i = 0;
  std::string s;
  OnnxTensor t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

struct OnnxNode {
  std::string name, opType, domain;
  /// Its position in the graph (diagnostics name unnamed nodes by it).
  size_t index = 0;
  std::vector<std::string> inputs, outputs;
  std::map<std::string, OnnxAttribute> attributes;

  const OnnxAttribute *attribute(llvm::StringRef attrName) const {
    auto it = attributes.find(attrName.str());
    return it == attributes.end() ? nullptr : &it->second;
  }
};

struct OnnxGraph {
  std::string name;
  std::vector<OnnxNode> nodes;
  std::vector<OnnxTensor> initializers;
  std::vector<OnnxValueInfo> inputs, outputs, valueInfos;
};

struct OnnxModel {
  /// Opset version per domain ("" is the default ONNX domain).
  std::map<std::string, int64_t> opsets;
  OnnxGraph graph;
};

/// Parses a serialized ModelProto (`bytes`, from `name`). Fails with `error`
/// set on bytes that do not parse, or a model that keeps data externally.
std::optional<OnnxModel>
parseOnnxModel(llvm::StringRef bytes, llvm::StringRef name, std::string &error);

/// Reads a serialized TensorProto (ONNX's test data `input_0.pb`, ...).
std::optional<OnnxTensor> readOnnxTensor(llvm::StringRef path,
                                         std::string &error);

} // namespace onnx_import
} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_TARGET_ONNX_ONNXMODEL_H
