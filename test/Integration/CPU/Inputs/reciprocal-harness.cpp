// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Differential test of quant-affine-divide-by-reciprocal: the compiled
// quantize/qdq (rows of 16 lanes sharing a scale) against true division in
// C++, bit for bit (NaN equals NaN). See divide-by-reciprocal.mlir.

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

struct MemRef2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

extern "C" void _mlir_ciface_quantize_random(MemRef2D *, MemRef2D *,
                                             MemRef2D *);
extern "C" void _mlir_ciface_quantize_edge(MemRef2D *, MemRef2D *, MemRef2D *);
extern "C" void _mlir_ciface_qdq_edge(MemRef2D *, MemRef2D *, MemRef2D *,
                                      MemRef2D *);

constexpr size_t kRandomRows = 1 << 20, kEdgeRows = 32768;

static MemRef2D view(std::vector<float> &v, int64_t cols) {
  return {v.data(),
          v.data(),
          0,
          {static_cast<int64_t>(v.size()) / cols, cols},
          {cols, 1}};
}

static bool same(float a, float b) {
  if (std::isnan(a) && std::isnan(b))
    return true;
  return std::memcmp(&a, &b, 4) == 0;
}

// The formula with true division: round half to even, clamp keeping NaN.
static float quantizeRef(float x, float s, float o, float lo, float hi) {
  float q = std::nearbyint(x / s) - o;
  q = q < lo ? lo : q;
  return hi < q ? hi : q;
}

struct Rows {
  std::vector<float> x, s;
  void add(float scale, const float (&lanes)[16]) {
    s.push_back(scale);
    x.insert(x.end(), lanes, lanes + 16);
  }
};

static long countQuantizeMismatches(Rows &rows,
                                    void (*kernel)(MemRef2D *, MemRef2D *,
                                                   MemRef2D *)) {
  std::vector<float> out(rows.x.size());
  MemRef2D X = view(rows.x, 16), S = view(rows.s, 1), O = view(out, 16);
  kernel(&X, &S, &O);
  long bad = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    float ref =
        quantizeRef(rows.x[i], rows.s[i / 16], 0.0f, -1048576.0f, 1048575.0f);
    if (!same(ref, out[i])) {
      if (bad < 5)
        std::printf("  x=%a s=%a: got %a, true division gives %a\n", rows.x[i],
                    rows.s[i / 16], out[i], ref);
      ++bad;
    }
  }
  return bad;
}

int main() {
  std::mt19937_64 rng(20261121);
  std::uniform_real_distribution<double> unit(0.0, 1.0);

  // Random rows: scale 2^[-20, 20] of either sign, quotients up to +-2^21,
  // half of the lanes pulled onto a near-tie of their quotient.
  Rows random;
  for (size_t r = 0; r < kRandomRows; ++r) {
    float s = static_cast<float>(
        std::ldexp(1.0 + unit(rng), static_cast<int>(unit(rng) * 40) - 20));
    if (rng() & 1)
      s = -s;
    float lanes[16];
    for (float &x : lanes) {
      double q = (unit(rng) - 0.5) *
                 std::ldexp(1.0, 1 + static_cast<int>(unit(rng) * 21));
      if (rng() & 1)
        q = std::floor(q) + 0.5; // a tie, before x is rounded to f32
      x = static_cast<float>(q * s);
      int steps = static_cast<int>(rng() % 9) - 4;
      for (; steps > 0; --steps)
        x = std::nextafter(x, INFINITY);
      for (; steps < 0; ++steps)
        x = std::nextafter(x, -INFINITY);
    }
    random.add(s, lanes);
  }
  long bad = countQuantizeMismatches(random, _mlir_ciface_quantize_random);
  std::printf("random rows: %zu elements, %ld mismatches\n", random.x.size(),
              bad);

  // Edge rows.
  Rows edge;
  const float specialScales[] = {0.0f,
                                 -0.0f,
                                 INFINITY,
                                 -INFINITY,
                                 NAN,
                                 FLT_MIN,
                                 -FLT_MIN,
                                 std::nextafter(FLT_MIN, 0.0f),
                                 0x1p-149f,
                                 0x1p-130f,
                                 0x1p-127f,
                                 FLT_MAX,
                                 -FLT_MAX,
                                 0x1p126f,
                                 std::nextafter(0x1p126f, 0.0f),
                                 std::nextafter(0x1p126f, INFINITY),
                                 0x1p127f,
                                 0x1.fffffep125f,
                                 1.0f,
                                 3.0f,
                                 0.1f,
                                 1.0f / 3.0f,
                                 7.0f,
                                 0x1p-20f,
                                 1e-3f,
                                 -0.37f};
  const float specialInputs[] = {0.0f,      -0.0f,      INFINITY, -INFINITY,
                                 NAN,       FLT_MAX,    -FLT_MAX, FLT_MIN,
                                 0x1p-149f, -0x1p-149f, 1.0f,     -1.0f,
                                 0.5f,      -0.5f,      1.5f,     2.5f};
  for (float s : specialScales) {
    edge.add(s, *reinterpret_cast<const float (*)[16]>(specialInputs));
    // Quotients around 2^19, the fast path's bound, and the grid's end.
    for (double bound : {0x1p19, 0x1p20, 0x1p21, 0x1p18}) {
      float lanes[16];
      for (int i = 0; i < 16; ++i) {
        float q = static_cast<float>(bound);
        for (int k = 0; k < (i % 8); ++k)
          q = (i < 8) ? std::nextafter(q, INFINITY) : std::nextafter(q, 0.0f);
        lanes[i] = (i % 2 ? -1.0f : 1.0f) * q * s;
      }
      edge.add(s, lanes);
    }
  }
  // Exact ties k + 0.5 with power-of-two and other scales, and their
  // neighbours 1-7 ulps away, for small and large k.
  for (float s : {0.125f, 0.25f, 1.0f, 4.0f, 3.0f, 0.1f, 1.0f / 3.0f,
                  1.0f / 15.0f, 0.0375f}) {
    for (int k = -300; k <= 300; k += 1) {
      for (double scaleK : {1.0, 997.0, 262143.0}) {
        float tie = static_cast<float>((k * scaleK + 0.5) * s);
        float lanes[16];
        lanes[0] = tie;
        float up = tie, down = tie;
        for (int i = 1; i < 8; ++i) {
          up = std::nextafter(up, INFINITY);
          down = std::nextafter(down, -INFINITY);
          lanes[2 * i - 1] = up;
          lanes[2 * i] = down;
        }
        lanes[15] = -tie;
        edge.add(s, lanes);
      }
    }
  }
  // Fill up to the compiled row count with plain rows.
  for (size_t r = edge.s.size(); r < kEdgeRows; ++r) {
    float lanes[16];
    for (int i = 0; i < 16; ++i)
      lanes[i] = static_cast<float>(i) * 0.37f - 2.0f;
    edge.add(0.25f, lanes);
  }
  if (edge.s.size() != kEdgeRows) {
    std::printf("edge rows: %zu, more than the %zu compiled\n", edge.s.size(),
                kEdgeRows);
    return 1;
  }
  long badEdge = countQuantizeMismatches(edge, _mlir_ciface_quantize_edge);
  std::printf("edge rows: %zu elements, %ld mismatches\n", edge.x.size(),
              badEdge);

  // qdq on the same edge rows (8-bit grid, odd offsets).
  std::vector<float> offsets(edge.s.size()), out(edge.x.size());
  for (size_t r = 0; r < offsets.size(); ++r)
    offsets[r] = static_cast<float>(static_cast<int>(r % 7) - 3);
  MemRef2D X = view(edge.x, 16), S = view(edge.s, 1), Of = view(offsets, 1),
           Out = view(out, 16);
  _mlir_ciface_qdq_edge(&X, &S, &Of, &Out);
  long badQdq = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    float s = edge.s[i / 16], o = offsets[i / 16];
    float ref = (quantizeRef(edge.x[i], s, o, -128.0f, 127.0f) + o) * s;
    badQdq += !same(ref, out[i]);
  }
  std::printf("qdq edge rows: %zu elements, %ld mismatches\n", edge.x.size(),
              badQdq);
  return bad || badEdge || badQdq;
}
