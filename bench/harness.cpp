// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU benchmark for one tensor size (the kernels are compiled for it).
//
// Measures, interleaved round by round, the memory-system limits of the three
// access patterns (copy, read 4 / write 1 byte, read 1 / write 4 bytes, with
// plain and non-temporal stores), our kernels, the hand-written C++ loops and
// the upstream `quant` kernels, each on 1 thread and on all threads, and
// prints one CSV row per variant with the median time of the rounds. Before
// timing, every compiled kernel's output is compared with the hand loop's:
// ours must match bit for bit; upstream's differences are counted.
//
// usage: harness ROUNDS > results.csv

#include "kernels.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int64_t kElems = kRows * kCols;

template <typename T> T *allocate(int64_t count) {
  size_t bytes = (count * sizeof(T) + 4095) / 4096 * 4096;
  auto *p = static_cast<T *>(std::aligned_alloc(4096, bytes));
  if (!p) {
    std::fprintf(stderr, "out of memory\n");
    std::exit(1);
  }
  // First touch from all threads, as the kernels will use it. Sizes are
  // multiples of 64 elements, what the limit loops step by.
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < count; ++i)
    p[i] = T();
  return p;
}

MemRef2D view(void *data, int64_t rows, int64_t cols) {
  return MemRef2D{data, data, 0, {rows, cols}, {cols, 1}};
}

//===-- Limits: the access patterns with nothing to compute ---------------===//

// Each loop moves whole cache lines with as little work as possible per
// byte, 4 lines in per step, a row per OpenMP iteration like the kernels.
// Pointers are firstprivate: shared, they live in memory that every int8_t
// store may alias, and the outlined loop reloads them after each store (read
// 4 / write 1 ran at 18 instead of 25 GB/s on one thread that way).
template <bool Stream> inline void storeLine(void *p, __m512i v) {
  if (Stream)
    _mm512_stream_si512(static_cast<__m512i *>(p), v);
  else
    _mm512_store_si512(p, v);
}

template <bool Stream> void copyLines(const float *x, float *y) {
#pragma omp parallel for schedule(static) firstprivate(x, y)
  for (int64_t row = 0; row < kRows; ++row)
    for (int64_t i = row * kCols; i < (row + 1) * kCols; i += 64) {
      __m512i a = _mm512_load_si512(x + i), b = _mm512_load_si512(x + i + 16);
      __m512i c = _mm512_load_si512(x + i + 32),
              d = _mm512_load_si512(x + i + 48);
      storeLine<Stream>(y + i, a);
      storeLine<Stream>(y + i + 16, b);
      storeLine<Stream>(y + i + 32, c);
      storeLine<Stream>(y + i + 48, d);
    }
  _mm_sfence();
}

// Four lines of floats in, one line of bytes out (their XOR: no shuffles).
template <bool Stream> void read4Write1Lines(const float *x, int8_t *q) {
#pragma omp parallel for schedule(static) firstprivate(x, q)
  for (int64_t row = 0; row < kRows; ++row)
    for (int64_t i = row * kCols; i < (row + 1) * kCols; i += 64) {
      __m512i a = _mm512_load_si512(x + i), b = _mm512_load_si512(x + i + 16);
      __m512i c = _mm512_load_si512(x + i + 32),
              d = _mm512_load_si512(x + i + 48);
      storeLine<Stream>(q + i, _mm512_xor_si512(_mm512_xor_si512(a, b),
                                                _mm512_xor_si512(c, d)));
    }
  _mm_sfence();
}

// The shapes the kernels have: 16 floats in, their 16 low bytes out
// (vpmovdb) with plain 16-byte stores; or 64 floats in, one streamed line
// of their low bytes out.
void read4Write1Narrow(const float *x, int8_t *q) {
#pragma omp parallel for schedule(static) firstprivate(x, q)
  for (int64_t row = 0; row < kRows; ++row)
    for (int64_t i = row * kCols; i < (row + 1) * kCols; i += 16)
      _mm_store_si128(reinterpret_cast<__m128i *>(q + i),
                      _mm512_cvtepi32_epi8(_mm512_load_si512(x + i)));
}

void read4Write1NarrowLines(const float *x, int8_t *q) {
#pragma omp parallel for schedule(static) firstprivate(x, q)
  for (int64_t row = 0; row < kRows; ++row)
    for (int64_t i = row * kCols; i < (row + 1) * kCols; i += 64) {
      __m512i line = _mm512_castsi128_si512(
          _mm512_cvtepi32_epi8(_mm512_load_si512(x + i)));
      line = _mm512_inserti32x4(
          line, _mm512_cvtepi32_epi8(_mm512_load_si512(x + i + 16)), 1);
      line = _mm512_inserti32x4(
          line, _mm512_cvtepi32_epi8(_mm512_load_si512(x + i + 32)), 2);
      line = _mm512_inserti32x4(
          line, _mm512_cvtepi32_epi8(_mm512_load_si512(x + i + 48)), 3);
      _mm512_stream_si512(reinterpret_cast<__m512i *>(q + i), line);
    }
  _mm_sfence();
}

// One line of bytes in, four lines out (copies of it: no widening).
template <bool Stream> void read1Write4Lines(const int8_t *q, float *y) {
#pragma omp parallel for schedule(static) firstprivate(q, y)
  for (int64_t row = 0; row < kRows; ++row)
    for (int64_t i = row * kCols; i < (row + 1) * kCols; i += 64) {
      __m512i a = _mm512_load_si512(q + i);
      storeLine<Stream>(y + i, a);
      storeLine<Stream>(y + i + 16, a);
      storeLine<Stream>(y + i + 32, a);
      storeLine<Stream>(y + i + 48, a);
    }
  _mm_sfence();
}

//===-- The hand-written loops: the formula, straightforwardly ------------===//

inline float clampGrid(float v, float qmin, float qmax) {
  v = v < qmin ? qmin : v;
  return v > qmax ? qmax : v;
}

void handQuantize(const float *x, const float *s, const float *o, int8_t *q,
                  Encoding e, float qmin, float qmax) {
#pragma omp parallel for schedule(static)                                      \
    firstprivate(x, s, o, q, e, qmin, qmax)
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t jb = 0; jb < kCols; jb += e.block) {
      int64_t k = i * e.rowStride + jb / e.block;
      float sv = s[k], ov = o[k];
      for (int64_t j = jb; j < jb + e.block; ++j)
        q[i * kCols + j] = static_cast<int8_t>(static_cast<int>(clampGrid(
            __builtin_roundevenf(x[i * kCols + j] / sv) - ov, qmin, qmax)));
    }
}

void handDequantize(const int8_t *q, const float *s, const float *o, float *y,
                    Encoding e) {
#pragma omp parallel for schedule(static) firstprivate(q, s, o, y, e)
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t jb = 0; jb < kCols; jb += e.block) {
      int64_t k = i * e.rowStride + jb / e.block;
      float sv = s[k], ov = o[k];
      for (int64_t j = jb; j < jb + e.block; ++j)
        y[i * kCols + j] = (static_cast<float>(q[i * kCols + j]) + ov) * sv;
    }
}

void handQdq(const float *x, const float *s, const float *o, float *y,
             Encoding e, float qmin, float qmax) {
#pragma omp parallel for schedule(static)                                      \
    firstprivate(x, s, o, y, e, qmin, qmax)
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t jb = 0; jb < kCols; jb += e.block) {
      int64_t k = i * e.rowStride + jb / e.block;
      float sv = s[k], ov = o[k];
      for (int64_t j = jb; j < jb + e.block; ++j)
        y[i * kCols + j] =
            (clampGrid(__builtin_roundevenf(x[i * kCols + j] / sv) - ov, qmin,
                       qmax) +
             ov) *
            sv;
    }
}

//===-- Variants and timing -----------------------------------------------===//

struct Variant {
  std::string kind, op, range, encoding;
  int threads;
  double bytes;
  std::function<void()> run;
  std::vector<double> seconds;
  int reps = 1;
};

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double timeOnce(Variant &v) {
  omp_set_num_threads(v.threads);
  double start = now();
  for (int r = 0; r < v.reps; ++r)
    v.run();
  return (now() - start) / v.reps;
}

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  size_t n = xs.size();
  return n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  int allThreads = omp_get_num_procs();

  float *x = allocate<float>(kElems);
  int8_t *qIn = allocate<int8_t>(kElems);
  float *yRef = allocate<float>(kElems), *yOut = allocate<float>(kElems);
  int8_t *qRef = allocate<int8_t>(kElems), *qOut = allocate<int8_t>(kElems);
  int64_t maxScales = kRows * (kCols / 32);
  float *scales = allocate<float>(maxScales),
        *offsets = allocate<float>(maxScales);
  fillInputs(x, qIn, kElems, scales, offsets, maxScales);

  std::vector<Variant> variants;
  auto add = [&](std::string kind, std::string op, std::string range,
                 std::string enc, double bytes, std::function<void()> run) {
    for (int t : {1, allThreads})
      variants.push_back({kind, op, range, enc, t, bytes, run, {}, 1});
  };

  double e = static_cast<double>(kElems);
  add("limit", "copy", "", "plain", 8 * e, [&] { copyLines<false>(x, yOut); });
  add("limit", "copy", "", "stream", 8 * e, [&] { copyLines<true>(x, yOut); });
  add("limit", "copy", "", "memcpy", 8 * e, [=] {
#pragma omp parallel for schedule(static) firstprivate(x, yOut)
    for (int64_t row = 0; row < kRows; ++row)
      std::memcpy(yOut + row * kCols, x + row * kCols, kCols * sizeof(float));
  });
  add("limit", "read4write1", "", "plain", 5 * e,
      [&] { read4Write1Lines<false>(x, qOut); });
  add("limit", "read4write1", "", "stream", 5 * e,
      [&] { read4Write1Lines<true>(x, qOut); });
  add("limit", "read4write1", "", "narrow", 5 * e,
      [&] { read4Write1Narrow(x, qOut); });
  add("limit", "read4write1", "", "narrow-stream", 5 * e,
      [&] { read4Write1NarrowLines(x, qOut); });
  add("limit", "read1write4", "", "plain", 5 * e,
      [&] { read1Write4Lines<false>(qIn, yOut); });
  add("limit", "read1write4", "", "stream", 5 * e,
      [&] { read1Write4Lines<true>(qIn, yOut); });

  long upstreamDiffers = 0, oursDiffers = 0;
  for (const CompiledKernel &k : kCompiledKernels) {
    std::string op = k.op, range = k.range, enc = k.encoding;
    Encoding en = encodingOf(enc, kRows, kCols);
    float qmin = range == "i8" ? -128 : -8, qmax = range == "i8" ? 127 : 7;
    bool toInt = op == "quantize", fromInt = op == "dequantize";
    double bytes = e * (fromInt || toInt ? 5 : 8) + 8.0 * en.count;
    // Descriptors live as long as the variants.
    auto *in =
        new MemRef2D(fromInt ? view(qIn, kRows, kCols) : view(x, kRows, kCols));
    auto *out = new MemRef2D(toInt ? view(qOut, kRows, kCols)
                                   : view(yOut, kRows, kCols));
    int64_t scaleRows = enc == "tensor" ? 1 : kRows;
    int64_t scaleCols = en.rowStride ? en.rowStride : 1;
    auto *s = new MemRef2D(view(scales, scaleRows, scaleCols));
    auto *o = new MemRef2D(view(offsets, scaleRows, scaleCols));
    std::function<void()> run =
        k.ours ? std::function<void()>([=] { k.ours(in, s, o, out); })
               : std::function<void()>([=] { k.upstream(in, out); });

    // The reference, then the kernel once: compare.
    std::string kind = k.kind;
    if (kind == "ours") {
      if (toInt)
        handQuantize(x, scales, offsets, qRef, en, qmin, qmax);
      else if (fromInt)
        handDequantize(qIn, scales, offsets, yRef, en);
      else
        handQdq(x, scales, offsets, yRef, en, qmin, qmax);
      add("hand", op, range, enc, bytes, [=] {
        if (toInt)
          handQuantize(x, scales, offsets, qOut, en, qmin, qmax);
        else if (fromInt)
          handDequantize(qIn, scales, offsets, yOut, en);
        else
          handQdq(x, scales, offsets, yOut, en, qmin, qmax);
      });
    } else {
      // Same reference (ours ran just before with the same op/range/enc).
    }
    omp_set_num_threads(allThreads);
    run();
    long differs = 0;
    for (int64_t i = 0; i < kElems; ++i)
      differs +=
          toInt ? qOut[i] != qRef[i] : std::memcmp(&yOut[i], &yRef[i], 4) != 0;
    std::fprintf(stderr,
                 "%s %s %s %s: %ld of %ld elements differ from the "
                 "formula\n",
                 k.kind, k.op, k.range, k.encoding, differs,
                 static_cast<long>(kElems));
    (kind == "ours" ? oursDiffers : upstreamDiffers) += differs;
    add(kind, op, range, enc, bytes, run);
  }

  // Calibrate: repeat small runs to at least 5 ms a measurement.
  for (Variant &v : variants) {
    double t = timeOnce(v);
    v.reps = std::max(1, static_cast<int>(0.005 / std::max(t, 1e-7)));
  }
  for (int r = 0; r < rounds; ++r)
    for (Variant &v : variants)
      v.seconds.push_back(timeOnce(v));

  std::printf("rows,cols,kind,op,range,encoding,threads,bytes,seconds,gbps\n");
  for (Variant &v : variants) {
    double t = median(v.seconds);
    std::printf("%lld,%lld,%s,%s,%s,%s,%d,%.0f,%.9f,%.3f\n",
                static_cast<long long>(kRows), static_cast<long long>(kCols),
                v.kind.c_str(), v.op.c_str(), v.range.c_str(),
                v.encoding.c_str(), v.threads, v.bytes, t, v.bytes / t / 1e9);
  }
  std::fprintf(stderr, "ours: %ld elements differ in all; upstream: %ld\n",
               oursDiffers, upstreamDiffers);
  return oursDiffers == 0 ? 0 : 1;
}
