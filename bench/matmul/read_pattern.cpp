// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How fast one core reads packed int4 weights in the orders a decode
// kernel may read them (docs/FusedMatmul.md, "Spread rows"): a register
// tile takes 4 rows, 32 bytes of each per step, either neighbours (the
// kernels before a478b26) or a quarter of the matrix apart (now), against
// a plain sequential read of the same bytes. No arithmetic beyond widening the
// bytes and adding them up, so the numbers are what the memory side allows for
// each pattern; ours (bench/matmul/run.sh) can be set beside them.
//
// Each variant reads a 4096 x 2048-byte buffer (4096 x 4096 int4 codes),
// every call on the copy read longest ago (60 copies, 480 MiB), 15 rounds
// interleaved; it prints the median GB/s, after the target it was compiled
// for (simd.h: the vectors of its loads and sums).
//
// build: clang++ -O2 -march=native -I bench bench/matmul/read_pattern.cpp
// usage: a.out

#include "common.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int64_t kRowBytes = 2048, kRows = 4096, kBytes = kRowBytes * kRows;

/// A decode tile's order: 4 rows, 32 bytes of each per step. With `Spread`
/// the rows are a quarter of the matrix apart (t, t + R/4, t + R/2,
/// t + 3R/4), so each row of a tile continues where the previous tile's
/// left off (4 sequential streams); else neighbours (4 short streams that
/// jump at every tile). With `Ahead` > 0, one prefetch per row and line,
/// `Ahead` bytes further on, with the given hint.
template <bool Spread, int Ahead, int Hint>
int64_t tiledRows(const uint8_t *buffer) {
  simd::VecI sum[4] = {simd::zeroI(), simd::zeroI(), simd::zeroI(),
                       simd::zeroI()};
  // Bytes from one row of a tile to the next, and from one tile to the next.
  constexpr int64_t kRowStep = Spread ? kRows / 4 * kRowBytes : kRowBytes;
  constexpr int64_t kTileStep = Spread ? kRowBytes : 4 * kRowBytes;
  for (int64_t t = 0; t < kRows / 4; ++t) {
    const uint8_t *tile = buffer + t * kTileStep;
    for (int64_t k = 0; k < kRowBytes; k += 32) {
      if constexpr (Ahead > 0)
        if (k % 64 == 0)
          for (int r = 0; r < 4; ++r)
            _mm_prefetch(
                reinterpret_cast<const char *>(tile + r * kRowStep + k + Ahead),
                Hint);
      for (int r = 0; r < 4; ++r) {
        sum[r] = simd::addWidenedBytes16(sum[r], tile + r * kRowStep + k);
        sum[r] = simd::addWidenedBytes16(sum[r], tile + r * kRowStep + k + 16);
      }
    }
  }
  return simd::reduceAddI32(
      simd::addI32(simd::addI32(sum[0], sum[1]), simd::addI32(sum[2], sum[3])));
}

/// A plain sequential read, 256 bytes per step, as the bench's bound.
template <Prefetch P> int64_t sequential(const uint8_t *buffer) {
  simd::VecI sum = simd::zeroI();
  for (int64_t i = 0; i < kBytes; i += 256) {
    prefetchStep<P>(buffer + i);
    for (int v = 0; v < 256 / simd::kBytes; ++v)
      sum = simd::addI64(sum, simd::loadI(buffer + i + simd::kBytes * v));
  }
  return simd::reduceAddI64(sum);
}

struct Variant {
  const char *name;
  int64_t (*read)(const uint8_t *);
};

} // namespace

int main() {
  constexpr int kCopies = 60, kRounds = 15;
  std::vector<uint8_t *> copies;
  for (int c = 0; c < kCopies; ++c) {
    // Room for the prefetches that run past the end.
    uint8_t *copy = allocateFirstTouch<uint8_t>(kBytes + 65536);
    for (int64_t i = 0; i < kBytes + 65536; ++i)
      copy[i] = uint8_t(i + c);
    copies.push_back(copy);
  }
  const Variant variants[] = {
      {"sequential", sequential<Prefetch::None>},
      {"sequential, L2 4 KiB ahead", sequential<Prefetch::L2Ahead4K>},
      {"4 rows, no prefetch", tiledRows<false, 0, _MM_HINT_T0>},
      {"4 rows, L1 4 KiB ahead", tiledRows<false, 4096, _MM_HINT_T0>},
      {"4 rows, L1 16 KiB ahead (ours before)",
       tiledRows<false, 16384, _MM_HINT_T0>},
      {"4 rows, L2 16 KiB ahead", tiledRows<false, 16384, _MM_HINT_T1>},
      {"4 rows, L2 32 KiB ahead", tiledRows<false, 32768, _MM_HINT_T1>},
      {"4 spread rows, no prefetch", tiledRows<true, 0, _MM_HINT_T0>},
      {"4 spread rows, L1 4 KiB ahead", tiledRows<true, 4096, _MM_HINT_T0>},
      {"4 spread rows, L1 16 KiB ahead (ours)",
       tiledRows<true, 16384, _MM_HINT_T0>},
  };
  constexpr int kVariants = sizeof(variants) / sizeof(variants[0]);
  std::vector<std::vector<double>> seconds(kVariants);
  CopyRotation next(kCopies);
  int64_t sink = 0;
  for (int round = 0; round < kRounds; ++round)
    for (int v = 0; v < kVariants; ++v) {
      const uint8_t *copy = copies[next()];
      double start = now();
      sink += variants[v].read(copy);
      seconds[v].push_back(now() - start);
    }
  std::printf("# target: %s\n", benchTargetName());
  for (int v = 0; v < kVariants; ++v)
    std::printf("%-36s %5.1f GB/s\n", variants[v].name,
                kBytes / median(seconds[v]) / 1e9);
  return sink == 42 ? 1 : 0; // keeps the reads
}
