// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Dynamic microscaling quantization of rows x 4096 f32 activations
// (bench/mxquant), 4096 and 11008 rows:
//   ours   block_scale + quantize (kernels.mlir), compiled ahead of time with
//          --quant-affine-cpu-pipeline="openmp=true";
//   plain  the same formats as a straightforward C++ loop per block (scale,
//          then each element divided and rounded to the element format);
//   limit  the access pattern's fastest loop, the fastest of: loops that
//          read each input element once and write its code and each block's
//          scale byte once (per block of 16 or 32: a max, a multiply, a
//          convert, a pack, in the target's vectors: simd.h), with plain or
//          non-temporal stores; and limits.h's loops for reading f32 and
//          writing 8 or 4 bits an element, which do no arithmetic and skip
//          the scale bytes (with 16 elements a block and one thread, the
//          per-block horizontal max makes the computing loop compute-bound,
//          so it alone would understate the limit).
// MXFP8: E8M0 FLOOR scales per 32, f8E4M3FN codes (a byte each). NVFP4:
// two-level, E4M3 scales per 16 under an f32 tensor scale given to the
// kernel, f4E2M1FN codes two per byte, low nibble first.
// Interleaved round by round on 1 and 2 threads; every call takes the input
// copy read longest ago (copies larger than 3 x the last-level cache
// together), so every call reads memory. Before timing, ours is checked bit
// for bit (codes and scale bytes) against the plain loop.
//
//   harness ROUNDS   -> CSV: case,threads,variant,seconds,bytes (after a
//                       first line "# target: ...")
#include "common.h"
#include "limits.h"

#include <omp.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

struct MemRef0D {
  float *allocated, *aligned;
  int64_t offset;
};

extern "C" {
void _mlir_ciface_mxfp8_4096(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_mxfp8_11008(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_nvfp4_4096(MemRef2D *, MemRef0D *, MemRef1D *, MemRef2D *);
void _mlir_ciface_nvfp4_11008(MemRef2D *, MemRef0D *, MemRef1D *, MemRef2D *);
}

namespace {

constexpr int64_t kCols = 4096;

uint32_t bitsOf(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

/// f8E4M3FN's code of v, |v| <= 448 or NaN, rounded to nearest even.
uint8_t e4m3Code(float v) {
  uint8_t sign = bitsOf(v) >> 31 << 7;
  float a = std::fabs(v);
  if (std::isnan(a))
    return 0x7F;
  if (a < 0x1p-6f) // subnormals (and 2^-6 itself, code 8): steps of 2^-9
    return sign | uint8_t(std::nearbyint(a * 0x1p9f));
  uint32_t b = bitsOf(a);
  b += 0x7FFFF + ((b >> 20) & 1); // to 3 mantissa bits, ties to even
  return sign | uint8_t((b >> 20) - ((127 - 7) << 3));
}

float e4m3Value(uint8_t code) {
  int e = (code >> 3) & 15, m = code & 7;
  float a = e == 0 ? std::ldexp(float(m), -9) : std::ldexp(1 + m / 8.f, e - 7);
  return code & 0x80 ? -a : a;
}

/// f4E2M1FN's code of v, |v| <= 6, rounded to nearest even.
uint8_t e2m1Code(float v) {
  uint8_t sign = bitsOf(v) >> 31 << 3;
  float a = std::fabs(v);
  uint8_t m;
  if (a < 2) // 0, 0.5, 1, 1.5: codes 0-3 (and 2: code 4)
    m = uint8_t(std::nearbyint(a * 2));
  else if (a < 4) // 2, 3: codes 4, 5 (and 4: code 6)
    m = uint8_t(2 + std::nearbyint(a));
  else // 4, 6: codes 6, 7
    m = uint8_t(6 + std::nearbyint((a - 4) / 2));
  return sign | m;
}

float clampTo(float v, float limit) {
  return v < -limit ? -limit : limit < v ? limit : v;
}

/// The plain loops: one block at a time, as the formats define them.
void plainMxfp8(const float *x, int64_t rows, uint8_t *q, uint8_t *s) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t b = 0; b < kCols / 32; ++b) {
      const float *in = x + r * kCols + b * 32;
      float amax = 0;
      for (int j = 0; j < 32; ++j)
        amax = std::max(amax, std::fabs(in[j]));
      int e = int((bitsOf(amax) >> 23) & 0xFF) - 127;
      int k = std::min(std::max(e - 8, -127), 127); // OCP FLOOR, emax 8
      s[r * (kCols / 32) + b] = uint8_t(k + 127);
      float scale = std::ldexp(1.0f, k);
      for (int j = 0; j < 32; ++j)
        q[r * kCols + b * 32 + j] = e4m3Code(clampTo(in[j] / scale, 448));
    }
}

void plainNvfp4(const float *x, int64_t rows, float tensorScale, uint8_t *q,
                uint8_t *s) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t b = 0; b < kCols / 16; ++b) {
      const float *in = x + r * kCols + b * 16;
      float amax = 0;
      for (int j = 0; j < 16; ++j)
        amax = std::max(amax, std::fabs(in[j]));
      float scaled = amax / 6.0f / tensorScale;
      uint8_t code = e4m3Code(std::min(std::max(scaled, 0x1p-6f), 448.0f));
      s[r * (kCols / 16) + b] = code;
      float scale = tensorScale * e4m3Value(code);
      uint8_t *out = q + (r * kCols + b * 16) / 2;
      for (int j = 0; j < 16; j += 2)
        out[j / 2] = uint8_t(e2m1Code(clampTo(in[j] / scale, 6)) |
                             e2m1Code(clampTo(in[j + 1] / scale, 6)) << 4);
    }
}

/// The limit: per block of `Block` elements, its max magnitude, one scale
/// byte, and the codes (its elements times a factor, converted, packed to
/// bytes: for 4-bit codes two bytes' low nibbles are merged). Plain or
/// non-temporal stores.
template <int Block, bool Nibbles, bool Stream>
float limit(const float *x, int64_t rows, uint8_t *q, uint8_t *s) {
  using namespace simd;
  constexpr int kStep = 64; // elements per iteration: 64 codes
  float sink = 0;
#pragma omp parallel for schedule(static) reduction(max : sink)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kCols; j += kStep) {
      const float *in = x + r * kCols + j;
      alignas(64) int8_t codes[kStep];
      // Each block's factor first, then the step's codes, four vectors at
      // a time, each with its own block's factor (a vector lies in one
      // block: Block is a multiple of kLanes).
      static_assert(Block % kLanes == 0 && kStep % Block == 0, "blocks");
      VecF factor[kStep / Block];
      for (int b = 0; b < kStep; b += Block) {
        VecF m = set1F(0);
        for (int v = 0; v < Block; v += kLanes)
          m = maxF(m, absF(loadUF(in + b + v)));
        float amax = reduceMaxF(m);
        s[(r * kCols + j + b) / Block] = uint8_t(bitsOf(amax) >> 23);
        factor[b / Block] = set1F(7.0f / (amax + 1.0f));
      }
      auto code = [&](int v) {
        return cvtFI(mulF(loadUF(in + v), factor[v / Block]));
      };
      for (int v = 0; v < kStep; v += 4 * kLanes)
        storeI(codes + v,
               packI32ToI8(code(v), code(v + kLanes), code(v + 2 * kLanes),
                           code(v + 3 * kLanes)));
      sink = std::max(sink, float(codes[kStep - 1]));
      if constexpr (Nibbles) {
        static_assert(kStep == 64, "storeNibbles64 packs 64 codes");
        storeNibbles64(q + (r * kCols + j) / 2, codes);
      } else {
        for (int v = 0; v < kStep; v += kBytes) {
          VecI c = loadI(codes + v);
          if constexpr (Stream)
            streamI(q + r * kCols + j + v, c);
          else
            storeUI(q + r * kCols + j + v, c);
        }
      }
    }
  _mm_sfence();
  return sink;
}

struct Case {
  const char *name;
  int64_t rows;
  bool nvfp4;
};

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  const Case cases[] = {{"mxfp8_4096", 4096, false},
                        {"mxfp8_11008", 11008, false},
                        {"nvfp4_4096", 4096, true},
                        {"nvfp4_11008", 11008, true}};
  int64_t maxElems = 11008 * kCols, maxBytes = maxElems * 4;
  int copies = int(std::max<int64_t>(
      3, (3 * lastLevelCacheBytes() + maxBytes - 1) / maxBytes + 1));
  std::vector<float *> xs;
  uint32_t state = 20261129;
  for (int c = 0; c < copies; ++c) {
    float *x = allocateFirstTouch<float>(maxElems);
    for (int64_t i = 0; i < maxElems; ++i) {
      state = state * 1664525u + 1013904223u;
      // Activations: mostly within +-4, a few outliers per row.
      float v = float(int32_t(state) % 40000) * 1e-4f;
      x[i] = (state & 0xFFF) == 7 ? v * 8 : v;
    }
    xs.push_back(x);
  }
  uint8_t *q = allocateFirstTouch<uint8_t>(maxElems),
          *ref = allocateFirstTouch<uint8_t>(maxElems);
  std::vector<uint8_t> s(maxElems / 16), rs(maxElems / 16);
  // NVFP4's per-tensor scale, torchao's amax / (448 * 6), from a first copy.
  float tensorAmax = 0;
  for (int64_t i = 0; i < maxElems; ++i)
    tensorAmax = std::max(tensorAmax, std::fabs(xs[0][i]));
  float tensorScale = tensorAmax / 2688.0f;
  MemRef0D ts{&tensorScale, &tensorScale, 0};

  auto ours = [&](const Case &c, float *x) {
    MemRef2D xd = desc(x, c.rows, kCols);
    if (!c.nvfp4) {
      MemRef2D qd = desc(q, c.rows, kCols), sd = desc(s.data(), c.rows, 128);
      (c.rows == 4096 ? _mlir_ciface_mxfp8_4096
                      : _mlir_ciface_mxfp8_11008)(&xd, &qd, &sd);
      return;
    }
    MemRef1D qd{q, q, 0, {c.rows * kCols / 2}, {1}};
    MemRef2D sd = desc(s.data(), c.rows, 256);
    (c.rows == 4096 ? _mlir_ciface_nvfp4_4096
                    : _mlir_ciface_nvfp4_11008)(&xd, &ts, &qd, &sd);
  };
  auto plain = [&](const Case &c, float *x) {
    if (c.nvfp4)
      plainNvfp4(x, c.rows, tensorScale, ref, rs.data());
    else
      plainMxfp8(x, c.rows, ref, rs.data());
  };

  std::printf("# target: %s\n", benchTargetName());
  std::printf("case,threads,variant,seconds,bytes\n");
  int failures = 0;
  for (const Case &c : cases) {
    int64_t elems = c.rows * kCols, block = c.nvfp4 ? 16 : 32;
    int64_t codeBytes = c.nvfp4 ? elems / 2 : elems;
    // Checked first: codes and scale bytes bit for bit.
    ours(c, xs[0]);
    plain(c, xs[0]);
    int64_t bad = 0;
    for (int64_t i = 0; i < codeBytes; ++i)
      bad += q[i] != ref[i];
    for (int64_t i = 0; i < elems / block; ++i)
      bad += s[i] != rs[i];
    if (bad) {
      std::printf("# %s: %lld mismatches\n", c.name, (long long)bad);
      ++failures;
      continue;
    }
    using ComputingLimit =
        float (*)(const float *, int64_t, uint8_t *, uint8_t *);
    std::vector<ComputingLimit> computing =
        c.nvfp4 ? std::vector<ComputingLimit>{limit<16, true, false>}
                : std::vector<ComputingLimit>{limit<32, false, false>,
                                              limit<32, false, true>};
    std::vector<std::string> names;
    std::vector<std::function<void(const float *)>> variants;
    for (ComputingLimit fn : computing) {
      names.push_back(names.empty() ? "computing-plain" : "computing-stream");
      variants.push_back([&, fn](const float *x) {
        volatile float sink = fn(x, c.rows, ref, rs.data());
        (void)sink;
      });
    }
    for (const limits_detail::LimitVariant &v :
         limitVariants({32, c.nvfp4 ? 4 : 8})) {
      names.push_back(v.name);
      variants.push_back(
          [&, fn = v.fn](const float *x) { fn(x, ref, c.rows, kCols); });
    }
    CopyRotation nextCopy(copies);
    for (int threads : {1, 2}) {
      omp_set_num_threads(threads);
      std::vector<double> tOurs, tPlain;
      std::vector<std::vector<double>> tLimit(variants.size());
      for (int r = 0; r < rounds; ++r) {
        double t0 = now();
        ours(c, xs[nextCopy()]);
        double t1 = now();
        plain(c, xs[nextCopy()]);
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
      // Bytes of the access pattern: the input once, the codes and the
      // scale bytes once.
      long long traffic = elems * 4 + codeBytes + elems / block;
      std::printf("%s,%d,ours,%.9g,%lld\n", c.name, threads, median(tOurs),
                  traffic);
      std::printf("%s,%d,plain,%.9g,%lld\n", c.name, threads, median(tPlain),
                  traffic);
      size_t fastest = fastestMedianIndex(tLimit);
      std::printf("# %s, %d threads: the limit is the %s loop\n", c.name,
                  threads, names[fastest].c_str());
      std::printf("%s,%d,limit,%.9g,%lld\n", c.name, threads,
                  median(tLimit[fastest]), traffic);
      std::fflush(stdout);
    }
  }
  return failures ? 1 : 0;
}
