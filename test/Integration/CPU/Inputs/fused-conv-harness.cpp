//===- fused-conv-harness.cpp - checks of dequantize fused into convs -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Calls the convolutions of fused-conv.mlir (3 x 3 filters, 16 input and 32
// output channels, 10 x 10 input, stride 1). For each: every one-hot input
// (one pixel, one channel) gives, at each output, exactly the filter value
// under it (or zero); random inputs agree with a float64 reference within
// K 2^-24 sum |x w|, K = 144.
//
//===----------------------------------------------------------------------===//

#include "strided-memref.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {
template <int R> std::vector<float> read(const Desc<R> &d, int64_t count) {
  std::vector<float> v(count);
  std::memcpy(v.data(), static_cast<float *>(d.aligned) + d.offset,
              count * sizeof(float));
  return v;
}
} // namespace

extern "C" {
void _mlir_ciface_nhwc(Desc<4> *, Desc<4> *, Desc<4> *, Desc<4> *, Desc<4> *);
void _mlir_ciface_nhwc_weights(Desc<4> *, Desc<4> *, Desc<4> *);
void _mlir_ciface_nchw(Desc<4> *, Desc<4> *, Desc<4> *, Desc<4> *, Desc<4> *);
void _mlir_ciface_nchw_weights(Desc<4> *, Desc<4> *, Desc<4> *);
void _mlir_ciface_f32(Desc<4> *, Desc<4> *, Desc<4> *, Desc<4> *);
}

namespace {
constexpr int64_t H = 10, W = 10, C = 16, F = 32, KH = 3, KW = 3;
constexpr int64_t OH = H - KH + 1, OW = W - KW + 1;

enum class Layout { NHWC, NCHW, F32 };

struct Conv {
  Layout layout;
  std::vector<int8_t> codes;
  std::vector<float> scale, weights; // weights as dequantized
  std::vector<float> x;              // in the layout's order

  int64_t xIndex(int64_t h, int64_t w, int64_t c) const {
    return layout == Layout::NCHW ? (c * H + h) * W + w : (h * W + w) * C + c;
  }
  float weight(int64_t kh, int64_t kw, int64_t c, int64_t f) const {
    return layout == Layout::NCHW ? weights[((f * C + c) * KH + kh) * KW + kw]
                                  : weights[((kh * KW + kw) * C + c) * F + f];
  }
  int64_t outIndex(int64_t oh, int64_t ow, int64_t f) const {
    return layout == Layout::NCHW ? (f * OH + oh) * OW + ow
                                  : (oh * OW + ow) * F + f;
  }

  std::vector<float> run() {
    std::vector<float> init(OH * OW * F, 777.f); // a fill overwrites it
    Desc<4> r, xd = desc<4>(x.data(), layout == Layout::NCHW
                                          ? std::vector<int64_t>{1, C, H, W}
                                          : std::vector<int64_t>{1, H, W, C});
    Desc<4> d = desc<4>(init.data(), layout == Layout::NCHW
                                         ? std::vector<int64_t>{1, F, OH, OW}
                                         : std::vector<int64_t>{1, OH, OW, F});
    if (layout == Layout::F32) {
      Desc<4> wd = desc<4>(weights.data(), {KH, KW, C, F});
      _mlir_ciface_f32(&r, &xd, &wd, &d);
    } else if (layout == Layout::NHWC) {
      Desc<4> q = desc<4>(codes.data(), {KH, KW, C, F}),
              s = desc<4>(scale.data(), {1, 1, 1, F});
      _mlir_ciface_nhwc(&r, &xd, &q, &s, &d);
    } else {
      Desc<4> q = desc<4>(codes.data(), {F, C, KH, KW}),
              s = desc<4>(scale.data(), {F, 1, 1, 1});
      _mlir_ciface_nchw(&r, &xd, &q, &s, &d);
    }
    return read(r, OH * OW * F);
  }
};

std::mt19937 rng(20261124);

int check(Conv &conv, const char *name) {
  std::uniform_int_distribution<int> code(-128, 127);
  std::uniform_real_distribution<float> value(-2.f, 2.f);
  conv.codes.resize(KH * KW * C * F);
  for (auto &q : conv.codes)
    q = int8_t(code(rng));
  conv.scale.resize(F);
  for (auto &s : conv.scale)
    s = std::ldexp(value(rng), -7);
  if (conv.layout == Layout::F32) {
    conv.weights.resize(conv.codes.size());
    for (auto &w : conv.weights)
      w = value(rng);
  } else {
    Desc<4> r, q = desc<4>(conv.codes.data(),
                           conv.layout == Layout::NCHW
                               ? std::vector<int64_t>{F, C, KH, KW}
                               : std::vector<int64_t>{KH, KW, C, F});
    Desc<4> s =
        desc<4>(conv.scale.data(), conv.layout == Layout::NCHW
                                       ? std::vector<int64_t>{F, 1, 1, 1}
                                       : std::vector<int64_t>{1, 1, 1, F});
    (conv.layout == Layout::NCHW ? _mlir_ciface_nchw_weights
                                 : _mlir_ciface_nhwc_weights)(&r, &q, &s);
    conv.weights = read(r, KH * KW * C * F);
  }
  int failures = 0;
  conv.x.assign(H * W * C, 0.f);
  for (int64_t h = 0; h < H; ++h)
    for (int64_t w = 0; w < W; ++w)
      for (int64_t c = 0; c < C; c += 5) {
        conv.x[conv.xIndex(h, w, c)] = 1.f;
        std::vector<float> out = conv.run();
        conv.x[conv.xIndex(h, w, c)] = 0.f;
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow)
            for (int64_t f = 0; f < F; ++f) {
              int64_t kh = h - oh, kw = w - ow;
              float want = kh >= 0 && kh < KH && kw >= 0 && kw < KW
                               ? conv.weight(kh, kw, c, f)
                               : 0.f;
              float got = out[conv.outIndex(oh, ow, f)];
              if (got != want && ++failures <= 5)
                std::printf("%s one-hot (%lld,%lld,%lld): out[%lld][%lld][%lld]"
                            " = %a, want %a\n",
                            name, (long long)h, (long long)w, (long long)c,
                            (long long)oh, (long long)ow, (long long)f, got,
                            want);
            }
      }
  for (auto &v : conv.x)
    v = value(rng);
  std::vector<float> out = conv.run();
  for (int64_t oh = 0; oh < OH; ++oh)
    for (int64_t ow = 0; ow < OW; ++ow)
      for (int64_t f = 0; f < F; ++f) {
        double ref = 0, magnitude = 0;
        for (int64_t kh = 0; kh < KH; ++kh)
          for (int64_t kw = 0; kw < KW; ++kw)
            for (int64_t c = 0; c < C; ++c) {
              double term = double(conv.x[conv.xIndex(oh + kh, ow + kw, c)]) *
                            double(conv.weight(kh, kw, c, f));
              ref += term;
              magnitude += std::fabs(term);
            }
        double got = out[conv.outIndex(oh, ow, f)];
        if (std::fabs(got - ref) >
                double(KH * KW * C) * std::ldexp(1.0, -24) * magnitude &&
            ++failures <= 10)
          std::printf("%s random: out[%lld][%lld][%lld] = %.9g, ref %.9g\n",
                      name, (long long)oh, (long long)ow, (long long)f, got,
                      ref);
      }
  if (failures)
    std::printf("%s: %d failures\n", name, failures);
  else
    std::printf("%s: one-hot exact, within bound\n", name);
  return failures;
}
} // namespace

int main() {
  Conv nhwc{Layout::NHWC}, nchw{Layout::NCHW}, f32{Layout::F32};
  int failures = check(nhwc, "nhwc") + check(nchw, "nchw") + check(f32, "f32");
  return failures != 0;
}
