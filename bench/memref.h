// The strided memref descriptor that llvm.emit_c_interface functions take,
// and the benchmark's table entry for a compiled kernel.
#pragma once
#include <cstdint>

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
