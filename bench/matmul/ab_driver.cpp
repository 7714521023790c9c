// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Times one kernel of bench/matmul (gen.py's case table, built into
// kernels.h and linked with one compiled kernels.o) for bench/matmul/ab.sh,
// which builds it twice, from two quant-affine-opt binaries, and runs the
// two alternately. One copy of the weights (prefill reuses them, as in the
// harness); the fastest of ROUNDS calls, after one untimed call.
//
// usage: ab_driver CASE ROUNDS   (threads: OMP_NUM_THREADS)
// prints: CASE,THREADS,GFLOP/s

#include "kernels.h"

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
struct Desc2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
Desc2 desc2(void *p, int64_t rows, int64_t cols) {
  return {p, p, 0, {rows, cols}, {cols, 1}};
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ab_driver CASE ROUNDS\n");
    return 2;
  }
  std::string name = argv[1];
  int rounds = std::atoi(argv[2]);
  for (const Case &c : kCases) {
    if (name != c.name)
      continue;
    int64_t codeBytes = c.n * c.k * c.bits / 8;
    int64_t scaleCount = c.n * (c.k / c.block);
    std::mt19937 rng(1);
    std::vector<uint8_t> codes(codeBytes);
    for (uint8_t &code : codes)
      code = uint8_t(rng());
    std::vector<float> scales(scaleCount, 1.f / 1024), x(c.m * c.k),
        y(c.m * c.n);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(int(i % 13) - 6) / 8;
    Desc2 xd = desc2(x.data(), c.m, c.k),
          sd = desc2(scales.data(), c.n, c.k / c.block),
          yd = desc2(y.data(), c.m, c.n), cd = desc2(codes.data(), c.n, c.k);
    Desc1 packed{codes.data(), codes.data(), 0, {codeBytes}, {1}};
    void *weights = c.bits == 4 ? static_cast<void *>(&packed) : &cd;
    c.ours(&xd, weights, &sd, &yd);
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
      auto start = std::chrono::steady_clock::now();
      c.ours(&xd, weights, &sd, &yd);
      best = std::min(best, std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count());
    }
    std::printf("%s,%d,%.1f\n", c.name, omp_get_max_threads(),
                2.0 * c.m * c.n * c.k / best / 1e9);
    return 0;
  }
  std::fprintf(stderr, "no case %s\n", name.c_str());
  return 2;
}
