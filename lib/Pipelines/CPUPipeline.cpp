//===- CPUPipeline.cpp - quant_affine to vectorized LLVM for the host -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The stages, in order:
//   1. cf branches lifted to scf; quant_affine -> linalg.generic with
//      arith/math bodies; elementwise arith on tensors to linalg too; then
//      elementwise fusion.
//   2. Tiling and vectorization on tensors (quant-affine-vectorize).
//   3. One-shot bufferization across function boundaries. tensor.empty
//      destinations are first replaced by the caller's buffers where the IR
//      says so (bufferization.materialize_in_destination), so results are
//      written in place with no hidden alloc or copy. A tensor destination
//      that cannot be written in place gets a new buffer instead.
//   4. Vector, memref, scf, math, arith, func lowering to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Pipelines/Pipelines.h"

#include "Stages.h"

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::quant_affine::buildQuantAffineCPUPipeline(
    OpPassManager &pm, const CPUPipelineOptions &options) {
  // 1. To linalg, fused, writing into the caller's buffers.
  addFusedLinalgStage(pm, options.runtimeChecks);

  // 2. Tile and vectorize on tensors.
  QuantAffineVectorizePassOptions vectorize;
  vectorize.vectorWidth = options.vectorWidth;
  vectorize.parallelOuter = options.openmp;
  addVectorizeStage(pm, vectorize);
  // After canonicalization has marked the reads in bounds.
  if (options.reciprocalDivision)
    pm.addNestedPass<func::FuncOp>(createQuantAffineDivideByReciprocalPass());

  // 3. Bufferize in place into the caller's buffers.
  addInPlaceBufferizationStage(pm, /*parallelLoops=*/false);

  // Rows (or chunks) of each op to an omp.parallel/omp.wsloop.
  if (options.openmp) {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  }

  // 4. To the LLVM dialect. Tiles of neighbouring blocks are contiguous:
  // one wide access each.
  pm.addNestedPass<func::FuncOp>(createQuantAffineFlattenTransfersPass());
  addLoopsStage(pm.nest<func::FuncOp>());
  addFunctionCleanup<func::FuncOp>(pm);
  // bf16 arithmetic anywhere in the program (ours is already lowered so)
  // computes in f32 and rounds to bf16 in integer arithmetic: LLVM would
  // round with VCVTNEPS2BF16 on AVX512-BF16 hosts, which flushes subnormals.
  // f32 holds every bf16 sum, product and quotient before the one rounding
  // (24 >= 2 x 8 + 2 bits), so this is exact. (bf16 math functions are
  // left to LLVM, which promotes them the same way but rounds back with the
  // flushing instruction: upstream's math-extend-to-supported-types would
  // leave arith attributes on the LLVM ops it makes.)
  {
    OpPassManager &function = pm.nest<func::FuncOp>();
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16"};
    function.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
    // Only upstream's bf16 extf/truncf expansion (not arith-expand's, which
    // would also rewrite maximumf/minimumf).
    function.addPass(createQuantAffineExpandBF16Pass());
  }
  if (options.nontemporalStores) {
    pm.addNestedPass<func::FuncOp>(createQuantAffineMarkNontemporalPass());
  }
  addStandardToLLVMStage(pm);
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  addFunctionCleanup<LLVM::LLVMFuncOp>(pm);
  // Last: canonicalization would fold its bitcast pairs back.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createQuantAffineCarryBF16AsI16Pass());
  QuantAffineCheckLoweredPassOptions check;
  check.pipelineName = "--quant-affine-cpu-pipeline";
  pm.addPass(createQuantAffineCheckLoweredPass(check));
}
