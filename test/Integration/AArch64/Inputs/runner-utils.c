// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the execution tests call from MLIR's runner libraries (which Debian
// builds for the host only), for running them compiled ahead of time on
// another architecture: printing memrefs and scalars in the same text as
// libmlir_runner_utils and libmlir_c_runner_utils (so the tests' own CHECK
// lines apply), and memrefCopy. Also main, which calls the module's @main
// (renamed mlir_main, as it returns nothing).

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// A ranked descriptor seen through its rank: data, then offset, sizes and
// strides as consecutive int64_t.
typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} Descriptor;

typedef struct {
  int64_t rank;
  Descriptor *descriptor;
} Unranked;

typedef void (*PrintElement)(const void *base, int64_t index);

static void printF32Element(const void *base, int64_t index) {
  printf("%g", ((const float *)base)[index]);
}
static void printF64Element(const void *base, int64_t index) {
  printf("%g", ((const double *)base)[index]);
}
static void printI8Element(const void *base, int64_t index) {
  // std::ostream prints int8_t as a character.
  putchar(((const int8_t *)base)[index]);
}
static void printI32Element(const void *base, int64_t index) {
  printf("%" PRId32, ((const int32_t *)base)[index]);
}
static void printI64Element(const void *base, int64_t index) {
  printf("%" PRId64, ((const int64_t *)base)[index]);
}

static void spaces(int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    putchar(' ');
}

// Nested brackets, one row of the innermost dim per line, each line indented
// by its depth: MLIR's MemRefDataPrinter layout.
static void printData(PrintElement element, const void *base, int64_t dim,
                      int64_t rank, int64_t offset, const int64_t *sizes,
                      const int64_t *strides) {
  if (dim == 0) {
    element(base, offset);
    return;
  }
  putchar('[');
  printData(element, base, dim - 1, rank, offset, sizes + 1, strides + 1);
  if (sizes[0] <= 1) {
    putchar(']');
    return;
  }
  printf(", ");
  if (dim > 1)
    putchar('\n');
  for (int64_t i = 1; i + 1 < sizes[0]; ++i) {
    spaces(rank - dim + 1);
    printData(element, base, dim - 1, rank, offset + i * strides[0], sizes + 1,
              strides + 1);
    printf(", ");
    if (dim > 1)
      putchar('\n');
  }
  spaces(rank - dim + 1);
  printData(element, base, dim - 1, rank, offset + (sizes[0] - 1) * strides[0],
            sizes + 1, strides + 1);
  putchar(']');
}

static void printList(const int64_t *values, int64_t count) {
  putchar('[');
  for (int64_t i = 0; i < count; ++i)
    printf(i ? ", %" PRId64 : "%" PRId64, values[i]);
  putchar(']');
}

static void printUnranked(const Unranked *memref, PrintElement element) {
  const Descriptor *d = memref->descriptor;
  int64_t rank = memref->rank;
  const int64_t *sizes = d->sizesAndStrides;
  const int64_t *strides = d->sizesAndStrides + rank;
  printf("Unranked Memref base@ = %p rank = %" PRId64 " offset = %" PRId64
         " sizes = ",
         d->aligned, rank, d->offset);
  printList(sizes, rank);
  printf(" strides = ");
  printList(strides, rank);
  printf(" data = \n");
  printData(element, d->aligned, rank, rank, d->offset, sizes, strides);
  putchar('\n');
  fflush(stdout);
}

void _mlir_ciface_printMemrefF32(const Unranked *m) {
  printUnranked(m, printF32Element);
}
void _mlir_ciface_printMemrefF64(const Unranked *m) {
  printUnranked(m, printF64Element);
}
void _mlir_ciface_printMemrefI8(const Unranked *m) {
  printUnranked(m, printI8Element);
}
void _mlir_ciface_printMemrefI32(const Unranked *m) {
  printUnranked(m, printI32Element);
}
void _mlir_ciface_printMemrefI64(const Unranked *m) {
  printUnranked(m, printI64Element);
}
// The C-interface-less forms the lowering calls: (rank, descriptor).
#define UNRANKED_ENTRY(name)                                                   \
  void name(int64_t rank, Descriptor *d) {                                     \
    Unranked m = {rank, d};                                                    \
    _mlir_ciface_##name(&m);                                                   \
  }
UNRANKED_ENTRY(printMemrefF32)
UNRANKED_ENTRY(printMemrefF64)
UNRANKED_ENTRY(printMemrefI8)
UNRANKED_ENTRY(printMemrefI32)
UNRANKED_ENTRY(printMemrefI64)

void printF32(float f) { printf("%g", f); }
void printF64(double d) { printf("%g", d); }
void printI64(int64_t i) { printf("%" PRId64, i); }
void printU64(uint64_t u) { printf("%" PRIu64, u); }
void printString(const char *s) { fputs(s, stdout); }
void printNewline(void) { putchar('\n'); }
void printComma(void) { printf(", "); }
void printOpen(void) { printf("( "); }
void printClose(void) { printf(" )"); }

// Strided copy between two memrefs of the same shape, element by element.
static void copyDim(char *dst, const char *src, int64_t elementSize,
                    int64_t dim, int64_t rank, const int64_t *sizes,
                    const int64_t *srcStrides, const int64_t *dstStrides) {
  if (dim == rank) {
    memcpy(dst, src, elementSize);
    return;
  }
  for (int64_t i = 0; i < sizes[dim]; ++i)
    copyDim(dst + i * dstStrides[dim] * elementSize,
            src + i * srcStrides[dim] * elementSize, elementSize, dim + 1, rank,
            sizes, srcStrides, dstStrides);
}

void memrefCopy(int64_t elementSize, const Unranked *src, const Unranked *dst) {
  int64_t rank = src->rank;
  const Descriptor *s = src->descriptor, *d = dst->descriptor;
  copyDim((char *)d->aligned + d->offset * elementSize,
          (const char *)s->aligned + s->offset * elementSize, elementSize, 0,
          rank, s->sizesAndStrides, s->sizesAndStrides + rank,
          d->sizesAndStrides + rank);
}

void mlir_main(void);
int main(void) {
  mlir_main();
  fflush(stdout);
  return 0;
}
