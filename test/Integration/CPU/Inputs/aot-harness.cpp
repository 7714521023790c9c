//===- aot-harness.cpp - call compiled quant_affine kernels from C++ ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Links against the object compiled from aot.mlir and calls the C interface
// wrappers (_mlir_ciface_*) with 2-D strided memref descriptors. A scalar
// reference of the formula checks every element bit for bit.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

template <typename T> struct MemRef2D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

template <typename T>
MemRef2D<T> view(std::vector<T> &v, int64_t rows, int64_t cols) {
  return {v.data(), v.data(), 0, {rows, cols}, {cols, 1}};
}

extern "C" {
void _mlir_ciface_quantize_block32(MemRef2D<float> *, MemRef2D<float> *,
                                   MemRef2D<float> *, MemRef2D<int8_t> *);
void _mlir_ciface_dequantize_block32(MemRef2D<int8_t> *, MemRef2D<float> *,
                                     MemRef2D<float> *, MemRef2D<float> *);
void _mlir_ciface_qdq_per_channel(MemRef2D<float> *, MemRef2D<float> *,
                                  MemRef2D<float> *, MemRef2D<float> *);
}

// The formula in scalar C++: division, round half to even (the default
// rounding mode), clamp with std::max/min semantics.
static float quantizeRef(float x, float s, float o, float lo, float hi) {
  float q = std::nearbyint(x / s) - o;
  q = q < lo ? lo : q;
  return hi < q ? hi : q;
}

static bool sameBits(float a, float b) {
  if (std::isnan(a) && std::isnan(b))
    return true;
  uint32_t ua, ub;
  std::memcpy(&ua, &a, 4);
  std::memcpy(&ub, &b, 4);
  return ua == ub;
}

/// A buffer of `count` elements that starts `shift` elements past a 64-byte
/// boundary: shift 0 lets non-temporal stores stream, shift 1 must take the
/// plain-store version.
template <typename T> struct Shifted {
  std::vector<T> storage;
  T *data;
  Shifted(int64_t count, int64_t shift) : storage(count + 64 + shift) {
    auto address = reinterpret_cast<uintptr_t>(storage.data());
    data = reinterpret_cast<T *>((address + 63) / 64 * 64) + shift;
  }
  MemRef2D<T> view(int64_t rows, int64_t cols) {
    return {data, data, 0, {rows, cols}, {cols, 1}};
  }
  T &operator[](int64_t i) { return data[i]; }
};

/// Runs the three kernels with outputs `shift` elements off a 64-byte
/// boundary; returns whether anything mismatched.
static int runAll(int64_t shift) {
  const int64_t rows = 64, cols = 128, blocks = 4;
  std::vector<float> w(rows * cols), s(rows * blocks), o(rows * blocks);
  for (int64_t i = 0; i < rows * cols; ++i)
    w[i] = static_cast<float>((i * 7919) % 2001 - 1000) /
           64.0f; // ties at x/s = k + 0.5
  w[5] = NAN;
  w[6] = INFINITY;
  w[7] = -INFINITY;
  for (int64_t i = 0; i < rows * blocks; ++i) {
    s[i] = (i % 3 == 0) ? 0.125f : 1.0f / 15.0f;
    o[i] = static_cast<float>(i % 5) - 2.0f; // odd offsets: tie order matters
  }
  Shifted<int8_t> q(rows * cols, shift);
  Shifted<float> y(rows * cols, shift), z(rows * cols, shift);
  auto W = view(w, rows, cols), S = view(s, rows, blocks),
       O = view(o, rows, blocks);
  auto Q = q.view(rows, cols);
  auto Y = y.view(rows, cols), Z = z.view(rows, cols);
  std::printf("outputs %lld elements past a 64-byte boundary\n",
              (long long)shift);
  _mlir_ciface_quantize_block32(&W, &S, &O, &Q);
  _mlir_ciface_dequantize_block32(&Q, &S, &O, &Y);

  int bad = 0, badDeq = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t e = r * blocks + c / 32, i = r * cols + c;
      float ref = quantizeRef(w[i], s[e], o[e], -128.0f, 127.0f);
      if (!std::isnan(ref) && static_cast<int8_t>(ref) != q[i])
        ++bad; // NaN into an integer is poison: not compared.
      if (!sameBits((static_cast<float>(q[i]) + o[e]) * s[e], y[i]))
        ++badDeq;
    }
  std::printf("quantize_block32: %lld elements, %d mismatches\n",
              (long long)(rows * cols), bad);
  std::printf("dequantize_block32: %lld elements, %d mismatches\n",
              (long long)(rows * cols), badDeq);

  std::vector<float> sc(rows), oc(rows);
  for (int64_t r = 0; r < rows; ++r) {
    sc[r] = 0.05f + 0.01f * static_cast<float>(r);
    oc[r] = -static_cast<float>(r % 7) * 20.0f;
  }
  auto SC = view(sc, rows, 1), OC = view(oc, rows, 1);
  _mlir_ciface_qdq_per_channel(&W, &SC, &OC, &Z);
  int badQdq = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t i = r * cols + c;
      float ref =
          (quantizeRef(w[i], sc[r], oc[r], 0.0f, 255.0f) + oc[r]) * sc[r];
      if (!sameBits(ref, z[i]))
        ++badQdq;
    }
  std::printf("qdq_per_channel: %lld elements, %d mismatches\n",
              (long long)(rows * cols), badQdq);
  std::printf("q[0][0..8] =");
  for (int c = 0; c < 8; ++c)
    std::printf(" %d", q[c]);
  std::printf("\n");
  return bad || badDeq || badQdq;
}

int main() {
  int failed = runAll(0);
  failed |= runAll(1);
  return failed;
}
