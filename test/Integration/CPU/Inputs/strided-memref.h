//===- strided-memref.h - memref descriptors for the AOT harnesses -*- C++
//-*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The descriptor `llvm.emit_c_interface` functions take for a rank-R memref,
// and one over a contiguous row-major buffer.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TEST_STRIDED_MEMREF_H
#define QUANT_AFFINE_TEST_STRIDED_MEMREF_H

#include <cstdint>
#include <vector>

template <int R> struct Desc {
  void *allocated, *aligned;
  int64_t offset, sizes[R], strides[R];
};

template <int R> Desc<R> desc(void *data, std::vector<int64_t> shape) {
  Desc<R> d{data, data, 0, {}, {}};
  int64_t stride = 1;
  for (int i = R - 1; i >= 0; --i) {
    d.sizes[i] = shape[i];
    d.strides[i] = stride;
    stride *= shape[i];
  }
  return d;
}

#endif // QUANT_AFFINE_TEST_STRIDED_MEMREF_H
