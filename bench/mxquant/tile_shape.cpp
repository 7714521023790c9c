//===- tile_shape.cpp - the MXFP8 loop's memory shape, without its math ---===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Whether the shape of the pipeline's dynamic MXFP8 loop (per row tile: a
// pass reducing each block of 32 to its largest magnitude, then a pass
// rereading the tile from the cache and storing a byte per element) limits
// one core streaming from memory, apart from its arithmetic. 4096 x 4096
// f32 in, bytes out (streamed), block bytes out; one thread; GB/s count
// 4 + 1 + 1/32 bytes an element, best of four calls. Variants: one pass (the
// limit loops' shape), and two passes per tile with a cheap reduction
// (a running maximum, the one vector stored as the tile's scale bytes), with a
// horizontal maximum per block (what a block's scale needs when blocks are not
// reduced many at a time), and with a few integer operations per vector in the
// second pass. Not part of bench/mxquant/run.sh; docs/Benchmarks.md records a
// run:
//
//   clang++ -O3 bench/mxquant/tile_shape.cpp -o tile_shape
//   taskset -c 1 ./tile_shape [ROUNDS]
//
// Builds on any x86-64 compiler; the loops need AVX-512 (F and BW) at run
// time, and say so where the host has none.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define AVX512 __attribute__((target("avx512f,avx512bw")))

namespace {

constexpr int64_t kRows = 4096, kCols = 4096;

/// The low bytes of four vectors of 32-bit lanes, as one 64-byte line.
AVX512 __m512i packLowBytes(const __m512i v[4]) {
  __m256i low = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm512_cvtepi32_epi8(v[0])),
      _mm512_cvtepi32_epi8(v[1]), 1);
  __m256i high = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm512_cvtepi32_epi8(v[2])),
      _mm512_cvtepi32_epi8(v[3]), 1);
  return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
}

/// The 16 floats at `p`, the line `PrefetchBytes` ahead prefetched with
/// `Hint` first (none for 0).
template <int PrefetchBytes, int Hint = _MM_HINT_T0>
AVX512 __m512i loadAhead(const float *p) {
  if (PrefetchBytes)
    _mm_prefetch(reinterpret_cast<const char *>(p) + PrefetchBytes,
                 static_cast<decltype(_MM_HINT_T0)>(Hint));
  return _mm512_castps_si512(_mm512_loadu_ps(p));
}

/// Seconds for one pass: each 64 elements loaded once, packed, streamed.
template <int PrefetchBytes>
AVX512 double onePass(const float *x, uint8_t *q, uint8_t *) {
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < kRows * kCols; i += 64) {
    __m512i v[4];
    for (int l = 0; l < 4; ++l)
      v[l] = loadAhead<PrefetchBytes>(x + i + 16 * l);
    _mm512_stream_si512(reinterpret_cast<__m512i *>(q + i), packLowBytes(v));
  }
  _mm_sfence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

enum class Reduction { Running, PerBlock };

/// Seconds for two passes per tile of `TileFloats`: the reduction (its
/// reads prefetched `ReducePrefetch` bytes ahead into L2), then the reread
/// (the next tile prefetched `NextPrefetch` bytes ahead into L1), with
/// `Work` shift-and-add pairs per vector.
template <int TileFloats, Reduction Kind, int ReducePrefetch, int NextPrefetch,
          int Work>
AVX512 double twoPasses(const float *x, uint8_t *q, uint8_t *s) {
  constexpr int kBlocks = TileFloats / 32;
  const __m512i noSign = _mm512_set1_epi32(0x7FFFFFFF);
  auto start = std::chrono::steady_clock::now();
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t t = 0; t < kCols; t += TileFloats) {
      const float *tile = x + r * kCols + t;
      __m512i largest[kBlocks];
      for (int b = 0; b < kBlocks; ++b) {
        const float *block = tile + 32 * b;
        largest[b] = _mm512_max_epu32(
            _mm512_and_si512(loadAhead<ReducePrefetch, _MM_HINT_T1>(block),
                             noSign),
            _mm512_and_si512(loadAhead<ReducePrefetch, _MM_HINT_T1>(block + 16),
                             noSign));
      }
      uint8_t *scales = s + (r * kCols + t) / 32;
      if (Kind == Reduction::PerBlock) {
        for (int b = 0; b < kBlocks; ++b)
          scales[b] =
              static_cast<uint8_t>(_mm512_reduce_max_epu32(largest[b]) >> 23);
      } else {
        __m512i all = largest[0];
        for (int b = 1; b < kBlocks; ++b)
          all = _mm512_max_epu32(all, largest[b]);
        // The tile's kBlocks scale bytes, from that one vector.
        for (int o = 0; o < kBlocks; o += 64)
          _mm512_mask_storeu_epi8(
              scales + o,
              kBlocks - o >= 64 ? ~0ull : (1ull << (kBlocks - o)) - 1, all);
      }
      for (int i = 0; i < TileFloats; i += 64) {
        __m512i v[4];
        for (int l = 0; l < 4; ++l) {
          __m512i bits = loadAhead<NextPrefetch>(tile + i + 16 * l);
          for (int w = 0; w < Work; ++w)
            bits = _mm512_add_epi32(_mm512_srli_epi32(bits, 1), bits);
          v[l] = bits;
        }
        _mm512_stream_si512(reinterpret_cast<__m512i *>(q + r * kCols + t + i),
                            packLowBytes(v));
      }
    }
  _mm_sfence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Variant {
  const char *name;
  double (*run)(const float *, uint8_t *, uint8_t *);
};

} // namespace

int main(int argc, char **argv) {
  if (!__builtin_cpu_supports("avx512f") ||
      !__builtin_cpu_supports("avx512bw")) {
    std::printf("# needs AVX-512\n");
    return 0;
  }
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  auto *x = static_cast<float *>(std::aligned_alloc(64, kRows * kCols * 4));
  auto *q = static_cast<uint8_t *>(std::aligned_alloc(64, kRows * kCols));
  auto *s = static_cast<uint8_t *>(std::aligned_alloc(64, kRows * kCols / 32));
  for (int64_t i = 0; i < kRows * kCols; ++i)
    x[i] = static_cast<float>(i % 1000) * 0.37f;
  std::memset(q, 0, kRows * kCols);
  std::memset(s, 0, kRows * kCols / 32);
  const double bytes = kRows * kCols * (4 + 1 + 1.0 / 32);
  constexpr auto kRunning = Reduction::Running;
  constexpr auto kPerBlock = Reduction::PerBlock;
  const Variant variants[] = {
      {"one pass, 1 KiB ahead", onePass<1024>},
      {"one pass, no prefetch", onePass<0>},
      {"16 KiB tiles, running max", twoPasses<4096, kRunning, 4096, 16384, 0>},
      {"16 KiB tiles, running max, 4 ops",
       twoPasses<4096, kRunning, 4096, 16384, 4>},
      {"2 KiB tiles, running max", twoPasses<512, kRunning, 1024, 2048, 0>},
      {"16 KiB tiles, max per block",
       twoPasses<4096, kPerBlock, 4096, 16384, 0>},
      {"16 KiB tiles, max per block, 4 ops",
       twoPasses<4096, kPerBlock, 4096, 16384, 4>},
  };
  for (int round = 0; round < rounds; ++round)
    for (const Variant &v : variants) {
      double best = 1e30;
      for (int call = 0; call < 4; ++call) {
        double seconds = v.run(x, q, s);
        best = seconds < best ? seconds : best;
      }
      std::printf("%-36s %5.1f GB/s\n", v.name, bytes / best / 1e9);
    }
  std::free(x);
  std::free(q);
  std::free(s);
}
