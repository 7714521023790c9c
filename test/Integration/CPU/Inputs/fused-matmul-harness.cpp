//===- fused-matmul-harness.cpp - checks of dequantize fused into matmuls -===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Calls the kernels of fused-matmul.mlir: @kN (dequantize fused into a
// contraction, out = init + x @ W) and @kN_weights (the same dequantize
// alone, which gives W). For each kernel:
//   1. one-hot: x = e_j in every row, zero init: out[.., n] == W[n][j] for
//      every j (zeros of either sign compare equal);
//   2. random x, codes, scales and init: |out - ref| <= (K + 1) 2^-24
//      (|init| + sum |x w|), ref in double;
//   3. one weight row scaled by NaN, one by +Inf: out is NaN exactly where
//      ref is, and equal elsewhere within the bound.
//
//===----------------------------------------------------------------------===//

#include "strided-memref.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

/// A packed sub-byte buffer: rank 1, bytes (docs/Packing.md).
Desc<1> bytes(std::vector<uint8_t> &data) {
  return desc<1>(data.data(), {int64_t(data.size())});
}

float bf16ToFloat(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

uint16_t floatToBF16(float value) { // inputs here are exact in bf16
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return uint16_t(bits >> 16);
}

} // namespace

#define DESC(R) Desc<R> *
extern "C" {
void _mlir_ciface_k1(DESC(2), DESC(2), DESC(1), DESC(2), DESC(2));
void _mlir_ciface_k1_weights(DESC(2), DESC(1), DESC(2));
void _mlir_ciface_k2(DESC(2), DESC(2), DESC(1), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k2_weights(DESC(2), DESC(1), DESC(2), DESC(2));
void _mlir_ciface_k3(DESC(1), DESC(1), DESC(2), DESC(2), DESC(1));
void _mlir_ciface_k3_weights(DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k4(DESC(2), DESC(2), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k4_weights(DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k5(DESC(3), DESC(3), DESC(1), DESC(3), DESC(3));
void _mlir_ciface_k5_weights(DESC(3), DESC(1), DESC(3));
void _mlir_ciface_k6(DESC(2), DESC(2), DESC(1), DESC(2), DESC(2));
void _mlir_ciface_k6_weights(DESC(2), DESC(1), DESC(2));
void _mlir_ciface_k7(DESC(2), DESC(2), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k7_weights(DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k8(DESC(2), DESC(2), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k8_weights(DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k9(DESC(2), DESC(2), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k9_weights(DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k10(DESC(2), DESC(2), DESC(1), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k10_weights(DESC(2), DESC(1), DESC(2), DESC(2));
void _mlir_ciface_k11(DESC(2), DESC(2), DESC(2), DESC(2), DESC(2));
void _mlir_ciface_k11_weights(DESC(2), DESC(2), DESC(2));
}

namespace {

std::mt19937 rng(20261124);

/// One kernel: out[b][m][n] = init + sum_k x[b][m][k] W[b][n][k].
struct Case {
  std::string name;
  int64_t batch, rows, cols, depth; // B, M, N, K
  bool weightIsKN = false;          // W stored [K][N] (x @ W)
  int bits = 8;                     // 4: packed int4 codes
  bool bf16 = false;                // x, scales and W in bf16
  bool f16 = false;                 // x, scales and W in f16
  bool accumulates = false;         // init is read (no fill)
  // Scales and offsets, stored in their own shapes; scaleOf(b, n) lists
  // the indices of the scales row n of batch b uses.
  std::vector<int64_t> scaleShape;
  bool offsets = false;
  std::function<std::vector<int64_t>(int64_t, int64_t)> scalesOfRow;
  // Calls, on the buffers below.
  std::function<void()> callWeights, callKernel;

  std::vector<int8_t> codes;   // logical, in W's layout
  std::vector<uint8_t> packed; // int4 codes, two per byte
  std::vector<float> scale, offset, x, init, weights, out;
  std::vector<uint16_t> xBF16, scaleBF16;

  bool narrow() const { return bf16 || f16; }
  uint16_t toBits(float value) const {
    if (bf16)
      return floatToBF16(value);
    _Float16 half = static_cast<_Float16>(value);
    uint16_t bits;
    std::memcpy(&bits, &half, 2);
    return bits;
  }
  float fromBits(uint16_t bits) const {
    if (bf16)
      return bf16ToFloat(bits);
    _Float16 half;
    std::memcpy(&half, &bits, 2);
    return static_cast<float>(half);
  }

  int64_t weightIndex(int64_t b, int64_t n, int64_t k) const {
    return weightIsKN ? (b * depth + k) * cols + n : (b * cols + n) * depth + k;
  }
  float w(int64_t b, int64_t n, int64_t k) const {
    return weights[weightIndex(b, n, k)];
  }
  float xv(int64_t b, int64_t m, int64_t k) const {
    return x[(b * rows + m) * depth + k];
  }
};

int64_t product(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

void randomize(Case &c) {
  int64_t count = c.batch * c.cols * c.depth;
  int lo = c.bits == 4 ? -8 : -128, hi = c.bits == 4 ? 7 : 127;
  std::uniform_int_distribution<int> code(lo, hi);
  c.codes.resize(count);
  for (auto &v : c.codes)
    v = int8_t(code(rng));
  std::uniform_int_distribution<int> mantissa(1, 4095);
  std::uniform_int_distribution<int> exponent(-14, -4);
  c.scale.resize(product(c.scaleShape));
  for (auto &s : c.scale)
    s = std::ldexp(float(mantissa(rng)) / 4096.f, exponent(rng));
  if (c.narrow()) // the kernel's scales, rounded to their type
    for (auto &s : c.scale)
      s = c.fromBits(c.toBits(s));
  if (c.offsets) {
    c.offset.resize(c.scale.size());
    std::uniform_int_distribution<int> off(-4, 4);
    for (auto &o : c.offset)
      o = float(off(rng)) + 0.5f * float(off(rng) & 1);
  }
  std::uniform_real_distribution<float> value(-2.f, 2.f);
  c.x.resize(c.batch * c.rows * c.depth);
  for (auto &v : c.x)
    v = c.narrow() ? c.fromBits(c.toBits(value(rng))) : value(rng);
  c.init.resize(c.batch * c.rows * c.cols);
  for (auto &v : c.init)
    v = c.accumulates ? value(rng) : 12345.f; // a fill overwrites it
}

/// Buffers the kernels read: packed codes, bf16 copies.
void stage(Case &c) {
  if (c.bits == 4) {
    c.packed.assign((c.codes.size() + 1) / 2, 0);
    for (size_t i = 0; i < c.codes.size(); ++i)
      c.packed[i / 2] |= uint8_t((c.codes[i] & 0xF) << (4 * (i % 2)));
  }
  if (c.narrow()) {
    c.xBF16.resize(c.x.size());
    for (size_t i = 0; i < c.x.size(); ++i)
      c.xBF16[i] = c.toBits(c.x[i]);
    c.scaleBF16.resize(c.scale.size());
    for (size_t i = 0; i < c.scale.size(); ++i)
      c.scaleBF16[i] = c.toBits(c.scale[i]);
  }
}

void run(Case &c) {
  stage(c);
  c.callWeights();
  c.callKernel();
}

/// Checks `c.out` against the float64 reference; returns the number of
/// failures, printing the first few.
int checkBound(const Case &c, const char *what) {
  int failures = 0;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t m = 0; m < c.rows; ++m)
      for (int64_t n = 0; n < c.cols; ++n) {
        int64_t at = (b * c.rows + m) * c.cols + n;
        double start = c.accumulates ? c.init[at] : 0.0;
        double ref = start, magnitude = std::fabs(start);
        for (int64_t k = 0; k < c.depth; ++k) {
          double term = double(c.xv(b, m, k)) * double(c.w(b, n, k));
          ref += term;
          magnitude += std::fabs(term);
        }
        double got = c.out[at];
        bool ok;
        if (std::isnan(ref))
          ok = std::isnan(got);
        else if (std::isinf(ref))
          ok = got == ref;
        else
          ok = std::fabs(got - ref) <=
               double(c.depth + 1) * std::ldexp(1.0, -24) * magnitude;
        if (!ok && ++failures <= 5)
          std::printf("%s %s: out[%lld][%lld][%lld] = %.9g, ref %.9g\n",
                      c.name.c_str(), what, (long long)b, (long long)m,
                      (long long)n, got, ref);
      }
  return failures;
}

int checkCase(Case &c) {
  int failures = 0;
  randomize(c);
  // 1. One-hot rows, zero init.
  std::vector<float> x = c.x, init = c.init;
  for (int64_t j = 0; j < c.depth; ++j) {
    std::fill(c.x.begin(), c.x.end(), 0.f);
    for (int64_t b = 0; b < c.batch; ++b)
      for (int64_t m = 0; m < c.rows; ++m)
        c.x[(b * c.rows + m) * c.depth + j] = 1.f;
    std::fill(c.init.begin(), c.init.end(), 0.f);
    run(c);
    for (int64_t b = 0; b < c.batch; ++b)
      for (int64_t m = 0; m < c.rows; ++m)
        for (int64_t n = 0; n < c.cols; ++n) {
          float got = c.out[(b * c.rows + m) * c.cols + n];
          float want = c.w(b, n, j);
          if (got != want && !(std::isnan(got) && std::isnan(want)) &&
              ++failures <= 5)
            std::printf("%s one-hot j=%lld: out[%lld][%lld][%lld] = %a, "
                        "weight %a\n",
                        c.name.c_str(), (long long)j, (long long)b,
                        (long long)m, (long long)n, got, want);
        }
  }
  // 2. Random values.
  c.x = x;
  c.init = init;
  run(c);
  failures += checkBound(c, "random");
  // 3. A NaN and an infinite scale.
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t i : c.scalesOfRow(b, 0))
      c.scale[i] = NAN;
    for (int64_t i : c.scalesOfRow(b, c.cols - 1))
      c.scale[i] = INFINITY;
  }
  run(c);
  failures += checkBound(c, "special");
  return failures;
}

/// Scales per block of `block` along k, W [N][K] (per batch).
std::function<std::vector<int64_t>(int64_t, int64_t)> blockRow(int64_t cols,
                                                               int64_t blocks) {
  return [=](int64_t b, int64_t n) {
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < blocks; ++i)
      indices.push_back((b * cols + n) * blocks + i);
    return indices;
  };
}

template <int R> std::vector<float> readResult(const Desc<R> &result) {
  int64_t count = 1;
  for (int i = 0; i < R; ++i)
    count *= result.sizes[i];
  std::vector<float> values(count);
  std::memcpy(values.data(),
              static_cast<float *>(result.aligned) + result.offset,
              count * sizeof(float));
  return values;
}

std::vector<float> readHalfResult(const Case &c, const Desc<2> &result) {
  int64_t count = result.sizes[0] * result.sizes[1];
  std::vector<float> values(count);
  auto *data = static_cast<uint16_t *>(result.aligned) + result.offset;
  for (int64_t i = 0; i < count; ++i)
    values[i] = c.fromBits(data[i]);
  return values;
}

} // namespace

/// The calls of a kernel on packed int4 codes with scales and offsets that
/// accumulates into its destination (k2, k10): x is M x K, the result M x N.
using PackedWeightsFn = void (*)(DESC(2), DESC(1), DESC(2), DESC(2));
using PackedKernelFn = void (*)(DESC(2), DESC(2), DESC(1), DESC(2), DESC(2),
                                DESC(2));
void bindPackedWithOffsets(Case &c, PackedWeightsFn weights,
                           PackedKernelFn kernel) {
  Case *p = &c;
  c.callWeights = [p, weights] {
    Desc<2> r, s = desc<2>(p->scale.data(), p->scaleShape),
               o = desc<2>(p->offset.data(), p->scaleShape);
    Desc<1> q = bytes(p->packed);
    weights(&r, &q, &s, &o);
    p->weights = readResult(r);
  };
  c.callKernel = [p, kernel] {
    std::vector<float> init = p->init; // the kernel writes it
    Desc<2> r, x = desc<2>(p->x.data(), {p->rows, p->depth}),
               s = desc<2>(p->scale.data(), p->scaleShape),
               o = desc<2>(p->offset.data(), p->scaleShape),
               d = desc<2>(init.data(), {p->rows, p->cols});
    Desc<1> q = bytes(p->packed);
    kernel(&r, &x, &q, &s, &o, &d);
    p->out = readResult(r);
  };
}

int main() {
  std::vector<Case> cases;
  {
    Case c{"k1", 1, 1, 64, 256};
    c.bits = 4;
    c.scaleShape = {64, 8};
    c.scalesOfRow = blockRow(64, 8);
    cases.push_back(c);
  }
  {
    Case c{"k2", 1, 6, 48, 256};
    c.bits = 4;
    c.scaleShape = {48, 2};
    c.offsets = true;
    c.accumulates = true;
    c.scalesOfRow = blockRow(48, 2);
    cases.push_back(c);
  }
  {
    Case c{"k3", 1, 1, 40, 512};
    c.scaleShape = {40, 1};
    c.scalesOfRow = blockRow(40, 1);
    cases.push_back(c);
  }
  {
    Case c{"k4", 1, 4, 96, 64};
    c.weightIsKN = true;
    c.scaleShape = {1, 96};
    c.scalesOfRow = [](int64_t, int64_t n) { return std::vector<int64_t>{n}; };
    cases.push_back(c);
  }
  {
    Case c{"k5", 2, 3, 16, 64};
    c.bits = 4;
    c.scaleShape = {2, 16, 2};
    c.scalesOfRow = blockRow(16, 2);
    cases.push_back(c);
  }
  {
    Case c{"k6", 1, 2, 32, 128};
    c.bits = 4;
    c.bf16 = true;
    c.scaleShape = {32, 4};
    c.scalesOfRow = blockRow(32, 4);
    cases.push_back(c);
  }
  {
    Case c{"k7", 1, 5, 32, 64};
    c.scaleShape = {32, 1};
    c.scalesOfRow = blockRow(32, 1);
    cases.push_back(c);
  }
  {
    Case c{"k9", 1, 2, 32, 128};
    c.f16 = true;
    c.scaleShape = {32, 1};
    c.scalesOfRow = blockRow(32, 1);
    cases.push_back(c);
  }
  {
    Case c{"k10", 1, 64, 64, 512};
    c.bits = 4;
    c.scaleShape = {64, 16};
    c.offsets = true;
    c.accumulates = true;
    c.scalesOfRow = blockRow(64, 16);
    cases.push_back(c);
  }
  {
    Case c{"k11", 1, 64, 32, 768};
    c.scaleShape = {32, 1};
    c.scalesOfRow = blockRow(32, 1);
    cases.push_back(c);
  }
  {
    Case c{"k8", 1, 3, 24, 160};
    c.scaleShape = {24, 10};
    c.scalesOfRow = blockRow(24, 10);
    cases.push_back(c);
  }

  for (Case &c : cases) {
    Case *p = &c;
    auto codes2 = [p](std::vector<int64_t> shape) {
      return desc<2>(p->codes.data(), shape);
    };
    if (c.name == "k1") {
      c.callWeights = [p] {
        Desc<2> r, s = desc<2>(p->scale.data(), p->scaleShape);
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k1_weights(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p] {
        Desc<2> r, x = desc<2>(p->x.data(), {1, 256}),
                   s = desc<2>(p->scale.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {1, 64});
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k1(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k2") {
      bindPackedWithOffsets(c, _mlir_ciface_k2_weights, _mlir_ciface_k2);
    } else if (c.name == "k10") {
      bindPackedWithOffsets(c, _mlir_ciface_k10_weights, _mlir_ciface_k10);
    } else if (c.name == "k11") {
      c.callWeights = [p, codes2] {
        Desc<2> r, q = codes2({32, 768}),
                   s = desc<2>(p->scale.data(), p->scaleShape);
        _mlir_ciface_k11_weights(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p, codes2] {
        Desc<2> r, x = desc<2>(p->x.data(), {64, 768}), q = codes2({32, 768}),
                   s = desc<2>(p->scale.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {64, 32});
        _mlir_ciface_k11(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k3") {
      c.callWeights = [p, codes2] {
        Desc<2> r, q = codes2({40, 512}),
                   s = desc<2>(p->scale.data(), p->scaleShape);
        _mlir_ciface_k3_weights(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p, codes2] {
        Desc<1> r, x = desc<1>(p->x.data(), {512}),
                   d = desc<1>(p->init.data(), {40});
        Desc<2> q = codes2({40, 512}),
                s = desc<2>(p->scale.data(), p->scaleShape);
        _mlir_ciface_k3(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k4") {
      c.callWeights = [p, codes2] {
        Desc<2> r, q = codes2({64, 96}),
                   s = desc<2>(p->scale.data(), p->scaleShape);
        _mlir_ciface_k4_weights(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p, codes2] {
        Desc<2> r, x = desc<2>(p->x.data(), {4, 64}), q = codes2({64, 96}),
                   s = desc<2>(p->scale.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {4, 96});
        _mlir_ciface_k4(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k5") {
      c.callWeights = [p] {
        Desc<3> r, s = desc<3>(p->scale.data(), p->scaleShape);
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k5_weights(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p] {
        Desc<3> r, x = desc<3>(p->x.data(), {2, 3, 64}),
                   s = desc<3>(p->scale.data(), p->scaleShape),
                   d = desc<3>(p->init.data(), {2, 3, 16});
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k5(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k6") {
      c.callWeights = [p] {
        Desc<2> r, s = desc<2>(p->scaleBF16.data(), p->scaleShape);
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k6_weights(&r, &q, &s);
        p->weights = readHalfResult(*p, r);
      };
      c.callKernel = [p] {
        Desc<2> r, x = desc<2>(p->xBF16.data(), {2, 128}),
                   s = desc<2>(p->scaleBF16.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {2, 32});
        Desc<1> q = bytes(p->packed);
        _mlir_ciface_k6(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k9") {
      c.callWeights = [p, codes2] {
        Desc<2> r, q = codes2({32, 128}),
                   s = desc<2>(p->scaleBF16.data(), p->scaleShape);
        _mlir_ciface_k9_weights(&r, &q, &s);
        p->weights = readHalfResult(*p, r);
      };
      c.callKernel = [p, codes2] {
        Desc<2> r, x = desc<2>(p->xBF16.data(), {2, 128}),
                   q = codes2({32, 128}),
                   s = desc<2>(p->scaleBF16.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {2, 32});
        _mlir_ciface_k9(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    } else if (c.name == "k7" || c.name == "k8") {
      bool seven = c.name == "k7";
      c.callWeights = [p, codes2, seven] {
        Desc<2> r, s = desc<2>(p->scale.data(), p->scaleShape),
                   q = codes2({p->cols, p->depth});
        (seven ? _mlir_ciface_k7_weights : _mlir_ciface_k8_weights)(&r, &q, &s);
        p->weights = readResult(r);
      };
      c.callKernel = [p, codes2, seven] {
        Desc<2> r, x = desc<2>(p->x.data(), {p->rows, p->depth}),
                   q = codes2({p->cols, p->depth}),
                   s = desc<2>(p->scale.data(), p->scaleShape),
                   d = desc<2>(p->init.data(), {p->rows, p->cols});
        (seven ? _mlir_ciface_k7 : _mlir_ciface_k8)(&r, &x, &q, &s, &d);
        p->out = readResult(r);
      };
    }
  }

  int failed = 0;
  for (Case &c : cases) {
    int failures = checkCase(c);
    if (failures)
      std::printf("%s: %d failures\n", c.name.c_str(), failures);
    else
      std::printf("%s: one-hot exact, within bound, NaN rows match\n",
                  c.name.c_str());
    failed += failures != 0;
  }
  if (failed == 0)
    std::printf("all %zu kernels passed\n", cases.size());
  return failed != 0;
}
