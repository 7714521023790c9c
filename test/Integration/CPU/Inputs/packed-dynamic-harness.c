// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Calls Inputs/packed-dynamic.mlir's kernels from C with dynamic packed
// buffers: the bytes as a rank-1 i8 descriptor, the logical sizes after the
// other arguments. 7 int4 values take 4 bytes, as would 8: only the size
// argument tells them apart.

#include <stdint.h>
#include <stdio.h>

typedef struct {
  int8_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Bytes;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Floats1D;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Floats2D;
typedef struct {
  float *allocated, *aligned;
  int64_t offset;
} Float0D;

void _mlir_ciface_dequantize_dynamic(Bytes *q, Float0D *s, Floats1D *out,
                                     int64_t count);
void _mlir_ciface_quantize_rows(Floats2D *x, Float0D *s, Bytes *q, int64_t rows,
                                int64_t cols);

int main(void) {
  // -8, -7, -1, 0, 1, 7, 3 packed low nibble first; the last high nibble is
  // padding, which must stay unread.
  int8_t q[4] = {(int8_t)0x98, (int8_t)0x0F, (int8_t)0x71, (int8_t)0xF3};
  float scale = 0.5f, out[8];
  for (int i = 0; i < 8; ++i)
    out[i] = -99.0f;
  Bytes qd = {q, q, 0, {4}, {1}};
  Float0D sd = {&scale, &scale, 0};
  Floats1D od = {out, out, 0, {7}, {1}};
  _mlir_ciface_dequantize_dynamic(&qd, &sd, &od, 7);
  printf("dequantized:");
  for (int i = 0; i < 8; ++i)
    printf(" %g", out[i]);
  printf("\n");

  // 3 rows of 3 int2 codes: 18 bits in 3 bytes, the last 6 bits padding.
  float x[9] = {0.1f, -0.6f, 0.4f, -1.0f, 0.75f, 2.0f, -0.25f, 0.3f, -9.0f};
  int8_t packed[3] = {0, 0, 0};
  Floats2D xd = {x, x, 0, {3, 3}, {3, 1}};
  Bytes pd = {packed, packed, 0, {3}, {1}};
  _mlir_ciface_quantize_rows(&xd, &sd, &pd, 3, 3);
  printf("int2 codes:");
  for (int i = 0; i < 9; ++i) {
    int code = (packed[i / 4] >> (2 * (i % 4))) & 3;
    printf(" %d", code >= 2 ? code - 4 : code);
  }
  printf(" (bytes %02x %02x %02x)\n", packed[0] & 0xFF, packed[1] & 0xFF,
         packed[2] & 0xFF);
  return 0;
}
