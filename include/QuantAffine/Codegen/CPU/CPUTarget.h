//===- CPUTarget.h - the CPU the pipeline compiles for ----------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that knows about CPUs: a target (triple, CPU name, features,
// as LLVM names them) is resolved once into the vector registers it has, and
// every code generation choice of the CPU pipeline (vector widths, register
// tiles, the int4 unpacking, streaming stores, prefetch distances) is derived
// from those in deriveCPUStrategy. Passes stay target-neutral: they take the
// derived numbers as options.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_CPU_CPUTARGET_H
#define QUANT_AFFINE_CODEGEN_CPU_CPUTARGET_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace quant_affine {

/// The vector instruction sets the CPU pipeline plans for.
enum class CPUVectorISA {
  /// x86-64 without AVX2 (SSE up to 4.2, 16 xmm).
  X86SSE,
  /// AVX2 (and usually FMA): 16 ymm registers of 256 bits.
  X86AVX2,
  /// AVX-512F: 32 zmm registers of 512 bits.
  X86AVX512,
  /// AArch64 Advanced SIMD: 32 registers of 128 bits.
  AArch64NEON,
  /// AArch64 SVE: 32 scalable registers, at least 128 bits.
  AArch64SVE,
};

/// A CPU, resolved from what LLVM knows of it.
struct CPUTarget {
  /// Normalized target triple, e.g. `x86_64-unknown-linux-gnu`.
  std::string triple;
  /// LLVM's CPU name (`-mcpu`), e.g. `znver4`, `x86-64-v3`, `neoverse-v2`.
  std::string cpu;
  /// Feature changes on top of the CPU's own, as LLVM writes them
  /// (`+avx512f,-avx512bw`); for the host, its full list.
  std::string features;
  CPUVectorISA isa = CPUVectorISA::X86SSE;
  /// Bytes of one vector register (the minimum, for SVE).
  int64_t vectorBytes = 16;
  /// Architectural vector registers.
  int64_t vectorRegisters = 16;
  /// f32 lanes that one instruction permutes by a vector of indices, a whole
  /// register (x86 `vpermps`: 16 with AVX-512, 8 with AVX2); 0 where there
  /// is none (SSE; NEON's `tbl` permutes bytes).
  int64_t f32PermuteLanes = 0;
  /// The LLVM intrinsics of those permutes, `<N x f32> (<N x f32> table,
  /// <N x i32> indices)`, as `NxTYPE:NAME` (quant-affine-lower-lookups).
  SmallVector<std::string, 2> f32PermuteIntrinsics;
  /// One instruction selects any bytes of two vector registers (x86 AVX-512
  /// VBMI `vpermt2b`).
  bool permutesBytesOfTwoRegisters = false;

  bool isX86() const;
  /// f32 lanes of one vector register.
  int64_t f32Lanes() const { return vectorBytes / 4; }
};

/// Resolves `triple`, `cpu` and `features` (each empty for the host's: LLVM's
/// process triple, `sys::getHostCPUName` and `sys::getHostCPUFeatures`).
/// Unknown triples (other than x86-64 and AArch64), CPU names and malformed
/// feature lists are reported through `error`.
FailureOr<CPUTarget>
resolveCPUTarget(StringRef triple, StringRef cpu, StringRef features,
                 function_ref<LogicalResult(const Twine &)> error);

/// Every number the CPU pipeline's strategies use, derived from a target.
struct CPUStrategy {
  /// Elementwise ops in cache: one register of f32 per vector.
  int64_t elementwiseLanes = 16;
  /// Elementwise ops get scalable vectors of `elementwiseLanes x vscale`
  /// (SVE: one binary for every vector length).
  bool scalableVectors = false;
  /// Elementwise ops larger than the last-level cache: a 64-byte line of
  /// i8 results, stored whole (and streamed).
  int64_t largeOpLanes = 64;
  /// Those whose innermost dim is a short block with a scale the body
  /// decodes (MX, NVFP4): tiles of whole blocks this long, so that the
  /// per-block work is done for many blocks at once.
  int64_t blockedOpLanes = 128;
  /// Partial results of min-max reductions: one register of f32.
  int64_t reductionLanes = 16;
  /// Accumulator lanes of a register tile of a sum: two registers of f32,
  /// so that a tile of 4 weight rows keeps 8 accumulators.
  int64_t contractionLanes = 32;
  /// The same where the lanes split the reduction of a single row (decode,
  /// x @ W^T): 4 weight rows of accumulators in a quarter of the registers;
  /// the unpacking of the codes needs the others.
  int64_t decodeLanes = 32;
  /// Activation rows of a register tile (with 2 weight rows, half the
  /// lanes: rows x 2 accumulators).
  int64_t contractionActivationRows = 8;
  /// Prefill panels: weight rows per panel (two registers of f32), rows of
  /// x per micro-kernel (rows x 2 accumulators, leaving registers for the
  /// panel's two vectors and a broadcast), transposes in square blocks of
  /// one register.
  int64_t panelColumns = 32;
  int64_t panelTileRows = 8;
  int64_t transposeBlock = 16;
  /// int4 codes inside sums dequantized by a 16-entry table of f32: only
  /// where one instruction permutes a register of 16 f32 by index (AVX-512
  /// `vpermps zmm`); elsewhere LLVM scalarizes the lookup, and the codes
  /// are unpacked arithmetically (shifts, sign extension, conversion).
  bool int4TableLookup = true;
  /// f4E2M1FN codes inside sums dequantized by tables of this many f32 (the
  /// target's permute): 16, one table of the 16 codes as for int4; 8, the
  /// codes with the sign bit clear and set as two tables, chosen by that
  /// bit (AVX2). 0: decoded arithmetically in the lanes.
  int64_t float4TableLanes = 16;
  /// The permutes those table lookups become (CPUTarget's
  /// f32PermuteIntrinsics); the others become per-lane extracts.
  SmallVector<std::string, 2> lookupIntrinsics;
  /// Other i1/i2/i4 codes widened to 32 bits or to float are unpacked from
  /// whole words by per-lane shifts (AVX2 `vpsllvd`, NEON `sshl`) rather
  /// than by byte shifts and interleaves (UnpackByShifts.h). Not on SSE,
  /// which has no per-lane shifts, nor on AVX-512, where the byte form was
  /// tuned and no AVX-512 machine has measured the other yet.
  bool shiftUnpack = false;
  /// i1/i2/i4 results packed from bytes (PackByBytes.h): where the target
  /// truncates and shuffles whole registers of bytes (AVX2, AVX-512, NEON).
  bool bytePack = false;
  /// Truncations to bytes of whole register pairs as byte permutes of
  /// registers this wide (TruncateByPermutes.cpp); 0: left to LLVM.
  int64_t truncatePermuteBytes = 0;
  /// Non-temporal stores exist and bypass the caches (x86 `movnt*`).
  bool streamingStores = true;
  /// How far ahead fused contractions prefetch their weights.
  int64_t weightPrefetchBytes = 16 << 10;
  /// Loop nests moving more than this have their loads prefetched.
  int64_t prefetchNestBytes = 4 << 20;
};

CPUStrategy deriveCPUStrategy(const CPUTarget &target);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CODEGEN_CPU_CPUTARGET_H
