//===- ShapeChecks.cpp - Shape rules at run time, runtime verification ----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/ShapeChecks.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// Sizes as index values, remembering what types know statically, so that a
/// rule the types decide is not checked. Ops on constants fold as they are
/// built.
struct IRSizes {
  struct Size {
    Value value;
    int64_t known = ShapedType::kDynamic;
  };
  struct Bool {
    Value value;
    std::optional<bool> known;
  };

  OpBuilder &b;
  Location loc;

  Size constant(int64_t v) {
    return {arith::ConstantIndexOp::create(b, loc, v), v};
  }
  Size dim(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return constant(type.getDimSize(d));
    return {tensor::DimOp::create(b, loc, tensor, d), ShapedType::kDynamic};
  }
  Bool compare(arith::CmpIPredicate predicate, Size l, Size r,
               std::optional<bool> known) {
    return {b.createOrFold<arith::CmpIOp>(loc, predicate, l.value, r.value),
            known};
  }
  Bool eq(Size l, Size r) {
    return compare(arith::CmpIPredicate::eq, l, r,
                   StaticSizes().eq(l.known, r.known));
  }
  Bool isMultipleOf(Size x, int64_t m) {
    Value rem = b.createOrFold<arith::RemUIOp>(loc, x.value, constant(m).value);
    return compare(arith::CmpIPredicate::eq, {rem}, constant(0),
                   StaticSizes().isMultipleOf(x.known, m));
  }
  Bool divisibleBy(Size x, Size m) {
    // m == 0 ? x == 0 : x % m == 0, without dividing by 0.
    Value safe =
        b.createOrFold<arith::MaxUIOp>(loc, m.value, constant(1).value);
    Value rem = b.createOrFold<arith::RemUIOp>(loc, x.value, safe);
    Bool divides = compare(arith::CmpIPredicate::eq, {rem}, constant(0), {});
    Bool nonEmpty =
        either(compare(arith::CmpIPredicate::ne, m, constant(0), {}),
               compare(arith::CmpIPredicate::eq, x, constant(0), {}));
    Bool result = both(divides, nonEmpty);
    result.known = StaticSizes().divisibleBy(x.known, m.known);
    return result;
  }
  Size quotient(Size x, int64_t m) {
    return {b.createOrFold<arith::DivUIOp>(loc, x.value, constant(m).value),
            StaticSizes().quotient(x.known, m)};
  }
  Size product(Size s, int64_t m) {
    return {b.createOrFold<arith::MulIOp>(loc, s.value, constant(m).value),
            StaticSizes().product(s.known, m)};
  }
  Bool both(Bool l, Bool r) {
    return {b.createOrFold<arith::AndIOp>(loc, l.value, r.value),
            StaticSizes().both(l.known, r.known)};
  }
  Bool either(Bool l, Bool r) {
    return {b.createOrFold<arith::OrIOp>(loc, l.value, r.value),
            StaticSizes().either(l.known, r.known)};
  }
};

/// Messages print a size as its value.
CheckMessage &operator<<(CheckMessage &m, const IRSizes::Size &size) {
  return m << size.value;
}

} // namespace

void mlir::quant_affine::emitShapeChecks(
    OpBuilder &b, Location loc, Value input, Value scale, Value offset,
    std::optional<ArrayRef<int64_t>> blockSize,
    function_ref<void(Value, const CheckMessage &)> report) {
  IRSizes sizes{b, loc};
  auto dimsOf = [&](Value tensor) {
    SmallVector<IRSizes::Size> result;
    if (!tensor)
      return result;
    for (int64_t d = 0, e = cast<RankedTensorType>(tensor.getType()).getRank();
         d < e; ++d)
      result.push_back(sizes.dim(tensor, d));
    return result;
  };
  SmallVector<IRSizes::Size> x = dimsOf(input), s = dimsOf(scale),
                             o = dimsOf(offset);
  forEachShapeRule(sizes, ArrayRef(x), ArrayRef(s), ArrayRef(o), blockSize,
                   [&](IRSizes::Bool holds, const CheckMessage &message) {
                     if (holds.known != true)
                       report(holds.value, message);
                   });
}

void mlir::quant_affine::generateQuantizerRuntimeVerification(
    QuantizerOpInterface op, OpBuilder &builder, Location loc,
    function_ref<std::string(Operation *, StringRef)> generateErrorMessage) {
  if (!isa<RankedTensorType>(op.getInput().getType()))
    return; // Scalars and vectors: the types say it all.
  emitShapeChecks(
      builder, loc, op.getInput(), op.getScale(), op.getOffset(),
      op.getSpec().getBlockSize(), [&](Value ok, const CheckMessage &message) {
        cf::AssertOp::create(builder, loc, ok,
                             generateErrorMessage(op, message.str()));
      });
}
