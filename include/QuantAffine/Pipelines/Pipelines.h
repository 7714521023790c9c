//===- Pipelines.h - quant-affine pass pipelines ----------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_PIPELINES_PIPELINES_H
#define QUANT_AFFINE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;

namespace quant_affine {

/// Values of the CPU pipeline's `nontemporal-stores` option.
enum class NontemporalStores {
  /// Stream the stores of ops that move more than `llc-bytes`.
  Auto,
  /// Stream every vector store.
  Always,
  /// Never stream.
  Never,
};

/// Options of --quant-affine-cpu-pipeline.
///
/// The target (`target-triple`, `cpu`, `features`, the host's by default)
/// decides vector widths, register tiles, the int4 unpacking and whether
/// stores stream (CPUTarget.h), and is recorded on the emitted functions.
/// Two choices depend on how much an op moves: ops whose tensors (static
/// sizes of what they read and write, each counted once) add up to more
/// than the last-level cache get 64-lane tiles and non-temporal stores,
/// others 16 lanes and plain stores; ops with dynamic-shaped results count
/// as small. `vector-width` and `nontemporal-stores` set explicitly apply to
/// every op instead.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<std::string> targetTriple{
      *this, "target-triple",
      llvm::cl::desc("Target triple (x86_64-... or aarch64-...); empty: the "
                     "host's"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("LLVM CPU name (x86-64-v3, znver4, neoverse-v2, ...); "
                     "empty: the host's (generic for another architecture)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("LLVM target features on top of the CPU's "
                     "(+avx512f,-avx512bw, +sve); empty: the CPU's, or all "
                     "the host's when cpu is empty too"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per vector along the innermost dim, for every "
                     "op; 0 (auto): one vector register of f32 of the target "
                     "(4, 8 or 16), and 64 (whole 64-byte lines of i8) for "
                     "ops larger than llc-bytes"),
      llvm::cl::init(0)};
  PassOptions::Option<NontemporalStores> nontemporalStores{
      *this, "nontemporal-stores",
      llvm::cl::desc("Store results with non-temporal (streaming) stores"),
      llvm::cl::values(
          clEnumValN(NontemporalStores::Auto, "auto",
                     "for ops larger than llc-bytes with static-shaped "
                     "results"),
          clEnumValN(NontemporalStores::Always, "true", "for every op"),
          clEnumValN(NontemporalStores::Never, "false", "never")),
      llvm::cl::init(NontemporalStores::Auto)};
  PassOptions::Option<int64_t> llcBytes{
      *this, "llc-bytes",
      llvm::cl::desc("Last-level cache size in bytes, above which an op is "
                     "large (the auto choices); 0: the compiling host's "
                     "(getHostLastLevelCacheBytes)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> fromQuant{
      *this, "from-quant",
      llvm::cl::desc("Convert upstream quant casts and !quant types first "
                     "(--convert-quant-to-quant-affine)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Assert at run time what dynamic shapes leave unchecked"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> reciprocalDivision{
      *this, "reciprocal-division",
      llvm::cl::desc("Round x / s through x * (1 / s) with an exactness check "
                     "per vector (bit for bit the same results; slower where "
                     "vector division is fast, see docs/Benchmarks.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the rows of each op on OpenMP threads (omp "
                     "dialect; link an OpenMP runtime such as libomp)"),
      llvm::cl::init(false)};
};

/// Checks option values the pipeline cannot honour (a negative vector width
/// or cache size, ...); reports each through `error` and fails.
LogicalResult
checkCPUPipelineOptions(const CPUPipelineOptions &options,
                        function_ref<LogicalResult(const Twine &)> error);

/// The size in bytes of the compiling host's last-level cache, what
/// `llc-bytes=0` means: the largest data or unified cache that Linux lists
/// under /sys/devices/system/cpu/cpu0/cache/, else
/// sysconf(_SC_LEVEL3_CACHE_SIZE) or (_SC_LEVEL2_CACHE_SIZE), else 32 MiB.
int64_t getHostLastLevelCacheBytes();

/// quant_affine on tensors (with func/tensor/linalg/arith) to the LLVM
/// dialect, vectorized, with results written in place into caller buffers.
void buildQuantAffineCPUPipeline(OpPassManager &pm,
                                 const CPUPipelineOptions &options);

/// Options of --quant-affine-gpu-pipeline.
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA GPU architecture (sm_80, sm_90, ...)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX target features, e.g. +ptx80 (PTX ISA 8.0)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: isa (PTX text), bin (cubin, "
                     "needs ptxas) or fatbin (cubin and PTX, needs ptxas "
                     "and fatbinary)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level for the device code (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root: libdevice, ptxas and fatbinary "
                     "are taken from it"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per thread and vector access along the "
                     "innermost dim (4 f32 make one 16-byte access)"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> blockSize{*this, "block-size",
                                         llvm::cl::desc("Threads per block"),
                                         llvm::cl::init(256)};
  PassOptions::Option<bool> fromQuant{
      *this, "from-quant",
      llvm::cl::desc("Convert upstream quant casts and !quant types first "
                     "(--convert-quant-to-quant-affine)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Assert on the host what dynamic shapes leave unchecked"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> reductionThreads{
      *this, "reduction-threads",
      llvm::cl::desc("Sums with fewer results than this get a warp each "
                     "(quant-affine-reduction-loops); 0: never"),
      llvm::cl::init(16777216)};
  PassOptions::Option<int64_t> reductionWidth{
      *this, "reduction-width",
      llvm::cl::desc("Elements of the innermost reduction dim each lane of a "
                     "warp sum reads per step as one vector (at most)"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> reductionRows{
      *this, "reduction-rows",
      llvm::cl::desc("Results per warp of a warp sum (at most), sharing the "
                     "reads of inputs they have in common"),
      llvm::cl::init(4)};
};

/// Checks option values the pipeline cannot honour (an unknown output
/// format, a block size outside [1, 1024], ...); reports each through
/// `error` and fails.
LogicalResult
checkGPUPipelineOptions(const GPUPipelineOptions &options,
                        function_ref<LogicalResult(const Twine &)> error);

/// quant_affine on tensors to GPU kernels compiled through NVVM into a
/// gpu.binary, launched from host code lowered to the LLVM dialect (the
/// mgpu* runtime calls of --gpu-to-llvm). Arguments are device pointers.
void buildQuantAffineGPUPipeline(OpPassManager &pm,
                                 const GPUPipelineOptions &options);

/// For tests where there is no GPU: the GPU pipeline's mapping (the same
/// stages and options up to the kernels), with each gpu.launch run as loops
/// over blocks and threads on the CPU (quant-affine-test-launches-on-cpu),
/// lowered to the LLVM dialect for the host. chip, features, format,
/// opt-level and cuda-path are not used.
void buildQuantAffineTestGPUOnCPUPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options);

/// Registers --quant-affine-cpu-pipeline and --quant-affine-gpu-pipeline,
/// and the code generation passes they are built from.
void registerQuantAffinePipelines();

/// The interface models the pipelines rely on (bufferization, tiling, value
/// bounds, subsets). Embedders add these to their registry.
void registerPipelineExtensions(DialectRegistry &registry);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_PIPELINES_PIPELINES_H
