// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Exhaustive test of float8 and float4 storage: every f16 and every bf16
// input quantized (scale 1) to each float8 type and to f4E2M1FN with a
// saturating range (+-the type's largest value) and a wide one (values past
// the largest overflow, as ONNX's saturate = 0; f4E2M1FN saturates anyway),
// and every code of each type dequantized, against a reference written
// here: rounding in double (frexp, ldexp, nearbyint) and the codes
// assembled from sign, exponent and mantissa. f4E2M1FN codes are packed two
// a byte, the lower index in the low nibble. See
// narrow-float-storage-exhaustive.mlir.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

#define TYPES(X)                                                               \
  X(e4m3fn, 4, 3, -6, 448.0, 0x7F, -1, false, 448)                             \
  X(e4m3fnuz, 4, 3, -7, 240.0, 0x80, -1, true, 240)                            \
  X(e5m2, 5, 2, -14, 57344.0, 0x7E, 0x7C, false, 57344)                        \
  X(e5m2fnuz, 5, 2, -15, 57344.0, 0x80, -1, true, 57344)                       \
  X(e2m1, 2, 1, 0, 6.0, -1, -1, false, 6)
#define DECLARE(N, E, M, EMIN, MAX, NAN_, INF, UZ, R)                          \
  extern "C" void _mlir_ciface_q_f16_##N##_sat(MemRef1D *, MemRef1D *);        \
  extern "C" void _mlir_ciface_q_f16_##N##_nosat(MemRef1D *, MemRef1D *);      \
  extern "C" void _mlir_ciface_q_bf16_##N##_sat(MemRef1D *, MemRef1D *);       \
  extern "C" void _mlir_ciface_q_bf16_##N##_nosat(MemRef1D *, MemRef1D *);     \
  extern "C" void _mlir_ciface_dq_##N(MemRef1D *, MemRef1D *);
TYPES(DECLARE)

namespace {

struct Format {
  const char *name;
  int e, m, minExponent;
  double max;
  int nanCode, infCode; // < 0: none
  bool unsignedZero;
};

double fromF16(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<double>(h);
}
double fromBF16(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

int bits(const Format &f) { return 1 + f.e + f.m; }

/// The code of x clamped to +-range and rounded to the format. Without a
/// NaN (f4E2M1FN), NaN gives a zero of its sign and overflow saturates, as
/// APFloat converts.
uint8_t encode(double x, const Format &f, double range) {
  if (std::isnan(x))
    return f.nanCode >= 0 ? f.nanCode
                          : (std::signbit(x) ? 1 << (f.e + f.m) : 0);
  double v = std::fmin(std::fmax(x, -range), range);
  bool negative = std::signbit(v);
  double a = std::fabs(v);
  if (a != 0) {
    int e;
    std::frexp(a, &e);
    double quantum = std::ldexp(1.0, std::max(e - 1, f.minExponent) - f.m);
    a = std::nearbyint(a / quantum) * quantum;
  }
  int sign = negative ? 1 << (f.e + f.m) : 0;
  if (a > f.max)
    return f.infCode >= 0   ? sign | f.infCode
           : f.nanCode >= 0 ? f.nanCode
                            : sign | ((1 << (f.e + f.m)) - 1);
  int code;
  if (a >= std::ldexp(1.0, f.minExponent)) {
    int e;
    std::frexp(a, &e);
    --e; // a = 1.m * 2^e
    int mantissa = static_cast<int>(std::ldexp(a, f.m - e)) - (1 << f.m);
    code = ((e + 1 - f.minExponent) << f.m) | mantissa;
  } else {
    code = static_cast<int>(std::ldexp(a, f.m - f.minExponent));
  }
  if (code == 0 && f.unsignedZero)
    return 0;
  return static_cast<uint8_t>(sign | code);
}

/// The value of a code.
double decode(int code, const Format &f) {
  int sign = code >> (f.e + f.m);
  int exponent = (code >> f.m) & ((1 << f.e) - 1);
  int mantissa = code & ((1 << f.m) - 1);
  if (f.unsignedZero && code == 0x80)
    return NAN;
  if (f.infCode >= 0 && exponent == (1 << f.e) - 1)
    return mantissa ? NAN : (sign ? -INFINITY : INFINITY);
  if (f.nanCode >= 0 && f.infCode < 0 && !f.unsignedZero &&
      (code & 0x7F) == 0x7F)
    return NAN;
  double value = exponent == 0 ? std::ldexp(mantissa, f.minExponent - f.m)
                               : std::ldexp((1 << f.m) + mantissa,
                                            exponent - 1 + f.minExponent - f.m);
  return sign ? -value : value;
}

int failures = 0;

void checkQuantize(const char *source, bool bf16, const Format &f,
                   const char *kind, double range,
                   void (*kernel)(MemRef1D *, MemRef1D *)) {
  std::vector<uint16_t> in(65536);
  std::vector<uint8_t> out(65536 * bits(f) / 8);
  for (int i = 0; i < 65536; ++i)
    in[i] = static_cast<uint16_t>(i);
  MemRef1D a{in.data(), in.data(), 0, {65536}, {1}};
  MemRef1D b{out.data(), out.data(), 0, {int64_t(out.size())}, {1}};
  kernel(&a, &b);
  int mismatches = 0;
  for (int i = 0; i < 65536; ++i) {
    double x = bf16 ? fromBF16(in[i]) : fromF16(in[i]);
    uint8_t expected = encode(x, f, range);
    uint8_t got = bits(f) == 8 ? out[i] : (out[i / 2] >> (4 * (i % 2))) & 15;
    if (got != expected && mismatches++ < 3)
      std::printf("  %s -> %s %s: input 0x%04x gives 0x%02x, expected "
                  "0x%02x\n",
                  source, f.name, kind, i, got, expected);
  }
  std::printf("quantize %s -> %s %s: 65536 inputs, %d mismatches\n", source,
              f.name, kind, mismatches);
  failures += mismatches != 0;
}

void checkDequantize(const Format &f, void (*kernel)(MemRef1D *, MemRef1D *)) {
  // Every code, 256 times over for float4 (packed: 16 a byte pair).
  int codes = 1 << bits(f);
  std::vector<uint8_t> in(256 * bits(f) / 8);
  std::vector<float> out(256);
  for (int i = 0; i < 256; ++i) {
    if (bits(f) == 8)
      in[i] = static_cast<uint8_t>(i);
    else
      in[i / 2] |= static_cast<uint8_t>((i % codes) << (4 * (i % 2)));
  }
  MemRef1D a{in.data(), in.data(), 0, {int64_t(in.size())}, {1}};
  MemRef1D b{out.data(), out.data(), 0, {256}, {1}};
  kernel(&a, &b);
  int mismatches = 0;
  for (int i = 0; i < 256; ++i) {
    float expected = static_cast<float>(decode(i % codes, f));
    bool same = (std::isnan(expected) && std::isnan(out[i])) ||
                std::memcmp(&expected, &out[i], 4) == 0;
    if (!same && mismatches++ < 3)
      std::printf("  %s: code 0x%02x gives %a, expected %a\n", f.name, i,
                  out[i], expected);
  }
  std::printf("dequantize %s: %d codes, %d mismatches\n", f.name, codes,
              mismatches);
  failures += mismatches != 0;
}

} // namespace

int main() {
#define RUN(N, E, M, EMIN, MAX, NAN_, INF, UZ, R)                              \
  {                                                                            \
    Format f{#N, E, M, EMIN, MAX, NAN_, INF, UZ};                              \
    checkQuantize("f16", false, f, "saturating", R,                            \
                  _mlir_ciface_q_f16_##N##_sat);                               \
    checkQuantize("f16", false, f, "overflowing", 1000000,                     \
                  _mlir_ciface_q_f16_##N##_nosat);                             \
    checkQuantize("bf16", true, f, "saturating", R,                            \
                  _mlir_ciface_q_bf16_##N##_sat);                              \
    checkQuantize("bf16", true, f, "overflowing", 1000000,                     \
                  _mlir_ciface_q_bf16_##N##_nosat);                            \
    checkDequantize(f, _mlir_ciface_dq_##N);                                   \
  }
  TYPES(RUN)
  return failures;
}
