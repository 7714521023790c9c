//===- Registration.cpp - pipeline registration and interface models ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Pipelines/Pipelines.h"

#include "QuantAffine/Codegen/CPU/CPUTarget.h"
#include "QuantAffine/Codegen/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/GPU/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;

void mlir::quant_affine::registerPipelineExtensions(DialectRegistry &registry) {
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  // affine.apply and friends, to tell how far apart two reads are.
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  // Tensors carried by cf branches, scf loops and selects bufferize and get
  // their buffers deallocated like any other value.
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  gpu::registerBufferDeallocationOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerSubsetOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);

  // The GPU pipeline: convert-gpu-to-nvvm lowers what is left in kernels
  // through these interfaces, and gpu-module-to-binary translates kernels to
  // LLVM IR for the NVVM target.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

LogicalResult mlir::quant_affine::checkCPUPipelineOptions(
    const CPUPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> error) {
  // 0 is auto (by the size of each op); otherwise quant-affine-vectorize's
  // rule, at least 1.
  if (options.vectorWidth < 0)
    return error("vector-width must be at least 1, or 0 for auto, got " +
                 Twine(options.vectorWidth));
  if (options.llcBytes < 0)
    return error("llc-bytes must be at least 0 (0: the host's last-level "
                 "cache), got " +
                 Twine(options.llcBytes));
  if (failed(resolveCPUTarget(options.targetTriple, options.cpu,
                              options.features, error)))
    return failure();
  return success();
}

LogicalResult mlir::quant_affine::checkGPUPipelineOptions(
    const GPUPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> error) {
  StringRef format = options.format;
  if (!llvm::is_contained({"isa", "bin", "fatbin"}, format))
    return error("format must be isa, bin or fatbin, got '" + format + "'");
  if (failed(checkVectorWidth(options.vectorWidth, error)) ||
      failed(checkBlockSize(options.blockSize, error)))
    return failure();
  if (options.optLevel > 3)
    return error("opt-level must be in [0, 3], got " + Twine(options.optLevel));
  if (options.reductionThreads < 0)
    return error("reduction-threads must be at least 0, got " +
                 Twine(options.reductionThreads));
  if (options.reductionWidth < 1)
    return error("reduction-width must be at least 1, got " +
                 Twine(options.reductionWidth));
  return success();
}

namespace {
/// Registers a pipeline whose options are checked once, when the pipeline
/// is parsed: a bad value is one error, not one per function with an IR
/// dump from inside a pass.
template <typename Options>
void registerCheckedPipeline(
    StringRef name, StringRef description,
    LogicalResult (*check)(const Options &,
                           function_ref<LogicalResult(const Twine &)>),
    void (*build)(OpPassManager &, const Options &)) {
  registerPassPipeline(
      name, description,
      [=](OpPassManager &pm, StringRef text,
          function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(text)))
          return errorHandler("invalid options '" + text + "' for " + name);
        auto error = [&](const Twine &message) {
          return errorHandler(name + ": " + message);
        };
        if (failed(check(options, error)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(Options());
      });
}
} // namespace

void mlir::quant_affine::registerQuantAffinePipelines() {
  // The passes the pipelines are made of, for users who assemble their own.
  registerQuantAffineCodegenPasses();
  registerCheckedPipeline<CPUPipelineOptions>(
      "quant-affine-cpu-pipeline",
      "Compile quant_affine on tensors to vectorized LLVM dialect for the host",
      checkCPUPipelineOptions, buildQuantAffineCPUPipeline);
  registerCheckedPipeline<GPUPipelineOptions>(
      "quant-affine-gpu-pipeline",
      "Compile quant_affine on tensors to NVVM GPU kernels in a gpu.binary "
      "and host code in the LLVM dialect",
      checkGPUPipelineOptions, buildQuantAffineGPUPipeline);
  registerCheckedPipeline<GPUPipelineOptions>(
      "quant-affine-test-gpu-on-cpu-pipeline",
      "Tests only: the GPU pipeline's mapped kernels run as loops over blocks "
      "and threads on the host, lowered to the LLVM dialect",
      checkGPUPipelineOptions, buildQuantAffineTestGPUOnCPUPipeline);
}
