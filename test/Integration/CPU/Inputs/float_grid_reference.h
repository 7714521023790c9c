// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The float_qdq reference of the CPU execution tests' harnesses, written
// independently of the lowering: clamp, then round to nearest even on the
// format's grid in double (frexp, ldexp, nearbyint), as ref.py's
// round_to_float_format does. Exact for every f16, bf16 and f32 input, and
// for f64 inputs of formats with at most 52 - 2 mantissa bits.

#ifndef FLOAT_GRID_REFERENCE_H
#define FLOAT_GRID_REFERENCE_H

#include <algorithm>
#include <cmath>

struct Format {
  const char *name;
  int e, m;
  bool finite, unsignedZero;
};

// The grid: smallest normal exponent and largest value.
struct Grid {
  int minExponent;
  double max;
  bool negativeZero;
};

inline Grid gridOf(const Format &f) {
  struct Named {
    int e, m;
    bool finite, uz;
    Grid grid;
  };
  static const Named named[] = {
      {5, 10, false, false, {-14, 65504.0, true}},
      {8, 7, false, false, {-126, 3.3895313892515355e38, true}},
      {4, 3, true, false, {-6, 448.0, true}},
      {4, 3, true, true, {-7, 240.0, false}},
      {5, 2, false, false, {-14, 57344.0, true}},
      {5, 2, true, true, {-15, 57344.0, false}},
  };
  for (const Named &n : named)
    if (n.e == f.e && n.m == f.m && n.finite == f.finite &&
        n.uz == f.unsignedZero)
      return n.grid;
  int bias = (1 << (f.e - 1)) - 1;
  return {-bias, std::ldexp(2.0 - std::ldexp(1.0, -f.m), bias), true};
}

// clamp then round to nearest even on the grid, exactly, in double.
inline double fakeCast(double x, const Format &f) {
  Grid g = gridOf(f);
  if (std::isnan(x))
    return x;
  double c = std::fmin(std::fmax(x, -g.max), g.max);
  if (c != 0) {
    int e;
    std::frexp(c, &e); // c = m * 2^e, 0.5 <= |m| < 1
    int exponent = std::max(e - 1, g.minExponent);
    double quantum = std::ldexp(1.0, exponent - f.m);
    c = std::nearbyint(c / quantum) * quantum;
  }
  if (!g.negativeZero && c == 0)
    c = 0.0;
  return c;
}

// AIMET's maxval factor k = 2^(log2 maxval - log2 fmt_max) in f32, log2 and
// exp2 in double.
inline float maxvalFactor(float maxval, const Format &f) {
  float shift = static_cast<float>(std::log2(static_cast<double>(maxval))) -
                static_cast<float>(std::log2(gridOf(f).max));
  return static_cast<float>(std::exp2(shift));
}

#endif // FLOAT_GRID_REFERENCE_H
