//===- quant-affine-translate.cpp - The project's mlir-translate ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   quant-affine-translate --import-onnx model.onnx -o model.mlir
//
// With --onnx-test-data=DIR (an ONNX test_data_set_N directory), the module
// also gets a @main that runs the graph on DIR/input_*.pb and prints, per
// output, how many elements differ from DIR/output_*.pb (docs/Import.md).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/InitAll.h"
#include "QuantAffine/Target/ONNX/Import.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

static llvm::cl::opt<std::string> testData(
    "onnx-test-data",
    llvm::cl::desc("An ONNX test_data_set directory: add @main, which runs "
                   "the graph on its input_*.pb and prints the mismatches "
                   "against its output_*.pb"),
    llvm::cl::init(""));
static llvm::cl::opt<double> relativeTolerance(
    "onnx-rtol",
    llvm::cl::desc("Relative tolerance of the test comparison (0 with "
                   "onnx-atol 0: bit for bit)"),
    llvm::cl::init(0));
static llvm::cl::opt<double>
    absoluteTolerance("onnx-atol",
                      llvm::cl::desc("Absolute tolerance of the comparison"),
                      llvm::cl::init(0));

static llvm::cl::opt<bool> printOutputs(
    "onnx-print-outputs",
    llvm::cl::desc("With --onnx-test-data: also print each f32 output"),
    llvm::cl::init(false));

static llvm::cl::opt<int64_t> resourceBytes(
    "onnx-resource-bytes",
    llvm::cl::desc("Initializers of more bytes become dense_resource "
                   "constants (-1: never)"),
    llvm::cl::init(ImportOptions().resourceBytes));

static llvm::cl::opt<std::string> aimetEncodings(
    "aimet-encodings",
    llvm::cl::desc("AIMET's encodings JSON (0.6.1, 1.0.0 or 2.x): "
                   "fake-quantize the tensors it names as AIMET did"),
    llvm::cl::init(""));

/// DIR/<prefix>0.pb, DIR/<prefix>1.pb, ... while they exist.
static std::optional<std::vector<OnnxTensor>>
readTestTensors(llvm::StringRef dir, llvm::StringRef prefix, Location loc) {
  std::vector<OnnxTensor> tensors;
  for (int index = 0;; ++index) {
    std::string path = (dir + "/" + prefix + llvm::Twine(index) + ".pb").str();
    if (!llvm::sys::fs::exists(path))
      return tensors;
    std::string error;
    std::optional<OnnxTensor> tensor = readOnnxTensor(path, error);
    if (!tensor) {
      emitError(loc) << error;
      return std::nullopt;
    }
    tensors.push_back(std::move(*tensor));
  }
}

static OwningOpRef<Operation *> importOnnx(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef name = buffer->getBufferIdentifier();
  Location loc = FileLineColLoc::get(context, name, 0, 0);
  std::string error;
  std::optional<OnnxModel> model =
      parseOnnxModel(buffer->getBuffer(), name, error);
  if (!model) {
    emitError(loc) << error;
    return nullptr;
  }
  ImportOptions options;
  options.resourceBytes = resourceBytes;
  std::optional<AimetEncodingFile> encodings;
  if (!aimetEncodings.empty()) {
    Location encodingsLoc = FileLineColLoc::get(context, aimetEncodings, 0, 0);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(aimetEncodings);
    if (!text) {
      emitError(encodingsLoc) << "cannot read: " << text.getError().message();
      return nullptr;
    }
    encodings = parseAimetEncodings((*text)->getBuffer(), error);
    if (!encodings) {
      emitError(encodingsLoc) << error;
      return nullptr;
    }
    options.aimetEncodings = &*encodings;
    options.aimetEncodingsPath = aimetEncodings;
  }
  OwningOpRef<ModuleOp> module =
      importOnnxModel(*model, name, context, options);
  if (!module)
    return nullptr;
  if (!testData.empty()) {
    std::optional<std::vector<OnnxTensor>> inputs =
        readTestTensors(testData, "input_", loc);
    std::optional<std::vector<OnnxTensor>> outputs =
        readTestTensors(testData, "output_", loc);
    if (!inputs || !outputs ||
        failed(addTestHarness(
            *module, *inputs, *outputs,
            TestTolerance{relativeTolerance, absoluteTolerance}, printOutputs)))
      return nullptr;
  }
  return OwningOpRef<Operation *>(module.release());
}

int main(int argc, char **argv) {
  TranslateToMLIRRegistration importOnnxRegistration(
      "import-onnx", "Import an ONNX model (a serialized ModelProto)",
      importOnnx, [](DialectRegistry &registry) {
        mlir::quant_affine::registerAllDialects(registry);
      });
  return failed(
      mlirTranslateMain(argc, argv, "quant-affine translation driver"));
}
