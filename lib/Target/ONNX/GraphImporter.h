//===- GraphImporter.h - State of one graph's import ------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The values of a graph by name, with the ONNX element type of each (MLIR's
// integers are signless: uint8 and int8 are both i8), and the helpers node
// importers share. Node importers live in files by kind (QuantNodes.cpp,
// ...) and register themselves in a table keyed by op type.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_LIB_TARGET_ONNX_GRAPHIMPORTER_H
#define QUANT_AFFINE_LIB_TARGET_ONNX_GRAPHIMPORTER_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"
#include "QuantAffine/Target/ONNX/Import.h"
#include "QuantAffine/Target/ONNX/OnnxModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir {
namespace quant_affine {
namespace onnx_import {

/// A graph value: the MLIR value and the ONNX element type it holds.
struct GraphValue {
  Value value;
  OnnxType type = OnnxType::Undefined;
};

/// The MLIR element type that holds `type` (signless for integers), or null.
Type elementTypeOf(OnnxType type, MLIRContext *context);
/// Whether `type` is an unsigned integer type (uint4 ... uint64).
bool isUnsignedInteger(OnnxType type);
/// Whether `type` is a float type (float8 and float4 included).
bool isFloatType(OnnxType type);
/// The values an integer `type` of up to 32 bits holds, as a quant_affine
/// grid (QuantRange::ofInteger with the type's signedness).
std::optional<QuantRange> integerRange(OnnxType type);
/// -zero_point as a float tensor of `floatType` (ONNX zero points have the
/// quantized type: integers, read by their signedness, or float8).
Value offsetOf(OpBuilder &b, Location loc, GraphValue zeroPoint,
               FloatType floatType);
/// `tensor`'s values as an attribute of `type` (a tensor of the right shape).
DenseElementsAttr denseAttrOf(const OnnxTensor &tensor, RankedTensorType type);
/// The bytes of `value` when it is a constant of whole-byte integers or a
/// `dense_resource` (its blob), else nothing.
std::optional<SmallVector<uint8_t>> constantBytes(Value value);

class GraphImporter {
public:
  GraphImporter(const OnnxModel &model, OpBuilder &builder,
                llvm::StringRef sourceName, const ImportOptions &options);

  OpBuilder &builder() { return b; }
  MLIRContext *context() { return b.getContext(); }
  /// The version of the default ONNX opset the model imports.
  int64_t opset() const { return defaultOpset; }

  /// The value named `name`, or an error at `node`.
  FailureOr<GraphValue> get(const OnnxNode &node, llvm::StringRef name);
  /// The `index`-th input of `node`, or nothing when it is absent or empty.
  std::optional<std::string> optionalInput(const OnnxNode &node,
                                           size_t index) const;
  /// Names `value`. A name with an AIMET encoding gets the encoding's qdq
  /// first, so that every consumer (and a graph output) sees it.
  void set(llvm::StringRef name, GraphValue value);
  /// Whether an AIMET encoding failed to apply (the error is reported).
  bool encodingFailed() const { return failedEncoding; }
  const OnnxModel &onnxModel() const { return model; }
  const ImportOptions &importOptions() const { return options; }
  bool has(llvm::StringRef name) const { return values.count(name); }

  /// A location naming the node (its name, or its op type and index).
  Location locationOf(const OnnxNode &node);
  /// An error at `node` that starts with `node 'name' (OpType): `.
  InFlightDiagnostic emitError(const OnnxNode &node);
  /// The constant of an initializer: `dense_resource` when it is larger than
  /// the options allow for `dense`.
  FailureOr<GraphValue> constantOf(const OnnxTensor &tensor, Location loc);

  /// Integer attribute `name` of `node`, or `fallback`.
  int64_t intAttr(const OnnxNode &node, llvm::StringRef name,
                  int64_t fallback) const;

  /// Float attribute `name` of `node`, or `fallback`.
  float floatAttr(const OnnxNode &node, llvm::StringRef name,
                  float fallback) const;
  /// Ints attribute `name` of `node`, if present.
  std::optional<std::vector<int64_t>> intsAttr(const OnnxNode &node,
                                               llvm::StringRef name) const;

  /// The values of a constant int tensor (an initializer or Constant node's
  /// output), or an error at `node` naming `what`.
  FailureOr<SmallVector<int64_t>>
  constantInts(const OnnxNode &node, Value value, llvm::StringRef what);

  /// `tensor.empty` of `shape` with `element`, its dynamic sizes taken from
  /// the same dims of `like` (a value of the same rank).
  Value emptyTensor(Location loc, llvm::ArrayRef<int64_t> shape, Type element,
                    Value like);

  /// `value` with its dims permuted by `perm` (a valid permutation), as
  /// linalg.transpose.
  Value transpose(Location loc, Value value, llvm::ArrayRef<int64_t> perm);

  /// The elementwise `body` over `operands` with ONNX's (numpy's)
  /// multidirectional broadcasting, as one linalg.generic with a result of
  /// `resultElement`.
  FailureOr<Value> broadcastElementwise(
      const OnnxNode &node, llvm::ArrayRef<Value> operands, Type resultElement,
      llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> body);

  /// Imports one node through the table of node importers.
  LogicalResult importNode(const OnnxNode &node);

private:
  const OnnxModel &model;
  OpBuilder &b;
  std::string sourceName;
  ImportOptions options;
  int64_t defaultOpset = 1;
  llvm::StringMap<GraphValue> values;
  llvm::StringMap<const AimetEncoding *> encodings;
  bool failedEncoding = false;
};

/// Checks that every AIMET encoding names a tensor of `graph`, once.
LogicalResult checkAimetEncodingNames(const AimetEncodingFile &file,
                                      const OnnxGraph &graph, Location loc);

/// `value` (the tensor `encoding` names) fake-quantized as AIMET's
/// simulation did: qdq on the encoding's grid, or float_qdq. Axes that the
/// file does not store come from the tensor's first consumer, as AIMET
/// chose them. Reports errors at `loc`.
FailureOr<Value> applyAimetEncoding(GraphImporter &importer,
                                    const AimetEncoding &encoding, Value value,
                                    Location loc);

/// Imports one node: reads its inputs from and writes its outputs to the
/// importer.
using NodeImporter = LogicalResult (*)(GraphImporter &, const OnnxNode &);
using NodeImporterTable = llvm::StringMap<NodeImporter>;

/// The quantization operators (QuantNodes.cpp).
void addQuantNodeImporters(NodeImporterTable &table);
/// Elementwise float and integer operators, Cast, Constant
/// (ElementwiseNodes.cpp).
void addElementwiseNodeImporters(NodeImporterTable &table);
/// Reshape, Flatten, Transpose, Concat, Gather (ShapeNodes.cpp).
void addShapeNodeImporters(NodeImporterTable &table);
/// MatMul, Gemm, Softmax and the integer and QLinear matmuls
/// (ContractionNodes.cpp).
void addContractionNodeImporters(NodeImporterTable &table);

/// Conv, MaxPool, AveragePool, GlobalAveragePool (ConvolutionNodes.cpp).
void addConvolutionNodeImporters(NodeImporterTable &table);

/// LayerNormalization (NormalizationNodes.cpp).
void addNormalizationNodeImporters(NodeImporterTable &table);

/// com.microsoft.MatMulNBits (MicrosoftNodes.cpp).
void addMicrosoftNodeImporters(NodeImporterTable &table);

/// Input `index` of `node` (int8 or uint8) widened to i32, minus the zero
/// point input `zeroPointIndex` when present. A zero point of one element is
/// for every element; a 1-D one pairs with dim `zeroPointDim` of the input
/// (negative: counted from the end): per row of a matmul's A (-2), per
/// column of its B (-1), per output channel of a filter (0).
FailureOr<Value> widenToInt32(GraphImporter &importer, const OnnxNode &node,
                              size_t index, size_t zeroPointIndex,
                              int64_t zeroPointDim);

/// QLinear* outputs: the i32 `accumulation` times `xScale * wScale /
/// yScale` (f32, broadcast), then quantized with a scale of 1 and
/// -y_zero_point (input `yZeroPointIndex`) onto its type's grid: round to
/// nearest even, saturate. Sets the node's output.
LogicalResult requantizeInt32(GraphImporter &importer, const OnnxNode &node,
                              Value accumulation, Value xScale, Value wScale,
                              Value yScale, size_t yZeroPointIndex);

/// The ONNX type of an MLIR float element type.
OnnxType onnxTypeOf(Type element);

} // namespace onnx_import
} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_LIB_TARGET_ONNX_GRAPHIMPORTER_H
