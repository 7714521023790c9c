// What the CPU and GPU benchmark harnesses share: the strided memref
// descriptor that llvm.emit_c_interface functions take, the table entry for a
// compiled kernel, and the layout of each encoding's scales.
#pragma once
#include <cstdint>
#include <string>

struct MemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

using OursFn = void (*)(MemRef2D *, MemRef2D *, MemRef2D *, MemRef2D *);
using UpstreamFn = void (*)(MemRef2D *, MemRef2D *);

struct CompiledKernel {
  const char *kind; // "ours" or "upstream"
  const char *op;   // quantize, dequantize, qdq
  const char *range; // i8 or int4
  const char *encoding; // tensor, channel, block32, block128
  OursFn ours;
  UpstreamFn upstream;
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
