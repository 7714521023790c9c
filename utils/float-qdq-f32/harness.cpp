// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every f32 input (2^32 bit patterns) through the compiled f8E4M3FN and
// f8E5M2 fake casts, compared bit for bit (NaN equals NaN) with an exact
// reference in double (frexp, ldexp, nearbyint). Run by run.sh; prints the
// mismatch count per format.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

struct MemRef1D {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
extern "C" void _mlir_ciface_e4m3fn(MemRef1D *, MemRef1D *);
extern "C" void _mlir_ciface_e5m2(MemRef1D *, MemRef1D *);

static float reference(float x, int minExponent, int mantissa, double max) {
  if (std::isnan(x))
    return x;
  double c = std::fmin(std::fmax(static_cast<double>(x), -max), max);
  if (c != 0) {
    int e;
    std::frexp(c, &e);
    double quantum = std::ldexp(1.0, std::max(e - 1, minExponent) - mantissa);
    c = std::nearbyint(c / quantum) * quantum;
  }
  return static_cast<float>(c);
}

int main() {
  constexpr int64_t kChunk = int64_t{1} << 24;
  std::vector<float> in(kChunk), out(kChunk);
  MemRef1D a{in.data(), in.data(), 0, {kChunk}, {1}};
  MemRef1D b{out.data(), out.data(), 0, {kChunk}, {1}};
  struct {
    const char *name;
    void (*kernel)(MemRef1D *, MemRef1D *);
    int minExponent, mantissa;
    double max;
  } formats[] = {{"f8E4M3FN", _mlir_ciface_e4m3fn, -6, 3, 448.0},
                 {"f8E5M2", _mlir_ciface_e5m2, -14, 2, 57344.0}};
  int failures = 0;
  for (auto &f : formats) {
    uint64_t mismatches = 0;
    for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kChunk) {
      for (int64_t i = 0; i < kChunk; ++i) {
        uint32_t bits = static_cast<uint32_t>(base + i);
        std::memcpy(&in[i], &bits, 4);
      }
      f.kernel(&a, &b);
      for (int64_t i = 0; i < kChunk; ++i) {
        float expected = reference(in[i], f.minExponent, f.mantissa, f.max);
        bool same = (std::isnan(expected) && std::isnan(out[i])) ||
                    std::memcmp(&expected, &out[i], 4) == 0;
        if (!same && mismatches++ < 5)
          std::printf("  %s: input %a gives %a, expected %a\n", f.name, in[i],
                      out[i], expected);
      }
    }
    std::printf("%s: 4294967296 f32 inputs, %llu mismatches\n", f.name,
                static_cast<unsigned long long>(mismatches));
    failures += mismatches != 0;
  }
  return failures;
}
