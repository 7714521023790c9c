// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How fast can cache-resident quantize be on this CPU at all? Times, on a
// 256 x 1024 f32 tensor that stays in cache, the per-element work of
// quantize (f32 to i8, per-tensor scale) written with AVX-512 intrinsics:
//   divide:      true division, round, clamp, convert, narrow (what we
//   compile); reciprocal:  x * (1/s) with the per-vector exactness check of
//                quant-affine-divide-by-reciprocal, dividing where it fails;
//   hybrid:      alternate vectors between the two, to use the divider and
//                the other pipes at once;
//   multiply:    x * (1/s) with no check at all (wrong numbers in general):
//                what remains when the division costs nothing.
// usage: clang++ -O3 -march=native bench/compute_bound.cpp -o /tmp/cb &&
// /tmp/cb
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {
constexpr int64_t kElems = 256 * 1024;

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline void clampStore(__m512 v, int8_t *q) {
  v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-128)),
                    _mm512_set1_ps(127));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(q),
                   _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));
}

inline __m512 roundDivide(__m512 x, __m512 s) {
  return _mm512_roundscale_ps(_mm512_div_ps(x, s), _MM_FROUND_TO_NEAREST_INT);
}

inline __m512 roundReciprocal(__m512 x, __m512 s, __m512 r) {
  __m512 t = _mm512_mul_ps(x, r);
  __m512 magnitude = _mm512_abs_ps(t);
  __m512 boundary = _mm512_add_ps(
      _mm512_roundscale_ps(t, _MM_FROUND_TO_NEG_INF), _mm512_set1_ps(0.5f));
  __m512 distance = _mm512_abs_ps(_mm512_sub_ps(t, boundary));
  __mmask16 ok =
      _mm512_cmp_ps_mask(distance,
                         _mm512_mul_ps(magnitude, _mm512_set1_ps(0x1p-20f)),
                         _CMP_GT_OQ) &
      _mm512_cmp_ps_mask(magnitude, _mm512_set1_ps(0x1p19f), _CMP_LT_OQ);
  if (ok != 0xFFFF)
    return roundDivide(x, s);
  return _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT);
}

__attribute__((noinline)) void divide(const float *x, float s, int8_t *q) {
  __m512 sv = _mm512_set1_ps(s);
  for (int64_t i = 0; i < kElems; i += 16)
    clampStore(roundDivide(_mm512_loadu_ps(x + i), sv), q + i);
}

__attribute__((noinline)) void reciprocal(const float *x, float s, int8_t *q) {
  __m512 sv = _mm512_set1_ps(s), rv = _mm512_set1_ps(1.0f / s);
  for (int64_t i = 0; i < kElems; i += 16)
    clampStore(roundReciprocal(_mm512_loadu_ps(x + i), sv, rv), q + i);
}

__attribute__((noinline)) void hybrid(const float *x, float s, int8_t *q) {
  __m512 sv = _mm512_set1_ps(s), rv = _mm512_set1_ps(1.0f / s);
  for (int64_t i = 0; i < kElems; i += 32) {
    clampStore(roundDivide(_mm512_loadu_ps(x + i), sv), q + i);
    clampStore(roundReciprocal(_mm512_loadu_ps(x + i + 16), sv, rv),
               q + i + 16);
  }
}

__attribute__((noinline)) void multiply(const float *x, float s, int8_t *q) {
  __m512 rv = _mm512_set1_ps(1.0f / s);
  for (int64_t i = 0; i < kElems; i += 16)
    clampStore(_mm512_roundscale_ps(_mm512_mul_ps(_mm512_loadu_ps(x + i), rv),
                                    _MM_FROUND_TO_NEAREST_INT),
               q + i);
}
} // namespace

int main() {
  auto *x = static_cast<float *>(std::aligned_alloc(64, kElems * 4));
  auto *q = static_cast<int8_t *>(std::aligned_alloc(64, kElems));
  uint32_t state = 1;
  for (int64_t i = 0; i < kElems; ++i) {
    state = state * 1664525u + 1013904223u;
    x[i] = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 8.0f;
  }
  struct {
    const char *name;
    void (*fn)(const float *, float, int8_t *);
  } variants[] = {{"divide", divide},
                  {"reciprocal", reciprocal},
                  {"hybrid", hybrid},
                  {"multiply (inexact)", multiply}};
  for (auto &v : variants) {
    double best = 1e9;
    for (int round = 0; round < 10; ++round) {
      double start = now();
      for (int r = 0; r < 200; ++r)
        v.fn(x, 0.031f, q);
      best = std::min(best, (now() - start) / 200);
    }
    std::printf("%-20s %6.1f GB/s\n", v.name, 5.0 * kElems / best / 1e9);
  }
  return 0;
}
