// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Dynamic quantization of 4096 x 4096 f32 activations (bench/dynquant):
//   ours   compute_encoding + quantize (kernels.mlir), compiled ahead of
//          time with --quant-affine-cpu-pipeline="openmp=true";
//   plain  the same AIMET arithmetic as a straightforward C++ loop per row
//          (per tensor: a min-max pass, then a quantize pass);
//   limit  the access pattern's fastest loop: read the input once (a
//          max over it, in the target's vectors: simd.h), then read it
//          again and write a byte per element (convert, pack, store): two
//          passes, as ours makes per tensor; the fastest of six variants
//          by median (plain or non-temporal stores; no software
//          prefetching, into L1 1 KiB ahead, or into L2 4 KiB ahead). Per
//          token and per block of 32, ours reads each row tile from memory
//          once (its reduction and its quantization reread the tile from
//          the cache), so there the limit is the faster of those and
//          limits.h's loops that read f32 once and write a byte an element
//          (no arithmetic, no scales): the pattern's bytes are then the
//          input once and the codes once.
// Interleaved round by round on 1 and 2 threads; every call takes the
// input copy read longest ago, of copies larger than 3 x the last-level
// cache together, so every first pass reads memory.
// Before timing, ours is checked bit for bit against the plain loop.
// Also writes OUT/x.bin and OUT/ours-per-tensor.bin for ONNX Runtime.
//
//   harness ROUNDS OUT   -> CSV: case,threads,variant,seconds,bytes (after
//                           a first line "# target: ...")
#include "common.h"
#include "limits.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

extern "C" {
void _mlir_ciface_per_token(MemRef2D *, MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_per_tensor_u8(MemRef2D *, MemRef2D *, MemRef1D *, MemRef1D *);
void _mlir_ciface_per_block32(MemRef2D *, MemRef2D *, MemRef2D *, MemRef2D *);
}

namespace {

constexpr int64_t kRows = 4096, kCols = 4096, kElems = kRows * kCols;

/// AIMET 2.x min-max (2025) for f32 input: DESIGN.md section 6, in the
/// order AIMET rounds (f32 throughout for f32 input).
void encodingOf(float mn, float mx, int64_t qmin, int64_t qmax, bool symmetric,
                float &scale, float &offset) {
  int64_t n = qmax - qmin;
  double tiny = (0.005 - (-0.005)) / double(n);
  double minScale = std::min(std::ldexp(1.0, -23), tiny);
  float lo = mn > 0.f ? 0.f : mn, hi = mx < 0.f ? 0.f : mx;
  float width = (hi - lo) / float(n);
  float adjust = width < float(minScale) ? float(minScale) : 0.f;
  float encMin, encMax;
  if (symmetric) {
    int64_t p = n / 2, c = n - n / 2;
    float top = hi + float(p) * adjust, bottom = lo - float(c) * adjust;
    float up = top / float(p + (n == 3)), down = -bottom / float(c);
    float delta = std::isnan(up) || std::isnan(down) ? NAN : std::max(up, down);
    encMin = float(-c) * delta;
    encMax = float(p) * delta;
  } else {
    encMin = lo;
    encMax = hi + float(n) * adjust;
  }
  float largest = 3.4028234663852886e38f;
  if (encMax > largest)
    encMax = largest;
  if (encMin < -largest)
    encMin = -largest;
  scale = (encMax - encMin) / float(n);
  if (scale < float(minScale))
    scale = float(minScale);
  if (symmetric) {
    double middle = std::nearbyint((double(qmin) + double(qmax)) / 2.0);
    offset = middle == 0 ? 0.f : float(-middle);
  } else {
    offset = std::nearbyint(encMin / scale) - float(qmin);
    offset = std::min(std::max(offset, float(-qmax)), float(-qmin));
  }
}

int8_t quantizeOne(float x, float s, float o, int64_t qmin, int64_t qmax) {
  float q = std::nearbyint(x / s) - o;
  q = q < float(qmin) ? float(qmin) : q;
  q = float(qmax) < q ? float(qmax) : q;
  return int8_t(int32_t(q));
}

/// The plain loop: per group of `group` consecutive elements of a row (the
/// row for per token, 32 for blocks), or the whole tensor (group 0).
void plain(const float *x, int8_t *q, float *scales, float *offsets,
           int64_t group, int64_t qmin, int64_t qmax, bool symmetric) {
  if (group == 0) {
    float mn = INFINITY, mx = -INFINITY;
#pragma omp parallel for reduction(min : mn) reduction(max : mx)
    for (int64_t i = 0; i < kElems; ++i) {
      mn = std::min(mn, x[i]);
      mx = std::max(mx, x[i]);
    }
    encodingOf(mn, mx, qmin, qmax, symmetric, scales[0], offsets[0]);
#pragma omp parallel for
    for (int64_t i = 0; i < kElems; ++i)
      q[i] = quantizeOne(x[i], scales[0], offsets[0], qmin, qmax);
    return;
  }
  int64_t groups = kCols / group;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t g = 0; g < groups; ++g) {
      const float *in = x + r * kCols + g * group;
      float mn = INFINITY, mx = -INFINITY;
      for (int64_t j = 0; j < group; ++j) {
        mn = std::min(mn, in[j]);
        mx = std::max(mx, in[j]);
      }
      float &s = scales[r * groups + g], &o = offsets[r * groups + g];
      encodingOf(mn, mx, qmin, qmax, symmetric, s, o);
      for (int64_t j = 0; j < group; ++j)
        q[r * kCols + g * group + j] = quantizeOne(in[j], s, o, qmin, qmax);
    }
}

/// The limit: a max over the input, then convert-and-store of the input,
/// with plain or non-temporal stores (the harness takes the faster). A step
/// is 64 elements: 4 zmm, 8 ymm or 16 xmm (simd.h), in turn into four max
/// accumulators; then each 4 vectors converted and packed into one vector
/// of codes.
template <bool Stream, Prefetch P> float limit(const float *x, int8_t *q) {
  using namespace simd;
  float result = 0;
#pragma omp parallel reduction(max : result)
  {
    VecF m0 = set1F(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
#pragma omp for schedule(static)
    for (int64_t r = 0; r < kRows; ++r)
      for (int64_t j = 0; j < kCols; j += 64) {
        const float *in = x + r * kCols + j;
        prefetchStep<P>(in);
        for (int v = 0; v < 64; v += 4 * kLanes) {
          m0 = maxF(m0, loadUF(in + v));
          m1 = maxF(m1, loadUF(in + v + kLanes));
          m2 = maxF(m2, loadUF(in + v + 2 * kLanes));
          m3 = maxF(m3, loadUF(in + v + 3 * kLanes));
        }
      }
    result = reduceMaxF(maxF(maxF(m0, m1), maxF(m2, m3)));
  }
  VecF k = set1F(1.f / (result + 1.f));
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t j = 0; j < kCols; j += 64) {
      const float *in = x + r * kCols + j;
      prefetchStep<P>(in);
      for (int v = 0; v < 64; v += 4 * kLanes) {
        VecI a = cvtFI(mulF(loadUF(in + v), k));
        VecI b = cvtFI(mulF(loadUF(in + v + kLanes), k));
        VecI c = cvtFI(mulF(loadUF(in + v + 2 * kLanes), k));
        VecI d = cvtFI(mulF(loadUF(in + v + 3 * kLanes), k));
        VecI packed = packI32ToI8(a, b, c, d);
        if constexpr (Stream)
          streamI(q + r * kCols + j + v, packed);
        else
          storeUI(q + r * kCols + j + v, packed);
      }
    }
  _mm_sfence();
  return result;
}

struct Case {
  const char *name;
  int64_t group; // 0: per tensor; kCols: per token; 32: per block
  int64_t qmin, qmax;
  bool symmetric;
};

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  std::string out = argc > 2 ? argv[2] : ".";
  int64_t bytes = kElems * 4;
  // At least 6: no variant reads a copy another read within the last
  // round, so none starts with part of it in the cache.
  int copies = int(
      std::max<int64_t>(6, (3 * lastLevelCacheBytes() + bytes - 1) / bytes));
  std::vector<float *> xs;
  uint32_t state = 20261124;
  for (int c = 0; c < copies; ++c) {
    float *x = allocateFirstTouch<float>(kElems);
    for (int64_t i = 0; i < kElems; ++i) {
      state = state * 1664525u + 1013904223u;
      // Activations: mostly within +-4, a few outliers per row.
      float v = float(int32_t(state) % 40000) * 1e-4f;
      x[i] = (state & 0xFFF) == 7 ? v * 8 : v;
    }
    xs.push_back(x);
  }
  int8_t *q = allocateFirstTouch<int8_t>(kElems),
         *ref = allocateFirstTouch<int8_t>(kElems);
  std::vector<float> s(kElems / 32), o(kElems / 32), rs(kElems / 32),
      ro(kElems / 32);
  const Case cases[] = {{"per_token", kCols, -128, 127, false},
                        {"per_tensor_u8", 0, 0, 255, false},
                        {"per_block32", 32, -8, 7, true}};
  auto ours = [&](const Case &c, float *x) {
    MemRef2D xd = desc(x, kRows, kCols), qd = desc(q, kRows, kCols);
    if (c.group == 0) {
      MemRef1D sd{s.data(), s.data(), 0, {1}, {1}},
          od{o.data(), o.data(), 0, {1}, {1}};
      _mlir_ciface_per_tensor_u8(&xd, &qd, &sd, &od);
      return;
    }
    int64_t groups = kCols / c.group;
    MemRef2D sd = desc(s.data(), kRows, groups),
             od = desc(o.data(), kRows, groups);
    (c.group == kCols ? _mlir_ciface_per_token
                      : _mlir_ciface_per_block32)(&xd, &qd, &sd, &od);
  };
  std::printf("# target: %s\n", benchTargetName());
  std::printf("case,threads,variant,seconds,bytes\n");
  int failures = 0;
  for (const Case &c : cases) {
    // Checked first: codes and encodings bit for bit against the plain loop.
    ours(c, xs[0]);
    plain(xs[0], ref, rs.data(), ro.data(), c.group, c.qmin, c.qmax,
          c.symmetric);
    int64_t encodings = c.group == 0 ? 1 : kRows * (kCols / c.group);
    int64_t bad = 0;
    for (int64_t i = 0; i < kElems; ++i)
      bad += q[i] != ref[i];
    for (int64_t i = 0; i < encodings; ++i)
      bad += std::memcmp(&s[i], &rs[i], 4) != 0 ||
             std::memcmp(&o[i], &ro[i], 4) != 0;
    if (bad) {
      std::printf("# %s: %lld mismatches\n", c.name, (long long)bad);
      ++failures;
      continue;
    }
    if (c.group == 0) {
      writeFile(out + "/x.bin", xs[0], kElems * 4);
      writeFile(out + "/ours-per-tensor.bin", q, kElems);
      writeFile(out + "/ours-per-tensor-encoding.bin", s.data(), 4);
      writeFile(out + "/ours-per-tensor-offset.bin", o.data(), 4);
    }
    CopyRotation nextCopy(copies);
    for (int threads : {1, 2}) {
      omp_set_num_threads(threads);
      std::vector<double> tOurs, tPlain;
      // The limit: the fastest of its variants (stores plain or
      // non-temporal; no software prefetching, into L1 1 KiB ahead, or into
      // L2 4 KiB ahead).
      std::vector<std::function<void(const float *)>> variants;
      for (float (*twoPasses)(const float *, int8_t *) :
           {limit<true, Prefetch::None>, limit<false, Prefetch::None>,
            limit<true, Prefetch::L1Ahead1K>, limit<false, Prefetch::L1Ahead1K>,
            limit<true, Prefetch::L2Ahead4K>,
            limit<false, Prefetch::L2Ahead4K>})
        variants.push_back([&, twoPasses](const float *x) {
          volatile float sink = twoPasses(x, ref);
          (void)sink;
        });
      bool readsOnce = c.group != 0;
      if (readsOnce)
        for (const limits_detail::LimitVariant &v : limitVariants({32, 8}))
          variants.push_back(
              [&, fn = v.fn](const float *x) { fn(x, ref, kRows, kCols); });
      std::vector<std::vector<double>> tLimit(variants.size());
      for (int r = 0; r < rounds; ++r) {
        double t0 = now();
        ours(c, xs[nextCopy()]);
        double t1 = now();
        plain(xs[nextCopy()], ref, rs.data(), ro.data(), c.group, c.qmin,
              c.qmax, c.symmetric);
        double t2 = now();
        for (size_t v = 0; v < variants.size(); ++v) {
          const float *x = xs[nextCopy()];
          double start = now();
          variants[v](x);
          tLimit[v].push_back(now() - start);
        }
        tOurs.push_back(t1 - t0);
        tPlain.push_back(t2 - t1);
      }
      // Bytes of the access pattern: the input twice (once where ours
      // reads it once), the codes once, an f32 scale and offset per group
      // once (limits.h's loops leave those out: the limit errs high).
      long long traffic = (readsOnce ? 1 : 2) * kElems * 4 + kElems +
                          (c.group ? kElems / c.group : 1) * 2 * 4;
      std::printf("%s,%d,ours,%.9g,%lld\n", c.name, threads, median(tOurs),
                  traffic);
      std::printf("%s,%d,plain,%.9g,%lld\n", c.name, threads, median(tPlain),
                  traffic);
      std::printf("%s,%d,limit,%.9g,%lld\n", c.name, threads,
                  fastestMedian(tLimit), traffic);
      std::fflush(stdout);
    }
  }
  return failures ? 1 : 0;
}
