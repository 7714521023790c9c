// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// float_qdq of f32 tensors, 4096 x 4096 and 11008 x 4096 (bench/floatqdq):
//   ours   the fp8 E4M3 fake cast and fp8 E5M2 with a per-channel maxval
//          (kernels.py), compiled ahead of time by run.sh; and the 8-bit
//          per-tensor qdq, the same access pattern, for reference;
//   plain  the same rounding as a straightforward C++ loop (frexp, ldexp,
//          nearbyint in double: the tests' reference);
//   limit  copying the f32 tensor (the access pattern: read 4 bytes, write
//          4 per element, in the target's vectors: simd.h), the fastest
//          of six variants by median (plain or non-temporal stores; no
//          prefetching, into L1 1 KiB ahead, or into L2 4 KiB ahead).
// Interleaved round by round on 1 and 2 threads; every call takes the
// input copy read longest ago, of copies larger than 3 x the last-level
// cache together. Before timing, ours is
// checked bit for bit against the plain loop. Also writes OUT/x-ROWS.bin and
// OUT/ours-e4m3-ROWS.bin for ONNX Runtime.
//
//   harness ROUNDS OUT   -> CSV: case,rows,threads,variant,seconds,bytes
//                           (after a first line "# target: ...")
#include "common.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

extern "C" {
void _mlir_ciface_e4m3_4096(MemRef2D *, MemRef2D *);
void _mlir_ciface_e4m3_11008(MemRef2D *, MemRef2D *);
void _mlir_ciface_e5m2_channel_4096(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_e5m2_channel_11008(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_4096(MemRef2D *, MemRef1D *, MemRef2D *);
void _mlir_ciface_qdq_11008(MemRef2D *, MemRef1D *, MemRef2D *);
}

namespace {

constexpr int64_t kCols = 4096;

/// clamp then round to nearest even onto the grid, in double (exact).
double fakeCast(double x, int minExponent, int mantissa, double max) {
  if (std::isnan(x))
    return x;
  double c = std::fmin(std::fmax(x, -max), max);
  if (c == 0)
    return c;
  int e;
  std::frexp(c, &e);
  double quantum = std::ldexp(1.0, std::max(e - 1, minExponent) - mantissa);
  return std::nearbyint(c / quantum) * quantum;
}

/// The factor of a maxval, as docs/FloatQDQ.md defines it.
float factorOf(float maxval, double formatMax) {
  float shift = static_cast<float>(std::log2(std::fabs(double(maxval)))) -
                static_cast<float>(std::log2(formatMax));
  return static_cast<float>(std::exp2(double(shift)));
}

constexpr float kQdqScale = 0.03f;

/// The plain loop: E4M3 (no maxval), E5M2 with per-row factors, or the
/// 8-bit qdq.
void plain(const float *x, float *y, int64_t rows, const float *factors,
           bool qdq) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kCols; ++j) {
      int64_t i = r * kCols + j;
      if (qdq) {
        float q = std::nearbyint(x[i] / kQdqScale);
        q = q < -128.f ? -128.f : q;
        q = 127.f < q ? 127.f : q;
        y[i] = q * kQdqScale;
      } else if (!factors) {
        y[i] = float(fakeCast(x[i], -6, 3, 448.0));
      } else {
        float k = factors[r];
        y[i] = float(fakeCast(x[i] / k, -14, 2, 57344.0)) * k;
      }
    }
}

/// The limit: copy rows x kCols floats, 64 a step (4 zmm, 8 ymm or 16 xmm:
/// simd.h).
template <bool Stream, Prefetch P>
void limit(const float *x, float *y, int64_t rows) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kCols; j += 64) {
      const float *in = x + r * kCols + j;
      float *out = y + r * kCols + j;
      prefetchStep<P>(in);
      for (int v = 0; v < 64; v += simd::kLanes) {
        simd::VecF value = simd::loadUF(in + v);
        if constexpr (Stream)
          simd::streamF(out + v, value);
        else
          simd::storeUF(out + v, value);
      }
    }
  _mm_sfence();
}

struct Case {
  const char *name;
  int64_t rows;
  bool maxval, qdq;
};

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  std::string out = argc > 2 ? argv[2] : ".";
  const Case cases[] = {
      {"e4m3", 4096, false, false},         {"e5m2_channel", 4096, true, false},
      {"qdq_i8", 4096, false, true},        {"e4m3", 11008, false, false},
      {"e5m2_channel", 11008, true, false}, {"qdq_i8", 11008, false, true}};
  std::printf("# target: %s\n", benchTargetName());
  std::printf("case,rows,threads,variant,seconds,bytes\n");
  int failures = 0;
  for (int64_t rows : {int64_t{4096}, int64_t{11008}}) {
    int64_t elems = rows * kCols, bytes = elems * 4;
    int copies = int(
        std::max<int64_t>(6, (3 * lastLevelCacheBytes() + bytes - 1) / bytes));
    std::vector<float *> xs;
    uint32_t state = 20261126;
    for (int c = 0; c < copies; ++c) {
      float *x = allocateFirstTouch<float>(elems);
      for (int64_t i = 0; i < elems; ++i) {
        state = state * 1664525u + 1013904223u;
        // Activations around +-4 with outliers; a few specials.
        float v = float(int32_t(state) % 40000) * 1e-4f;
        x[i] = (state & 0xFFF) == 7 ? v * 300 : v;
      }
      x[0] = NAN;
      x[1] = INFINITY;
      x[2] = -0.0f;
      xs.push_back(x);
    }
    float *y = allocateFirstTouch<float>(elems),
          *ref = allocateFirstTouch<float>(elems);
    std::vector<float> maxval(rows), factors(rows);
    for (int64_t r = 0; r < rows; ++r) {
      maxval[r] = 4.0f + float(r % 13);
      factors[r] = factorOf(maxval[r], 57344.0);
    }
    for (const Case &c : cases) {
      if (c.rows != rows)
        continue;
      auto ours = [&](float *x) {
        MemRef2D xd = desc(x, rows, kCols), yd = desc(y, rows, kCols),
                 md = desc(maxval.data(), rows, 1);
        float scale = kQdqScale;
        MemRef1D sd{&scale, &scale, 0, {1}, {1}};
        if (c.qdq)
          (rows == 4096 ? _mlir_ciface_qdq_4096
                        : _mlir_ciface_qdq_11008)(&xd, &sd, &yd);
        else if (c.maxval)
          (rows == 4096 ? _mlir_ciface_e5m2_channel_4096
                        : _mlir_ciface_e5m2_channel_11008)(&xd, &md, &yd);
        else
          (rows == 4096 ? _mlir_ciface_e4m3_4096
                        : _mlir_ciface_e4m3_11008)(&xd, &yd);
      };
      const float *f = c.maxval ? factors.data() : nullptr;
      ours(xs[0]);
      plain(xs[0], ref, rows, f, c.qdq);
      int64_t bad = 0;
      for (int64_t i = 0; i < elems; ++i)
        bad += !(std::memcmp(&y[i], &ref[i], 4) == 0 ||
                 (std::isnan(y[i]) && std::isnan(ref[i])));
      if (bad) {
        std::printf("# %s %lld: %lld mismatches\n", c.name, (long long)rows,
                    (long long)bad);
        ++failures;
        continue;
      }
      if (!c.maxval && !c.qdq) {
        std::string suffix = std::to_string(rows) + ".bin";
        writeFile(out + "/x-" + suffix, xs[0], bytes);
        writeFile(out + "/ours-e4m3-" + suffix, y, bytes);
      }
      CopyRotation nextCopy(copies);
      for (int threads : {1, 2}) {
        omp_set_num_threads(threads);
        std::vector<double> tOurs, tPlain;
        void (*variants[])(const float *, float *,
                           int64_t) = {limit<true, Prefetch::None>,
                                       limit<false, Prefetch::None>,
                                       limit<true, Prefetch::L1Ahead1K>,
                                       limit<false, Prefetch::L1Ahead1K>,
                                       limit<true, Prefetch::L2Ahead4K>,
                                       limit<false, Prefetch::L2Ahead4K>};
        std::vector<std::vector<double>> tLimit(std::size(variants));
        // Each round runs every variant once, in an order shuffled round by
        // round: a call's time depends on the call before it (the
        // plain-store variants leave their output dirty in the cache, and
        // its write-back overlaps the next call; an A/A run of ours in two
        // fixed neighbouring slots measured the second 3 to 8 % faster), so
        // no variant keeps the same predecessor.
        std::vector<size_t> order(std::size(variants) + 2);
        std::iota(order.begin(), order.end(), size_t{0});
        std::mt19937 shuffler(20261126);
        for (int r = 0; r < rounds; ++r) {
          std::shuffle(order.begin(), order.end(), shuffler);
          for (size_t v : order) {
            float *x = xs[nextCopy()];
            double start = now();
            if (v == 0)
              ours(x);
            else if (v == 1)
              plain(x, ref, rows, f, c.qdq);
            else
              variants[v - 2](x, ref, rows);
            double seconds = now() - start;
            (v == 0   ? tOurs
             : v == 1 ? tPlain
                      : tLimit[v - 2])
                .push_back(seconds);
          }
        }
        long long traffic = 2 * bytes;
        std::printf("%s,%lld,%d,ours,%.9g,%lld\n", c.name, (long long)rows,
                    threads, median(tOurs), traffic);
        std::printf("%s,%lld,%d,plain,%.9g,%lld\n", c.name, (long long)rows,
                    threads, median(tPlain), traffic);
        std::printf("%s,%lld,%d,limit,%.9g,%lld\n", c.name, (long long)rows,
                    threads, fastestMedian(tLimit), traffic);
        std::fflush(stdout);
      }
    }
    for (float *x : xs)
      std::free(x);
    std::free(y);
    std::free(ref);
  }
  return failures ? 1 : 0;
}
