// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the CPU and GPU benchmark harnesses share: the strided memref
// descriptor that llvm.emit_c_interface functions take, the table entry for a
// compiled kernel, and the layout of each encoding's scales.
#pragma once
#include "simd.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct MemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

/// The descriptor of a packed i1/i2/i4 buffer at the C interface: rank-1
/// bytes, ceil(count * bits / 8) of them (docs/Packing.md).
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

using OursFn = void (*)(MemRef2D *, MemRef2D *, MemRef2D *, MemRef2D *);
using UpstreamFn = void (*)(MemRef2D *, MemRef2D *);
// Packed kernels (x, scales, offsets, out): quantize writes packed bytes,
// dequantize reads them.
using PackedQuantizeFn = void (*)(MemRef2D *, MemRef2D *, MemRef2D *,
                                  MemRef1D *);
using PackedDequantizeFn = void (*)(MemRef1D *, MemRef2D *, MemRef2D *,
                                    MemRef2D *);

struct CompiledKernel {
  const char *kind;     // "ours", "ours-explicit" (CPU) or "upstream"
  const char *op;       // quantize, dequantize, qdq
  const char *range;    // i8, int4 (in i8), i4-packed or i2-packed
  const char *encoding; // tensor, channel, block32, block128
  OursFn ours;
  UpstreamFn upstream;
  // Bits of storage per element of the input and the output (32 for f32, 8
  // for i8, 4 or 2 for packed codes): the CPU harness measures the kernel
  // against the limit of that access pattern.
  int inBits = 0, outBits = 0;
  // Packed kernels (ours and upstream are null): one of the two is set.
  PackedQuantizeFn packedQuantize = nullptr;
  PackedDequantizeFn packedDequantize = nullptr;
};

/// How the scales of an encoding lie over a rows x cols tensor.
struct Encoding {
  int64_t block;     // elements of a row that share a scale
  int64_t rowStride; // scales per row (0 for per-tensor)
  int64_t count;     // scales in all
};

inline Encoding encodingOf(const std::string &name, int64_t rows,
                           int64_t cols) {
  if (name == "tensor")
    return {cols, 0, 1};
  if (name == "channel")
    return {cols, 1, rows};
  int64_t block = name == "block32" ? 32 : 128;
  return {block, cols / block, rows * (cols / block)};
}

/// The benchmark's data, the same in every harness: values spread over about
/// +-6 quantization steps of 0.03 around zero, some far out (saturating);
/// codes over the whole 8-bit range; and the scales and offsets that
/// bench/gen_kernels.py also writes into the upstream types.
inline void fillInputs(float *x, int8_t *q, int64_t elems, float *scales,
                       float *offsets, int64_t scaleCount) {
  uint32_t state = 12345;
  for (int64_t i = 0; i < elems; ++i) {
    state = state * 1664525u + 1013904223u;
    x[i] = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 8.0f;
    q[i] = static_cast<int8_t>(state >> 24);
  }
  for (int64_t i = 0; i < scaleCount; ++i) {
    scales[i] = static_cast<float>(0.01 + (i * 37 % 400) / 10000.0);
    offsets[i] = static_cast<float>(i * 5 % 7 - 3);
  }
}

/// `count` zeroed values on 4096-byte pages, first touched by all OpenMP
/// threads as the kernels will use them (NUMA placement); exits when out of
/// memory.
template <typename T> T *allocateFirstTouch(int64_t count) {
  size_t bytes = (count * sizeof(T) + 4095) / 4096 * 4096;
  auto *p = static_cast<T *>(std::aligned_alloc(4096, bytes));
  if (!p) {
    std::fprintf(stderr, "out of memory\n");
    std::exit(1);
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < count; ++i)
    p[i] = T();
  return p;
}

/// The largest cache of cpu0 (sysfs), at least 32 MiB: benchmarks that must
/// read memory rotate through copies of their inputs past 3 x this.
inline int64_t lastLevelCacheBytes() {
  int64_t best = 32 << 20;
  for (int i = 0; i < 8; ++i) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
    FILE *f = std::fopen((dir + "/size").c_str(), "r");
    if (!f)
      break;
    long size = 0;
    char unit = 0;
    if (std::fscanf(f, "%ld%c", &size, &unit) >= 1) {
      int64_t bytes = size * (unit == 'K' ? 1024 : unit == 'M' ? 1 << 20 : 1);
      best = bytes > best ? bytes : best;
    }
    std::fclose(f);
  }
  return best;
}

/// Writes `bytes` bytes of `data` to `path`; exits on failure.
inline void writeFile(const std::string &path, const void *data,
                      int64_t bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, bytes, f) != size_t(bytes)) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
}

/// Seconds on a steady clock, for interval timing.
inline double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The signed code of element `i` of weights stored as int8 (`bits` 8) or as
/// int4 packed two per byte, low nibble first (`bits` 4).
inline int weightCode(const uint8_t *codes, int64_t i, int64_t bits) {
  if (bits == 8)
    return static_cast<int8_t>(codes[i]);
  int nibble = (codes[i / 2] >> (4 * (i % 2))) & 15;
  return nibble >= 8 ? nibble - 16 : nibble;
}

/// The descriptor of a row-major rows x cols buffer.
inline MemRef2D desc(void *p, int64_t rows, int64_t cols) {
  return {p, p, 0, {rows, cols}, {cols, 1}};
}

/// The median of the rounds' times.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Which variant has the smallest median (the first of equal ones).
inline size_t
fastestMedianIndex(const std::vector<std::vector<double>> &variants) {
  size_t fastest = 0;
  for (size_t v = 1; v < variants.size(); ++v)
    if (median(variants[v]) < median(variants[fastest]))
      fastest = v;
  return fastest;
}

/// The limit's time when it is the fastest of several loop variants: each
/// variant's median over the rounds, then the smallest of those. (Taking the
/// fastest variant within each round and then the median would compare a
/// minimum of several noisy draws against single draws of ours, and so
/// understate the limit's time by the machine's noise.)
inline double fastestMedian(const std::vector<std::vector<double>> &variants) {
  return median(variants[fastestMedianIndex(variants)]);
}

/// Hands out input copies round robin over every timed call (ours, the plain
/// loop and each limit variant alike), so that each call reads the copy read
/// longest ago: cold for every contender once the copies exceed the cache.
/// (Rotating per round instead gave a call a copy that another had read a
/// few calls earlier, warm in a large last-level cache, and not equally so
/// for every contender.)
class CopyRotation {
public:
  explicit CopyRotation(int64_t count) : count(count) {}
  int64_t operator()() { return next++ % count; }

private:
  int64_t count, next = 0;
};

/// How a limit loop prefetches its input in software.
enum class Prefetch { None, L1Ahead1K, L2Ahead4K };

/// Prefetches for the 256 input bytes a limit loop reads at `step`: none;
/// one line 1 KiB ahead into L1; or each of the four lines 4 KiB ahead into
/// L2, as quant-affine-prefetch-streams does by default.
template <Prefetch P> inline void prefetchStep(const void *step) {
  const char *p = static_cast<const char *>(step);
  if constexpr (P == Prefetch::L1Ahead1K)
    _mm_prefetch(p + 1024, _MM_HINT_T0);
  if constexpr (P == Prefetch::L2Ahead4K)
    for (int line = 0; line < 4; ++line)
      _mm_prefetch(p + 4096 + 64 * line, _MM_HINT_T1);
}
