// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// float_qdq at the edges of its roundings (float-qdq-grid-edges.mlir): for
// each format and input type, values at, one and two ulps around the grid
// values and midpoints of every binade the format has (and a few below its
// smallest quantum and above its largest value), zeros, infinities and NaN,
// both signs, then random bit patterns; 4 x 65536 per format. Each output is
// compared bit for bit (NaN equals NaN) with float_grid_reference.h.

#include "float_grid_reference.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

template <typename T> struct MemRef1D {
  T *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
struct MemRef2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

#define F32_FORMATS                                                            \
  X(f32, e4m3fn, 4, 3, true, false)                                            \
  X(f32, e4m3fnuz, 4, 3, true, true)                                           \
  X(f32, e5m2, 5, 2, false, false)                                             \
  X(f32, e5m2fnuz, 5, 2, true, true)                                           \
  X(f32, g1m0, 1, 0, false, false)                                             \
  X(f32, g2m1, 2, 1, false, false)                                             \
  X(f32, g6m16, 6, 16, false, false)                                           \
  X(f32, g5m20, 5, 20, false, false)                                           \
  X(f32, g7m21, 7, 21, false, false)                                           \
  X(f32, g7m22, 7, 22, false, false)                                           \
  X(f32, g8m3, 8, 3, false, false)
#define F64_FORMATS                                                            \
  X(f64, e4m3fn, 4, 3, true, false)                                            \
  X(f64, g10m40, 10, 40, false, false)                                         \
  X(f64, g8m50, 8, 50, false, false)                                           \
  X(f64, g8m51, 8, 51, false, false)

using f32 = float;
using f64 = double;
#define X(T, N, E, M, F, U)                                                    \
  extern "C" void _mlir_ciface_##T##_##N(MemRef1D<T> *, MemRef1D<T> *);
F32_FORMATS
F64_FORMATS
#undef X
extern "C" void _mlir_ciface_f32_e5m2_maxval(MemRef2D *, MemRef2D *,
                                             MemRef2D *);

namespace {

constexpr size_t kChunk = 65536, kChunks = 4;

template <typename T> bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0 ||
         (std::isnan(a) && std::isnan(b));
}

/// The edge values of `f` in T (both signs), then random bit patterns up to
/// `count`.
template <typename T>
std::vector<T> edgeInputs(const Format &f, size_t count, std::mt19937_64 &rng) {
  Grid g = gridOf(f);
  std::vector<T> v;
  auto withNeighbours = [&](double value) {
    T t = static_cast<T>(value);
    T up = t, down = t;
    for (int step = 0; step < 2; ++step) {
      up = std::nextafter(up, std::numeric_limits<T>::infinity());
      down = std::nextafter(down, -std::numeric_limits<T>::infinity());
      v.insert(v.end(), {up, -up, down, -down});
    }
    v.insert(v.end(), {t, -t});
  };
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int maxExponent = std::ilogb(g.max);
  for (int e = g.minExponent - f.m - 3; e <= maxExponent + 1; ++e) {
    int quantumExponent = std::max(e, g.minExponent) - f.m;
    double quantum = std::ldexp(1.0, quantumExponent);
    withNeighbours(std::ldexp(1.0, e));
    for (int i = 0; i < 4; ++i) {
      // A grid value n * q of this binade (none below the smallest quantum).
      double n =
          e >= quantumExponent
              ? std::floor(std::ldexp(1.0 + unit(rng), e - quantumExponent))
              : 0.0;
      withNeighbours(n * quantum);
      withNeighbours((n + 0.5) * quantum);
    }
  }
  double topQuantum = std::ldexp(1.0, maxExponent - f.m);
  for (double value : {0.0, g.max, g.max + topQuantum / 2, g.max + topQuantum,
                       std::ldexp(1.0, maxExponent + 1)})
    withNeighbours(value);
  v.insert(v.end(),
           {std::numeric_limits<T>::infinity(),
            -std::numeric_limits<T>::infinity(),
            std::numeric_limits<T>::quiet_NaN(),
            std::numeric_limits<T>::denorm_min(),
            -std::numeric_limits<T>::denorm_min(),
            std::numeric_limits<T>::max(), -std::numeric_limits<T>::max()});
  if (v.size() > count) {
    std::printf("too many edge values for %s: %zu\n", f.name, v.size());
    v.resize(count);
  }
  while (v.size() < count) {
    uint64_t bits = rng();
    T t;
    std::memcpy(&t, &bits, sizeof(T));
    v.push_back(t);
  }
  return v;
}

template <typename T>
int run(const char *type, void (*kernel)(MemRef1D<T> *, MemRef1D<T> *),
        const Format &f, std::mt19937_64 &rng) {
  std::vector<T> in = edgeInputs<T>(f, kChunk * kChunks, rng), out(in.size());
  for (size_t c = 0; c < kChunks; ++c) {
    MemRef1D<T> a{&in[c * kChunk], &in[c * kChunk], 0, {kChunk}, {1}};
    MemRef1D<T> b{&out[c * kChunk], &out[c * kChunk], 0, {kChunk}, {1}};
    kernel(&a, &b);
  }
  long long mismatches = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    T expected = static_cast<T>(fakeCast(static_cast<double>(in[i]), f));
    if (!sameBits(out[i], expected) && mismatches++ < 3)
      std::printf("  mismatch %s %s: input %a got %a expected %a\n", type,
                  f.name, static_cast<double>(in[i]),
                  static_cast<double>(out[i]), static_cast<double>(expected));
  }
  std::printf("%s %s: %zu inputs, %lld mismatches\n", type, f.name, in.size(),
              mismatches);
  return mismatches != 0;
}

/// E5M2 with one maxval per row of 16 x 4096: edge values of the scaled
/// domain times the row's factor, then random bits.
int runMaxval(std::mt19937_64 &rng) {
  Format f{"e5m2", 5, 2, false, false};
  const float maxval[16] = {2.5f,   1000.0f, 1.0f,   57344.0f, 1e-3f, 3e-5f,
                            448.0f, 7.0f,    1e6f,   65504.0f, 0.5f,  123.456f,
                            2.0f,   3.0f,    1e-10f, 1e10f};
  float factors[16];
  for (int r = 0; r < 16; ++r)
    factors[r] = maxvalFactor(maxval[r], f);
  long long mismatches = 0, total = 0;
  for (size_t c = 0; c < kChunks; ++c) {
    std::vector<float> in(16 * 4096), out(in.size()), m(maxval, maxval + 16);
    for (int r = 0; r < 16; ++r) {
      std::vector<float> row = edgeInputs<float>(f, 4096, rng);
      for (int j = 0; j < 4096; ++j)
        in[r * 4096 + j] = j < 2048 ? row[j] * factors[r] : row[j];
    }
    MemRef2D a{in.data(), in.data(), 0, {16, 4096}, {4096, 1}};
    MemRef2D mv{m.data(), m.data(), 0, {16, 1}, {1, 1}};
    MemRef2D b{out.data(), out.data(), 0, {16, 4096}, {4096, 1}};
    _mlir_ciface_f32_e5m2_maxval(&a, &mv, &b);
    for (size_t i = 0; i < in.size(); ++i, ++total) {
      float k = factors[i / 4096];
      float expected = static_cast<float>(fakeCast(in[i] / k, f)) * k;
      if (!sameBits(out[i], expected) && mismatches++ < 3)
        std::printf("  mismatch f32 e5m2 maxval: input %a got %a expected %a\n",
                    in[i], out[i], expected);
    }
  }
  std::printf("f32 e5m2 maxval: %lld inputs, %lld mismatches\n", total,
              mismatches);
  return mismatches != 0;
}

} // namespace

int main() {
  std::mt19937_64 rng(20261126);
  int failures = 0;
#define X(T, N, E, M, F, U)                                                    \
  failures += run<T>(#T, _mlir_ciface_##T##_##N, Format{#N, E, M, F, U}, rng);
  F32_FORMATS
  F64_FORMATS
#undef X
  failures += runMaxval(rng);
  std::printf("%d failures\n", failures);
  return failures;
}
