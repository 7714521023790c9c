// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the GPU benchmark harnesses share. Our kernels run through their
// compiled host code (_mlir_ciface_*), which creates a stream, launches,
// synchronizes and destroys the stream on every call. That would time the
// host round trip, not the kernel, so a harness including this defines
// mgpuStreamCreate/Synchronize/Destroy itself (the executable's definitions
// take precedence over the runtime library's): every launch goes to one
// stream, and the harness brackets a batch of launches with CUDA events. The
// rest (module loading, launches) is the runtime library's. Include it from
// one file per program.
#pragma once

#include "common.h"

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

inline void checkCU(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = "?";
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s\n", what, name);
  std::exit(1);
}
#define CHECK_CU(call) checkCU(call, #call)

/// The one stream every launch goes to.
inline CUstream benchStream = nullptr;

extern "C" CUstream mgpuStreamCreate() { return benchStream; }
extern "C" void mgpuStreamSynchronize(CUstream) {}
extern "C" void mgpuStreamDestroy(CUstream) {}

struct BenchDevice {
  CUdevice device;
  char name[256];
};

/// Makes the primary context of device 0 current (the runtime library uses
/// it too: kernel modules were loaded into it by global constructors),
/// creates the stream, and returns the device and its name.
inline BenchDevice startBench() {
  CHECK_CU(cuInit(0));
  BenchDevice result;
  CHECK_CU(cuDeviceGet(&result.device, 0));
  CUcontext context;
  CHECK_CU(cuDevicePrimaryCtxRetain(&context, result.device));
  CHECK_CU(cuCtxSetCurrent(context));
  CHECK_CU(cuStreamCreate(&benchStream, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuDeviceGetName(result.name, sizeof(result.name), result.device));
  return result;
}

inline MemRef2D deviceView(CUdeviceptr data, int64_t rows, int64_t cols) {
  return desc(reinterpret_cast<void *>(data), rows, cols);
}

inline double medianOf(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  size_t n = xs.size();
  return n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
}

/// Times batches of launches on the bench stream with CUDA events.
class LaunchTimer {
public:
  LaunchTimer() {
    CHECK_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  }
  /// Seconds per call of `body` (which launches on benchStream), averaged
  /// over `reps` calls between two events.
  template <typename Body> double seconds(int reps, Body &&body) {
    CHECK_CU(cuEventRecord(start, benchStream));
    for (int r = 0; r < reps; ++r)
      body();
    CHECK_CU(cuEventRecord(stop, benchStream));
    CHECK_CU(cuEventSynchronize(stop));
    float ms = 0;
    CHECK_CU(cuEventElapsedTime(&ms, start, stop));
    return ms / 1e3 / reps;
  }

private:
  CUevent start, stop;
};
