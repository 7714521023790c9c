//===- Stages.h - stages the CPU and GPU pipelines share --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_LIB_PIPELINES_STAGES_H
#define QUANT_AFFINE_LIB_PIPELINES_STAGES_H

#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"

namespace mlir {
class OpPassManager;

namespace quant_affine {
struct QuantAffineVectorizePassOptions;

/// Canonicalization of structured code (before scf-to-cf: one block per
/// region), without region simplification. That dead-code elimination over
/// block arguments and unreachable blocks finds nothing there that the
/// driver's erasure of dead ops leaves, and it walked every op twice per
/// run: a tenth of the compile time of a long function (issue 38).
std::unique_ptr<Pass> createStructuredCanonicalizerPass();

/// Canonicalization (and CSE with `cse`) nested in each function of type
/// `FuncT`: linear in the number of functions, and parallel across them,
/// where one module-wide greedy rewrite was not. On func.func, structured
/// (createStructuredCanonicalizerPass); on llvm.func, with region
/// simplification.
template <typename FuncT>
void addFunctionCleanup(OpPassManager &pm, bool cse = false);

/// `pass`, to run on ops named `anchor` only where some op nested in them is
/// one of `ops` (names, or dialect namespaces): quant-affine-when-present.
/// For upstream passes that most programs give no work.
std::unique_ptr<Pass> whenPresent(StringRef anchor, ArrayRef<StringRef> ops,
                                  std::unique_ptr<Pass> pass);

/// Where the 0-D inputs of elementwise generics are read, as scalars the
/// generics capture (quant-affine-hoist-scalar-inputs).
enum class ScalarInputReads {
  /// Once, after the tensor's definition (the CPU pipeline).
  AtDefinition,
  /// Right before each generic, where the kernel that replaces it can take
  /// the read in (the GPU pipeline).
  BeforeEachUser,
};

/// How a value computed per block (a block scale) reaches the elementwise
/// op that reads it per element (quant-affine-fuse-elementwise's
/// fuse-block-reads).
enum class PerBlockValues {
  /// Computed once per block and read from memory (the CPU pipeline).
  Materialized,
  /// Recomputed in the op that reads them (the GPU pipeline).
  Fused,
};

/// quant_affine (and elementwise arith around it) on tensors to fused
/// linalg.generic ops whose results go to the caller's buffers.
void addFusedLinalgStage(OpPassManager &pm, bool runtimeChecks,
                         ScalarInputReads scalarInputReads,
                         PerBlockValues perBlockValues);

/// Each use of a tensor.empty given its own (with `prepareDestinations`,
/// tensor destinations prepared for One-Shot Analysis), unsafe chains
/// guarded, then eliminate-empty-tensors: what is computed for a
/// destination is computed in it.
void addEmptyTensorEliminationStage(OpPassManager &pm,
                                    bool prepareDestinations);

/// Tiles and vectorizes on tensors (quant-affine-vectorize with `options`),
/// then lowers vector masks and cleans up each function.
void addVectorizeStage(OpPassManager &pm,
                       const QuantAffineVectorizePassOptions &options);

/// Ownership-based deallocation of the buffers bufferization allocated, as
/// upstream's buffer-deallocation-pipeline (which it follows pass for pass).
void addBufferDeallocationStage(OpPassManager &pm);

/// One-shot bufferization across function boundaries, in place into the
/// caller's buffers, then deallocation of what is left.
/// `narrow`: quant-affine-emulate-narrow-types' options; with its
/// `parallelLoops` (the GPU), linalg ops on packed buffers become
/// scf.parallel, and reductions loops that carry their sums.
/// `reductionLoops`: quant-affine-reduction-loops' options (GPU only).
void addInPlaceBufferizationStage(
    OpPassManager &pm, const QuantAffineEmulateNarrowTypesPassOptions &narrow,
    const QuantAffineReductionLoopsPassOptions &reductionLoops = {});

/// Vector transfers (fully unrolled to 1-D) and what is left of linalg to
/// scf loops, affine to arith; added to `pm` as it is (a function or a GPU
/// module pass manager).
void addLoopsStage(OpPassManager &pm);

/// Lowers scf to cf, then cf/memref/vector/math/arith/index/ub/func to the
/// LLVM dialect.
/// convert-scf-to-cf's options in every pipeline.
SCFToControlFlowPassOptions getSCFToCFOptions();

void addStandardToLLVMStage(OpPassManager &pm);

/// Host code on the CPU: float8 and bf16 conversions (and bf16 arithmetic,
/// in f32) in exact integer arithmetic; before addStandardToLLVMStage.
void addSoftFloatStage(OpPassManager &pm);

/// bf16 values carried as i16 in the LLVM dialect; the last stage before
/// the lowered-output check.
void addCarryBF16Stage(OpPassManager &pm);

/// After addStandardToLLVMStage (and OpenMP's lowering) on host code:
/// casts reconciled, cleanup, bf16 carried as i16, then the check that the
/// output is fully lowered, naming `pipelineName` in its errors.
void addFinishHostStage(OpPassManager &pm, StringRef pipelineName);

struct GPUPipelineOptions;
/// The GPU pipeline up to its kernels: fused linalg, vector tiles,
/// bufferized, mapped to blocks and threads in gpu.launch ops (not yet
/// outlined). The GPU pipeline and its CPU-executed test form share it.
void addGPUMappingStages(OpPassManager &pm, const GPUPipelineOptions &options);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_LIB_PIPELINES_STAGES_H
