// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What limits MXFP4 decode (y = W x, M = 1, f4E2M1FN codes with an f32
// scale per 32) on an AVX-512 core: the arithmetic or the packed layout?
// Five hand-written loops over 256 rows of 4096 codes (640 KiB with the
// scales: a 1 MiB L2 holds them, so the loops compute rather than wait),
// each exact (every weight is fl(e2m1 * s), checked with one-hot rows):
//   standard     what the pipeline generates (LookupTables.cpp): per 32
//                codes (16 bytes) a zero-extension to 16 lanes, the low
//                nibbles masked and the high ones shifted, two vpermps in
//                the block's scaled table, two FMAs;
//   permuted-x   the same layout read 64 bytes at a time: lane i of the
//                load shifted by 4j is code 8i + j, so the activation is
//                permuted once per call to that order; the table is
//                unscaled and each looked-up vector is multiplied by its
//                lanes' scales (four blocks per vector);
//   permuted-x-deferred  the same layout and activation order as
//                permuted-x, with the scale applied once per 128 codes:
//                the unscaled values times the activation are summed per
//                lane over the 8 shifts (all 8 of lane i are in block
//                i / 4), and that sum is multiplied by the lanes' scales.
//                Exact on one-hot rows, but not the dequantize-then-matmul
//                order: a weight that overflows to infinity (6 x 2^126)
//                times 0.5 is finite this way;
//   interleaved  a repacked layout: in each group of 128 codes, nibble j
//                of 32-bit lane i is code 16j + i, so shift j gives codes
//                16j .. 16j + 15, one block's, in order: one 64-byte load,
//                a shift and a vpermps per 16 codes, a scaled table per
//                block, the activation as it is. vpermps reads only the
//                low 4 bits of each index;
//   interleaved-masked  the same with each index masked to 4 bits, as
//                generic IR must (an out-of-range vector.extract is
//                poison), which LLVM keeps.
// By default the cache case: 256 rows called 2,000 times. With `memory`,
// 4096 x 4096 weights, copies rotated past 8 times the last-level cache (at
// most 1 GiB), every loop prefetching its codes AHEAD bytes ahead into L1
// (default 8 KiB: the same code of the next tile of 4 rows), beside a loop
// that only reads the same bytes (64-byte loads, the same prefetch): the
// ratio to that read is what issue 37's 0.8 asks of a decode. Built for
// any x86-64 (the loops carry their target attribute); run only where the
// CPU has AVX-512F. docs/Benchmarks.md records runs. Build and run:
//   clang++ -O3 bench/matmul/float4_decode_layouts.cpp -o layouts
//   ./layouts [rounds] [memory [AHEAD]]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <unistd.h>

#define AVX512 __attribute__((target("avx512f")))

namespace {

constexpr int kCols = 4096, kBlock = 32, kGroup = 128;
/// Rows of a weight copy (256 in cache, 4096 from memory), and how far
/// ahead the loops prefetch their codes (0: not at all).
int gRows = 256, gPrefetchBytes = 0;
size_t codeBytes() { return size_t(gRows) * kCols / 2; }
size_t scaleCount() { return size_t(gRows) * kCols / kBlock; }

const float kE2M1[16] = {0,  0.5f,  1,  1.5f,  2,  3,  4,  6,
                         -0, -0.5f, -1, -1.5f, -2, -3, -4, -6};

/// The weights of one copy: codes in the standard packed layout (code e of
/// a row at byte e / 2, low nibble first) and in the interleaved one.
struct Weights {
  uint8_t *standard, *interleaved;
  float *scales;
};

/// Byte and nibble of code `e` of a row in the interleaved layout.
void interleavedPlace(int e, int &byte, int &high) {
  int group = e / kGroup, r = e % kGroup, shift = r / 16, lane = r % 16;
  byte = group * 64 + lane * 4 + shift / 2;
  high = shift % 2;
}

int codeOf(const uint8_t *row, int e, bool interleaved) {
  int byte = e / 2, high = e % 2;
  if (interleaved)
    interleavedPlace(e, byte, high);
  return high ? row[byte] >> 4 : row[byte] & 15;
}

/// Rows four at a time with two accumulators each (the pipeline's register
/// tile): `step(r, acc)` adds rows r..r+3's products, then y gets the sums.
template <typename Step>
AVX512 inline void fourRowsAtATime(float *y, Step step) {
  for (int r = 0; r < gRows; r += 4) {
    __m512 acc[4][2];
    for (auto &a : acc)
      a[0] = a[1] = _mm512_setzero_ps();
    step(r, acc);
    for (int u = 0; u < 4; ++u)
      y[r + u] = _mm512_reduce_add_ps(_mm512_add_ps(acc[u][0], acc[u][1]));
  }
}

/// Prefetches row bytes `gPrefetchBytes` ahead of `at`, once per 64 bytes.
inline void prefetchAhead(const uint8_t *at) {
  if (gPrefetchBytes)
    _mm_prefetch(reinterpret_cast<const char *>(at + gPrefetchBytes),
                 _MM_HINT_T0);
}

AVX512 void standard(const Weights &w, const float *x, float *y) {
  const __m512 table = _mm512_loadu_ps(kE2M1);
  const __m512i low = _mm512_set1_epi32(15);
  fourRowsAtATime(y, [&](int r, __m512(&acc)[4][2]) AVX512 {
    for (int k = 0; k < kCols; k += kBlock) {
      // Codes k..k+31: byte b holds codes k+2b (low) and k+2b+1 (high); the
      // activation is split the same way (even and odd elements) by the
      // caller's permutation below, so that each FMA reads 16 in order.
      const __m512 xe = _mm512_loadu_ps(x + k),
                   xo = _mm512_loadu_ps(x + k + 16);
      for (int u = 0; u < 4; ++u) {
        const uint8_t *row = w.standard + size_t(r + u) * kCols / 2;
        if (k % kGroup == 0)
          prefetchAhead(row + k / 2);
        __m512i b = _mm512_cvtepu8_epi32(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + k / 2)));
        __m512 t = _mm512_mul_ps(
            table,
            _mm512_set1_ps(
                w.scales[size_t(r + u) * (kCols / kBlock) + k / kBlock]));
        __m512i even = _mm512_and_si512(b, low), odd = _mm512_srli_epi32(b, 4);
        acc[u][0] =
            _mm512_fmadd_ps(_mm512_permutexvar_ps(even, t), xe, acc[u][0]);
        acc[u][1] =
            _mm512_fmadd_ps(_mm512_permutexvar_ps(odd, t), xo, acc[u][1]);
      }
    }
  });
}

/// The scale of each lane of row `n`'s group of 128 codes at `k`, read
/// 64 bytes at a time: lane i of shift j is code 8i + j, in block i / 4.
AVX512 inline __m512 laneScales(const Weights &w, int n, int k) {
  const __m512i blockOfLane =
      _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
  return _mm512_permutexvar_ps(
      blockOfLane, _mm512_castps128_ps512(_mm_loadu_ps(
                       w.scales + size_t(n) * (kCols / kBlock) + k / kBlock)));
}

/// The loops that read a row 64 bytes (128 codes) at a time: for each row
/// tile, group of 128 codes at `k` and row `n` of the tile, `group(n, k,
/// codes, acc)` with the row's two accumulators.
template <typename Group>
AVX512 inline void eachGroupOf128(const uint8_t *layout, float *y,
                                  Group group) {
  fourRowsAtATime(y, [&](int r, __m512(&acc)[4][2]) AVX512 {
    for (int k = 0; k < kCols; k += kGroup) {
      for (int u = 0; u < 4; ++u) {
        const uint8_t *row = layout + size_t(r + u) * kCols / 2;
        prefetchAhead(row + k / 2);
        group(r + u, k, _mm512_loadu_si512(row + k / 2), acc[u]);
      }
    }
  });
}

/// Nibble j of each 32-bit lane of `codes`: a table index.
AVX512 inline __m512i nibble(__m512i codes, int j) {
  return _mm512_and_si512(_mm512_srli_epi32(codes, 4 * j),
                          _mm512_set1_epi32(15));
}

AVX512 void permutedX(const Weights &w, const float *x, float *y) {
  const __m512 table = _mm512_loadu_ps(kE2M1);
  eachGroupOf128(
      w.standard, y, [&](int n, int k, __m512i codes, __m512(&acc)[2]) AVX512 {
        __m512 scale = laneScales(w, n, k);
        for (int j = 0; j < 8; ++j) {
          __m512 v = _mm512_mul_ps(
              _mm512_permutexvar_ps(nibble(codes, j), table), scale);
          acc[j % 2] =
              _mm512_fmadd_ps(v, _mm512_loadu_ps(x + k + 16 * j), acc[j % 2]);
        }
      });
}

/// permuted-x with the scale applied once per group of 128 codes.
AVX512 void permutedXDeferred(const Weights &w, const float *x, float *y) {
  const __m512 table = _mm512_loadu_ps(kE2M1);
  eachGroupOf128(w.standard, y,
                 [&](int n, int k, __m512i codes, __m512(&acc)[2]) AVX512 {
                   __m512 sum[2];
                   for (int j = 0; j < 8; ++j) {
                     __m512 v = _mm512_permutexvar_ps(nibble(codes, j), table);
                     __m512 xj = _mm512_loadu_ps(x + k + 16 * j);
                     sum[j % 2] = j < 2 ? _mm512_mul_ps(v, xj)
                                        : _mm512_fmadd_ps(v, xj, sum[j % 2]);
                   }
                   __m512 scale = laneScales(w, n, k);
                   acc[0] = _mm512_fmadd_ps(sum[0], scale, acc[0]);
                   acc[1] = _mm512_fmadd_ps(sum[1], scale, acc[1]);
                 });
}

template <bool Masked>
AVX512 void interleaved(const Weights &w, const float *x, float *y) {
  const __m512 table = _mm512_loadu_ps(kE2M1);
  eachGroupOf128(w.interleaved, y,
                 [&](int n, int k, __m512i codes, __m512(&acc)[2]) AVX512 {
                   const float *scales =
                       w.scales + size_t(n) * (kCols / kBlock) + k / kBlock;
                   for (int b = 0; b < 4; ++b) {
                     __m512 t = _mm512_mul_ps(table, _mm512_set1_ps(scales[b]));
                     for (int j = 2 * b; j < 2 * b + 2; ++j) {
                       __m512i index = Masked ? nibble(codes, j)
                                              : _mm512_srli_epi32(codes, 4 * j);
                       acc[j % 2] = _mm512_fmadd_ps(
                           _mm512_permutexvar_ps(index, t),
                           _mm512_loadu_ps(x + k + 16 * j), acc[j % 2]);
                     }
                   }
                 });
}

using Loop = void (*)(const Weights &, const float *, float *);

/// A loop and the order it reads the activation in: element p of what it
/// reads is x[order(p)].
struct Variant {
  const char *name;
  Loop loop;
  bool interleavedLayout;
  int (*order)(int);
};

int inOrder(int p) { return p; }
/// standard: per 32, the 16 even elements, then the 16 odd ones.
int evenThenOdd(int p) {
  int base = p / kBlock * kBlock, r = p % kBlock;
  return base + (r < 16 ? 2 * r : 2 * (r - 16) + 1);
}
/// permuted-x: per 128, position 16j + i holds element 8i + j.
int shiftMajor(int p) {
  int base = p / kGroup * kGroup, r = p % kGroup;
  return base + 8 * (r % 16) + r / 16;
}

const Variant kVariants[] = {
    {"standard", standard, false, evenThenOdd},
    {"permuted-x", permutedX, false, shiftMajor},
    {"permuted-x-deferred", permutedXDeferred, false, shiftMajor},
    {"interleaved-masked", interleaved<true>, true, inOrder},
    {"interleaved", interleaved<false>, true, inOrder},
};

/// The activation as `v` reads it (once per call in a real kernel; here
/// once, as it does not change).
std::vector<float> permuteFor(const Variant &v, const std::vector<float> &x) {
  std::vector<float> p(x.size());
  for (int i = 0; i < kCols; ++i)
    p[i] = x[v.order(i)];
  return p;
}

/// Random codes and power-of-two scales, in both layouts.
Weights makeWeights(uint32_t seed) {
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  Weights w;
  w.standard = static_cast<uint8_t *>(std::aligned_alloc(64, codeBytes()));
  w.interleaved = static_cast<uint8_t *>(std::aligned_alloc(64, codeBytes()));
  w.scales = static_cast<float *>(std::aligned_alloc(64, scaleCount() * 4));
  for (size_t i = 0; i < codeBytes(); ++i)
    w.standard[i] = next() >> 24;
  for (size_t i = 0; i < scaleCount(); ++i)
    w.scales[i] = std::ldexp(1.0f, int(next() >> 28) - 8);
  std::memset(w.interleaved, 0, codeBytes());
  for (int r = 0; r < gRows; ++r)
    for (int e = 0; e < kCols; ++e) {
      int byte, high;
      interleavedPlace(e, byte, high);
      int code = codeOf(w.standard + size_t(r) * kCols / 2, e, false);
      w.interleaved[size_t(r) * kCols / 2 + byte] |= code << (4 * high);
    }
  return w;
}

/// The bound: the same bytes read with 64-byte loads (and the loops'
/// prefetch), four accumulators; returns something of what it read.
AVX512 uint32_t readOnly(const Weights &w) {
  __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(),
                    _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (size_t b = 0; b < codeBytes(); b += 256) {
    prefetchAhead(w.standard + b);
    prefetchAhead(w.standard + b + 64);
    prefetchAhead(w.standard + b + 128);
    prefetchAhead(w.standard + b + 192);
    for (int u = 0; u < 4; ++u)
      acc[u] =
          _mm512_xor_si512(acc[u], _mm512_load_si512(w.standard + b + 64 * u));
  }
  const uint8_t *scales = reinterpret_cast<const uint8_t *>(w.scales);
  for (size_t b = 0; b < scaleCount() * 4; b += 64)
    acc[b / 64 % 4] =
        _mm512_xor_si512(acc[b / 64 % 4], _mm512_load_si512(scales + b));
  return _mm512_reduce_or_epi32(_mm512_or_si512(
      _mm512_or_si512(acc[0], acc[1]), _mm512_or_si512(acc[2], acc[3])));
}

/// Bytes of the last-level cache (32 MiB where the system does not say).
size_t lastLevelCacheBytes() {
  long bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return bytes > 0 ? size_t(bytes) : size_t{32} << 20;
}

} // namespace

int main(int argc, char **argv) {
  if (!__builtin_cpu_supports("avx512f")) {
    std::printf("# needs AVX-512F\n");
    return 0;
  }
  int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  bool memory = argc > 2 && std::strcmp(argv[2], "memory") == 0;
  size_t copies = 1;
  if (memory) {
    gRows = 4096;
    // Where the same code of the next row tile (4 rows of 2 KiB) is.
    gPrefetchBytes = argc > 3 ? std::atoi(argv[3]) : 8192;
    size_t copyBytes = codeBytes() + scaleCount() * 4;
    size_t rotated = std::min(8 * lastLevelCacheBytes(), size_t{1} << 30);
    copies = std::max<size_t>(2, rotated / copyBytes + 1);
  }
  std::vector<Weights> weights;
  for (size_t c = 0; c < copies; ++c)
    weights.push_back(makeWeights(12345 + 7919 * uint32_t(c)));

  // One-hot rows: y[n] is weight (n, e), bit for bit (a -0 weight sums to
  // +0 from the zero accumulators, as the matmul does).
  int failures = 0;
  std::vector<float> y(gRows);
  for (const Variant &v : kVariants) {
    for (int e : {0, 1, 2, 15, 16, 17, 31, 32, 100, 127, 128, 4095}) {
      std::vector<float> x(kCols, 0.0f);
      x[e] = 1.0f;
      std::vector<float> p = permuteFor(v, x);
      v.loop(weights[0], p.data(), y.data());
      for (int n = 0; n < gRows; ++n) {
        const Weights &w = weights[0];
        int code = codeOf((v.interleavedLayout ? w.interleaved : w.standard) +
                              size_t(n) * kCols / 2,
                          e, v.interleavedLayout);
        float expect =
            kE2M1[code] * w.scales[size_t(n) * (kCols / kBlock) + e / kBlock] +
            0.0f;
        if (std::memcmp(&expect, &y[n], 4) != 0)
          ++failures;
      }
    }
  }
  std::printf("# one-hot mismatches: %d\n", failures);

  std::vector<float> x(kCols);
  uint32_t seed = 99;
  for (int i = 0; i < kCols; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = float(seed >> 8) / float(1 << 24) - 0.5f;
  }
  // In cache: one copy, 2,000 calls a round. From memory: each call on the
  // next copy, a round a pass over all of them.
  const size_t calls = memory ? copies : 2000;
  const double bytes = double(calls) * (codeBytes() + scaleCount() * 4);
  std::printf("loop,GB/s (fastest of %d rounds of %zu calls on %.0f KiB%s)\n",
              rounds, calls, (codeBytes() + scaleCount() * 4) / 1024.0,
              memory ? ", each call on the next of the copies" : "");
  auto time = [&](auto call) {
    double best = 0;
    for (int round = 0; round < rounds; ++round) {
      auto start = std::chrono::steady_clock::now();
      for (size_t c = 0; c < calls; ++c)
        call(weights[c % copies]);
      double s = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
      best = std::max(best, bytes / s / 1e9);
    }
    return best;
  };
  uint32_t sink = 0;
  double bound = 0;
  if (memory) {
    bound = time([&](const Weights &w) { sink ^= readOnly(w); });
    std::printf("read (the bound),%.1f\n", bound);
  }
  for (const Variant &v : kVariants) {
    std::vector<float> p = permuteFor(v, x);
    double speed =
        time([&](const Weights &w) { v.loop(w, p.data(), y.data()); });
    if (memory)
      std::printf("%s,%.1f,%.2f of the read\n", v.name, speed, speed / bound);
    else
      std::printf("%s,%.1f\n", v.name, speed);
  }
  return failures != 0 || sink == 0xdeadbeef;
}
