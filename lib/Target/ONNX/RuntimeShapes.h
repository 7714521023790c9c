//===- RuntimeShapes.h - Shapes computed while the model runs ---*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The result shapes of Reshape, Unsqueeze and Squeeze when their shape or
// axes are graph inputs: i64 shape tensors computed with scalar arith ops,
// for tensor.reshape. What ONNX calls invalid (a size that does not match,
// an axis out of range, squeezing a dim that is not 1) stops the program
// with cf.assert, naming the node.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_LIB_TARGET_ONNX_RUNTIMESHAPES_H
#define QUANT_AFFINE_LIB_TARGET_ONNX_RUNTIMESHAPES_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace quant_affine {
namespace onnx_import {

/// `data` reshaped by the 1-D i64 `shape` (static length), with ONNX's 0
/// (copy the input's dim, unless `allowZero`) and -1 (inferred).
Value reshapeAtRuntime(OpBuilder &b, Location loc, Value data, Value shape,
                       bool allowZero, llvm::StringRef what);

/// `data` with size-1 dims inserted at (Insert) or removed from the
/// positions the 1-D i64 `axes` (static length) hold.
Value squeezeAtRuntime(OpBuilder &b, Location loc, Value data, Value axes,
                       bool insert, llvm::StringRef what);

} // namespace onnx_import
} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_LIB_TARGET_ONNX_RUNTIMESHAPES_H
