//===- Import.h - ONNX models to func/linalg/quant_affine -------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TARGET_ONNX_IMPORT_H
#define QUANT_AFFINE_TARGET_ONNX_IMPORT_H

#include "QuantAffine/Target/ONNX/AimetEncodings.h"
#include "QuantAffine/Target/ONNX/OnnxModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
namespace quant_affine {
namespace onnx_import {

/// The name of the function a graph becomes.
inline constexpr llvm::StringLiteral kGraphFunctionName = "main_graph";

/// How a model is imported.
struct ImportOptions {
  /// Initializers of more bytes than this become `dense_resource` constants
  /// (the bytes kept as one blob, printed once in the module's resources)
  /// rather than `dense` ones; negative: never. Element types of whole
  /// bytes, and int4/uint4/float4 (the blob holds the packed bytes, low
  /// nibble first, as quant_affine's packed storage does).
  int64_t resourceBytes = 1024;
  /// AIMET's encodings (--aimet-encodings): each named tensor of the graph
  /// is fake-quantized as AIMET's simulation did, once, for all its
  /// consumers. Every name must be a tensor of the graph.
  const AimetEncodingFile *aimetEncodings = nullptr;
  /// The encodings file, for diagnostics.
  std::string aimetEncodingsPath;
};

/// Imports `model`'s graph as `func.func @main_graph`, taking the graph
/// inputs (initializers excluded) and returning its outputs as tensors;
/// initializers become constants. Errors name the node and its op type, at a
/// location in `sourceName`. Returns null after reporting them.
OwningOpRef<ModuleOp> importOnnxModel(const OnnxModel &model,
                                      llvm::StringRef sourceName,
                                      MLIRContext *context,
                                      const ImportOptions &options = {});

/// How a test's outputs are compared with the expected ones.
struct TestTolerance {
  /// Bit for bit (NaN matches any NaN) when both are 0.
  double rtol = 0, atol = 0;
};

/// Adds `func.func @main` that calls @main_graph on `inputs` (as constants)
/// and, for each output, prints `[index, mismatches]` with printMemrefI64:
/// the number of elements that differ from `expected` beyond `tolerance`.
/// This is how ONNX's node tests (model.onnx, test_data_set_0/*.pb) run.
/// With `printOutputs`, each float output is printed first
/// (printMemrefF32).
LogicalResult addTestHarness(ModuleOp module, llvm::ArrayRef<OnnxTensor> inputs,
                             llvm::ArrayRef<OnnxTensor> expected,
                             TestTolerance tolerance,
                             bool printOutputs = false);

} // namespace onnx_import
} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_TARGET_ONNX_IMPORT_H
