// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How fast can cache-resident quantize be on this CPU at all? Times, on a
// 256 x 1024 f32 tensor that stays in cache, the per-element work of
// quantize (f32 to i8, per-tensor scale) written in the target's vectors
// (bench/simd.h: AVX-512, AVX2 or SSE2, as compiled):
//   divide:      true division, round, clamp, convert, narrow (what we
//   compile); reciprocal:  x * (1/s) with the per-vector exactness check of
//                quant-affine-divide-by-reciprocal, dividing where it fails;
//   hybrid:      alternate vectors between the two, to use the divider and
//                the other pipes at once;
//   multiply:    x * (1/s) with no check at all (wrong numbers in general):
//                what remains when the division costs nothing.
// usage: clang++ -O3 -march=native bench/compute_bound.cpp -o /tmp/cb &&
// /tmp/cb
#include "simd.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {
using namespace simd;

constexpr int64_t kElems = 256 * 1024;

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline void clampStore(VecF v, int8_t *q) {
  storeTruncI8(q, minF(maxF(v, set1F(-128)), set1F(127)));
}

inline VecF roundDivide(VecF x, VecF s) { return roundF(divF(x, s)); }

inline VecF roundReciprocal(VecF x, VecF s, VecF r) {
  VecF t = mulF(x, r);
  VecF magnitude = absF(t);
  VecF boundary = addF(floorF(t), set1F(0.5f));
  VecF distance = absF(subF(t, boundary));
  unsigned ok = gtMask(distance, mulF(magnitude, set1F(0x1p-20f))) &
                gtMask(set1F(0x1p19f), magnitude);
  if (ok != kAllLanes)
    return roundDivide(x, s);
  return roundF(t);
}

__attribute__((noinline)) void divide(const float *x, float s, int8_t *q) {
  VecF sv = set1F(s);
  for (int64_t i = 0; i < kElems; i += kLanes)
    clampStore(roundDivide(loadUF(x + i), sv), q + i);
}

__attribute__((noinline)) void reciprocal(const float *x, float s, int8_t *q) {
  VecF sv = set1F(s), rv = set1F(1.0f / s);
  for (int64_t i = 0; i < kElems; i += kLanes)
    clampStore(roundReciprocal(loadUF(x + i), sv, rv), q + i);
}

__attribute__((noinline)) void hybrid(const float *x, float s, int8_t *q) {
  VecF sv = set1F(s), rv = set1F(1.0f / s);
  for (int64_t i = 0; i < kElems; i += 2 * kLanes) {
    clampStore(roundDivide(loadUF(x + i), sv), q + i);
    clampStore(roundReciprocal(loadUF(x + i + kLanes), sv, rv), q + i + kLanes);
  }
}

__attribute__((noinline)) void multiply(const float *x, float s, int8_t *q) {
  VecF rv = set1F(1.0f / s);
  for (int64_t i = 0; i < kElems; i += kLanes)
    clampStore(roundF(mulF(loadUF(x + i), rv)), q + i);
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
  std::printf("# target: %s\n", benchTargetName());
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
