//===- InitAll.cpp - Everything quant-affine-opt registers ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/InitAll.h"

#include "QuantAffine/Codegen/Passes.h"
#include "QuantAffine/Conversion/Passes.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/IR/TilingInterfaceImpl.h"
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVector.h"
#include "QuantAffine/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::quant_affine::registerAllDialects(DialectRegistry &registry) {
  registry.insert<quant_affine::QuantAffineDialect,
                  quant_affine_vector::QuantAffineVectorDialect,
                  affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, NVVM::NVVMDialect, omp::OpenMPDialect,
                  quant::QuantDialect, scf::SCFDialect, tensor::TensorDialect,
                  transform::TransformDialect, ub::UBDialect,
                  vector::VectorDialect>();
  registerPipelineExtensions(registry);
  func::registerInlinerExtension(registry);
  // Tiling and fusion of our ops before they are lowered, by transform
  // scripts (--transform-interpreter) with the structured, scf and tensor ops.
  quant_affine::registerTilingInterfaceExternalModels(registry);
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  tensor::registerTransformDialectExtension(registry);
  tensor::registerFindPayloadReplacementOpInterfaceExternalModels(registry);
}

void mlir::quant_affine::registerAllPasses() {
  // Upstream: canonicalize, cse, inline, symbol-dce, ...
  registerTransformsPasses();
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  vector::registerVectorPasses();
  registerSCFPasses();
  registerGPUPasses();
  // lower-quant-ops and strip-func-quant-types, beside our own conversion
  // (docs/Interop.md compares them).
  quant::registerQuantPasses();
  transform::registerTransformPasses();
  // int-range-optimizations and arith-emulate-unsupported-floats.
  arith::registerArithPasses();
  // The conversions our pipelines use, for users who assemble their own:
  // every pass of --dump-pass-pipeline's text parses back.
  registerLiftControlFlowToSCFPass();
  registerConvertBufferizationToMemRefPass();
  registerConvertMathToLibmPass();
  registerUBToLLVMConversionPass();
  registerLowerAffinePass();
  registerArithToLLVMConversionPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerConvertIndexToLLVMPass();
  registerConvertMathToLLVMPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerReconcileUnrealizedCastsPass();
  registerSCFToControlFlowPass();
  registerConvertVectorToLLVMPass();
  registerConvertVectorToSCF();
  registerConvertGpuOpsToNVVMOps();
  registerConvertSCFToOpenMPPass();
  registerConvertOpenMPToLLVMPass();
  registerConvertParallelLoopToGpuPass();
  registerGpuToLLVMConversionPass();
  quant_affine::registerQuantAffineConversionPasses();
  quant_affine::registerQuantAffinePasses();
  quant_affine::registerQuantAffineCodegenPasses();
  quant_affine::registerQuantAffinePipelines();
}
