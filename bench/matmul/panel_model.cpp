// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A C++ model of the prefill micro-kernel (docs/FusedMatmul.md, "Prefill
// through panels"): 128 rows of x times one 512-column block, K = 4096 in
// chunks of 256, panels of 256 x 32 floats, register tiles of 8 rows by 32
// columns (8 broadcasts, 2 panel vectors, 16 FMAs a step). Three choices the
// generated kernel makes, one at a time:
//   nest     the chunk's steps as 8 blocks of 32 (an inner loop exiting at
//            every block) instead of one loop of 256;
//   rebuild  the panel rewritten before each use (as a dequantized panel is)
//            instead of built once;
//   packed   x's rows read 1 KiB apart (a copy of the chunk) instead of a
//            whole row of x (16 KiB) apart.
// Cache-resident; prints the best of 9 calls of each variant in GFLOP/s,
// twice, beside an FMA loop's peak, after the target it was compiled for.
// The vectors are the target's (simd.h): a tile row is 2 zmm with AVX-512,
// as the generated kernel's; with AVX2 it is 4 ymm, and the tile's 32
// accumulators exceed the 16 registers (spilled), as the same tile would in
// a kernel generated for AVX2.
//
// build: clang++ -O3 -march=native -std=c++17 -I bench
//        bench/matmul/panel_model.cpp
// usage: a.out

#include "simd.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int M = 128, K = 4096, N = 512, KC = 256;
/// Vectors in a tile row (the panel's 32 columns).
constexpr int kTileVectors = 32 / simd::kLanes;

template <bool Nest, bool Rebuild, bool Packed>
__attribute__((noinline)) void run(const float *x, const float *xChunk,
                                   float *panel, const float *source,
                                   float *y) {
  for (int kc = 0; kc < K; kc += KC)
    for (int n0 = 0; n0 < N; n0 += 32) {
      if (Rebuild)
        std::memcpy(panel, source + size_t(n0 / 32) * KC * 32,
                    KC * 32 * sizeof(float));
      for (int m0 = 0; m0 < M; m0 += 8) {
        simd::VecF acc[8][kTileVectors];
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < kTileVectors; ++j)
            acc[i][j] = simd::loadUF(y + (m0 + i) * N + n0 + simd::kLanes * j);
        const float *rows =
            Packed ? xChunk + size_t(m0) * KC : x + size_t(m0) * K + kc;
        const int stride = Packed ? KC : K;
        auto step = [&](int k) {
          simd::VecF b[kTileVectors];
          for (int j = 0; j < kTileVectors; ++j)
            b[j] = simd::loadF(panel + k * 32 + simd::kLanes * j);
          for (int i = 0; i < 8; ++i) {
            simd::VecF a = simd::set1F(rows[i * stride + k]);
            for (int j = 0; j < kTileVectors; ++j)
              acc[i][j] = simd::fmaF(a, b[j], acc[i][j]);
          }
        };
        if (Nest) {
          for (int block = 0; block < KC; block += 32) {
#pragma clang loop unroll(disable)
            for (int k = block; k < block + 32; ++k)
              step(k);
          }
        } else {
#pragma clang loop unroll(disable)
          for (int k = 0; k < KC; ++k)
            step(k);
        }
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < kTileVectors; ++j)
            simd::storeUF(y + (m0 + i) * N + n0 + simd::kLanes * j, acc[i][j]);
      }
    }
}

template <typename T> T *allocate(size_t count) {
  return static_cast<T *>(std::aligned_alloc(64, count * sizeof(T)));
}

template <bool Nest, bool Rebuild, bool Packed> void variant(const char *name) {
  float *x = allocate<float>(size_t(M) * K), *xChunk = allocate<float>(M * KC);
  float *panel = allocate<float>(KC * 32), *source = allocate<float>(KC * N);
  float *y = allocate<float>(M * N);
  for (size_t i = 0; i < size_t(M) * K; ++i)
    x[i] = 1e-3f * float(i % 7);
  for (int i = 0; i < M * KC; ++i)
    xChunk[i] = 1e-3f * float(i % 7);
  for (int i = 0; i < KC * N; ++i)
    source[i] = 1e-3f * float(i % 5);
  std::memcpy(panel, source, KC * 32 * sizeof(float));
  std::memset(y, 0, M * N * sizeof(float));
  double best = 1e30;
  for (int r = 0; r < 9; ++r) {
    auto start = std::chrono::steady_clock::now();
    run<Nest, Rebuild, Packed>(x, xChunk, panel, source, y);
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  std::printf("%-20s %6.1f GFLOP/s (y[0] %g)\n", name,
              2.0 * M * N * K / best / 1e9, y[0]);
  std::free(x);
  std::free(xChunk);
  std::free(panel);
  std::free(source);
  std::free(y);
}

/// Independent FMA chains on the target's lanes: the peak. 16 chains where
/// there are 32 vector registers (AVX-512), 12 where there are 16.
__attribute__((noinline)) double peak() {
  constexpr int kChains = simd::kRegisters >= 32 ? 16 : 12;
  simd::VecF a[kChains];
  for (int i = 0; i < kChains; ++i)
    a[i] = simd::set1F(float(i) * 1e-3f);
  simd::VecF b = simd::set1F(0.999f), c = simd::set1F(1e-4f);
  constexpr long kRounds = 20000000;
  auto start = std::chrono::steady_clock::now();
  for (long r = 0; r < kRounds; ++r)
    for (int i = 0; i < kChains; ++i) {
      a[i] = simd::fmaF(a[i], b, c);
      __asm__ volatile("" : "+v"(a[i]));
    }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return double(kRounds) * kChains * simd::kLanes * 2 / seconds / 1e9;
}

} // namespace

int main() {
  std::printf("# target: %s\n", benchTargetName());
  for (int repeat = 0; repeat < 2; ++repeat) {
    std::printf("FMA peak             %6.1f GFLOP/s\n", peak());
    variant<false, false, false>("one loop");
    variant<true, false, false>("nest");
    variant<false, true, false>("one loop, rebuild");
    variant<true, true, false>("nest, rebuild");
    variant<true, true, true>("nest, rebuild, packed");
    variant<false, true, true>("one loop, rebuild, packed");
    variant<false, false, true>("one loop, packed");
  }
}
