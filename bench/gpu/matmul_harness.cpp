// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU benchmark of the fused weight-only quantized matmuls
// (bench/gpu/gen_matmul.py: the cases of bench/matmul, compiled by
// --quant-affine-gpu-pipeline into kernels that dequantize in registers).
//
// Launches go to one stream and are timed with CUDA events (cuda_bench.h).
// All buffers are device memory (cuMemAlloc). Each call takes the next of
// several copies of the weights, together at least 3 x the L2 cache, so the
// weights come from HBM. Before timing, each kernel is checked: one-hot rows
// of x give the weights bit for bit (decode cases), and random x agrees with
// a float64 reference within K 2^-24 sum |x w|.
//
// Per round, interleaved: a device-to-device copy (the bandwidth the ratios
// refer to, counting bytes read and written) and every case; medians.
//
// usage: matmul_harness ROUNDS > results.csv
// CSV:
// case,m,n,k,bits,block,device,seconds,weight_bytes,gbps,ratio_to_copy,gflops

#include "cuda_bench.h"
#include "matmul.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

uint32_t nextRandom(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return state;
}

struct Case {
  const MatmulCase &c;
  int64_t codeBytes, scaleCount;
  std::vector<uint8_t> codes;
  std::vector<float> scales;
  std::vector<CUdeviceptr> codeCopies, scaleCopies;
  CUdeviceptr x = 0, y = 0;
  size_t next = 0;
  std::vector<double> seconds;

  explicit Case(const MatmulCase &c)
      : c(c), codeBytes(c.n * c.k * c.bits / 8),
        scaleCount(c.n * (c.k / c.block)), codes(codeBytes),
        scales(scaleCount) {
    uint32_t state = 777;
    for (uint8_t &b : codes)
      b = static_cast<uint8_t>(nextRandom(state) >> 24);
    for (float &s : scales)
      s = std::ldexp(1.0f + (nextRandom(state) >> 8) / 16777216.0f, -7);
  }
  int64_t weightBytes() const { return codeBytes + scaleCount * 4; }

  float weight(int64_t n, int64_t k) const {
    return static_cast<float>(weightCode(codes.data(), n * c.k + k, c.bits)) *
           scales[n * (c.k / c.block) + k / c.block];
  }

  void upload(int64_t copies) {
    for (int64_t i = 0; i < copies; ++i) {
      CUdeviceptr q, s;
      CHECK_CU(cuMemAlloc(&q, codeBytes));
      CHECK_CU(cuMemAlloc(&s, scaleCount * 4));
      CHECK_CU(cuMemcpyHtoD(q, codes.data(), codeBytes));
      CHECK_CU(cuMemcpyHtoD(s, scales.data(), scaleCount * 4));
      codeCopies.push_back(q);
      scaleCopies.push_back(s);
    }
    CHECK_CU(cuMemAlloc(&x, c.m * c.k * 4));
    CHECK_CU(cuMemAlloc(&y, c.m * c.n * 4));
  }

  void call(size_t copy) {
    MemRef2D xd = deviceView(x, c.m, c.k),
             sd = deviceView(scaleCopies[copy], c.n, c.k / c.block),
             yd = deviceView(y, c.m, c.n),
             qd = deviceView(codeCopies[copy], c.n, c.k);
    void *q = reinterpret_cast<void *>(codeCopies[copy]);
    Desc1 packed{q, q, 0, {codeBytes}, {1}};
    c.ours(&xd, c.bits == 4 ? static_cast<void *>(&packed) : &qd, &sd, &yd);
  }
  void callNext() {
    call(next);
    next = (next + 1) % codeCopies.size();
  }

  /// Mismatches: one-hot rows (decode) must give the weights exactly, random
  /// rows must be within the f32 summation bound of a float64 reference.
  long verify() {
    long bad = 0;
    std::vector<float> hx(c.m * c.k), hy(c.m * c.n);
    if (c.m == 1) {
      for (int64_t hot : {int64_t(0), c.k / 2 + 1, c.k - 1}) {
        std::fill(hx.begin(), hx.end(), 0.0f);
        hx[hot] = 1.0f;
        CHECK_CU(cuMemcpyHtoD(x, hx.data(), hx.size() * 4));
        call(0);
        CHECK_CU(cuStreamSynchronize(benchStream));
        CHECK_CU(cuMemcpyDtoH(hy.data(), y, hy.size() * 4));
        for (int64_t n = 0; n < c.n; ++n) {
          float w = weight(n, hot);
          bad += std::memcmp(&w, &hy[n], 4) != 0;
        }
      }
    }
    uint32_t state = 99;
    for (float &v : hx)
      v = (nextRandom(state) >> 8) / 8388608.0f - 1.0f;
    CHECK_CU(cuMemcpyHtoD(x, hx.data(), hx.size() * 4));
    call(0);
    CHECK_CU(cuStreamSynchronize(benchStream));
    CHECK_CU(cuMemcpyDtoH(hy.data(), y, hy.size() * 4));
    std::vector<float> row(c.k);
    for (int64_t n = 0; n < c.n; ++n) {
      for (int64_t k = 0; k < c.k; ++k)
        row[k] = weight(n, k);
      // (At most 16 rows of x: the float64 reference is slow on the host.)
      for (int64_t m = 0; m < std::min<int64_t>(c.m, 16); ++m) {
        double sum = 0, magnitude = 0;
        for (int64_t k = 0; k < c.k; ++k) {
          double p = double(hx[m * c.k + k]) * row[k];
          sum += p;
          magnitude += std::fabs(p);
        }
        double bound = c.k * std::ldexp(1.0, -24) * magnitude;
        bad += !(std::fabs(hy[m * c.n + n] - sum) <= bound);
      }
    }
    return bad;
  }
};

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  BenchDevice bench = startBench();
  CUdevice device = bench.device;
  const char *deviceName = bench.name;
  int l2Bytes = 0;
  CHECK_CU(cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                                device));
  std::fprintf(stderr, "device: %s, L2 %d MiB\n", deviceName, l2Bytes >> 20);

  std::vector<Case> cases;
  for (const MatmulCase &c : kMatmulCases)
    cases.emplace_back(c);
  long mismatches = 0;
  for (Case &c : cases) {
    int64_t copies = std::max<int64_t>(
        2, (3 * int64_t(l2Bytes) + c.weightBytes() - 1) / c.weightBytes());
    c.upload(copies);
    long bad = c.verify();
    std::fprintf(stderr, "%s: %ld results wrong (%lld weight copies)\n",
                 c.c.name, bad, static_cast<long long>(copies));
    mismatches += bad;
  }

  // The copy: 256 MiB, device to device.
  const int64_t copyBytes = int64_t(256) << 20;
  CUdeviceptr copyFrom, copyTo;
  CHECK_CU(cuMemAlloc(&copyFrom, copyBytes));
  CHECK_CU(cuMemAlloc(&copyTo, copyBytes));
  CHECK_CU(cuMemsetD8(copyFrom, 1, copyBytes));
  std::vector<double> copySeconds;

  LaunchTimer timer;
  const int reps = 20;
  for (int round = 0; round < rounds; ++round) {
    copySeconds.push_back(timer.seconds(reps, [&] {
      CHECK_CU(cuMemcpyDtoDAsync(copyTo, copyFrom, copyBytes, benchStream));
    }));
    for (Case &c : cases)
      c.seconds.push_back(timer.seconds(reps, [&] { c.callNext(); }));
  }

  double copyGBps = 2.0 * copyBytes / medianOf(copySeconds) / 1e9;
  std::printf("case,m,n,k,bits,block,device,seconds,weight_bytes,gbps,"
              "ratio_to_copy,gflops\n");
  std::printf("copy,,,,,,%s,%.9f,%lld,%.1f,1.000,\n", deviceName,
              medianOf(copySeconds), static_cast<long long>(2 * copyBytes),
              copyGBps);
  for (Case &c : cases) {
    double t = medianOf(c.seconds), gbps = c.weightBytes() / t / 1e9;
    std::printf("%s,%ld,%ld,%ld,%ld,%ld,%s,%.9f,%lld,%.1f,%.3f,%.1f\n",
                c.c.name, c.c.m, c.c.n, c.c.k, c.c.bits, c.c.block, deviceName,
                t, static_cast<long long>(c.weightBytes()), gbps,
                gbps / copyGBps, 2.0 * c.c.m * c.c.n * c.c.k / t / 1e9);
  }
  std::fprintf(stderr, "%ld results wrong in all\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
