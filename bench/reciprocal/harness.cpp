// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Division against reciprocal (bench/reciprocal): 8-bit quantize and qdq
// of f32 tensors with per-channel and block-32 scales, dividing by the scale
// (AIMET) or multiplying by 1 / s (`reciprocal`, torchao), compiled ahead of
// time with --quant-affine-cpu-pipeline="openmp=true" (kernels.py). Each
// kernel is first checked bit for bit against a C++ loop of its formula,
// then the two variants are timed interleaved, round by round, on 1 and 2
// threads: the cache-resident 256 x 1024 tensor in place (200 calls a
// round), the large ones rotating through copies larger than 3 x the
// last-level cache.
//
//   harness ROUNDS   -> CSV:
//   op,encoding,rows,cols,threads,variant,seconds,bytes
#include "common.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

extern "C" {
void _mlir_ciface_quantize_channel_divide_256(MemRef2D *, MemRef2D *,
                                              MemRef2D *);
void _mlir_ciface_quantize_channel_reciprocal_256(MemRef2D *, MemRef2D *,
                                                  MemRef2D *);
void _mlir_ciface_qdq_channel_divide_256(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_channel_reciprocal_256(MemRef2D *, MemRef2D *,
                                             MemRef2D *);
void _mlir_ciface_quantize_block32_divide_256(MemRef2D *, MemRef2D *,
                                              MemRef2D *);
void _mlir_ciface_quantize_block32_reciprocal_256(MemRef2D *, MemRef2D *,
                                                  MemRef2D *);
void _mlir_ciface_qdq_block32_divide_256(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_block32_reciprocal_256(MemRef2D *, MemRef2D *,
                                             MemRef2D *);
void _mlir_ciface_quantize_channel_divide_4096(MemRef2D *, MemRef2D *,
                                               MemRef2D *);
void _mlir_ciface_quantize_channel_reciprocal_4096(MemRef2D *, MemRef2D *,
                                                   MemRef2D *);
void _mlir_ciface_qdq_channel_divide_4096(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_channel_reciprocal_4096(MemRef2D *, MemRef2D *,
                                              MemRef2D *);
void _mlir_ciface_quantize_block32_divide_4096(MemRef2D *, MemRef2D *,
                                               MemRef2D *);
void _mlir_ciface_quantize_block32_reciprocal_4096(MemRef2D *, MemRef2D *,
                                                   MemRef2D *);
void _mlir_ciface_qdq_block32_divide_4096(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_block32_reciprocal_4096(MemRef2D *, MemRef2D *,
                                              MemRef2D *);
void _mlir_ciface_quantize_channel_divide_11008(MemRef2D *, MemRef2D *,
                                                MemRef2D *);
void _mlir_ciface_quantize_channel_reciprocal_11008(MemRef2D *, MemRef2D *,
                                                    MemRef2D *);
void _mlir_ciface_qdq_channel_divide_11008(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_channel_reciprocal_11008(MemRef2D *, MemRef2D *,
                                               MemRef2D *);
void _mlir_ciface_quantize_block32_divide_11008(MemRef2D *, MemRef2D *,
                                                MemRef2D *);
void _mlir_ciface_quantize_block32_reciprocal_11008(MemRef2D *, MemRef2D *,
                                                    MemRef2D *);
void _mlir_ciface_qdq_block32_divide_11008(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_qdq_block32_reciprocal_11008(MemRef2D *, MemRef2D *,
                                               MemRef2D *);
}

namespace {

using Kernel = void (*)(MemRef2D *, MemRef2D *, MemRef2D *);

struct Entry {
  const char *op, *encoding, *variant;
  int64_t rows, cols;
  Kernel kernel;
};

const Entry kKernels[] = {
    {"quantize", "channel", "divide", 256, 1024,
     _mlir_ciface_quantize_channel_divide_256},
    {"quantize", "channel", "reciprocal", 256, 1024,
     _mlir_ciface_quantize_channel_reciprocal_256},
    {"qdq", "channel", "divide", 256, 1024,
     _mlir_ciface_qdq_channel_divide_256},
    {"qdq", "channel", "reciprocal", 256, 1024,
     _mlir_ciface_qdq_channel_reciprocal_256},
    {"quantize", "block32", "divide", 256, 1024,
     _mlir_ciface_quantize_block32_divide_256},
    {"quantize", "block32", "reciprocal", 256, 1024,
     _mlir_ciface_quantize_block32_reciprocal_256},
    {"qdq", "block32", "divide", 256, 1024,
     _mlir_ciface_qdq_block32_divide_256},
    {"qdq", "block32", "reciprocal", 256, 1024,
     _mlir_ciface_qdq_block32_reciprocal_256},
    {"quantize", "channel", "divide", 4096, 4096,
     _mlir_ciface_quantize_channel_divide_4096},
    {"quantize", "channel", "reciprocal", 4096, 4096,
     _mlir_ciface_quantize_channel_reciprocal_4096},
    {"qdq", "channel", "divide", 4096, 4096,
     _mlir_ciface_qdq_channel_divide_4096},
    {"qdq", "channel", "reciprocal", 4096, 4096,
     _mlir_ciface_qdq_channel_reciprocal_4096},
    {"quantize", "block32", "divide", 4096, 4096,
     _mlir_ciface_quantize_block32_divide_4096},
    {"quantize", "block32", "reciprocal", 4096, 4096,
     _mlir_ciface_quantize_block32_reciprocal_4096},
    {"qdq", "block32", "divide", 4096, 4096,
     _mlir_ciface_qdq_block32_divide_4096},
    {"qdq", "block32", "reciprocal", 4096, 4096,
     _mlir_ciface_qdq_block32_reciprocal_4096},
    {"quantize", "channel", "divide", 11008, 4096,
     _mlir_ciface_quantize_channel_divide_11008},
    {"quantize", "channel", "reciprocal", 11008, 4096,
     _mlir_ciface_quantize_channel_reciprocal_11008},
    {"qdq", "channel", "divide", 11008, 4096,
     _mlir_ciface_qdq_channel_divide_11008},
    {"qdq", "channel", "reciprocal", 11008, 4096,
     _mlir_ciface_qdq_channel_reciprocal_11008},
    {"quantize", "block32", "divide", 11008, 4096,
     _mlir_ciface_quantize_block32_divide_11008},
    {"quantize", "block32", "reciprocal", 11008, 4096,
     _mlir_ciface_quantize_block32_reciprocal_11008},
    {"qdq", "block32", "divide", 11008, 4096,
     _mlir_ciface_qdq_block32_divide_11008},
    {"qdq", "block32", "reciprocal", 11008, 4096,
     _mlir_ciface_qdq_block32_reciprocal_11008},
};

/// The formula: clamp(roundeven(x / s or x * (1 / s)), -128, 127), times s
/// for qdq.
float reference(float x, float s, bool reciprocal, bool qdq) {
  float q = std::nearbyint(reciprocal ? x * (1.0f / s) : x / s);
  q = q < -128.f ? -128.f : q;
  q = 127.f < q ? 127.f : q;
  return qdq ? q * s : q;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  std::printf("op,encoding,rows,cols,threads,variant,seconds,bytes\n");
  int failures = 0;
  for (int64_t size = 0; size < 3; ++size) {
    int64_t rows = kKernels[size * 8].rows, cols = kKernels[size * 8].cols;
    int64_t elems = rows * cols, bytes = elems * 4;
    bool resident = elems <= (1 << 20);
    int copies = resident
                     ? 1
                     : int(std::max<int64_t>(
                           6, (3 * lastLevelCacheBytes() + bytes - 1) / bytes));
    std::vector<float *> xs;
    uint32_t state = 20261126;
    for (int c = 0; c < copies; ++c) {
      float *x = allocateFirstTouch<float>(elems);
      for (int64_t i = 0; i < elems; ++i) {
        state = state * 1664525u + 1013904223u;
        x[i] = float(int32_t(state) % 40000) * 1e-4f;
      }
      xs.push_back(x);
    }
    float *y = allocateFirstTouch<float>(elems);
    std::vector<float> scales(rows * (cols / 32));
    for (size_t i = 0; i < scales.size(); ++i)
      scales[i] = 0.01f + float(i * 37 % 400) / 10000.0f;
    for (int e = 0; e < 8; e += 2) {
      const Entry &divide = kKernels[size * 8 + e];
      const Entry &reciprocal = kKernels[size * 8 + e + 1];
      bool qdq = std::strcmp(divide.op, "qdq") == 0;
      bool block = std::strcmp(divide.encoding, "block32") == 0;
      int64_t scaleCols = block ? cols / 32 : 1;
      auto run = [&](const Entry &k, float *x) {
        MemRef2D xd = desc(x, rows, cols), yd = desc(y, rows, cols),
                 sd = desc(scales.data(), rows, scaleCols);
        k.kernel(&xd, &sd, &yd);
      };
      // Checked first, each against its formula.
      for (const Entry *k : {&divide, &reciprocal}) {
        bool recip = k == &reciprocal;
        run(*k, xs[0]);
        int64_t bad = 0;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t j = 0; j < cols; ++j) {
            float s = scales[r * scaleCols + (block ? j / 32 : 0)];
            float expected = reference(xs[0][r * cols + j], s, recip, qdq);
            if (qdq) {
              bad += std::memcmp(&expected, &y[r * cols + j], 4) != 0;
            } else {
              int8_t got = reinterpret_cast<int8_t *>(y)[r * cols + j];
              bad += got != int8_t(expected);
            }
          }
        if (bad) {
          std::printf("# %s %s %s %lld: %lld mismatches\n", k->op, k->encoding,
                      k->variant, (long long)rows, (long long)bad);
          ++failures;
        }
      }
      int calls = resident ? 200 : 1;
      long long traffic = (long long)elems * (4 + (qdq ? 4 : 1));
      for (int threads : {1, 2}) {
        omp_set_num_threads(threads);
        std::vector<double> tDivide, tReciprocal;
        for (int r = 0; r < rounds; ++r) {
          for (const Entry *k : {&divide, &reciprocal}) {
            double start = now();
            for (int c = 0; c < calls; ++c)
              run(*k, xs[(r + (k == &reciprocal)) % copies]);
            (k == &divide ? tDivide : tReciprocal)
                .push_back((now() - start) / calls);
          }
        }
        std::printf("%s,%s,%lld,%lld,%d,divide,%.9g,%lld\n", divide.op,
                    divide.encoding, (long long)rows, (long long)cols, threads,
                    median(tDivide), traffic);
        std::printf("%s,%s,%lld,%lld,%d,reciprocal,%.9g,%lld\n", divide.op,
                    divide.encoding, (long long)rows, (long long)cols, threads,
                    median(tReciprocal), traffic);
        std::fflush(stdout);
      }
    }
    for (float *x : xs)
      std::free(x);
    std::free(y);
  }
  return failures ? 1 : 0;
}
