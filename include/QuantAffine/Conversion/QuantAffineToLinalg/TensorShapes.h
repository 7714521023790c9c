//===- TensorShapes.h - sizes in the tensor lowerings -----------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_TENSORSHAPES_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_TENSORSHAPES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace quant_affine {

/// Index-typed values and constants for the shape computations.
struct ShapeBuilder {
  OpBuilder &b;
  Location loc;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value dim(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return index(type.getDimSize(d));
    return tensor::DimOp::create(b, loc, tensor, d);
  }
};

/// `v` cast to `type` when its type differs.
inline Value castTo(OpBuilder &b, Location loc, Value v, Type type) {
  if (!v || v.getType() == type)
    return v;
  return tensor::CastOp::create(b, loc, type, v);
}

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_TENSORSHAPES_H
