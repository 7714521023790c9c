// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU benchmark for one tensor size (the kernels are compiled for it).
//
// Measures, interleaved round by round, the memory-system limits of every
// access pattern (bench/limits.h: f32 copy, f32 <-> i8, f32 <-> packed int4
// and int2, each in several variants), our kernels (compiled with the
// pipeline's defaults, and with explicit options), the hand-written C++
// loops and the upstream `quant` kernels, each on 1 thread and on all
// threads, and prints one CSV row per variant with the median time of the
// rounds. Each row names its access pattern; bench/report.py divides a
// kernel by the fastest limit variant of its pattern. Before timing, every
// compiled kernel's output is compared with the hand loop's: ours must match
// bit for bit; upstream's differences are counted.
//
// Kernels come from the table in kernels.h (bench/gen_kernels.py), each with
// the bits per element of its input and output storage: 32 (f32), 8 (i8),
// and, for packed kernels (i4-packed, i2-packed), 4 or 2. Buffers of each
// width exist here (inputOf, outputOf) and each width's limits are measured.
// A packed kernel gets its packed side as a rank-1 byte descriptor (MemRef1D,
// ceil(n * bits / 8) bytes, docs/Packing.md). Its reference and its hand row
// are the packed hand loops below (quantize and pack; unpack and
// dequantize), which are first checked themselves against the i8 hand loops
// with a scalar pack / unpack of their codes.
//
// usage: harness ROUNDS > results.csv (after a first line "# target: ...",
// the target the harness and its limit loops were compiled for)

#include "kernels.h"
#include "limits.h"

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
static_assert(kCols % kLimitRowMultiple == 0,
              "the limit loops move whole steps of a row");

template <typename T> T *allocate(int64_t count) {
  return allocateFirstTouch<T>(count);
}

MemRef2D view(void *data, int64_t rows, int64_t cols) {
  return MemRef2D{data, data, 0, {rows, cols}, {cols, 1}};
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

// The packed hand loops: codes of `Bits` bits (two's complement), 8 / Bits to
// a byte, the lower index in the lower bits; a row per OpenMP iteration, a
// byte's values in an inner loop that clang unrolls and vectorizes. Blocks
// are multiples of 8 / Bits values, so a byte never spans two scales.

template <int Bits>
void handQuantizePacked(const float *x, const float *s, const float *o,
                        uint8_t *p, Encoding e, float qmin, float qmax) {
  constexpr int kPer = 8 / Bits;
  constexpr unsigned kMask = (1u << Bits) - 1;
#pragma omp parallel for schedule(static)                                      \
    firstprivate(x, s, o, p, e, qmin, qmax)
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t jb = 0; jb < kCols; jb += e.block) {
      int64_t k = i * e.rowStride + jb / e.block;
      float sv = s[k], ov = o[k];
      const float *xr = x + i * kCols + jb;
      uint8_t *pr = p + (i * kCols + jb) / kPer;
      for (int64_t b = 0; b < e.block / kPer; ++b) {
        unsigned byte = 0;
        for (int l = 0; l < kPer; ++l) {
          int code = static_cast<int>(clampGrid(
              __builtin_roundevenf(xr[b * kPer + l] / sv) - ov, qmin, qmax));
          byte |= (static_cast<unsigned>(code) & kMask) << (l * Bits);
        }
        pr[b] = static_cast<uint8_t>(byte);
      }
    }
}

template <int Bits>
void handDequantizePacked(const uint8_t *p, const float *s, const float *o,
                          float *y, Encoding e) {
  constexpr int kPer = 8 / Bits;
#pragma omp parallel for schedule(static) firstprivate(p, s, o, y, e)
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t jb = 0; jb < kCols; jb += e.block) {
      int64_t k = i * e.rowStride + jb / e.block;
      float sv = s[k], ov = o[k];
      const uint8_t *pr = p + (i * kCols + jb) / kPer;
      float *yr = y + i * kCols + jb;
      for (int64_t b = 0; b < e.block / kPer; ++b) {
        unsigned byte = pr[b];
        for (int l = 0; l < kPer; ++l) {
          // Value l to the top bits, then an arithmetic shift down.
          int code = static_cast<int8_t>(
                         static_cast<uint8_t>(byte << (8 - Bits * (l + 1)))) >>
                     (8 - Bits);
          yr[b * kPer + l] = (static_cast<float>(code) + ov) * sv;
        }
      }
    }
}

/// Value i of a packed buffer of `bits`-bit codes, sign-extended (scalar:
/// for the checks only).
inline int packedCode(const uint8_t *p, int64_t i, int bits) {
  int per = 8 / bits;
  unsigned field = (p[i / per] >> (i % per * bits)) & ((1u << bits) - 1);
  return field >= (1u << (bits - 1)) ? static_cast<int>(field) - (1 << bits)
                                     : static_cast<int>(field);
}

//===-- Variants and timing -----------------------------------------------===//

struct Variant {
  std::string kind, op, range, encoding, pattern;
  int threads;
  double bytes;
  std::function<void()> run;
  std::vector<double> seconds;
  int reps = 1;
};

/// Bytes of the last-level cache (sysfs, as the pipeline reads it; 32 MiB
/// where it says nothing).
int64_t lastLevelCacheBytes() {
  int64_t best = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    FILE *f = std::fopen((dir + "/size").c_str(), "r");
    if (!f)
      break;
    long value = 0;
    char unit = 0;
    if (std::fscanf(f, "%ld%c", &value, &unit) >= 1)
      best = std::max<int64_t>(best, value * (unit == 'K'   ? 1024
                                              : unit == 'M' ? 1 << 20
                                                            : 1));
    std::fclose(f);
  }
  return best > 0 ? best : int64_t(32) << 20;
}

/// Evicts the caches before a measurement by reading twice their size
/// (untimed): a variant then never pays for writing back the dirty lines
/// that the one before it left (plain stores of a large output), so the
/// order of the variants in a round does not favour any of them. Small
/// sizes repeat their runs within a measurement, and so still run in cache.
void scrubCaches() {
  static const int64_t words = 2 * lastLevelCacheBytes() / 8;
  static uint64_t *scratch = [] {
    auto *p = static_cast<uint64_t *>(std::aligned_alloc(4096, words * 8));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < words; ++i)
      p[i] = i;
    return p;
  }();
  uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(^ : sum)
  for (int64_t i = 0; i < words; i += 8)
    sum ^= scratch[i];
  static volatile uint64_t sink;
  sink = sum;
}

double timeOnce(Variant &v) {
  omp_set_num_threads(v.threads);
  scrubCaches();
  double start = now();
  for (int r = 0; r < v.reps; ++r)
    v.run();
  return (now() - start) / v.reps;
}

double medianOf(std::vector<double> xs) {
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
  // The packed references of the packed quantize kernels.
  uint8_t *p4Ref = allocate<uint8_t>(kElems / 2),
          *p2Ref = allocate<uint8_t>(kElems / 4);
  // Packed codes: 2 (int4) and 4 (int2) to a byte.
  uint8_t *p4In = allocate<uint8_t>(kElems / 2),
          *p4Out = allocate<uint8_t>(kElems / 2);
  uint8_t *p2In = allocate<uint8_t>(kElems / 4),
          *p2Out = allocate<uint8_t>(kElems / 4);
  int64_t maxScales = kRows * (kCols / 32);
  float *scales = allocate<float>(maxScales),
        *offsets = allocate<float>(maxScales);
  fillInputs(x, qIn, kElems, scales, offsets, maxScales);
  std::memcpy(p4In, qIn, kElems / 2);
  std::memcpy(p2In, qIn, kElems / 4);

  // The buffers a kernel or limit loop of a storage width reads and writes.
  auto inputOf = [&](int bits) -> const void * {
    switch (bits) {
    case 32:
      return x;
    case 8:
      return qIn;
    case 4:
      return p4In;
    case 2:
      return p2In;
    }
    std::fprintf(stderr, "no buffer of %d bits an element\n", bits);
    std::exit(1);
  };
  auto outputOf = [&](int bits) -> void * {
    switch (bits) {
    case 32:
      return yOut;
    case 8:
      return qOut;
    case 4:
      return p4Out;
    case 2:
      return p2Out;
    }
    std::fprintf(stderr, "no buffer of %d bits an element\n", bits);
    std::exit(1);
  };

  std::vector<Variant> variants;
  auto add = [&](std::string kind, std::string op, std::string range,
                 std::string enc, std::string pattern, double bytes,
                 std::function<void()> run) {
    for (int t : {1, allThreads})
      variants.push_back({kind, op, range, enc, pattern, t, bytes, run, {}, 1});
  };

  double e = static_cast<double>(kElems);
  for (AccessPattern p : accessPatterns()) {
    std::string name = patternName(p.inBits, p.outBits);
    const void *in = inputOf(p.inBits);
    void *out = outputOf(p.outBits);
    double bytes = e * (p.inBits + p.outBits) / 8;
    for (auto [variant, fn] : limitVariants(p))
      add("limit", name, "", variant, name, bytes,
          [=, fn = fn] { fn(in, out, kRows, kCols); });
    if (p.inBits == 32 && p.outBits == 32)
      add("limit", name, "", "memcpy", name, bytes, [=] {
#pragma omp parallel for schedule(static) firstprivate(x, yOut)
        for (int64_t row = 0; row < kRows; ++row)
          std::memcpy(yOut + row * kCols, x + row * kCols,
                      kCols * sizeof(float));
      });
  }

  long upstreamDiffers = 0, oursDiffers = 0;
  for (const CompiledKernel &k : kCompiledKernels) {
    std::string op = k.op, range = k.range, enc = k.encoding, kind = k.kind;
    bool packed = k.packedQuantize || k.packedDequantize;
    if (packed != (k.inBits < 8 || k.outBits < 8)) {
      std::fprintf(stderr,
                   "%s %s %s %s: storage bits %d, %d do not match the "
                   "kernel's descriptors\n",
                   k.kind, k.op, k.range, k.encoding, k.inBits, k.outBits);
      return 1;
    }
    Encoding en = encodingOf(enc, kRows, kCols);
    float qmin = range == "i8" ? -128 : range == "i2-packed" ? -2 : -8;
    float qmax = range == "i8" ? 127 : range == "i2-packed" ? 1 : 7;
    bool toInt = op == "quantize", fromInt = op == "dequantize";
    std::string pattern = patternName(k.inBits, k.outBits);
    double bytes = e * (k.inBits + k.outBits) / 8 + 8.0 * en.count;
    if (packed) {
      int bits = std::min(k.inBits, k.outBits);
      const auto *pIn = static_cast<const uint8_t *>(inputOf(bits));
      auto *pOut = static_cast<uint8_t *>(outputOf(bits));
      uint8_t *pRef = bits == 4 ? p4Ref : p2Ref;
      int64_t packedBytes = (kElems * bits + 7) / 8;
      auto quantizePacked = [=](uint8_t *to) {
        if (bits == 4)
          handQuantizePacked<4>(x, scales, offsets, to, en, qmin, qmax);
        else
          handQuantizePacked<2>(x, scales, offsets, to, en, qmin, qmax);
      };
      auto dequantizePacked = [=](float *to) {
        if (bits == 4)
          handDequantizePacked<4>(pIn, scales, offsets, to, en);
        else
          handDequantizePacked<2>(pIn, scales, offsets, to, en);
      };
      int64_t scaleRows = enc == "tensor" ? 1 : kRows;
      int64_t scaleCols = en.rowStride ? en.rowStride : 1;
      auto *s = new MemRef2D(view(scales, scaleRows, scaleCols));
      auto *o = new MemRef2D(view(offsets, scaleRows, scaleCols));
      std::function<void()> run;
      omp_set_num_threads(allThreads);
      // The reference (the packed hand loop), itself checked against the i8
      // hand loop with a scalar pack (quantize) or unpack (dequantize).
      long refDiffers = 0;
      if (toInt) {
        auto *out = new MemRef1D{pOut, pOut, 0, {packedBytes}, {1}};
        auto *in = new MemRef2D(view(x, kRows, kCols));
        run = [=] { k.packedQuantize(in, s, o, out); };
        quantizePacked(pRef);
        handQuantize(x, scales, offsets, qRef, en, qmin, qmax);
        for (int64_t i = 0; i < kElems; ++i)
          refDiffers += packedCode(pRef, i, bits) != qRef[i];
      } else {
        auto *in = new MemRef1D{const_cast<uint8_t *>(pIn),
                                const_cast<uint8_t *>(pIn),
                                0,
                                {packedBytes},
                                {1}};
        auto *out = new MemRef2D(view(yOut, kRows, kCols));
        run = [=] { k.packedDequantize(in, s, o, out); };
        dequantizePacked(yRef);
        for (int64_t i = 0; i < kElems; ++i)
          qRef[i] = static_cast<int8_t>(packedCode(pIn, i, bits));
        handDequantize(qRef, scales, offsets, yOut, en);
        for (int64_t i = 0; i < kElems; ++i)
          refDiffers += std::memcmp(&yOut[i], &yRef[i], 4) != 0;
      }
      if (refDiffers) {
        std::fprintf(stderr,
                     "%s %s: the packed hand loop differs from the i8 one "
                     "in %ld elements\n",
                     k.op, k.range, refDiffers);
        return 1;
      }
      if (kind == "ours")
        add("hand", op, range, enc, pattern, bytes, [=] {
          if (toInt)
            quantizePacked(pOut);
          else
            dequantizePacked(yOut);
        });
      omp_set_num_threads(allThreads);
      std::memset(pOut, 0, packedBytes);
      run();
      long differs = 0;
      for (int64_t i = 0; i < kElems; ++i)
        differs += toInt
                       ? packedCode(pOut, i, bits) != packedCode(pRef, i, bits)
                       : std::memcmp(&yOut[i], &yRef[i], 4) != 0;
      std::fprintf(stderr,
                   "%s %s %s %s: %ld of %ld elements differ from the "
                   "packed reference\n",
                   k.kind, k.op, k.range, k.encoding, differs,
                   static_cast<long>(kElems));
      oursDiffers += differs;
      add(kind, op, range, enc, pattern, bytes, run);
      continue;
    }
    // Descriptors live as long as the variants.
    auto *in =
        new MemRef2D(view(const_cast<void *>(inputOf(k.inBits)), kRows, kCols));
    auto *out = new MemRef2D(view(outputOf(k.outBits), kRows, kCols));
    int64_t scaleRows = enc == "tensor" ? 1 : kRows;
    int64_t scaleCols = en.rowStride ? en.rowStride : 1;
    auto *s = new MemRef2D(view(scales, scaleRows, scaleCols));
    auto *o = new MemRef2D(view(offsets, scaleRows, scaleCols));
    std::function<void()> run =
        k.ours ? std::function<void()>([=] { k.ours(in, s, o, out); })
               : std::function<void()>([=] { k.upstream(in, out); });

    // The reference, then the kernel once: compare.
    if (toInt)
      handQuantize(x, scales, offsets, qRef, en, qmin, qmax);
    else if (fromInt)
      handDequantize(qIn, scales, offsets, yRef, en);
    else
      handQdq(x, scales, offsets, yRef, en, qmin, qmax);
    // One hand-written row per kernel (with the defaults' row).
    if (kind == "ours")
      add("hand", op, range, enc, pattern, bytes, [=] {
        if (toInt)
          handQuantize(x, scales, offsets, qOut, en, qmin, qmax);
        else if (fromInt)
          handDequantize(qIn, scales, offsets, yOut, en);
        else
          handQdq(x, scales, offsets, yOut, en, qmin, qmax);
      });
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
    (kind == "upstream" ? upstreamDiffers : oursDiffers) += differs;
    add(kind, op, range, enc, pattern, bytes, run);
  }

  // Calibrate: repeat small runs to at least 5 ms a measurement.
  for (Variant &v : variants) {
    double t = timeOnce(v);
    v.reps = std::max(1, static_cast<int>(0.005 / std::max(t, 1e-7)));
  }
  for (int r = 0; r < rounds; ++r)
    for (Variant &v : variants)
      v.seconds.push_back(timeOnce(v));

  std::printf("# target: %s\n", benchTargetName());
  std::printf(
      "rows,cols,kind,op,range,encoding,pattern,threads,bytes,seconds,gbps\n");
  for (Variant &v : variants) {
    double t = medianOf(v.seconds);
    std::printf("%lld,%lld,%s,%s,%s,%s,%s,%d,%.0f,%.9f,%.3f\n",
                static_cast<long long>(kRows), static_cast<long long>(kCols),
                v.kind.c_str(), v.op.c_str(), v.range.c_str(),
                v.encoding.c_str(), v.pattern.c_str(), v.threads, v.bytes, t,
                v.bytes / t / 1e9);
  }
  std::fprintf(stderr, "ours: %ld elements differ in all; upstream: %ld\n",
               oursDiffers, upstreamDiffers);
  return oursDiffers == 0 ? 0 : 1;
}
