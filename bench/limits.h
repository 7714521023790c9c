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

#include <immintrin.h>

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

template <StoreKind Kind> inline void storeLine(char *p, __m512i v) {
  if constexpr (Kind == StoreKind::Stream)
    _mm512_stream_si512(reinterpret_cast<__m512i *>(p), v);
  else
    _mm512_store_si512(p, v);
}

/// Reads `InBits` and writes `OutBits` per element over rows x cols
/// elements. A step loads the input lines, folds them into the output lines
/// (XOR where the input is wider, copies where it is narrower: one vector
/// operation per line at most) and stores them. With `PrefetchBytes`, each
/// input line is prefetched that far ahead.
template <int InBits, int OutBits, StoreKind Kind, int PrefetchBytes>
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
          _mm_prefetch(s + PrefetchBytes + 64 * l, _MM_HINT_T0);
      // (No array of lines: clang 22 then drops the stores' non-temporal
      // hint.)
      if constexpr (kIn >= kOut) {
        constexpr int kFold = kIn / kOut;
        for (int o = 0; o < kOut; ++o) {
          const char *from = s + 64 * kFold * o;
          __m512i line = _mm512_load_si512(from);
          for (int j = 1; j < kFold; ++j)
            line = _mm512_xor_si512(line, _mm512_load_si512(from + 64 * j));
          storeLine<Kind>(d + 64 * o, line);
        }
      } else {
        constexpr int kSpread = kOut / kIn;
        for (int l = 0; l < kIn; ++l) {
          __m512i line = _mm512_load_si512(s + 64 * l);
          for (int j = 0; j < kSpread; ++j)
            storeLine<Kind>(d + 64 * (kSpread * l + j), line);
        }
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
  // stores, on one thread, by up to 1.4x in a sweep of 0.5 to 4 KiB.
  return {
      {"plain", limitLoop<InBits, OutBits, StoreKind::Plain, 0>},
      {"plain-pf1k", limitLoop<InBits, OutBits, StoreKind::Plain, 1024>},
      {"stream", limitLoop<InBits, OutBits, StoreKind::Stream, 0>},
      {"stream-pf1k", limitLoop<InBits, OutBits, StoreKind::Stream, 1024>},
      {"stream-pf4k", limitLoop<InBits, OutBits, StoreKind::Stream, 4096>},
  };
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
