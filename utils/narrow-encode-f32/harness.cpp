// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every f32 input (2^32 bit patterns) through the compiled arith.truncf to
// each float8, float6 and float4 type (quant-affine-expand-narrow-floats),
// compared code for code with a reference in double (nearbyint on the
// format's grid) that makes the project's choices: NaN gives the type's NaN
// code (a zero of NaN's sign where there is none), overflow inf of the sign,
// else the NaN code, else the largest code of the sign; float6/float4 take
// +-inf to a zero of its sign; FNUZ types have no -0. The sat_ and sat_up_
// kernels clamp to the type's range first, as quantize does (NaN passes;
// the lower or the upper bound first), and are compared with the reference
// of the clamped value: the expansion folds that clamp into the encoding. Built
// with -DWITH_OLD, it also compares with the same kernels compiled by another
// quant-affine-opt (symbols prefixed old_). Run by run.sh; prints the mismatch
// count per type and kernel.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
using Kernel = void(MemRef1D *, MemRef1D *);

#define KERNELS(X)                                                             \
  X(f8E4M3FN)                                                                  \
  X(f8E5M2) X(f8E4M3FNUZ) X(f8E5M2FNUZ) X(f6E2M3FN) X(f6E3M2FN) X(f4E2M1FN)
#define DECLARE(name)                                                          \
  extern "C" Kernel _mlir_ciface_##name, _mlir_ciface_sat_##name,              \
      _mlir_ciface_sat_up_##name;
KERNELS(DECLARE)
#ifdef WITH_OLD
#define DECLARE_OLD(name)                                                      \
  extern "C" Kernel _mlir_ciface_old_##name, _mlir_ciface_old_sat_##name,      \
      _mlir_ciface_old_sat_up_##name;
KERNELS(DECLARE_OLD)
#endif

namespace {

struct Format {
  const char *name;
  Kernel *kernel, *old, *sat, *oldSat, *satUp, *oldSatUp;
  int width, mantissa, minExponent;
  double max;
  int nan, inf; // codes, or -1 for none
  bool unsignedZero;
};

/// 2^k, exactly, for |k| < 512.
double pow2(int k) {
  uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

/// The exponent of a positive normal double.
int exponentOf(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return static_cast<int>(bits >> 52) - 1023;
}

uint8_t reference(float x, const Format &f) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  int sign = bits >> 31 << (f.width - 1);
  int largest = (1 << (f.width - 1)) - 1;
  if (std::isnan(x))
    return f.nan >= 0 ? f.nan : sign;
  if (std::isinf(x))
    return f.inf >= 0 ? (sign | f.inf) : f.nan >= 0 ? f.nan : sign;
  double a = std::fabs(static_cast<double>(x));
  // f32 subnormals (and zeros) are below half of every format's quantum.
  int e = a < 0x1p-126 ? f.minExponent : exponentOf(a);
  int quantumExponent = std::max(e, f.minExponent) - f.mantissa;
  double r = std::nearbyint(a * pow2(-quantumExponent));
  double value = r * pow2(quantumExponent);
  if (value > f.max)
    return f.inf >= 0 ? (sign | f.inf) : f.nan >= 0 ? f.nan : (sign | largest);
  int code;
  if (value < pow2(f.minExponent)) {
    code = static_cast<int>(r); // quanta of the subnormal binade
  } else {
    int ve = exponentOf(value);
    code = ((ve - f.minExponent + 1) << f.mantissa) +
           static_cast<int>(value * pow2(f.mantissa - ve)) - (1 << f.mantissa);
  }
  if (code == 0 && f.unsignedZero)
    return 0;
  return code | sign;
}

} // namespace

int main() {
#ifdef WITH_OLD
#define OLDPLAIN(name) _mlir_ciface_old_##name
#define OLDSAT(name) _mlir_ciface_old_sat_##name
#define OLDSATUP(name) _mlir_ciface_old_sat_up_##name
#else
#define OLDPLAIN(name) nullptr
#define OLDSAT(name) nullptr
#define OLDSATUP(name) nullptr
#endif
  Format formats[] = {
      {"f8E4M3FN", _mlir_ciface_f8E4M3FN, OLDPLAIN(f8E4M3FN),
       _mlir_ciface_sat_f8E4M3FN, OLDSAT(f8E4M3FN),
       _mlir_ciface_sat_up_f8E4M3FN, OLDSATUP(f8E4M3FN), 8, 3, -6, 448.0, 0x7F,
       -1, false},
      {"f8E5M2", _mlir_ciface_f8E5M2, OLDPLAIN(f8E5M2), _mlir_ciface_sat_f8E5M2,
       OLDSAT(f8E5M2), _mlir_ciface_sat_up_f8E5M2, OLDSATUP(f8E5M2), 8, 2, -14,
       57344.0, 0x7E, 0x7C, false},
      {"f8E4M3FNUZ", _mlir_ciface_f8E4M3FNUZ, OLDPLAIN(f8E4M3FNUZ),
       _mlir_ciface_sat_f8E4M3FNUZ, OLDSAT(f8E4M3FNUZ),
       _mlir_ciface_sat_up_f8E4M3FNUZ, OLDSATUP(f8E4M3FNUZ), 8, 3, -7, 240.0,
       0x80, -1, true},
      {"f8E5M2FNUZ", _mlir_ciface_f8E5M2FNUZ, OLDPLAIN(f8E5M2FNUZ),
       _mlir_ciface_sat_f8E5M2FNUZ, OLDSAT(f8E5M2FNUZ),
       _mlir_ciface_sat_up_f8E5M2FNUZ, OLDSATUP(f8E5M2FNUZ), 8, 2, -15, 57344.0,
       0x80, -1, true},
      {"f6E2M3FN", _mlir_ciface_f6E2M3FN, OLDPLAIN(f6E2M3FN),
       _mlir_ciface_sat_f6E2M3FN, OLDSAT(f6E2M3FN),
       _mlir_ciface_sat_up_f6E2M3FN, OLDSATUP(f6E2M3FN), 6, 3, 0, 7.5, -1, -1,
       false},
      {"f6E3M2FN", _mlir_ciface_f6E3M2FN, OLDPLAIN(f6E3M2FN),
       _mlir_ciface_sat_f6E3M2FN, OLDSAT(f6E3M2FN),
       _mlir_ciface_sat_up_f6E3M2FN, OLDSATUP(f6E3M2FN), 6, 2, -2, 28.0, -1, -1,
       false},
      {"f4E2M1FN", _mlir_ciface_f4E2M1FN, OLDPLAIN(f4E2M1FN),
       _mlir_ciface_sat_f4E2M1FN, OLDSAT(f4E2M1FN),
       _mlir_ciface_sat_up_f4E2M1FN, OLDSATUP(f4E2M1FN), 4, 1, 0, 6.0, -1, -1,
       false},
  };
  constexpr int64_t kChunk = int64_t{1} << 24;
  std::vector<float> in(kChunk);
  std::vector<uint8_t> out(kChunk), old(kChunk);
  MemRef1D a{in.data(), in.data(), 0, {kChunk}, {1}};
  MemRef1D b{out.data(), out.data(), 0, {kChunk}, {1}};
  MemRef1D c{old.data(), old.data(), 0, {kChunk}, {1}};
  int failures = 0;
  for (const Format &f : formats) {
    for (int form = 0; form < 3; ++form) {
      bool clamped = form > 0;
      Kernel *kernel = form == 0 ? f.kernel : form == 1 ? f.sat : f.satUp;
      Kernel *oldKernel = form == 0 ? f.old : form == 1 ? f.oldSat : f.oldSatUp;
      const char *kind = form == 0   ? "plain"
                         : form == 1 ? "clamped first"
                                     : "clamped first, upper bound first";
      uint64_t mismatches = 0, oldMismatches = 0;
      for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kChunk) {
        for (int64_t i = 0; i < kChunk; ++i) {
          uint32_t bits = static_cast<uint32_t>(base + i);
          std::memcpy(&in[i], &bits, 4);
        }
        kernel(&a, &b);
        if (oldKernel)
          oldKernel(&a, &c);
        for (int64_t i = 0; i < kChunk; ++i) {
          float x = in[i];
          if (clamped) { // quantize's clamp: NaN compares false and passes
            float m = static_cast<float>(f.max);
            x = x < -m ? -m : x;
            x = m < x ? m : x;
          }
          uint8_t expected = reference(x, f);
          if (out[i] != expected && mismatches++ < 5)
            std::printf("  %s (%s): input %a (0x%08llx) gives 0x%02x, "
                        "expected 0x%02x\n",
                        f.name, kind, in[i],
                        static_cast<unsigned long long>(base + i), out[i],
                        expected);
          if (oldKernel && out[i] != old[i] && oldMismatches++ < 5)
            std::printf("  %s (%s): input %a (0x%08llx) gives 0x%02x, old "
                        "0x%02x\n",
                        f.name, kind, in[i],
                        static_cast<unsigned long long>(base + i), out[i],
                        old[i]);
        }
      }
      std::printf("%s (%s): 4294967296 f32 inputs, %llu mismatches", f.name,
                  kind, static_cast<unsigned long long>(mismatches));
      if (oldKernel)
        std::printf(", %llu with the old build",
                    static_cast<unsigned long long>(oldMismatches));
      std::printf("\n");
      std::fflush(stdout);
      failures += mismatches != 0 || oldMismatches != 0;
    }
  }
  return failures;
}
