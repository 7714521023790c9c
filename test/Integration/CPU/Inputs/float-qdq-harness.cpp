// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Exhaustive test of quant_affine.float_qdq: every f16 and every bf16 input
// through the compiled op, for each format, compared bit for bit (NaN equals
// NaN) with a reference written independently of the lowering: rounding in
// double with frexp/ldexp/nearbyint, as ref.py's round_to_float_format does.
// Also prints a hash of the outputs (NaN as one pattern), which the test
// compares with the hash of ref.py's outputs (utils/gen-float-qdq-tests.py).
// See float-qdq-exhaustive.mlir.

#include "float_grid_reference.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

struct MemRef1D {
  uint16_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
struct MemRef2D {
  uint16_t *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
struct MemRef2DF32 {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

using Kernel = void (*)(MemRef1D *, MemRef1D *);
using MaxvalKernel = void (*)(MemRef2D *, MemRef2DF32 *, MemRef2D *);

#define FORMATS(T)                                                             \
  X(T, f16, 5, 10, false, false)                                               \
  X(T, bf16, 8, 7, false, false)                                               \
  X(T, e4m3fn, 4, 3, true, false)                                              \
  X(T, e4m3fnuz, 4, 3, true, true)                                             \
  X(T, e5m2, 5, 2, false, false)                                               \
  X(T, e5m2fnuz, 5, 2, true, true)                                             \
  X(T, aimet_e4m3, 4, 3, false, false)                                         \
  X(T, aimet_e3m2, 3, 2, false, false)
#define X(T, N, E, M, F, U)                                                    \
  extern "C" void _mlir_ciface_##T##_##N(MemRef1D *, MemRef1D *);
FORMATS(f16)
FORMATS(bf16)
#undef X
#define MAXVAL_FORMATS(T)                                                      \
  X(T, e4m3fn, 4, 3, true, false)                                              \
  X(T, e5m2fnuz, 5, 2, true, true)                                             \
  X(T, aimet_e3m2, 3, 2, false, false)
#define X(T, N, E, M, F, U)                                                    \
  extern "C" void _mlir_ciface_##T##_##N##_maxval(MemRef2D *, MemRef2DF32 *,   \
                                                  MemRef2D *);
MAXVAL_FORMATS(f16)
MAXVAL_FORMATS(bf16)
#undef X

namespace {

double fromF16(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<double>(h);
}
uint16_t toF16(float v) { // one rounding, to nearest even
  _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
double fromBF16(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}
uint16_t toBF16(float v) { // to nearest even, NaN quiet
  if (std::isnan(v))
    return 0x7FC0;
  uint32_t u;
  std::memcpy(&u, &v, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

bool isNaN16(uint16_t bits, bool bf16) {
  return std::isnan(bf16 ? fromBF16(bits) : fromF16(bits));
}

// The hash of utils/gen-float-qdq-tests.py: NaN as one pattern.
uint64_t hashOf(const std::vector<uint16_t> &out, bool bf16) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint16_t v : out) {
    uint64_t bits = isNaN16(v, bf16) ? (bf16 ? 0x7FC0 : 0x7E00) : v;
    h = (h ^ bits) * 0x100000001b3ull;
    h ^= h >> 31;
  }
  return h;
}

// The reference of one element, f16 or bf16; `k` is the maxval factor (0
// for none).
uint16_t reference(uint16_t bits, bool bf16, const Format &f, float k) {
  double x = bf16 ? fromBF16(bits) : fromF16(bits);
  float y;
  if (k == 0) {
    // The fake cast of a value of the type is exact in double and either
    // representable in the type or beyond its range (rounding to +-inf).
    y = static_cast<float>(fakeCast(x, f));
  } else {
    float scaled = static_cast<float>(x) / k;
    y = static_cast<float>(fakeCast(scaled, f)) * k;
  }
  return bf16 ? toBF16(y) : toF16(y);
}

int report(const char *type, const Format &f, const char *suffix,
           const std::vector<uint16_t> &in, const std::vector<uint16_t> &out,
           bool bf16, const std::vector<float> &factors) {
  int64_t mismatches = 0, perRow = 65536;
  for (size_t i = 0; i < in.size(); ++i) {
    float k = factors.empty() ? 0.0f : factors[i / perRow];
    uint16_t expected = reference(in[i], bf16, f, k);
    bool same = out[i] == expected ||
                (isNaN16(out[i], bf16) && isNaN16(expected, bf16));
    if (!same && mismatches++ < 3)
      std::printf("  mismatch %s %s%s: input 0x%04x got 0x%04x expected "
                  "0x%04x\n",
                  type, f.name, suffix, in[i], out[i], expected);
  }
  std::printf("%s %s%s: %zu inputs, %lld mismatches, hash %016llx\n", type,
              f.name, suffix, in.size(), static_cast<long long>(mismatches),
              static_cast<unsigned long long>(hashOf(out, bf16)));
  return mismatches != 0;
}

} // namespace

int main() {
  std::vector<uint16_t> all(65536);
  for (int i = 0; i < 65536; ++i)
    all[i] = static_cast<uint16_t>(i);
  int failures = 0;
  auto runPlain = [&](const char *type, bool bf16, Kernel kernel,
                      const Format &f) {
    std::vector<uint16_t> in = all, out(65536);
    MemRef1D a{in.data(), in.data(), 0, {65536}, {1}};
    MemRef1D b{out.data(), out.data(), 0, {65536}, {1}};
    kernel(&a, &b);
    failures += report(type, f, "", in, out, bf16, {});
  };
#define X(T, N, E, M, F, U)                                                    \
  runPlain(#T, std::strcmp(#T, "bf16") == 0, _mlir_ciface_##T##_##N,           \
           Format{#N, E, M, F, U});
  FORMATS(f16)
  FORMATS(bf16)
#undef X

  // Two channels: maxval 2.5 and 1000.0.
  auto runMaxval = [&](const char *type, bool bf16, MaxvalKernel kernel,
                       const Format &f) {
    std::vector<uint16_t> in(2 * 65536), out(2 * 65536);
    for (int i = 0; i < 2 * 65536; ++i)
      in[i] = static_cast<uint16_t>(i);
    std::vector<float> maxval = {2.5f, 1000.0f};
    MemRef2D a{in.data(), in.data(), 0, {2, 65536}, {65536, 1}};
    MemRef2DF32 m{maxval.data(), maxval.data(), 0, {2, 1}, {1, 1}};
    MemRef2D b{out.data(), out.data(), 0, {2, 65536}, {65536, 1}};
    kernel(&a, &m, &b);
    // k = 2^(log2 maxval - log2 fmt_max) in f32, log2/exp2 correctly rounded.
    std::vector<float> factors;
    for (float v : maxval)
      factors.push_back(maxvalFactor(v, f));
    failures += report(type, f, " maxval", in, out, bf16, factors);
  };
#define X(T, N, E, M, F, U)                                                    \
  runMaxval(#T, std::strcmp(#T, "bf16") == 0, _mlir_ciface_##T##_##N##_maxval, \
            Format{#N, E, M, F, U});
  MAXVAL_FORMATS(f16)
  MAXVAL_FORMATS(bf16)
#undef X
  return failures;
}
