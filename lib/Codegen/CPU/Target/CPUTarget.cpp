//===- CPUTarget.cpp - resolving a CPU and deriving the strategies --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Uses LLVM's target parsers (no backend is linked): they know every CPU name
// and the features each implies, which is all the strategies need.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/AArch64TargetParser.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

using Error = function_ref<LogicalResult(const Twine &)>;

/// `+a,-b` into (name, enabled) pairs, in order; fails on anything else.
LogicalResult
parseFeatureList(StringRef features,
                 SmallVectorImpl<std::pair<StringRef, bool>> &parsed,
                 Error error) {
  SmallVector<StringRef> items;
  features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    item = item.trim();
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-'))
      return error("features must be a comma-separated list of +name or "
                   "-name, got '" +
                   item + "'");
    parsed.push_back({item.drop_front(), item[0] == '+'});
  }
  return success();
}

/// The host's feature list as LLVM writes it: `+a,-b,...`, sorted.
std::string hostFeatureList(const llvm::StringMap<bool> &host) {
  SmallVector<std::string> items;
  for (const auto &entry : host)
    items.push_back((entry.second ? "+" : "-") + entry.first().str());
  llvm::sort(items);
  return llvm::join(items, ",");
}

/// The changes, and the wider vector extensions the CPU lacks turned off
/// (each also turns off what implies it: -avx2 takes AVX-512 along, -sve
/// SVE2).
std::string pinnedFeatureList(StringRef changes,
                              const llvm::StringMap<bool> &map, bool x86) {
  SmallVector<StringRef> given;
  changes.split(given, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  SmallVector<std::string> items(given.begin(), given.end());
  static const StringRef x86Wider[] = {"avx", "avx2", "avx512f"};
  static const StringRef aarch64Wider[] = {"sve", "sve2"};
  ArrayRef<StringRef> wider =
      x86 ? ArrayRef<StringRef>(x86Wider) : ArrayRef<StringRef>(aarch64Wider);
  for (StringRef extension : wider) {
    std::string off = ("-" + extension).str();
    if (!map.lookup(extension) && !llvm::is_contained(items, off))
      items.push_back(off);
  }
  return llvm::join(items, ",");
}

/// x86-64: the CPU's features, then the changes, with what each implies.
FailureOr<llvm::StringMap<bool>>
resolveX86Features(StringRef cpu, ArrayRef<std::pair<StringRef, bool>> changes,
                   Error error) {
  if (cpu != "generic" &&
      llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) == llvm::X86::CK_None)
    return error("unknown x86-64 CPU '" + cpu +
                 "' (LLVM's -mcpu names: x86-64-v3, znver4, "
                 "sapphirerapids, ...)");
  llvm::StringMap<bool> map;
  SmallVector<StringRef> implied;
  llvm::X86::getFeaturesForCPU(cpu == "generic" ? "x86-64" : cpu, implied);
  // The CPU's table lists its own features; what they imply (avx512f for
  // avx512vl, ...) is added here.
  for (StringRef name : implied) {
    map[name] = true;
    llvm::X86::updateImpliedFeatures(name, /*Enabled=*/true, map);
  }
  for (auto [name, enabled] : changes) {
    // LLVM's table of x86 features: disabling a known feature names it.
    llvm::StringMap<bool> probe;
    llvm::X86::updateImpliedFeatures(name, /*Enabled=*/false, probe);
    if (!probe.count(name))
      return error("unknown x86-64 feature '" + name + "'");
    map[name] = enabled;
    llvm::X86::updateImpliedFeatures(name, enabled, map);
  }
  return map;
}

/// AArch64: the CPU's extensions, then the changes.
FailureOr<llvm::StringMap<bool>> resolveAArch64Features(
    StringRef cpu, ArrayRef<std::pair<StringRef, bool>> changes, Error error) {
  std::optional<llvm::AArch64::CpuInfo> info = llvm::AArch64::parseCpu(cpu);
  if (!info)
    return error("unknown AArch64 CPU '" + cpu +
                 "' (LLVM's -mcpu names: generic, neoverse-v2, "
                 "cortex-a76, ...)");
  llvm::StringMap<bool> map;
  std::vector<StringRef> implied;
  llvm::AArch64::getExtensionFeatures(info->getImpliedExtensions(), implied);
  for (StringRef feature : implied)
    map[feature.drop_front()] = feature.starts_with("+");
  // Linux on AArch64 requires Advanced SIMD.
  map["neon"] = true;
  for (auto [name, enabled] : changes) {
    if (!llvm::AArch64::targetFeatureToExtension(("+" + name).str()))
      return error("unknown AArch64 feature '" + name + "'");
    map[name] = enabled;
  }
  // The SVE versions imply SVE.
  for (StringRef sve : {"sve2", "sve2p1", "sve2-aes", "sve2-bitperm"})
    if (map.lookup(sve))
      map["sve"] = true;
  return map;
}
} // namespace

bool CPUTarget::isX86() const {
  return isa == CPUVectorISA::X86SSE || isa == CPUVectorISA::X86AVX2 ||
         isa == CPUVectorISA::X86AVX512;
}

FailureOr<CPUTarget> mlir::quant_affine::resolveCPUTarget(StringRef triple,
                                                          StringRef cpu,
                                                          StringRef features,
                                                          Error error) {
  std::string hostTriple = llvm::sys::getProcessTriple();
  llvm::Triple parsed(
      llvm::Triple::normalize(triple.empty() ? StringRef(hostTriple) : triple));
  bool x86 = parsed.getArch() == llvm::Triple::x86_64;
  if (!x86 && parsed.getArch() != llvm::Triple::aarch64)
    return error("unsupported target triple '" +
                 (triple.empty() ? StringRef(hostTriple) : triple) +
                 "': the CPU pipeline compiles for x86_64 and aarch64");
  bool isHostArch = parsed.getArch() == llvm::Triple(hostTriple).getArch();

  CPUTarget target;
  target.triple = parsed.str();
  // The host's CPU and features where neither is given and the target is
  // the host's architecture; LLVM's generic CPU elsewhere.
  bool hostDefaults = cpu.empty() && features.empty() && isHostArch;
  target.cpu = cpu.empty() ? (isHostArch ? llvm::sys::getHostCPUName().str()
                                         : std::string("generic"))
                           : cpu.str();

  // The host's own list where it is the host; else the CPU's features with
  // the changes, and what each implies.
  llvm::StringMap<bool> map;
  if (hostDefaults) {
    map = llvm::sys::getHostCPUFeatures();
    target.features = hostFeatureList(map);
  } else {
    SmallVector<std::pair<StringRef, bool>> changes;
    if (failed(parseFeatureList(features, changes, error)))
      return failure();
    target.features = features.str();
    FailureOr<llvm::StringMap<bool>> resolved =
        x86 ? resolveX86Features(target.cpu, changes, error)
            : resolveAArch64Features(target.cpu, changes, error);
    if (failed(resolved))
      return failure();
    map = std::move(*resolved);
    // The vector extensions the CPU lacks turned off too. A function's
    // target-features replace the compiler's own: with the changes alone,
    // clang -march=native on an AVX-512 host gave cpu=znver3 code AVX-512
    // instructions (and -mcpu=native on an SVE host would give NEON-only
    // targets SVE).
    target.features = pinnedFeatureList(features, map, x86);
  }

  if (x86) {
    if (map.lookup("avx512f")) {
      target.isa = CPUVectorISA::X86AVX512;
      target.vectorBytes = 64;
      target.vectorRegisters = 32;
      target.f32PermuteLanes = 16;
      target.f32PermuteIntrinsics = {"16xf32:llvm.x86.avx512.permvar.sf.512",
                                     "8xf32:llvm.x86.avx2.permps"};
      target.permutesBytesOfTwoRegisters = map.lookup("avx512vbmi");
    } else if (map.lookup("avx2")) {
      target.isa = CPUVectorISA::X86AVX2;
      target.vectorBytes = 32;
      target.vectorRegisters = 16;
      target.f32PermuteLanes = 8;
      target.f32PermuteIntrinsics = {"8xf32:llvm.x86.avx2.permps"};
    } else {
      target.isa = CPUVectorISA::X86SSE;
      target.vectorBytes = 16;
      target.vectorRegisters = 16;
    }
    return target;
  }
  target.vectorBytes = 16;
  target.vectorRegisters = 32;
  target.isa =
      map.lookup("sve") ? CPUVectorISA::AArch64SVE : CPUVectorISA::AArch64NEON;
  return target;
}

CPUStrategy mlir::quant_affine::deriveCPUStrategy(const CPUTarget &target) {
  CPUStrategy strategy;
  int64_t lanes = target.f32Lanes();
  int64_t registers = target.vectorRegisters;
  strategy.elementwiseLanes = lanes;
  // SVE: one register of f32 at whatever length the machine has.
  strategy.scalableVectors = target.isa == CPUVectorISA::AArch64SVE;
  // A cache line of i8 on every target (64 bytes on x86 and AArch64 alike).
  strategy.largeOpLanes = 64;
  // Measured on Zen 5 (bench/mxquant, docs/Benchmarks.md): tiles of 256
  // elements ran MXFP8 and NVFP4 quantization 1.2 to 1.5 times faster than
  // 64 with AVX-512, and faster than 512; since the saturated encoding is
  // one addition, 128 runs MXFP8 1.08 times faster than 256 in cache with
  // AVX-512 and AVX2 (256 spills), NVFP4 alike. Not measured on AArch64.
  strategy.blockedOpLanes = 128;
  strategy.reductionLanes = lanes;
  // Register tiles of sums: two registers of f32 per row of accumulators
  // (4 weight rows: 8 of them). With one ymm, AVX2's convolutions and
  // 16-row prefills ran at half the speed (docs/Benchmarks.md).
  strategy.contractionLanes = 2 * lanes;
  // Decode: unpacking the codes needs registers too; AVX2's int4 decode ran
  // about 15% faster with one ymm a row than with two (docs/Pipelines.md).
  strategy.decodeLanes = std::max<int64_t>(lanes * registers / 16, lanes);
  // Tiles of rows x 2 weight rows, one register each: half the registers
  // hold accumulators, half the operands.
  strategy.contractionActivationRows = registers / 4;
  // Panels: rows x 2 accumulators + 2 panel vectors + 1 broadcast fit.
  strategy.panelColumns = 2 * lanes;
  int64_t tileRows = 1;
  while (2 * (tileRows * 2) + 3 <= registers)
    tileRows *= 2;
  strategy.panelTileRows = tileRows;
  strategy.transposeBlock = lanes;
  // A table of the 16 int4 codes needs a permute of 16 f32 (AVX-512); with
  // AVX2's 8, two lookups, the index and the blend take 6 vector operations
  // per 8 codes where shifts, conversion and scaling take 4 (not measured).
  strategy.int4TableLookup = target.f32PermuteLanes >= 16;
  // float4's arithmetic decode costs far more: tables wherever a permute of
  // f32 exists, two halves with 8 lanes (docs/FusedMatmul.md).
  strategy.float4TableLanes =
      target.f32PermuteLanes >= 8
          ? std::min<int64_t>(target.f32PermuteLanes, 16)
          : 0;
  strategy.lookupIntrinsics = target.f32PermuteIntrinsics;
  strategy.shiftUnpack = target.isa != CPUVectorISA::X86SSE &&
                         target.isa != CPUVectorISA::X86AVX512;
  // On AVX-512 too (measured on Zen 5, docs/Benchmarks.md): without it,
  // LLVM packs 16 lanes of i4 codes with a vpextrb per code; NVFP4
  // quantization ran 1.6 times faster with it, int4/int2 the same.
  strategy.bytePack = target.isa != CPUVectorISA::X86SSE;
  // Measured on Zen 5 (docs/Benchmarks.md): MXFP8 codes packed by vpermt2b
  // quantized 1.13 times faster in cache than by vpmovdb.
  strategy.truncatePermuteBytes =
      target.permutesBytesOfTwoRegisters ? target.vectorBytes : 0;
  // AArch64's STNP is a hint on pairs of scalar or 128-bit registers, not a
  // cache bypass LLVM selects for vector stores: plain stores there.
  strategy.streamingStores = target.isX86();
  // Measured on AMD Zen 4 (docs/FusedMatmul.md); kept for the other
  // targets, where nothing contradicts them yet (docs/Benchmarks.md).
  strategy.weightPrefetchBytes = 16 << 10;
  strategy.prefetchNestBytes = 4 << 20;
  return strategy;
}
