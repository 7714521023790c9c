//===- CudaProbe.cpp - is there a GPU to run tests on? --------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prints the architecture of CUDA device 0 as `sm_XY` and exits with 0, or
// says why there is none and exits with 1. lit runs it to decide whether the
// GPU execution tests can run, and for which chip to compile them.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdio>

int main() {
  CUresult result = cuInit(0);
  int count = 0;
  if (result == CUDA_SUCCESS)
    result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    std::fprintf(stderr, "no CUDA device (CUresult %d, %d devices)\n",
                 static_cast<int>(result), count);
    return 1;
  }
  CUdevice device;
  int major = 0, minor = 0;
  if (cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device) != CUDA_SUCCESS)
    return 1;
  std::printf("sm_%d%d\n", major, minor);
  return 0;
}
