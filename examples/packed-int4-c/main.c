// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Calling packed-int4 kernels from C (docs/Packing.md). Build:
//
//   quant-affine-opt kernels.mlir --quant-affine-cpu-pipeline \
//     | mlir-translate --mlir-to-llvmir -o kernels.ll
//   clang -O2 -c kernels.ll -o kernels.o
//   clang -O2 main.c kernels.o -lm -o packed-int4 && ./packed-int4
//
// (-lm: without SSE4.1 the kernels round half to even by calling roundevenf.)

#include <stdint.h>
#include <stdio.h>
#include <string.h>

// A memref descriptor of rank N, as llvm.emit_c_interface passes it.
typedef struct {
  int8_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Bytes; // Every i1/i2/i4 buffer: rank 1, ceil(count * bits / 8) bytes.

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Floats2D;

void _mlir_ciface_quantize_weight(Floats2D *w, Floats2D *scale, Bytes *packed);
void _mlir_ciface_dequantize_weight(Bytes *packed, Floats2D *scale,
                                    Floats2D *w);

enum { kRows = 3, kCols = 40, kBlocks = kCols / 8 };
enum { kBytes = (kRows * kCols * 4 + 7) / 8 };

static Floats2D floats(float *data, int64_t rows, int64_t cols) {
  Floats2D d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

// The value at row-major index i of a packed signed int4 buffer.
static int int4At(const int8_t *bytes, int64_t i) {
  int nibble = (bytes[i / 2] >> (i % 2 * 4)) & 0xF;
  return nibble >= 8 ? nibble - 16 : nibble;
}

int main(void) {
  float w[kRows][kCols], scale[kRows][kBlocks], back[kRows][kCols];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      w[r][c] = (float)((r * kCols + c) % 17 - 8) * 0.25f * (float)(r + 1);
  for (int r = 0; r < kRows; ++r)
    for (int b = 0; b < kBlocks; ++b)
      scale[r][b] = 0.25f * (float)(r + 1);

  int8_t packed[kBytes];
  memset(packed, 0, sizeof packed);
  Floats2D wDesc = floats(&w[0][0], kRows, kCols);
  Floats2D scaleDesc = floats(&scale[0][0], kRows, kBlocks);
  Floats2D backDesc = floats(&back[0][0], kRows, kCols);
  Bytes packedDesc = {packed, packed, 0, {kBytes}, {1}};

  _mlir_ciface_quantize_weight(&wDesc, &scaleDesc, &packedDesc);
  printf("%d packed bytes:", kBytes);
  for (int i = 0; i < 8; ++i)
    printf(" %02x", (uint8_t)packed[i]);
  printf(" ...\n");
  printf("row 0 codes:");
  for (int c = 0; c < 12; ++c)
    printf(" %d", int4At(packed, c));
  printf(" ...\n");

  _mlir_ciface_dequantize_weight(&packedDesc, &scaleDesc, &backDesc);
  int mismatches = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      mismatches +=
          back[r][c] != (float)int4At(packed, r * kCols + c) * scale[r][c / 8];
  printf("dequantized %d values, %d mismatches\n", kRows * kCols, mismatches);
  return mismatches != 0;
}
