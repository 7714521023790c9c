//===- RuntimeShapes.cpp - Shapes computed while the model runs -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RuntimeShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// Scalar i64 arithmetic at one location.
struct I64 {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value truth(bool value) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(value));
  }
  Value negate(Value flag) {
    return arith::XOrIOp::create(b, loc, flag, truth(true));
  }
  Value count(Value flag) {
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), flag);
  }
  /// Element `i` of a 1-D i64 tensor.
  Value at(Value tensor, int64_t i) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    return tensor::ExtractOp::create(b, loc, tensor, ValueRange{index});
  }
  /// Dim `d` of `tensor` as i64.
  Value dim(Value tensor, int64_t d) {
    Value size = tensor::DimOp::create(b, loc, tensor, d);
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
  }
  void check(Value ok, llvm::StringRef message) {
    cf::AssertOp::create(b, loc, ok, message);
  }
};

Value reshapeBy(OpBuilder &b, Location loc, Value data, ArrayRef<Value> sizes) {
  Value shape = tensor::FromElementsOp::create(
      b, loc,
      RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                            b.getI64Type()),
      sizes);
  auto type = cast<RankedTensorType>(data.getType());
  SmallVector<int64_t> dims(sizes.size(), ShapedType::kDynamic);
  return tensor::ReshapeOp::create(b, loc, type.clone(dims), data, shape);
}

} // namespace

Value mlir::quant_affine::onnx_import::reshapeAtRuntime(OpBuilder &b,
                                                        Location loc,
                                                        Value data, Value shape,
                                                        bool allowZero,
                                                        llvm::StringRef what) {
  I64 m{b, loc};
  auto type = cast<RankedTensorType>(data.getType());
  int64_t count = cast<RankedTensorType>(shape.getType()).getDimSize(0);
  Value elements = m.constant(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    elements = m.mul(elements, m.dim(data, d));
  Value zero = m.constant(0), one = m.constant(1), minusOne = m.constant(-1);
  SmallVector<Value> sizes;
  Value known = one, valid = m.truth(true), inferredCount = zero;
  for (int64_t i = 0; i < count; ++i) {
    Value size = m.at(shape, i);
    if (!allowZero && i < type.getRank())
      size = m.select(m.eq(size, zero), m.dim(data, i), size);
    // Sizes are -1 (once at most) or not negative.
    valid = m.both(valid, m.lt(m.constant(-2), size));
    inferredCount = m.add(inferredCount, m.count(m.eq(size, minusOne)));
    known = m.mul(known, m.select(m.eq(size, minusOne), one, size));
    sizes.push_back(size);
  }
  // -1 is what the others leave (the divisor guarded against 0; the check
  // below catches a bad shape).
  Value divisor = m.select(m.eq(known, zero), one, known);
  Value inferred = arith::DivSIOp::create(b, loc, elements, divisor);
  Value product = one;
  for (Value &size : sizes) {
    size = m.select(m.eq(size, minusOne), inferred, size);
    product = m.mul(product, size);
  }
  valid = m.both(valid, m.lt(inferredCount, m.constant(2)));
  m.check(m.both(valid, m.eq(product, elements)),
          (what + ": the shape does not hold the input's elements").str());
  return reshapeBy(b, loc, data, sizes);
}

Value mlir::quant_affine::onnx_import::squeezeAtRuntime(OpBuilder &b,
                                                        Location loc,
                                                        Value data, Value axes,
                                                        bool insert,
                                                        llvm::StringRef what) {
  I64 m{b, loc};
  auto type = cast<RankedTensorType>(data.getType());
  int64_t rank = type.getRank();
  int64_t count = cast<RankedTensorType>(axes.getType()).getDimSize(0);
  int64_t resultRank = insert ? rank + count : rank - count;
  // Axes count from the end when negative, in the rank they index.
  int64_t indexed = insert ? resultRank : rank;
  Value zero = m.constant(0), one = m.constant(1);
  Value valid = m.truth(true);
  SmallVector<Value> normalized;
  for (int64_t i = 0; i < count; ++i) {
    Value axis = m.at(axes, i);
    axis = m.select(m.lt(axis, zero), m.add(axis, m.constant(indexed)), axis);
    valid = m.both(valid, m.both(m.lt(m.constant(-1), axis),
                                 m.lt(axis, m.constant(indexed))));
    normalized.push_back(axis);
  }
  auto listed = [&](int64_t position) {
    Value any = m.truth(false);
    for (Value axis : normalized)
      any = m.either(any, m.eq(axis, m.constant(position)));
    return any;
  };
  SmallVector<Value> sizes;
  if (insert) {
    // Result dim j: 1 where listed, else the next input dim.
    Value used = zero;
    for (int64_t j = 0; j < resultRank; ++j) {
      Value isAxis = listed(j);
      Value size = one;
      for (int64_t d = 0; d < rank; ++d)
        size = m.select(m.eq(used, m.constant(d)), m.dim(data, d), size);
      sizes.push_back(m.select(isAxis, one, size));
      used = m.add(used, m.count(m.negate(isAxis)));
    }
    valid = m.both(valid, m.eq(used, m.constant(rank)));
  } else {
    // The input dims not listed, in order; a listed dim must be 1.
    sizes.assign(resultRank, one);
    Value kept = zero;
    for (int64_t d = 0; d < rank; ++d) {
      Value isAxis = listed(d), size = m.dim(data, d);
      valid = m.both(valid, m.either(m.negate(isAxis), m.eq(size, one)));
      for (int64_t j = 0; j < resultRank; ++j)
        sizes[j] = m.select(m.both(m.negate(isAxis), m.eq(kept, m.constant(j))),
                            size, sizes[j]);
      kept = m.add(kept, m.count(m.negate(isAxis)));
    }
    valid = m.both(valid, m.eq(kept, m.constant(resultRank)));
  }
  m.check(valid, (what + ": the axes are out of range, repeated, or name a "
                         "dim that is not 1")
                     .str());
  return reshapeBy(b, loc, data, sizes);
}
