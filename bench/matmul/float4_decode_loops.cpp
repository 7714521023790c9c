// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How fast can MXFP4 decode (y = W x, W 4096 x 4096 f4E2M1FN codes with an
// f32 scale per 32, M = 1) run on an AVX2 core, written by hand? Three
// loops over the same weights, each exact (every weight is fl(e2m1 * s),
// checked with one-hot rows), beside the bound of reading the codes and
// scales once:
//   permd   what the pipeline generates on AVX2 (LookupTables.cpp): per 8
//           codes a broadcast word, a per-lane shift, two vpermd in tables of
//           the scaled codes 0-7 and 8-15, a blend on the sign bit, an FMA;
//   pshufb  per 32 codes (16 bytes) two vpshufb in byte tables of the upper
//           16 bits of each code's f32 (its bf16 pattern; the lower 16 are
//           zero), interleaved into four vectors of f32, then a multiply by
//           the scale and an FMA; the activation permuted once to the order
//           the interleaves give (the lanes are only ever summed);
//   bound   reading the codes and scales once (no arithmetic).
// The weights rotate over copies larger than the last-level cache, so every
// loop reads memory, as decode does. The loops are compiled for AVX2 and FMA
// and run only where the CPU has them, so this builds for any x86-64. Build
// and run (docs/Benchmarks.md):
//   clang++ -O3 bench/matmul/float4_decode_loops.cpp -o loops
//   ./loops [rounds]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

/// The loops' instruction set, checked at run time.
#define AVX2_FMA __attribute__((target("avx2,fma")))

namespace {

constexpr int kRows = 4096, kCols = 4096, kBlock = 32;
constexpr size_t kCodeBytes = size_t(kRows) * kCols / 2;
constexpr size_t kScales = size_t(kRows) * (kCols / kBlock);

float e2m1(int code) {
  static const float magnitude[8] = {0, .5f, 1, 1.5f, 2, 3, 4, 6};
  return code & 8 ? -magnitude[code & 7] : magnitude[code & 7];
}

/// The sums of the lanes of 4 rows' accumulators, into y[0..3].
AVX2_FMA void storeRowSums(const __m256 (&acc)[4], float *y) {
  for (int r = 0; r < 4; ++r) {
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, acc[r]);
    float sum = 0;
    for (float v : lanes)
      sum += v;
    y[r] = sum;
  }
}

/// Rows of 4, 8 codes at a time, as the pipeline's AVX2 kernel.
AVX2_FMA void decodePermd(const uint8_t *q, const float *s, const float *x,
                          float *y) {
  const __m256 positive = _mm256_setr_ps(0, .5f, 1, 1.5f, 2, 3, 4, 6);
  const __m256 negative = _mm256_setr_ps(-0.f, -.5f, -1, -1.5f, -2, -3, -4, -6);
  const __m256i shifts = _mm256_setr_epi32(28, 24, 20, 16, 12, 8, 4, 0);
  const __m256i low3 = _mm256_set1_epi32(7);
  for (int n = 0; n < kRows; n += 4) {
    __m256 acc[4];
    for (__m256 &a : acc)
      a = _mm256_setzero_ps();
    for (int k = 0; k < kCols; k += kBlock)
      for (int r = 0; r < 4; ++r) {
        __m256 scale =
            _mm256_broadcast_ss(&s[(n + r) * (kCols / kBlock) + k / kBlock]);
        __m256 tablePositive = _mm256_mul_ps(positive, scale);
        __m256 tableNegative = _mm256_mul_ps(negative, scale);
        const uint8_t *row = q + size_t(n + r) * (kCols / 2) + k / 2;
        for (int j = 0; j < kBlock; j += 8) {
          uint32_t word;
          std::memcpy(&word, row + j / 2, 4);
          __m256i top = _mm256_sllv_epi32(_mm256_set1_epi32(int(word)), shifts);
          __m256i index = _mm256_and_si256(_mm256_srli_epi32(top, 28), low3);
          __m256 w =
              _mm256_blendv_ps(_mm256_permutevar8x32_ps(tablePositive, index),
                               _mm256_permutevar8x32_ps(tableNegative, index),
                               _mm256_castsi256_ps(top));
          acc[r] = _mm256_fmadd_ps(_mm256_loadu_ps(x + k + j), w, acc[r]);
        }
      }
    storeRowSums(acc, y + n);
  }
}

/// The code whose weight lane `lane` of the pshufb loop's four vectors holds.
int pshufbLaneCode(int lane) {
  int vector = lane / 8, inVector = lane % 8, half = inVector / 4;
  int word = (vector % 2) * 4 + inVector % 4; // unpack lo/hi of 16-bit words
  int byte = (vector / 2) * 8 + word;         // unpack lo/hi of bytes
  return 2 * byte + half; // low half: low nibbles; high half: high nibbles
}

/// A 16-byte table in both 128-bit halves (`vpshufb` looks up in-lane).
AVX2_FMA __m256i byteTable(const int8_t (&bytes)[16]) {
  __m128i half = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes));
  return _mm256_broadcastsi128_si256(half);
}

/// Rows of 4, 32 codes at a time; `xp` is x in pshufbLaneCode's order.
AVX2_FMA void decodePshufb(const uint8_t *q, const float *s, const float *xp,
                           float *y) {
  // Bits 31-24 and 23-16 of each code's f32 (sign, exponent, one mantissa).
  static const int8_t high[16] = {0,    0x3F, 0x3F, 0x3F, 0x40, 0x40,
                                  0x40, 0x40, -128, -65,  -65,  -65,
                                  -64,  -64,  -64,  -64};
  static const int8_t low[16] = {0, 0, -128, -64, 0, 0x40, -128, -64,
                                 0, 0, -128, -64, 0, 0x40, -128, -64};
  const __m256i tableHigh = byteTable(high), tableLow = byteTable(low);
  const __m256i nibble = _mm256_set1_epi8(15), zero = _mm256_setzero_si256();
  for (int n = 0; n < kRows; n += 4) {
    __m256 acc[4];
    for (__m256 &a : acc)
      a = _mm256_setzero_ps();
    for (int k = 0; k < kCols; k += kBlock) {
      const float *xb = xp + k;
      for (int r = 0; r < 4; ++r) {
        __m256 scale =
            _mm256_broadcast_ss(&s[(n + r) * (kCols / kBlock) + k / kBlock]);
        const uint8_t *row = q + size_t(n + r) * (kCols / 2) + k / 2;
        __m256i bytes = _mm256_broadcastsi128_si256(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(row)));
        __m256i index = _mm256_and_si256(
            _mm256_blend_epi32(bytes, _mm256_srli_epi16(bytes, 4), 0xF0),
            nibble);
        __m256i h = _mm256_shuffle_epi8(tableHigh, index);
        __m256i l = _mm256_shuffle_epi8(tableLow, index);
        __m256i words[2] = {_mm256_unpacklo_epi8(l, h),
                            _mm256_unpackhi_epi8(l, h)};
        for (int v = 0; v < 4; ++v) {
          __m256i bits = v % 2 ? _mm256_unpackhi_epi16(zero, words[v / 2])
                               : _mm256_unpacklo_epi16(zero, words[v / 2]);
          __m256 w = _mm256_mul_ps(_mm256_castsi256_ps(bits), scale);
          acc[r] = _mm256_fmadd_ps(_mm256_loadu_ps(xb + 8 * v), w, acc[r]);
        }
      }
    }
    storeRowSums(acc, y + n);
  }
}

/// Reads `bytes` once, summing them so nothing is optimized away.
AVX2_FMA long long readOnce(const uint8_t *p, size_t bytes) {
  __m256i sum = _mm256_setzero_si256();
  for (size_t i = 0; i < bytes; i += 32)
    sum = _mm256_add_epi64(
        sum, _mm256_sad_epu8(
                 _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + i)),
                 _mm256_setzero_si256()));
  alignas(32) long long lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

struct Copy {
  std::vector<uint8_t> codes = std::vector<uint8_t>(kCodeBytes);
  std::vector<float> scales = std::vector<float>(kScales);
};

} // namespace

int main(int argc, char **argv) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::printf("# needs AVX2 and FMA\n");
    return 0;
  }
  int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  // 8 copies (67 MiB) so that no loop finds its weights in the cache.
  std::vector<Copy> copies(8);
  std::mt19937 rng(1);
  for (Copy &c : copies) {
    for (uint8_t &b : c.codes)
      b = uint8_t(rng());
    for (float &v : c.scales)
      v = std::ldexp(1.f + float(rng() % 100) / 100.f, -int(rng() % 8));
  }
  std::vector<float> x(kCols), xp(kCols), y(kRows);
  auto permute = [&](const std::vector<float> &in) {
    for (int k = 0; k < kCols; k += kBlock)
      for (int j = 0; j < kBlock; ++j)
        xp[k + j] = in[k + pshufbLaneCode(j)];
  };
  // One-hot rows: each loop gives exactly the weight.
  int failures = 0;
  for (int k : {0, 1, 2, 17, 31, 33, kCols - 1}) {
    std::vector<float> oneHot(kCols, 0.f);
    oneHot[k] = 1;
    permute(oneHot);
    for (int variant = 0; variant < 2; ++variant) {
      const Copy &c = copies[0];
      if (variant == 0)
        decodePermd(c.codes.data(), c.scales.data(), oneHot.data(), y.data());
      else
        decodePshufb(c.codes.data(), c.scales.data(), xp.data(), y.data());
      for (int n = 0; n < kRows; ++n) {
        int code =
            (c.codes[size_t(n) * kCols / 2 + k / 2] >> (4 * (k & 1))) & 15;
        float w =
            e2m1(code) * c.scales[size_t(n) * (kCols / kBlock) + k / kBlock];
        failures += y[n] != w;
      }
    }
  }
  std::printf("# one-hot mismatches: %d\n", failures);
  for (float &v : x)
    v = float(rng() % 2001) / 1000.f - 1;
  permute(x);

  size_t next = 0;
  auto time = [&](auto body) {
    const Copy &c = copies[next++ % copies.size()];
    auto start = std::chrono::steady_clock::now();
    body(c);
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  std::vector<double> bound, permd, pshufb;
  volatile long long sink = 0;
  for (int round = 0; round < rounds; ++round)
    for (int i = 0; i < 8; ++i) {
      bound.push_back(time([&](const Copy &c) {
        sink = sink + readOnce(c.codes.data(), kCodeBytes) +
               readOnce(reinterpret_cast<const uint8_t *>(c.scales.data()),
                        kScales * 4);
      }));
      permd.push_back(time([&](const Copy &c) {
        decodePermd(c.codes.data(), c.scales.data(), x.data(), y.data());
      }));
      pshufb.push_back(time([&](const Copy &c) {
        decodePshufb(c.codes.data(), c.scales.data(), xp.data(), y.data());
      }));
    }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  double b = median(bound), a = median(permd), c = median(pshufb);
  std::printf("loop,ms,of_bound\n");
  std::printf("bound,%.3f,1.00\npermd,%.3f,%.2f\npshufb,%.3f,%.2f\n", b, a,
              b / a, c, b / c);
  return failures != 0;
}
