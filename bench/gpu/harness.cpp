// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU benchmark for one tensor size (the kernels are compiled for it).
//
// Launches go to one stream and are timed with CUDA events (cuda_bench.h).
//
// Per round, interleaved: a device-to-device copy of the f32 tensor (the
// copy bandwidth the ratios refer to) and every kernel; the median of the
// rounds is reported. Before timing, each kernel's output is compared bit
// for bit with the formula computed on the host.
//
// usage: harness ROUNDS > results.csv

#include "cuda_bench.h"
#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int64_t kElems = kRows * kCols;

float quantizeRef(float x, float s, float o) {
  float q = std::nearbyint(x / s) - o;
  q = q < -128.0f ? -128.0f : q;
  return q > 127.0f ? 127.0f : q;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  BenchDevice bench = startBench();
  const char *deviceName = bench.name;
  std::fprintf(stderr, "device: %s\n", deviceName);

  std::vector<float> x(kElems);
  std::vector<int8_t> q(kElems);
  int64_t maxScales = kRows * (kCols / 32);
  std::vector<float> scales(maxScales), offsets(maxScales);
  fillInputs(x.data(), q.data(), kElems, scales.data(), offsets.data(),
             maxScales);

  CUdeviceptr dX, dQ, dY, dQOut, dS, dO;
  CHECK_CU(cuMemAlloc(&dX, kElems * 4));
  CHECK_CU(cuMemAlloc(&dY, kElems * 4));
  CHECK_CU(cuMemAlloc(&dQ, kElems));
  CHECK_CU(cuMemAlloc(&dQOut, kElems));
  CHECK_CU(cuMemAlloc(&dS, maxScales * 4));
  CHECK_CU(cuMemAlloc(&dO, maxScales * 4));
  CUdeviceptr dDynS, dDynO;
  CHECK_CU(cuMemAlloc(&dDynS, 4));
  CHECK_CU(cuMemAlloc(&dDynO, 4));
  CHECK_CU(cuMemcpyHtoD(dX, x.data(), kElems * 4));
  CHECK_CU(cuMemcpyHtoD(dQ, q.data(), kElems));
  CHECK_CU(cuMemcpyHtoD(dS, scales.data(), maxScales * 4));
  CHECK_CU(cuMemcpyHtoD(dO, offsets.data(), maxScales * 4));

  struct Variant {
    std::string op, encoding;
    double bytes;
    const CompiledKernel *kernel; // null: the device copy
    MemRef2D in, s, o, out;
    std::vector<double> seconds;
  };
  std::vector<Variant> variants;
  variants.push_back({"copy", "", 8.0 * kElems, nullptr, {}, {}, {}, {}, {}});

  long mismatches = 0;
  for (const CompiledKernel &k : kCompiledKernels) {
    std::string op = k.op, enc = k.encoding;
    Encoding e = encodingOf(enc, kRows, kCols);
    // Dynamic quantization writes its encoding into s and o (device
    // memory of its own), reads x twice (min/max, then quantize).
    bool dynamic = op == "dynamic_quantize";
    bool toInt = op == "quantize" || dynamic, fromInt = op == "dequantize";
    int64_t scaleRows = enc == "tensor" ? 1 : kRows;
    int64_t scaleCols = e.rowStride ? e.rowStride : 1;
    Variant v{
        op,
        enc,
        dynamic ? kElems * 9.0 + 8.0
                : kElems * (toInt || fromInt ? 5.0 : 8.0) + 8.0 * e.count,
        &k,
        fromInt ? deviceView(dQ, kRows, kCols) : deviceView(dX, kRows, kCols),
        dynamic ? deviceView(dDynS, 1, 1)
                : deviceView(dS, scaleRows, scaleCols),
        dynamic ? deviceView(dDynO, 1, 1)
                : deviceView(dO, scaleRows, scaleCols),
        toInt ? deviceView(dQOut, kRows, kCols) : deviceView(dY, kRows, kCols),
        {}};
    k.ours(&v.in, &v.s, &v.o, &v.out);
    CHECK_CU(cuStreamSynchronize(benchStream));
    std::vector<float> y(kElems);
    std::vector<int8_t> qo(kElems);
    if (toInt)
      CHECK_CU(cuMemcpyDtoH(qo.data(), dQOut, kElems));
    else
      CHECK_CU(cuMemcpyDtoH(y.data(), dY, kElems * 4));
    long bad = 0;
    float dynS = 0, dynO = 0;
    if (dynamic) {
      // The codes against the device's own encoding; the encoding's bits
      // are the conformance tests' business.
      CHECK_CU(cuMemcpyDtoH(&dynS, dDynS, 4));
      CHECK_CU(cuMemcpyDtoH(&dynO, dDynO, 4));
      bad += !(dynS > 0);
    }
    for (int64_t r = 0; r < kRows; ++r)
      for (int64_t c = 0; c < kCols; ++c) {
        int64_t i = r * kCols + c, j = r * e.rowStride + c / e.block;
        float s = dynamic ? dynS : scales[j], o = dynamic ? dynO : offsets[j];
        if (toInt) {
          bad += static_cast<int8_t>(quantizeRef(x[i], s, o)) != qo[i];
        } else {
          float ref = fromInt ? (static_cast<float>(q[i]) + o) * s
                              : (quantizeRef(x[i], s, o) + o) * s;
          bad += std::memcmp(&ref, &y[i], 4) != 0;
        }
      }
    std::fprintf(stderr,
                 "%s %s: %ld of %lld elements differ from the formula\n", k.op,
                 k.encoding, bad, static_cast<long long>(kElems));
    mismatches += bad;
    variants.push_back(v);
  }

  LaunchTimer timer;
  const int reps = 20;
  for (int round = 0; round < rounds; ++round)
    for (Variant &v : variants)
      v.seconds.push_back(timer.seconds(reps, [&] {
        if (v.kernel)
          v.kernel->ours(&v.in, &v.s, &v.o, &v.out);
        else
          CHECK_CU(cuMemcpyDtoDAsync(dY, dX, kElems * 4, benchStream));
      }));

  double copyGBps =
      variants.front().bytes / medianOf(variants.front().seconds) / 1e9;
  std::printf(
      "rows,cols,device,op,encoding,bytes,seconds,gbps,ratio_to_copy\n");
  for (Variant &v : variants) {
    double t = medianOf(v.seconds), gbps = v.bytes / t / 1e9;
    std::printf("%lld,%lld,%s,%s,%s,%.0f,%.9f,%.1f,%.3f\n",
                static_cast<long long>(kRows), static_cast<long long>(kCols),
                deviceName, v.op.c_str(), v.encoding.c_str(), v.bytes, t, gbps,
                gbps / copyGBps);
  }
  std::fprintf(stderr, "%ld elements differ in all\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
