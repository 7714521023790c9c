//===- GPUPipeline.cpp - quant_affine to NVVM kernels and host code -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The stages, in order:
//   1. As on the CPU: fused linalg writing into the caller's buffers.
//   2. Tiles of 1 x ... x 1 x vector-width elements in an scf.forall,
//      vectorized on tensors; bufferized in place.
//   3. The forall becomes an scf.parallel that quant-affine-map-to-gpu splits
//      into blocks and threads (innermost dim on thread x, so a warp reads
//      32 x 16 contiguous bytes); upstream passes make gpu.launch ops and
//      outline them, all into one gpu.module.
//   4. Device code to NVVM. Vector transfers become vector loads and stores
//      with the vector's alignment (ld.global.v4.f32). math.roundeven on f32
//      and f64 becomes LLVM's roundeven (cvt.rni); other math stays math
//      until convert-gpu-to-nvvm turns it into libdevice calls:
//      convert-math-to-llvm must not reach the gpu.module first.
//   5. The gpu.module is serialized (linked with libdevice) into a
//      gpu.binary; host code to the LLVM dialect with mgpu* runtime calls.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Pipelines/Pipelines.h"

#include "Stages.h"

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/GPU/Passes.h"
#include "QuantAffine/Conversion/QuantInterop/QuantInterop.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/Path.h"

using namespace mlir;

namespace {

void addDeviceToNVVMStage(OpPassManager &pm) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  quant_affine::addLoopsStage(device);
  device.addPass(quant_affine::createStructuredCanonicalizerPass());
  device.addPass(createSCFToControlFlowPass(quant_affine::getSCFToCFOptions()));
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  // Rounding as cvt instructions, not libdevice calls per element.
  device.addPass(quant_affine::createQuantAffineNativeRoundingPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.useVectorAlignment = true;
  StringRef gpuModule = gpu::GPUModuleOp::getOperationName();
  // n-D bit counts as 1-D ones, which the math conversion takes.
  device.addPass(quant_affine::whenPresent(
      gpuModule, {"math.ctlz", "math.cttz", "math.ctpop"},
      quant_affine::createQuantAffineFlattenBitCountsPass()));
  device.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(quant_affine::createQuantAffineCanonicalizePass());
  device.addPass(createCSEPass());
  // What convert-gpu-to-nvvm leaves (math on types libdevice has no function
  // for, such as trunc of bf16 vectors) becomes LLVM here: the kernels are
  // serialized before the host lowering, whose conversions run afterwards.
  device.addPass(quant_affine::whenPresent(gpuModule, {"math"},
                                           createConvertMathToLLVMPass()));
  device.addPass(quant_affine::whenPresent(gpuModule, {"index"},
                                           createConvertIndexToLLVMPass()));
  device.addPass(quant_affine::whenPresent(gpuModule, {"ub"},
                                           createUBToLLVMConversionPass()));
  device.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace

void mlir::quant_affine::addGPUMappingStages(
    OpPassManager &pm, const GPUPipelineOptions &options) {
  // 0. Programs in upstream's quant dialect: its casts become our ops.
  // Without from-quant, such programs are refused here, clearly.
  ConvertQuantToQuantAffinePassOptions fromQuant;
  fromQuant.diagnoseOnly = !options.fromQuant;
  pm.addPass(createConvertQuantToQuantAffinePass(fromQuant));
  // 1. To linalg, fused, writing into the caller's buffers.
  addFusedLinalgStage(pm, options.runtimeChecks,
                      ScalarInputReads::BeforeEachUser, PerBlockValues::Fused);

  // 2. Vector tiles in a parallel loop, bufferized.
  QuantAffineVectorizePassOptions vectorize;
  vectorize.vectorWidth = options.vectorWidth;
  vectorize.parallelLoops = true;
  // Vector accesses take the vector's alignment (below): no partial tiles.
  vectorize.fullVectorsOnly = true;
  addVectorizeStage(pm, vectorize);
  // Sums in registers; long sums with few results (decode matmuls) over a
  // warp each.
  QuantAffineReductionLoopsPassOptions reductionLoops;
  reductionLoops.warpThreads = options.reductionThreads;
  reductionLoops.blockSize = options.blockSize;
  reductionLoops.vectorWidthLimit = options.reductionWidth;
  reductionLoops.rowsLimit = options.reductionRows;
  QuantAffineEmulateNarrowTypesPassOptions narrow;
  narrow.parallelLoops = true;
  addInPlaceBufferizationStage(pm, narrow, reductionLoops);
  // What the host code still allocates, kernels use: managed memory.
  pm.addPass(createQuantAffineManagedAllocationsPass());
  // Module constants too: a managed copy of each, made once.
  pm.addPass(createQuantAffineManagedConstantsPass());
  // Merges the forall's two subviews of each output tile, so that the copy
  // between them folds away.
  pm.addPass(createCSEPass());
  pm.addPass(createStructuredCanonicalizerPass());

  // 3. Blocks and threads, then kernels.
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  // (Ops that were not tiled become parallel loops in quant-affine-map-to-gpu.)
  QuantAffineMapToGPUPassOptions map;
  map.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createQuantAffineKernelsForHostAccessesPass());
  pm.addNestedPass<func::FuncOp>(createQuantAffineMapToGPUPass(map));
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createStructuredCanonicalizerPass());
  // Hoisted reads (a per-tensor scale) back into the kernels: the caller's
  // buffers may be device memory, which the host cannot read.
  pm.addNestedPass<func::FuncOp>(createQuantAffineSinkReadsIntoLaunchPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  // Host code touches no argument; kernels read no host-only memory.
  pm.addPass(createQuantAffineCheckHostAccessPass());
}

void mlir::quant_affine::buildQuantAffineGPUPipeline(
    OpPassManager &pm, const GPUPipelineOptions &options) {
  addGPUMappingStages(pm, options);
  pm.addPass(createGpuKernelOutliningPass());
  // A program that repeats its code (identical layers) has a copy of each
  // kernel per launch; each copy would be lowered and compiled again.
  pm.addPass(createQuantAffineDeduplicateKernelsPass());
  // Kernels share gpu.modules: each module costs a libdevice link and a
  // back-end run of its own. At most 64 to a module: the device lowering
  // and the GPU dialect's verifier of every launch scan a module's kernels,
  // and one module of thousands made the pipeline superlinear (issue 38).
  QuantAffineMergeKernelModulesPassOptions merge;
  merge.maxModules = 64;
  pm.addPass(createQuantAffineMergeKernelModulesPass(merge));

  // 4. Device code to NVVM (float8 conversions, host and device, in integer
  // arithmetic first).
  pm.addPass(createQuantAffineExpandNarrowFloatsPass());
  addDeviceToNVVMStage(pm);
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  QuantAffineCheckGPUTargetPassOptions check;
  check.cudaPath = options.cudaPath;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createQuantAffineCheckGPUTargetPass(check));
  // Serialized now, before the host lowering: its module-wide conversions
  // would otherwise walk (and the pass manager verify, after each one) the
  // kernels' LLVM dialect too, which no longer changes.
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.cudaPath;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));

  // 5. Host code to LLVM. Vector ops users wrote on
  // host buffers access elements that LLVM packs differently in vectors
  // (i12, i24) one at a time, as on the CPU.
  pm.addNestedPass<func::FuncOp>(createQuantAffineFlattenTransfersPass());
  addLoopsStage(pm.nest<func::FuncOp>());
  addStandardToLLVMStage(pm);
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(quant_affine::createQuantAffineCanonicalizePass());
  QuantAffineCheckLoweredPassOptions lowered;
  lowered.allowGPU = true;
  lowered.pipelineName = "--quant-affine-gpu-pipeline";
  pm.addPass(createQuantAffineCheckLoweredPass(lowered));
}

void mlir::quant_affine::buildQuantAffineTestGPUOnCPUPipeline(
    OpPassManager &pm, const GPUPipelineOptions &options) {
  addGPUMappingStages(pm, options);
  // The launches as loops over blocks and threads, bodies unchanged.
  pm.addNestedPass<func::FuncOp>(createQuantAffineTestLaunchesOnCPUPass());
  pm.addNestedPass<func::FuncOp>(createQuantAffineFlattenTransfersPass());
  // Then lowered as the CPU pipeline lowers its loops, with its exact
  // float8 and bf16 conversions.
  addLoopsStage(pm.nest<func::FuncOp>());
  addFunctionCleanup<func::FuncOp>(pm);
  addSoftFloatStage(pm);
  addStandardToLLVMStage(pm);
  addFinishHostStage(pm, "--quant-affine-test-gpu-on-cpu-pipeline");
}
