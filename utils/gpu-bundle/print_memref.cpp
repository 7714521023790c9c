// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// printString, printI64, printNewline and printMemrefI64 (what vector.print
// and the tests' printMemrefI64 calls lower to) for the GPU tests'
// ahead-of-time executables (utils/gpu-bundle/make.sh). mlir-runner takes them
// from libmlir_runner_utils, which needs libLLVM and libMLIR; a GPU machine
// without LLVM gets these instead. The output has upstream's layout (the
// header line, then the data), which is what the tests' CHECK lines read:
// FileCheck compares runs of blanks as one.

#include <cstdint>
#include <cstdio>

namespace {

// A ranked descriptor: {allocated, aligned, offset, sizes[rank],
// strides[rank]}.
struct RankedView {
  int64_t *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

void printData(const RankedView &v, int64_t dim, int64_t rank, int64_t offset) {
  if (dim == rank) {
    std::printf("%lld", static_cast<long long>(v.aligned[offset]));
    return;
  }
  std::printf("[");
  for (int64_t i = 0; i < v.sizes[dim]; ++i) {
    if (i > 0) {
      std::printf(", ");
      if (dim + 1 < rank)
        std::printf("\n%*s", static_cast<int>(dim + 1), "");
    }
    printData(v, dim + 1, rank, offset + i * v.strides[dim]);
  }
  std::printf("]");
}

} // namespace

extern "C" void printString(const char *s) {
  std::fputs(s, stdout);
  std::fflush(stdout);
}

extern "C" void printI64(int64_t value) {
  std::printf("%lld", static_cast<long long>(value));
}

extern "C" void printNewline() {
  std::printf("\n");
  std::fflush(stdout);
}

extern "C" void printMemrefI64(int64_t rank, void *ranked) {
  auto *fields = static_cast<int64_t **>(ranked);
  RankedView v{fields[1], reinterpret_cast<int64_t>(fields[2]),
               reinterpret_cast<const int64_t *>(fields + 3),
               reinterpret_cast<const int64_t *>(fields + 3 + rank)};
  std::printf("Unranked Memref base@ = %p rank = %lld offset = %lld sizes = [",
              static_cast<void *>(v.aligned), static_cast<long long>(rank),
              static_cast<long long>(v.offset));
  for (int64_t i = 0; i < rank; ++i)
    std::printf(i ? ", %lld" : "%lld", static_cast<long long>(v.sizes[i]));
  std::printf("] strides = [");
  for (int64_t i = 0; i < rank; ++i)
    std::printf(i ? ", %lld" : "%lld", static_cast<long long>(v.strides[i]));
  std::printf("] data = \n");
  printData(v, 0, rank, v.offset);
  std::printf("\n");
  std::fflush(stdout);
}

// The test's @main, renamed by make.sh so that this can be the program's.
extern "C" void quant_affine_test_main();

int main() {
  quant_affine_test_main();
  return 0;
}
