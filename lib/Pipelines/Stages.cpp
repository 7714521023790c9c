//===- Stages.cpp - pass sequences the CPU and GPU pipelines share --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Stages.h"

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/GPU/Passes.h"
#include "QuantAffine/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include <type_traits>

using namespace mlir;

std::unique_ptr<Pass> mlir::quant_affine::createStructuredCanonicalizerPass() {
  // As createCanonicalizerPass with a default GreedyRewriteConfig and no
  // region simplification gave (bottom-up seeding included).
  QuantAffineCanonicalizePassOptions options;
  options.topDown = false;
  options.simplifyRegions = false;
  return createQuantAffineCanonicalizePass(options);
}

template <typename FuncT>
void mlir::quant_affine::addFunctionCleanup(OpPassManager &pm, bool cse) {
  OpPassManager &function = pm.nest<FuncT>();
  if (std::is_same_v<FuncT, func::FuncOp>)
    function.addPass(createStructuredCanonicalizerPass());
  else
    function.addPass(createQuantAffineCanonicalizePass());
  if (cse)
    function.addPass(createCSEPass());
}
template void
mlir::quant_affine::addFunctionCleanup<func::FuncOp>(OpPassManager &, bool);
template void
mlir::quant_affine::addFunctionCleanup<LLVM::LLVMFuncOp>(OpPassManager &, bool);

std::unique_ptr<Pass>
mlir::quant_affine::whenPresent(StringRef anchor, ArrayRef<StringRef> ops,
                                std::unique_ptr<Pass> pass) {
  QuantAffineWhenPresentPassOptions options;
  for (StringRef op : ops)
    options.ops.push_back(op.str());
  OpPassManager pipeline(anchor);
  pipeline.addPass(std::move(pass));
  options.pipelines.push_back(std::move(pipeline));
  return createQuantAffineWhenPresentPass(std::move(options));
}

namespace {
/// whenPresent on functions and on the module.
std::unique_ptr<Pass> inFunctionsWith(ArrayRef<StringRef> ops,
                                      std::unique_ptr<Pass> pass) {
  return quant_affine::whenPresent(func::FuncOp::getOperationName(), ops,
                                   std::move(pass));
}
std::unique_ptr<Pass> inModuleWith(ArrayRef<StringRef> ops,
                                   std::unique_ptr<Pass> pass) {
  return quant_affine::whenPresent(ModuleOp::getOperationName(), ops,
                                   std::move(pass));
}
} // namespace

void mlir::quant_affine::addFusedLinalgStage(OpPassManager &pm,
                                             bool runtimeChecks,
                                             ScalarInputReads scalarInputReads,
                                             PerBlockValues perBlockValues) {
  // Branches become scf.if/scf.index_switch/scf.while: what they carry
  // bufferizes and is freed like any structured value, and cf loops are
  // accepted at all (ownership-based deallocation supports no cf loops).
  pm.addNestedPass<func::FuncOp>(createLiftControlFlowToSCFPass());
  // linalg.softmax and other aggregates become generics that lower as any.
  pm.addNestedPass<func::FuncOp>(createQuantAffineDecomposeAggregatesPass());
  ConvertQuantAffineToLinalgPassOptions toLinalg;
  toLinalg.runtimeChecks = runtimeChecks;
  // On the module: failed run-time checks call dprintf and abort, which it
  // declares there.
  pm.addPass(createConvertQuantAffineToLinalgPass(toLinalg));
  addFunctionCleanup<func::FuncOp>(pm);
  // Elementwise arith on tensors (casts users write around our ops) joins
  // the generics and fuses with them.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  addFunctionCleanup<func::FuncOp>(pm);
  QuantAffineFuseElementwisePassOptions fuse;
  fuse.fuseBlockReads = perBlockValues == PerBlockValues::Fused;
  pm.addNestedPass<func::FuncOp>(createQuantAffineFuseElementwisePass(fuse));
  addFunctionCleanup<func::FuncOp>(pm, /*cse=*/true);
  // A tensor read by many ops costs One-Shot Analysis their square
  // (HoistScalarInputs.cpp).
  QuantAffineHoistScalarInputsPassOptions hoist;
  hoist.beforeEachUser = scalarInputReads == ScalarInputReads::BeforeEachUser;
  pm.addNestedPass<func::FuncOp>(createQuantAffineHoistScalarInputsPass(hoist));
  // Results go to the caller's buffers. After fusion, which swaps unread
  // destinations for tensor.empty. Blocked results are collapsed from an
  // expanded shape, so that reshape first moves onto the destination.
  pm.addNestedPass<func::FuncOp>(createQuantAffineReshapeDestinationsPass());
  addEmptyTensorEliminationStage(pm, /*prepareDestinations=*/true);
}

void mlir::quant_affine::addEmptyTensorEliminationStage(
    OpPassManager &pm, bool prepareDestinations) {
  // CSE has made one tensor.empty the destination of many ops; apart again,
  // One-Shot Analysis is linear in their number (BufferizationPrep.cpp).
  pm.addNestedPass<func::FuncOp>(createQuantAffineUnshareEmptyTensorsPass());
  // Empty-tensor elimination runs One-Shot Analysis, which fails on a
  // materialize_in_destination it cannot bufferize in place; such ops are
  // relaxed first (BufferizationPrep.cpp).
  if (prepareDestinations)
    pm.addPass(createQuantAffinePrepareTensorDestinationsPass());
  pm.addNestedPass<func::FuncOp>(
      createQuantAffineGuardEmptyTensorEliminationPass());
  // Upstream's, where there may be something to eliminate: its One-Shot
  // Analysis of the whole module grows faster than the program.
  pm.addPass(createQuantAffineEliminateEmptyTensorsPass());
}

void mlir::quant_affine::addVectorizeStage(
    OpPassManager &pm, const QuantAffineVectorizePassOptions &options) {
  pm.addNestedPass<func::FuncOp>(createQuantAffineVectorizePass(options));
  // Masked transfers become plain masked ops before bufferization: buffer
  // deallocation would otherwise insert ops into vector.mask regions, which
  // allow only one.
  pm.addNestedPass<func::FuncOp>(
      inFunctionsWith({"vector.mask"}, vector::createLowerVectorMaskPass()));
  // Marks reads in bounds, and merges what tiling repeats per tile. Tile
  // loops' destinations become alloc_tensor first: merged by CSE, they
  // would make it compare every loop with all others of the same bounds
  // (BufferizationPrep.cpp).
  OpPassManager &function = pm.nest<func::FuncOp>();
  function.addPass(createStructuredCanonicalizerPass());
  QuantAffineUnshareEmptyTensorsPassOptions allocate;
  allocate.allocTensors = true;
  function.addPass(createQuantAffineUnshareEmptyTensorsPass(allocate));
  function.addPass(createCSEPass());
}

void mlir::quant_affine::addInPlaceBufferizationStage(
    OpPassManager &pm, const QuantAffineEmulateNarrowTypesPassOptions &narrow,
    const QuantAffineReductionLoopsPassOptions &reductionLoops) {
  // materialize_in_destination into a tensor: in place where the analysis
  // allows it, into a new buffer where it cannot (BufferizationPrep.cpp).
  // Destinations apart again after the vectorize stage's CSE.
  pm.addNestedPass<func::FuncOp>(createQuantAffineUnshareEmptyTensorsPass());
  pm.addPass(createQuantAffinePrepareTensorDestinationsPass());
  pm.addPass(bufferization::createOneShotBufferizePass(
      getInPlaceBufferizePassOptions()));
  // Its constants' globals in an order that does not vary from run to run.
  pm.addPass(createQuantAffineNameConstantGlobalsPass());
  // Folds collapse_shape(expand_shape(%arg)) back to %arg, so the result is
  // seen as the argument's buffer and dropped rather than cloned.
  addFunctionCleanup<func::FuncOp>(pm);
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  // Works around a use after free in ownership-based deallocation next to
  // unstructured control flow that lifting left (BufferizationPrep.cpp).
  pm.addNestedPass<func::FuncOp>(createQuantAffineLocalizeRegionResultsPass());
  // For kernels: reductions keep their sums in registers (ReductionLoops.cpp).
  // Reductions to one element over many threads (SplitReductions.cpp).
  if (narrow.parallelLoops) {
    pm.addNestedPass<func::FuncOp>(createQuantAffineSplitReductionsPass());
    pm.addNestedPass<func::FuncOp>(
        createQuantAffineReductionLoopsPass(reductionLoops));
  }
  // i1, i2 and i4 buffers packed, from signatures to accesses; before
  // deallocation adds i1 buffers of its own.
  pm.addPass(createQuantAffineEmulateNarrowTypesPass(narrow));
  addBufferDeallocationStage(pm);
  // Results that may alias an argument or a constant are returned as
  // bufferization.clone: an alloc and a copy the LLVM lowering understands.
  pm.addPass(inModuleWith({"bufferization"},
                          createConvertBufferizationToMemRefPass()));
}

void mlir::quant_affine::addBufferDeallocationStage(OpPassManager &pm) {
  // Upstream's buffer-deallocation-pipeline, pass for pass, with two
  // changes for compile time: canonicalization without region
  // simplification (the code is structured still), and the passes that only
  // rewrite reallocs or deallocs run only where there are some.
  memref::ExpandReallocPassOptions expandRealloc;
  expandRealloc.emitDeallocs = false;
  pm.addPass(inModuleWith({"memref.realloc"},
                          memref::createExpandReallocPass(expandRealloc)));
  pm.addPass(createStructuredCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createStructuredCanonicalizerPass());
  // Fresh allocations apart first: the simplification compares every pair
  // of buffers one dealloc frees (SplitDeallocs.cpp).
  pm.addNestedPass<func::FuncOp>(inFunctionsWith(
      {"bufferization.dealloc"}, createQuantAffineSplitDeallocsPass()));
  pm.addPass(inModuleWith(
      {"bufferization.dealloc"},
      bufferization::createBufferDeallocationSimplificationPass()));
  pm.addPass(inModuleWith({"bufferization.dealloc"},
                          bufferization::createLowerDeallocationsPass()));
  pm.addPass(createCSEPass());
  pm.addPass(createStructuredCanonicalizerPass());
}

void mlir::quant_affine::addLoopsStage(OpPassManager &pm) {
  VectorTransferToSCFOptions toSCF;
  toSCF.enableFullUnroll();
  // Each where it has work (quant-affine-when-present): after
  // vectorization most functions have no transfers of rank > 1, no linalg
  // and no affine ops left.
  StringRef anchor = pm.getOpAnchorName();
  pm.addPass(whenPresent(
      anchor, {"vector.transfer_read", "vector.transfer_write", "vector.print"},
      createConvertVectorToSCFPass(toSCF)));
  pm.addPass(whenPresent(anchor, {"linalg"}, createConvertLinalgToLoopsPass()));
  pm.addPass(whenPresent(anchor, {"affine"}, createLowerAffinePass()));
  // Loop indices are never negative: the sign fix-ups of the lowered
  // affine floor divisions (packed sub-byte addresses) fold away. What it
  // rewrites: integer divisions, remainders and comparisons.
  pm.addPass(whenPresent(anchor,
                         {"arith.divsi", "arith.divui", "arith.remsi",
                          "arith.remui", "arith.floordivsi", "arith.ceildivsi",
                          "arith.ceildivui", "arith.cmpi"},
                         arith::createArithIntRangeOpts()));
}

SCFToControlFlowPassOptions mlir::quant_affine::getSCFToCFOptions() {
  // Without the rollback log, which kept every op of a function's loops:
  // 550 MB of an MLP of 1,000 int4 layers (issue 38). Its patterns do not
  // fail after changing the IR; the output is the same.
  SCFToControlFlowPassOptions options;
  options.allowPatternRollback = false;
  return options;
}

void mlir::quant_affine::addStandardToLLVMStage(OpPassManager &pm) {
  // Linear in the loops of a block where upstream's order is quadratic;
  // upstream's pass lowers what is left (scf.parallel, scf.forall and what
  // they hold).
  pm.addNestedPass<func::FuncOp>(createQuantAffineSCFToCFBackwardPass());
  pm.addPass(createSCFToControlFlowPass(getSCFToCFOptions()));
  OpPassManager &function = pm.nest<func::FuncOp>();
  function.addPass(memref::createExpandStridedMetadataPass());
  function.addPass(inFunctionsWith({"affine"}, createLowerAffinePass()));
  pm.addPass(inModuleWith({"math.ctlz", "math.cttz", "math.ctpop"},
                          createQuantAffineFlattenBitCountsPass()));
  pm.addPass(inModuleWith({"math"}, createConvertMathToLLVMPass()));
  // What LLVM has no intrinsic for (erf, atan2, ...) calls libm, an element
  // at a time on vectors: before the vector lowering, which the extracts
  // and inserts of those calls need.
  pm.addPass(inModuleWith({"math"}, createConvertMathToLibmPass()));
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(inModuleWith({"index"}, createConvertIndexToLLVMPass()));
  pm.addPass(inModuleWith({"ub"}, createUBToLLVMConversionPass()));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
}

void mlir::quant_affine::addSoftFloatStage(OpPassManager &pm) {
  // bf16 arithmetic anywhere in the program (ours is already lowered so)
  // computes in f32 and rounds to bf16 in integer arithmetic: LLVM would
  // round with VCVTNEPS2BF16 on AVX512-BF16 hosts, which flushes subnormals.
  // f32 holds every bf16 sum, product and quotient before the one rounding
  // (24 >= 2 x 8 + 2 bits), so this is exact. (bf16 math functions are
  // left to LLVM, which promotes them the same way but rounds back with the
  // flushing instruction: upstream's math-extend-to-supported-types would
  // leave arith attributes on the LLVM ops it makes.)
  // float8 storage: its conversions in integer arithmetic (LLVM has no
  // float8 types). Before the bf16 expansion, which finishes the bf16 ones.
  pm.addPass(createQuantAffineExpandNarrowFloatsPass());
  {
    OpPassManager &function = pm.nest<func::FuncOp>();
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16"};
    function.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
    // Only upstream's bf16 extf/truncf expansion (not arith-expand's, which
    // would also rewrite maximumf/minimumf).
    function.addPass(createQuantAffineExpandBF16Pass());
  }
}

void mlir::quant_affine::addCarryBF16Stage(OpPassManager &pm) {
  // Last: canonicalization would fold its bitcast pairs back.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createQuantAffineCarryBF16AsI16Pass());
}

void mlir::quant_affine::addFinishHostStage(OpPassManager &pm,
                                            StringRef pipelineName) {
  pm.addPass(createReconcileUnrealizedCastsPass());
  addFunctionCleanup<LLVM::LLVMFuncOp>(pm);
  addCarryBF16Stage(pm);
  QuantAffineCheckLoweredPassOptions check;
  check.pipelineName = pipelineName.str();
  pm.addPass(createQuantAffineCheckLoweredPass(check));
}
