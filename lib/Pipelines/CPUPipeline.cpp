//===- CPUPipeline.cpp - quant_affine to vectorized LLVM for the host -----===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//
//
// The stages, in order:
//   1. quant_affine -> linalg.generic with arith/math bodies; elementwise
//      arith on tensors to linalg too; then elementwise fusion.
//   2. Tiling and vectorization on tensors (quant-affine-vectorize).
//   3. One-shot bufferization across function boundaries. tensor.empty
//      destinations are first replaced by the caller's buffers where the IR
//      says so (bufferization.materialize_in_destination), so results are
//      written in place with no hidden alloc or copy.
//   4. Vector, memref, scf, math, arith, func lowering to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Pipelines/Pipelines.h"

#include "QuantAffine/Conversion/Passes.h"
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::quant_affine::buildQuantAffineCPUPipeline(
    OpPassManager &pm, const CPUPipelineOptions &options) {
  // 1. To linalg, fused.
  ConvertQuantAffineToLinalgPassOptions toLinalg;
  toLinalg.runtimeChecks = options.runtimeChecks;
  pm.addNestedPass<func::FuncOp>(
      createConvertQuantAffineToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  // Elementwise arith on tensors (casts users write around our ops) joins
  // the generics and fuses with them.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Results go to the caller's buffers. After fusion, which swaps unread
  // destinations for tensor.empty. Blocked results are collapsed from an
  // expanded shape, so that reshape first moves onto the destination.
  pm.addNestedPass<func::FuncOp>(createQuantAffineReshapeDestinationsPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());

  // 2. Tile and vectorize on tensors.
  QuantAffineVectorizePassOptions vectorize;
  vectorize.vectorWidth = options.vectorWidth;
  pm.addNestedPass<func::FuncOp>(createQuantAffineVectorizePass(vectorize));
  // Masked transfers become plain masked ops before bufferization: buffer
  // deallocation would otherwise insert ops into vector.mask regions, which
  // allow only one.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // 3. Bufferize in place into the caller's buffers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Folds collapse_shape(expand_shape(%arg)) back to %arg, so the result is
  // seen as the argument's buffer and dropped rather than cloned.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  bufferization::buildBufferDeallocationPipeline(pm);

  // 4. To the LLVM dialect.
  VectorTransferToSCFOptions toSCF;
  toSCF.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(toSCF));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  if (options.nontemporalStores) {
    pm.addNestedPass<func::FuncOp>(createQuantAffineMarkNontemporalPass());
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::quant_affine::registerPipelineExtensions(
    DialectRegistry &registry) {
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerSubsetOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::quant_affine::registerQuantAffinePipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "quant-affine-cpu-pipeline",
      "Compile quant_affine on tensors to vectorized LLVM dialect for the host",
      buildQuantAffineCPUPipeline);
}
