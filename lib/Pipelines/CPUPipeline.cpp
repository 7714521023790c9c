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
//   2. Tiling and vectorization on tensors: sums (matmuls with dequantize
//      fused in) into register tiles (quant-affine-vectorize-contractions),
//      then elementwise ops (quant-affine-vectorize).
//   3. One-shot bufferization across function boundaries. tensor.empty
//      destinations are first replaced by the caller's buffers where the IR
//      says so (bufferization.materialize_in_destination), so results are
//      written in place with no hidden alloc or copy. A tensor destination
//      that cannot be written in place gets a new buffer instead.
//   4. Vector, memref, scf, math, arith, func lowering to the LLVM dialect.
//
// Every width, register tile and choice below comes from the target's
// CPUStrategy (CPUTarget.h), the one place that knows CPUs. By default two
// choices also follow the size of each op: ops that move more than the
// last-level cache (the static sizes of what they read and write) get
// 64-lane tiles (quant-affine-vectorize's large-vector-width) and, where the
// target streams, non-temporal stores (quant-affine-mark-nontemporal's
// large-op-bytes); cache-resident and dynamic-shaped ones keep one register
// of lanes and plain stores.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Pipelines/Pipelines.h"

#include "Stages.h"

#include "QuantAffine/Codegen/CPU/CPUTarget.h"
#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Conversion/QuantInterop/QuantInterop.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <unistd.h>

using namespace mlir;

namespace {
/// The last-level cache assumed where the host does not say.
constexpr int64_t kFallbackLLCBytes = int64_t(32) << 20;

/// The trimmed text of a small file, or empty.
std::string readSmallFile(const Twine &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileAsStream(path);
  if (!file)
    return "";
  return (*file)->getBuffer().trim().str();
}

/// A sysfs cache size ("32768K", "1M", "512"), in bytes; 0 if unreadable.
int64_t parseCacheSize(StringRef text) {
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = int64_t(1) << 10;
  else if (text.consume_back("M"))
    scale = int64_t(1) << 20;
  else if (text.consume_back("G"))
    scale = int64_t(1) << 30;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0)
    return 0;
  return value * scale;
}

/// The largest data or unified cache of CPU 0 of the highest level, as
/// Linux lists them; 0 where there is no such list.
int64_t sysfsLastLevelCacheBytes() {
  int64_t bestLevel = 0, bestBytes = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readSmallFile(dir + "/type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t level = 0;
    if (StringRef(readSmallFile(dir + "/level")).getAsInteger(10, level))
      continue;
    int64_t bytes = parseCacheSize(readSmallFile(dir + "/size"));
    if (bytes > 0 &&
        (level > bestLevel || (level == bestLevel && bytes > bestBytes))) {
      bestLevel = level;
      bestBytes = bytes;
    }
  }
  return bestBytes;
}

int64_t detectLastLevelCacheBytes() {
  if (int64_t bytes = sysfsLastLevelCacheBytes())
    return bytes;
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    long bytes = sysconf(name);
    if (bytes > 0)
      return bytes;
  }
#endif
  return kFallbackLLCBytes;
}
} // namespace

int64_t mlir::quant_affine::getHostLastLevelCacheBytes() {
  static const int64_t bytes = detectLastLevelCacheBytes();
  return bytes;
}

void mlir::quant_affine::buildQuantAffineCPUPipeline(
    OpPassManager &pm, const CPUPipelineOptions &options) {
  // The target, checked when the options were parsed; built without that
  // check, an unknown one is reported by quant-affine-set-cpu-target and the
  // strategy is the defaults'.
  FailureOr<CPUTarget> target =
      resolveCPUTarget(options.targetTriple, options.cpu, options.features,
                       [](const Twine &) { return failure(); });
  CPUStrategy strategy =
      succeeded(target) ? deriveCPUStrategy(*target) : CPUStrategy();

  // 0. Programs in upstream's quant dialect: its casts become our ops.
  // Without from-quant, such programs are refused here, clearly.
  ConvertQuantToQuantAffinePassOptions fromQuant;
  fromQuant.diagnoseOnly = !options.fromQuant;
  pm.addPass(createConvertQuantToQuantAffinePass(fromQuant));
  // 1. To linalg, fused, writing into the caller's buffers.
  addFusedLinalgStage(pm, options.runtimeChecks, ScalarInputReads::AtDefinition,
                      PerBlockValues::Materialized);
  // A layer repeated many times is compiled once: each copy of a sum becomes
  // a call of one function (OutlineRepeatedSums.cpp).
  pm.addPass(createQuantAffineOutlineRepeatedSumsPass());

  // Ops that move more than this are large (the auto choices).
  int64_t llcBytes = options.llcBytes > 0 ? int64_t(options.llcBytes)
                                          : getHostLastLevelCacheBytes();

  // 2. Tile and vectorize on tensors.
  QuantAffineVectorizePassOptions vectorize;
  if (options.vectorWidth > 0) {
    vectorize.vectorWidth = options.vectorWidth;
  } else {
    vectorize.vectorWidth = strategy.elementwiseLanes;
    vectorize.largeVectorWidth = strategy.largeOpLanes;
    vectorize.blockVectorWidth = strategy.blockedOpLanes;
    vectorize.largeOpBytes = llcBytes;
  }
  vectorize.parallelOuter = options.openmp;
  // Scalable vectors: the vector width is the machine's, not the op's size.
  vectorize.scalable = strategy.scalableVectors && options.vectorWidth == 0;
  if (vectorize.scalable)
    vectorize.largeVectorWidth = 0;
  // Sums (matmuls with dequantize fused in) first: register tiles.
  QuantAffineVectorizeContractionsPassOptions contractions;
  contractions.lanes = strategy.contractionLanes;
  contractions.reductionLanes = strategy.decodeLanes;
  contractions.activationRows = strategy.contractionActivationRows;
  contractions.panelColumns = strategy.panelColumns;
  contractions.panelTileRows = strategy.panelTileRows;
  contractions.transposeBlock = strategy.transposeBlock;
  contractions.parallelOuter = options.openmp;
  pm.addNestedPass<func::FuncOp>(
      createQuantAffineVectorizeContractionsPass(contractions));
  // A reduction and the op that rereads its input (dynamic quantization),
  // a few rows at a time: the second read hits the cache.
  pm.addNestedPass<func::FuncOp>(createQuantAffineFuseReductionRowsPass());
  // The encodings those loops yield, into the caller's buffers too.
  addEmptyTensorEliminationStage(pm, /*prepareDestinations=*/false);
  // Min-max reductions (compute_encoding's statistics) split into lanes.
  QuantAffineVectorizeReductionsPassOptions reductions;
  reductions.lanes = strategy.reductionLanes;
  reductions.parallelOuter = options.openmp;
  pm.addNestedPass<func::FuncOp>(
      createQuantAffineVectorizeReductionsPass(reductions));
  addVectorizeStage(pm, vectorize);
  // After canonicalization has marked the reads in bounds.
  if (options.reciprocalDivision)
    pm.addNestedPass<func::FuncOp>(createQuantAffineDivideByReciprocalPass());

  // 3. Bufferize in place into the caller's buffers.
  // int4 weights in fused matmuls by table where the target permutes 16 f32
  // in one instruction, float4 (MXFP4) ones where it permutes 8 or 16.
  // The others unpacked by whatever the target does best.
  QuantAffineEmulateNarrowTypesPassOptions narrow;
  narrow.tableLookup = strategy.int4TableLookup;
  narrow.float4TableLanes = strategy.float4TableLanes;
  narrow.shiftUnpack = strategy.shiftUnpack;
  narrow.bytePack = strategy.bytePack;
  addInPlaceBufferizationStage(pm, narrow);
  // Their weights prefetched some rows ahead.
  QuantAffinePrefetchWeightsPassOptions prefetch;
  prefetch.distance = strategy.weightPrefetchBytes;
  pm.addNestedPass<func::FuncOp>(
      createQuantAffinePrefetchWeightsPass(prefetch));

  // Rows (or chunks) of each op to an omp.parallel/omp.wsloop.
  if (options.openmp) {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  } else {
    // Row tiles (quant-affine-fuse-reduction-rows) one after another.
    pm.addNestedPass<func::FuncOp>(whenPresent(func::FuncOp::getOperationName(),
                                               {"scf.forall"},
                                               createForallToForLoopPass()));
  }

  // 4. To the LLVM dialect. Tiles of neighbouring blocks are contiguous:
  // one wide access each.
  pm.addNestedPass<func::FuncOp>(createQuantAffineFlattenTransfersPass());
  addLoopsStage(pm.nest<func::FuncOp>());
  addFunctionCleanup<func::FuncOp>(pm);
  addSoftFloatStage(pm);
  // The codes those conversions compute in wide lanes, packed to bytes by
  // the target's byte permute where it has one.
  QuantAffineTruncateByPermutesPassOptions truncate;
  truncate.registerBytes = strategy.truncatePermuteBytes;
  if (truncate.registerBytes > 0)
    pm.addNestedPass<func::FuncOp>(
        createQuantAffineTruncateByPermutesPass(truncate));
  bool stream = options.nontemporalStores == NontemporalStores::Always ||
                (options.nontemporalStores == NontemporalStores::Auto &&
                 strategy.streamingStores);
  if (stream) {
    QuantAffineMarkNontemporalPassOptions nontemporal;
    // 0: every store.
    if (options.nontemporalStores == NontemporalStores::Auto)
      nontemporal.largeOpBytes = llcBytes;
    pm.addNestedPass<func::FuncOp>(
        createQuantAffineMarkNontemporalPass(nontemporal));
  }
  // What streams out was read from memory too: prefetch it; and what large
  // nests read, whatever their stores.
  QuantAffinePrefetchStreamsPassOptions prefetchStreams;
  prefetchStreams.largeNestBytes = strategy.prefetchNestBytes;
  pm.addNestedPass<func::FuncOp>(
      createQuantAffinePrefetchStreamsPass(prefetchStreams));
  // Table lookups, one op each until here, to the target's permutes.
  QuantAffineLowerLookupsPassOptions lookups;
  lookups.permuteIntrinsics.assign(strategy.lookupIntrinsics.begin(),
                                   strategy.lookupIntrinsics.end());
  pm.addNestedPass<func::FuncOp>(createQuantAffineLowerLookupsPass(lookups));
  addStandardToLLVMStage(pm);
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  // The target, on the LLVM functions: compiled elsewhere, they get the
  // instructions planned here.
  QuantAffineSetCPUTargetPassOptions setTarget;
  setTarget.targetTriple = options.targetTriple;
  setTarget.cpu = options.cpu;
  setTarget.features = options.features;
  pm.addPass(createQuantAffineSetCPUTargetPass(setTarget));
  addFinishHostStage(pm, "--quant-affine-cpu-pipeline");
}
