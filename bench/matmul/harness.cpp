// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The weight-only quantized matmul benchmark (bench/matmul/run.sh):
// y = x @ W^T, W = code * scale (int4 packed two per byte, or int8; one f32
// scale per block of K), x f32, for decode (M = 1) and prefill (M = 16, 128).
//
// For each case, on 1 and 2 OpenMP threads, interleaved round by round (the
// rounds in 3 blocks, ONNX Runtime timed after each block: see runPeer):
//   ours   the kernel --quant-affine-cpu-pipeline="openmp=true" compiles
//          (bench/matmul/gen.py);
//   plain  a straightforward C++ loop (dequantize a row, dot it with each
//          row of x), -O3 -march=native, threads over rows of W (prefill:
//          in a third of the rounds, its calls take seconds);
//   bound  reading the packed weights and the scales once (loads of the
//          target's vectors, simd.h, into four accumulators): the fastest
//          by median of no software prefetching, into L1 1 KiB and 16 KiB
//          ahead, and into L2 4 KiB ahead;
//   peak   (prefill) independent FMA chains on the target's lanes (16
//          with AVX-512, 8 with AVX2): the FMA peak.
// Weights come from memory: every call takes the copy read longest ago, of
// copies together at least 8 x the last-level cache (with 3 x, 11008 x 4096
// MXFP4 decode still found some of its weights in the L3 and ran 1.1 times
// faster than from memory; docs/Benchmarks.md). Before timing, ours is
// checked: one-hot rows of x give the weight bit for bit, and random x
// agrees with a float64 reference within K 2^-24 sum |x w| (the plain loop
// too). It also writes, per case, the inputs and the reference for the ONNX
// Runtime peer (bench/matmul/ort/ort.js) to ORT_DIR/<case>/.
// The kernels write y themselves (destination style, gen.py).
//
// usage: [PEER_CMD=...] harness ROUNDS [ORT_DIR [ONLY]] > results.csv
// CSV: case,m,n,k,bits,block,threads,variant,seconds,bytes,flops (after a
// first line "# target: ...", the target the harness was compiled for)

#include "common.h"
#include "kernels.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
struct Desc2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

/// Blocks of rounds per case, ONNX Runtime timed after each (runPeer).
constexpr int kPeerBlocks = 3;
/// Untimed calls before each block's rounds on each thread count.
constexpr double kWarmUpSeconds = 0.1;

/// Runs `$PEER_CMD ORT_DIR/NAME` (bench/matmul/ort/case.sh, which writes its
/// own CSV) when both are set; its output stays out of ours.
void runPeer(const std::string &ortDir, const char *name) {
  const char *command = std::getenv("PEER_CMD");
  if (!command || !*command || ortDir.empty())
    return;
  std::fflush(stdout);
  std::string line =
      std::string(command) + " '" + ortDir + "/" + name + "' 1>&2";
  if (std::system(line.c_str()) != 0)
    std::fprintf(stderr, "# %s: the peer command failed\n", name);
}

Desc2 desc2(void *p, int64_t rows, int64_t cols) {
  return {p, p, 0, {rows, cols}, {cols, 1}};
}

template <typename T> T *allocate(int64_t count) {
  return allocateFirstTouch<T>(count);
}

/// One copy of a case's weights: codes (packed for int4) and scales.
struct Weights {
  uint8_t *codes;
  float *scales;
};

struct Bench {
  const Case &c;
  int64_t codeBytes, scaleCount;
  std::vector<Weights> copies;
  float *x, *y;

  explicit Bench(const Case &c) : c(c) {
    codeBytes = c.n * c.k * c.bits / 8;
    scaleCount = c.n * (c.k / c.block);
  }
  int64_t weightBytes() const { return codeBytes + scaleCount * 4; }

  int code(const Weights &w, int64_t n, int64_t k) const {
    return weightCode(w.codes, n * c.k + k, c.bits);
  }
  float weight(const Weights &w, int64_t n, int64_t k) const {
    float scale = w.scales[n * (c.k / c.block) + k / c.block];
    if (!c.fp4)
      return float(code(w, n, k)) * scale;
    // f4E2M1FN: sign, then the magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
    static const float kMagnitude[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
    int nibble = code(w, n, k) & 15;
    float value = kMagnitude[nibble & 7];
    return (nibble & 8 ? -value : value) * scale;
  }

  void ours(const Weights &w) {
    Desc2 xd = desc2(x, c.m, c.k), s = desc2(w.scales, c.n, c.k / c.block),
          d = desc2(y, c.m, c.n);
    Desc1 packed{w.codes, w.codes, 0, {codeBytes}, {1}};
    Desc2 codes = desc2(w.codes, c.n, c.k);
    // The kernel writes y itself (destination style: no returned copy).
    c.ours(&xd, c.bits == 4 ? static_cast<void *>(&packed) : &codes, &s, &d);
  }

  void plain(const Weights &w) {
#pragma omp parallel
    {
      std::vector<float> row(c.k);
#pragma omp for schedule(static)
      for (int64_t n = 0; n < c.n; ++n) {
        for (int64_t k = 0; k < c.k; ++k)
          row[k] = weight(w, n, k);
        for (int64_t m = 0; m < c.m; ++m) {
          float sum = 0.f;
          for (int64_t k = 0; k < c.k; ++k)
            sum += x[m * c.k + k] * row[k];
          y[m * c.n + n] = sum;
        }
      }
    }
  }

  /// Reads `bytes` once with 64-byte loads into four accumulators,
  /// prefetching `Ahead` bytes ahead once per 256 bytes into L1 (0: none),
  /// or, with `ToL2`, each line `Ahead` bytes ahead into L2.
  template <int Ahead, bool ToL2 = false>
  static long long readOnce(const uint8_t *p, int64_t bytes) {
    simd::VecI total = simd::zeroI();
#pragma omp parallel
    {
      simd::VecI a0 = simd::zeroI(), a1 = a0, a2 = a0, a3 = a0;
#pragma omp for schedule(static) nowait
      for (int64_t i = 0; i < bytes / 256; ++i) {
        const uint8_t *in = p + i * 256;
        if constexpr (ToL2)
          for (int line = 0; line < 4; ++line)
            _mm_prefetch(reinterpret_cast<const char *>(in) + Ahead + 64 * line,
                         _MM_HINT_T1);
        else if constexpr (Ahead > 0)
          _mm_prefetch(reinterpret_cast<const char *>(in) + Ahead, _MM_HINT_T0);
        // 256 bytes: 4 zmm, 8 ymm or 16 xmm, in turn into the accumulators.
        for (int v = 0; v < 256 / simd::kBytes; v += 4) {
          a0 = simd::addI64(a0, simd::loadI(in + simd::kBytes * v));
          a1 = simd::addI64(a1, simd::loadI(in + simd::kBytes * (v + 1)));
          a2 = simd::addI64(a2, simd::loadI(in + simd::kBytes * (v + 2)));
          a3 = simd::addI64(a3, simd::loadI(in + simd::kBytes * (v + 3)));
        }
      }
      simd::VecI acc = simd::addI64(simd::addI64(a0, a1), simd::addI64(a2, a3));
#pragma omp critical
      total = simd::addI64(total, acc);
    }
    // The tail (under 256 bytes), once.
    long long tail = 0;
    for (int64_t i = bytes / 256 * 256; i < bytes; ++i)
      tail += p[i];
    return simd::reduceAddI64(total) + tail;
  }
  /// Reading the packed weights and the scales once, in one of four ways
  /// (no software prefetching; into L1 1 KiB and 16 KiB ahead, as ours; into
  /// L2 4 KiB ahead): the bound is the fastest of them by median.
  static constexpr int kBoundVariants = 4;
  long long bound(const Weights &w, int variant) {
    auto read = [&](const uint8_t *p, int64_t bytes) {
      switch (variant) {
      case 0:
        return readOnce<0>(p, bytes);
      case 1:
        return readOnce<1024>(p, bytes);
      case 2:
        return readOnce<16384>(p, bytes);
      default:
        return readOnce<4096, true>(p, bytes);
      }
    };
    return read(w.codes, codeBytes) +
           read(reinterpret_cast<const uint8_t *>(w.scales), scaleCount * 4);
  }

  /// Failures of ours (and of the plain loop) against the references.
  int check(const std::string &ortDir) {
    int failures = 0;
    const Weights &w = copies[0];
    // One-hot rows: exactly the weight.
    for (int64_t j : {int64_t(0), int64_t(1), c.k / 2 + 3, c.k - 1}) {
      std::fill(x, x + c.m * c.k, 0.f);
      for (int64_t m = 0; m < c.m; ++m)
        x[m * c.k + j] = 1.f;
      ours(w);
      for (int64_t m = 0; m < c.m; m += std::max<int64_t>(c.m - 1, 1))
        for (int64_t n = 0; n < c.n; ++n)
          if (y[m * c.n + n] != weight(w, n, j) && ++failures <= 5)
            std::printf("# %s one-hot j=%lld n=%lld: %a != %a\n", c.name,
                        (long long)j, (long long)n, y[m * c.n + n],
                        weight(w, n, j));
    }
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    for (int64_t i = 0; i < c.m * c.k; ++i)
      x[i] = value(rng);
    // The reference, all rows (it is also the ONNX Runtime peer's).
    std::vector<double> ref(c.m * c.n), mag(c.m * c.n);
#pragma omp parallel
    {
      std::vector<double> row(c.k);
#pragma omp for schedule(static)
      for (int64_t n = 0; n < c.n; ++n) {
        for (int64_t k = 0; k < c.k; ++k)
          row[k] = weight(w, n, k);
        for (int64_t m = 0; m < c.m; ++m) {
          double sum = 0, size = 0;
          for (int64_t k = 0; k < c.k; ++k) {
            double term = double(x[m * c.k + k]) * row[k];
            sum += term;
            size += std::fabs(term);
          }
          ref[m * c.n + n] = sum;
          mag[m * c.n + n] = size;
        }
      }
    }
    auto within = [&](const char *who) {
      int bad = 0;
      for (int64_t i = 0; i < c.m * c.n; ++i)
        if (!(std::fabs(y[i] - ref[i]) <=
              double(c.k) * std::ldexp(1.0, -24) * mag[i]) &&
            ++bad <= 5)
          std::printf("# %s %s: y[%lld] = %.9g, ref %.9g\n", c.name, who,
                      (long long)i, y[i], ref[i]);
      return bad;
    };
    ours(w);
    failures += within("ours");
    plain(w);
    failures += within("plain");
    writeOrtCase(ortDir, ref, mag);
    return failures;
  }

  /// The case for bench/matmul/ort/ort.js: MatMulNBits' B layout is
  /// [N][K / block][block * bits / 8] bytes of unsigned codes (code + 8 or
  /// + 128, its default zero points), low nibble first.
  void writeOrtCase(const std::string &root, const std::vector<double> &ref,
                    const std::vector<double> &mag) {
    // (ONNX Runtime's MatMulNBits has no float4 codes: no peer for MXFP4.)
    if (root.empty() || c.fp4)
      return;
    std::string dir = root + "/" + c.name;
    mkdir(root.c_str(), 0755);
    mkdir(dir.c_str(), 0755);
    const Weights &w = copies[0];
    std::vector<uint8_t> b(codeBytes);
    for (int64_t n = 0; n < c.n; ++n)
      for (int64_t k = 0; k < c.k; ++k) {
        int64_t i = n * c.k + k;
        if (c.bits == 8)
          b[i] = uint8_t(code(w, n, k) + 128);
        else
          b[i / 2] |= uint8_t((code(w, n, k) + 8) << (4 * (i % 2)));
      }
    auto write = [&](const char *file, const void *data, size_t bytes) {
      FILE *f = std::fopen((dir + "/" + file).c_str(), "wb");
      std::fwrite(data, 1, bytes, f);
      std::fclose(f);
    };
    write("a.bin", x, c.m * c.k * sizeof(float));
    write("b.bin", b.data(), b.size());
    write("scales.bin", w.scales, scaleCount * sizeof(float));
    write("ref.bin", ref.data(), ref.size() * sizeof(double));
    write("mag.bin", mag.data(), mag.size() * sizeof(double));
    std::string meta = "{\"M\": " + std::to_string(c.m) +
                       ", \"N\": " + std::to_string(c.n) +
                       ", \"K\": " + std::to_string(c.k) +
                       ", \"bits\": " + std::to_string(c.bits) +
                       ", \"block\": " + std::to_string(c.block) + "}\n";
    write("meta.json", meta.data(), meta.size());
  }
};

struct Desc4 {
  void *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
};

Desc4 desc4(void *p, int64_t a, int64_t b, int64_t c, int64_t d) {
  return {p, p, 0, {a, b, c, d}, {b * c * d, c * d, d, 1}};
}

/// The convolutions (gen.py): int8 filters dequantized inside, and f32
/// filters, 3 x 3 x 64 x 64 on 58 x 58 x 64. Checks the int8 one against
/// the f32 one on the dequantized filter (within the bound), then times
/// both, interleaved. Returns the number of mismatches.
int benchConvolutions(int rounds) {
  constexpr int64_t H = 58, W = 58, C = 64, F = 64, O = 56;
  constexpr int64_t filter = 3 * 3 * C * F;
  auto *x = allocate<float>(H * W * C);
  auto *q = allocate<int8_t>(filter);
  auto *s = allocate<float>(F);
  auto *w = allocate<float>(filter);
  auto *yq = allocate<float>(O * O * F);
  auto *yf = allocate<float>(O * O * F);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  std::uniform_int_distribution<int> code(-128, 127);
  for (int64_t i = 0; i < H * W * C; ++i)
    x[i] = value(rng);
  for (int64_t f = 0; f < F; ++f)
    s[f] = std::ldexp(1.f + value(rng) / 4, -8);
  for (int64_t i = 0; i < filter; ++i) {
    q[i] = int8_t(code(rng));
    w[i] = float(q[i]) * s[i % F];
  }
  auto runQuantized = [&] {
    Desc4 xd = desc4(x, 1, H, W, C), qd = desc4(q, 3, 3, C, F),
          sd = desc4(s, 1, 1, 1, F), d = desc4(yq, 1, O, O, F);
    _mlir_ciface_conv_int8(&xd, &qd, &sd, &d);
  };
  auto runFloat = [&] {
    Desc4 xd = desc4(x, 1, H, W, C), wd = desc4(w, 3, 3, C, F),
          d = desc4(yf, 1, O, O, F);
    _mlir_ciface_conv_f32(&xd, &wd, &d);
  };
  runQuantized();
  runFloat();
  // Both sum the same 576 products, each within K 2^-24 sum |x w| of the
  // exact sum: within twice that of each other.
  int bad = 0;
  for (int64_t oh = 0; oh < O; ++oh)
    for (int64_t ow = 0; ow < O; ++ow)
      for (int64_t f = 0; f < F; ++f) {
        double magnitude = 0;
        for (int64_t kh = 0; kh < 3; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw)
            for (int64_t c = 0; c < C; ++c)
              magnitude +=
                  std::fabs(double(x[((oh + kh) * W + ow + kw) * C + c]) *
                            double(w[((kh * 3 + kw) * C + c) * F + f]));
        int64_t i = (oh * O + ow) * F + f;
        double bound = 2.0 * 576 * std::ldexp(1.0, -24) * magnitude;
        if (!(std::fabs(double(yq[i]) - double(yf[i])) <= bound) && ++bad <= 5)
          std::printf("# conv: %lld: %.9g vs %.9g\n", (long long)i, yq[i],
                      yf[i]);
      }
  double flops = 2.0 * O * O * F * 3 * 3 * C;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    std::vector<double> tq, tf;
    for (int r = 0; r < rounds; ++r) {
      double t0 = now();
      runQuantized();
      double t1 = now();
      runFloat();
      tq.push_back(t1 - t0);
      tf.push_back(now() - t1);
    }
    std::sort(tq.begin(), tq.end());
    std::sort(tf.begin(), tf.end());
    std::printf("conv_3x3_64x64_56x56,0,0,0,8,0,%d,conv-int8,%.9g,%lld,%.9g\n",
                threads, tq[tq.size() / 2], (long long)filter, flops);
    std::printf("conv_3x3_64x64_56x56,0,0,0,32,0,%d,conv-f32,%.9g,%lld,%.9g\n",
                threads, tf[tf.size() / 2], (long long)filter * 4, flops);
  }
  return bad;
}

/// FLOP/s of independent FMA chains on the target's f32 lanes (simd.h: 16
/// with AVX-512, 8 with AVX2), on all threads: 12 chains, which hide the
/// FMA latency of two FMA pipes and fit the 16 registers of AVX2.
double fmaPeak() {
  constexpr int64_t kSteps = 1 << 22;
  double start = now();
  float sink = 0;
#pragma omp parallel reduction(+ : sink)
  {
    simd::VecF acc[12];
    for (int i = 0; i < 12; ++i)
      acc[i] = simd::set1F(float(i) * 1e-3f);
    const simd::VecF a = simd::set1F(0.999f), b = simd::set1F(1e-4f);
    for (int64_t s = 0; s < kSteps; ++s)
      for (int i = 0; i < 12; ++i)
        acc[i] = simd::fmaF(acc[i], a, b);
    for (int i = 0; i < 12; ++i)
      sink += simd::reduceAddF(acc[i]);
  }
  double seconds = now() - start;
  if (sink == 12345.f)
    std::printf("#\n");
  return double(kSteps) * 12 * simd::kLanes * 2 * omp_get_max_threads() /
         seconds;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  std::string ortDir = argc > 2 ? argv[2] : "";
  // Only the cases whose name contains ONLY (and "conv" for the convolutions).
  std::string only = argc > 3 ? argv[3] : "";
  int64_t llc = lastLevelCacheBytes();
  std::mt19937 rng(20261124);
  std::printf("# target: %s\n", benchTargetName());
  std::printf("case,m,n,k,bits,block,threads,variant,seconds,bytes,flops\n");
  int failures = 0;
  for (const Case &c : kCases) {
    if (std::string(c.name).find(only) == std::string::npos)
      continue;
    Bench bench(c);
    // Decode reads each weight once: copies past the cache. Prefill reuses
    // them 16 or 128 times and is bound by arithmetic: one copy.
    int copies =
        c.m == 1
            ? int(std::max<int64_t>(2, (8 * llc + bench.weightBytes() - 1) /
                                           bench.weightBytes()))
            : 1;
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> mantissa(1 << 10, (1 << 11) - 1);
    for (int i = 0; i < copies; ++i) {
      Weights w{allocate<uint8_t>(bench.codeBytes),
                allocate<float>(bench.scaleCount)};
      if (i == 0) {
        for (int64_t j = 0; j < bench.codeBytes; ++j)
          w.codes[j] = uint8_t(byte(rng));
        // MXFP4's scales are powers of two (E8M0).
        for (int64_t j = 0; j < bench.scaleCount; ++j)
          w.scales[j] = c.fp4 ? std::ldexp(1.f, -4 - mantissa(rng) % 8)
                              : std::ldexp(float(mantissa(rng)), -18);
      } else {
        std::memcpy(w.codes, bench.copies[0].codes, bench.codeBytes);
        std::memcpy(w.scales, bench.copies[0].scales, bench.scaleCount * 4);
      }
      bench.copies.push_back(w);
    }
    bench.x = allocate<float>(c.m * c.k);
    bench.y = allocate<float>(c.m * c.n);
    if (int bad = bench.check(ortDir)) {
      std::printf("# %s: %d mismatches\n", c.name, bad);
      failures += bad;
      continue;
    }
    // Ours and the bounds take every round; the plain loop, 50 times slower
    // than ours with 128 rows (seconds a call), a third of them for prefill,
    // spread over the rounds. The rounds run in kPeerBlocks blocks (each on
    // 1 then 2 threads); after each, PEER_CMD (bench/matmul/ort/case.sh)
    // times ONNX Runtime on this case, so the peer and ours share the same
    // minutes of the host rather than runs minutes apart.
    int plainRounds = c.m == 1 ? rounds : std::max(3, rounds / 3);
    CopyRotation nextCopy(copies);
    std::vector<double> tOurs[2], tPlain[2];
    std::vector<std::vector<double>> tBound[2];
    for (auto &variants : tBound)
      variants.resize(Bench::kBoundVariants);
    for (int block = 0; block < kPeerBlocks; ++block) {
      for (int threads : {1, 2}) {
        omp_set_num_threads(threads);
        // Untimed, at least 100 ms of calls: after a pause (the peer's
        // process starting) this host's first calls run up to 6 times
        // slower, and the speed comes back over some 20 ms.
        for (double until = now() + kWarmUpSeconds; now() < until;) {
          bench.ours(bench.copies[nextCopy()]);
          (void)bench.bound(bench.copies[nextCopy()], 0);
        }
        for (int r = rounds * block / kPeerBlocks;
             r < rounds * (block + 1) / kPeerBlocks; ++r) {
          bool plainToo = int64_t(r) * plainRounds % rounds < plainRounds;
          const Weights &a = bench.copies[nextCopy()];
          const Weights &b = bench.copies[nextCopy()];
          double t0 = now();
          bench.ours(a);
          double t1 = now();
          if (plainToo)
            bench.plain(b);
          double t2 = now();
          for (int v = 0; v < Bench::kBoundVariants; ++v) {
            const Weights &d = bench.copies[nextCopy()];
            double start = now();
            volatile long long sink = bench.bound(d, v);
            (void)sink;
            tBound[threads - 1][v].push_back(now() - start);
          }
          tOurs[threads - 1].push_back(t1 - t0);
          if (plainToo)
            tPlain[threads - 1].push_back(t2 - t1);
        }
      }
      if (!c.fp4)
        runPeer(ortDir, c.name);
    }
    for (int threads : {1, 2}) {
      double flops = 2.0 * c.m * c.n * c.k;
      auto row = [&](const char *variant, double seconds) {
        std::printf("%s,%ld,%ld,%ld,%ld,%ld,%d,%s,%.9g,%lld,%.9g\n", c.name,
                    c.m, c.n, c.k, c.bits, c.block, threads, variant, seconds,
                    (long long)bench.weightBytes(), flops);
      };
      row("ours", median(tOurs[threads - 1]));
      row("plain", median(tPlain[threads - 1]));
      row("bound", fastestMedian(tBound[threads - 1]));
      std::fflush(stdout);
    }
    for (Weights &w : bench.copies) {
      std::free(w.codes);
      std::free(w.scales);
    }
    std::free(bench.x);
    std::free(bench.y);
  }
  if (std::string("conv").find(only) != std::string::npos)
    failures += benchConvolutions(rounds);
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    std::vector<double> peaks;
    for (int r = 0; r < 5; ++r)
      peaks.push_back(fmaPeak());
    // seconds 1: the flops column is the peak FLOP/s.
    std::printf("fma-peak,0,0,0,0,0,%d,peak,1,0,%.9g\n", threads,
                median(peaks));
  }
  return failures != 0;
}
