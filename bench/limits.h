// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memory-system limits of the CPU benchmark: for each access pattern a
// kernel can have (bits read and written per element: f32 <-> i8, and the
// packed int4 and int2 layouts), loops that move exactly those bytes, in the
// kernels' traversal (a row per OpenMP iteration, static schedule, rows in
// order), with as little work as possible per byte. Each pattern has several
// variants (plain or non-temporal stores, with or without software
// prefetching of the input); the limit of a pattern is the fastest variant
// measured in the same run, so a kernel near 1x its limit is as fast as the
// best loop we can write for its bytes.
#pragma once

#include "simd.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

/// Bits read and written per element.
struct AccessPattern {
  int inBits, outBits;
};

/// The access patterns the benchmark measures: qdq (f32 -> f32), quantize
/// and dequantize with i8, packed int4 and packed int2 codes.
inline const std::vector<AccessPattern> &accessPatterns() {
  static const std::vector<AccessPattern> patterns = {
      {32, 32}, {32, 8}, {8, 32}, {32, 4}, {4, 32}, {32, 2}, {2, 32}};
  return patterns;
}

/// "read4write1", "read0.5write4", ...: bytes read and written per element.
inline std::string patternName(int inBits, int outBits) {
  auto bytes = [](int bits) {
    char text[16];
    std::snprintf(text, sizeof(text), "%g", bits / 8.0);
    return std::string(text);
  };
  return "read" + bytes(inBits) + "write" + bytes(outBits);
}

/// Elements a limit loop moves per step: the narrower side is one 64-byte
/// line (at least 64 elements, so that f32 copies move 4 lines a step).
/// Rows must be a multiple of it: 256 elements covers every pattern.
constexpr int64_t kLimitRowMultiple = 256;

namespace limits_detail {

enum class StoreKind { Plain, Stream };

/// One 64-byte line in native vectors (simd.h): one zmm, two ymm or four
/// xmm. Each operation on a line is that operation on each of its vectors in
/// order, so a line is written whole before the next.
struct Line {
  simd::VecI part[simd::kPerLine];
};

inline Line loadLine(const char *p) {
  Line line;
  for (int v = 0; v < simd::kPerLine; ++v)
    line.part[v] = simd::loadI(p + simd::kBytes * v);
  return line;
}

/// Unaligned f32 loads (`vmovups`), as the compiled kernels read f32.
inline Line loadLineF(const char *p) {
  Line line;
  for (int v = 0; v < simd::kPerLine; ++v)
    line.part[v] = simd::castFI(
        simd::loadUF(reinterpret_cast<const float *>(p + simd::kBytes * v)));
  return line;
}

inline Line xorLine(Line a, const Line &b) {
  for (int v = 0; v < simd::kPerLine; ++v)
    a.part[v] = simd::xorI(a.part[v], b.part[v]);
  return a;
}

inline Line xor3Line(Line a, const Line &b, const Line &c) {
  for (int v = 0; v < simd::kPerLine; ++v)
    a.part[v] = simd::xor3I(a.part[v], b.part[v], c.part[v]);
  return a;
}

template <StoreKind Kind> inline void storeLine(char *p, const Line &line) {
  for (int v = 0; v < simd::kPerLine; ++v)
    simd::storeLowI<simd::kBytes, Kind == StoreKind::Stream>(
        p + simd::kBytes * v, line.part[v]);
}

/// Reads `InBits` and writes `OutBits` per element over rows x cols
/// elements. A step loads the input lines, folds them into the output lines
/// (XOR where the input is wider, copies where it is narrower: one vector
/// operation per line at most) and stores them. With `PrefetchBytes`, each
/// input line is prefetched that far ahead, with `Hint` (into L1 or L2).
template <int InBits, int OutBits, StoreKind Kind, int PrefetchBytes,
          int Hint = _MM_HINT_T0>
void limitLoop(const void *in, void *out, int64_t rows, int64_t cols) {
  constexpr int kMinBits = InBits < OutBits ? InBits : OutBits;
  constexpr int64_t kStep = std::max<int64_t>(512 / kMinBits, 64);
  constexpr int kIn = static_cast<int>(kStep * InBits / 512);
  constexpr int kOut = static_cast<int>(kStep * OutBits / 512);
  static_assert(kLimitRowMultiple % kStep == 0, "rows hold whole steps");
  const int64_t inRow = cols * InBits / 8, outRow = cols * OutBits / 8;
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  // Pointers and sizes are firstprivate: shared, they live in memory that
  // the stores may alias, and the outlined loop would reload them after each
  // store.
#pragma omp parallel for schedule(static)                                      \
    firstprivate(src, dst, inRow, outRow, cols)
  for (int64_t row = 0; row < rows; ++row) {
    const char *s = src + row * inRow;
    char *d = dst + row * outRow;
    for (int64_t i = 0; i < cols; i += kStep, s += 64 * kIn, d += 64 * kOut) {
      if constexpr (PrefetchBytes > 0)
        for (int l = 0; l < kIn; ++l)
          _mm_prefetch(s + PrefetchBytes + 64 * l,
                       static_cast<decltype(_MM_HINT_T0)>(Hint));
      // (No array of lines: clang 22 then drops the stores' non-temporal
      // hint. A Line's own few vectors keep it: every stream variant's asm,
      // -march=x86-64-v3 and x86-64, has only non-temporal stores.)
      if constexpr (kIn >= kOut) {
        constexpr int kFold = kIn / kOut;
        for (int o = 0; o < kOut; ++o) {
          const char *from = s + 64 * kFold * o;
          Line line = loadLine(from);
          for (int j = 1; j < kFold; ++j)
            line = xorLine(line, loadLine(from + 64 * j));
          storeLine<Kind>(d + 64 * o, line);
        }
      } else {
        constexpr int kSpread = kOut / kIn;
        for (int l = 0; l < kIn; ++l) {
          Line line = loadLine(s + 64 * l);
          for (int j = 0; j < kSpread; ++j)
            storeLine<Kind>(d + 64 * (kSpread * l + j), line);
        }
      }
    }
  }
  if constexpr (Kind == StoreKind::Stream)
    _mm_sfence();
}

/// Stores the low `Bytes` (16, 32 or 64) of `line` at `p`: stores of that
/// width (of the vector width where that is narrower), or, with `Split8`,
/// 8-byte pieces (streaming: `movntsd` where the CPU has SSE4a, `movnti`
/// otherwise), as the compiled packed quantize kernels store their 16 and 32
/// bytes.
template <int Bytes, StoreKind Kind, bool Split8>
inline void storeLow(char *p, const Line &line) {
  static_assert(Bytes == 16 || Bytes == 32 || Bytes == 64, "16, 32, 64");
  constexpr int kPiece = Bytes < simd::kBytes ? Bytes : simd::kBytes;
  for (int v = 0; v < Bytes / kPiece; ++v) {
    if constexpr (Split8) {
      static_assert(Kind == StoreKind::Stream, "8-byte pieces stream");
      static_assert(kPiece <= 32, "16 or 32 bytes a vector");
      simd::streamPieces8<kPiece>(p + kPiece * v, line.part[v]);
    } else {
      simd::storeLowI<kPiece, Kind == StoreKind::Stream>(p + kPiece * v,
                                                         line.part[v]);
    }
  }
}

/// The compiled kernels' own shape (asm of the pipeline's output at
/// 4096 x 4096, `clang -O3 -march=native -S`, AVX-512), without their
/// arithmetic: a row per OpenMP iteration (static schedule), 64 elements a
/// step, no software prefetching. Reading f32, a step loads four lines
/// (`vmovups`: four zmm, or eight ymm) and folds them (`vpternlogd`,
/// `vpxord`; XORs) into one line, of which it stores the output's 64 (i8),
/// 32 (int4) or 16 (int2) bytes; writing f32, it loads the input's 64, 32 or
/// 16 bytes and stores four whole lines from them, as the kernels' four
/// `vmovntps`. f32 to f32 stores the four loaded lines.
template <int InBits, int OutBits, StoreKind Kind, bool Split8 = false>
void kernelShapedLoop(const void *in, void *out, int64_t rows, int64_t cols) {
  constexpr int kInBytes = 64 * InBits / 8, kOutBytes = 64 * OutBits / 8;
  static_assert(kLimitRowMultiple % 64 == 0, "rows hold whole steps");
  const int64_t inRow = cols * InBits / 8, outRow = cols * OutBits / 8;
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
#pragma omp parallel for schedule(static)                                      \
    firstprivate(src, dst, inRow, outRow, cols)
  for (int64_t row = 0; row < rows; ++row) {
    const char *s = src + row * inRow;
    char *d = dst + row * outRow;
    for (int64_t i = 0; i < cols; i += 64, s += kInBytes, d += kOutBytes) {
      if constexpr (InBits == 32) {
        Line a = loadLineF(s), b = loadLineF(s + 64), c = loadLineF(s + 128),
             e = loadLineF(s + 192);
        if constexpr (OutBits == 32) {
          storeLine<Kind>(d, a);
          storeLine<Kind>(d + 64, b);
          storeLine<Kind>(d + 128, c);
          storeLine<Kind>(d + 192, e);
        } else {
          Line v = xorLine(xor3Line(a, b, c), e);
          storeLow<kOutBytes, Kind, Split8>(d, v);
        }
      } else {
        static_assert(OutBits == 32, "reading codes, writing f32");
        // The input's bytes in the line's first vectors; each further
        // vector of the line repeats them.
        constexpr int kPiece =
            kInBytes < simd::kBytes ? kInBytes : simd::kBytes;
        constexpr int kLoaded = kInBytes / kPiece;
        Line v;
        for (int p = 0; p < simd::kPerLine; ++p)
          v.part[p] = p < kLoaded ? simd::loadLowI<kPiece>(s + kPiece * p)
                                  : v.part[p % kLoaded];
        storeLine<Kind>(d, v);
        storeLine<Kind>(d + 64, v);
        storeLine<Kind>(d + 128, v);
        storeLine<Kind>(d + 192, v);
      }
    }
  }
  if constexpr (Kind == StoreKind::Stream)
    _mm_sfence();
}

using LimitFn = void (*)(const void *, void *, int64_t, int64_t);

struct LimitVariant {
  const char *name;
  LimitFn fn;
};

template <int InBits, int OutBits> std::vector<LimitVariant> variantsOf() {
  // Prefetch distances: 1 KiB helps little on the machine we measure (its
  // hardware prefetchers follow these streams); 4 KiB ahead helped the
  // patterns whose input is narrow (read 1 or less, write 4) with streaming
  // stores, on one thread, by up to 1.4x in a sweep of 0.5 to 4 KiB. Into
  // L2 4 KiB ahead is what quant-affine-prefetch-streams does by default.
  std::vector<LimitVariant> variants = {
      {"plain", limitLoop<InBits, OutBits, StoreKind::Plain, 0>},
      {"plain-pf1k", limitLoop<InBits, OutBits, StoreKind::Plain, 1024>},
      {"stream", limitLoop<InBits, OutBits, StoreKind::Stream, 0>},
      {"stream-pf1k", limitLoop<InBits, OutBits, StoreKind::Stream, 1024>},
      {"stream-pf4k", limitLoop<InBits, OutBits, StoreKind::Stream, 4096>},
      {"plain-l2pf4k",
       limitLoop<InBits, OutBits, StoreKind::Plain, 4096, _MM_HINT_T1>},
      {"stream-l2pf4k",
       limitLoop<InBits, OutBits, StoreKind::Stream, 4096, _MM_HINT_T1>},
      {"kernel-plain", kernelShapedLoop<InBits, OutBits, StoreKind::Plain>},
      {"kernel-stream", kernelShapedLoop<InBits, OutBits, StoreKind::Stream>},
  };
  // The packed quantize kernels stream their 32 or 16 bytes a step in 8-byte
  // pieces.
  if constexpr (OutBits < 8)
    variants.push_back(
        {"kernel-stream8",
         kernelShapedLoop<InBits, OutBits, StoreKind::Stream, true>});
  return variants;
}

} // namespace limits_detail

/// The limit loops of one access pattern: (variant name, loop).
inline std::vector<limits_detail::LimitVariant> limitVariants(AccessPattern p) {
  using namespace limits_detail;
#define QA_LIMIT_CASE(IN, OUT)                                                 \
  if (p.inBits == IN && p.outBits == OUT)                                      \
    return variantsOf<IN, OUT>();
  QA_LIMIT_CASE(32, 32)
  QA_LIMIT_CASE(32, 8)
  QA_LIMIT_CASE(8, 32)
  QA_LIMIT_CASE(32, 4)
  QA_LIMIT_CASE(4, 32)
  QA_LIMIT_CASE(32, 2)
  QA_LIMIT_CASE(2, 32)
#undef QA_LIMIT_CASE
  return {};
}
