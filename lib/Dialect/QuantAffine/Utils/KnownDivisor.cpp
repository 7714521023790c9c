//===- KnownDivisor.cpp - Powers of two known to divide an index ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/KnownDivisor.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

int64_t quant_affine::powerOfTwoDividing(int64_t c) {
  return c == 0 ? kMaxKnownDivisor
                : std::min<int64_t>(c & -c, kMaxKnownDivisor);
}

namespace {
using quant_affine::kMaxKnownDivisor;
using quant_affine::powerOfTwoDividing;

int64_t product(int64_t a, int64_t b) {
  return std::min(a * b, kMaxKnownDivisor); // Both at most 2^20: no overflow.
}

/// What divides x / c where `divisor` divides x: an exact division of a
/// multiple of c by c (a packed byte index, the element index over the
/// elements a byte holds) is a multiple of divisor / c, whatever the
/// rounding; otherwise nothing is known.
int64_t exactQuotientDivisor(int64_t divisor, int64_t c) {
  if (c > 0 && divisor % c == 0)
    return std::max<int64_t>(divisor / c, 1);
  return 1;
}

/// The divisor of `expr` given those of its dims and symbols.
int64_t exprDivisor(AffineExpr expr, ArrayRef<int64_t> dims,
                    ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return powerOfTwoDividing(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = exprDivisor(binary.getLHS(), dims, symbols);
  int64_t rhs = exprDivisor(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::min(lhs, rhs);
  case AffineExprKind::Mul:
    return product(lhs, rhs);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    auto c = dyn_cast<AffineConstantExpr>(binary.getRHS());
    return c ? exactQuotientDivisor(lhs, c.getValue()) : 1;
  }
  default: // mod: nothing known.
    return 1;
  }
}
} // namespace

int64_t quant_affine::knownDivisor(OpFoldResult ofr) {
  if (std::optional<int64_t> c = getConstantIntValue(ofr))
    return powerOfTwoDividing(*c);
  Value value = cast<Value>(ofr);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop =
        dyn_cast_if_present<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
    if (!loop)
      return 1;
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds();
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!ivs || !lbs || !steps)
      return 1;
    for (auto [iv, lb, step] : llvm::zip(*ivs, *lbs, *steps))
      if (iv == arg)
        return std::min(knownDivisor(lb), knownDivisor(step));
    return 1;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::min(knownDivisor(def->getOperand(0)),
                    knownDivisor(def->getOperand(1)));
  if (isa<arith::MulIOp>(def))
    return product(knownDivisor(def->getOperand(0)),
                   knownDivisor(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return knownDivisor(def->getOperand(0));
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp, arith::ShRUIOp,
          arith::ShRSIOp>(def)) {
    std::optional<int64_t> c = getConstantIntValue(def->getOperand(1));
    if (c && isa<arith::ShRUIOp, arith::ShRSIOp>(def))
      c = *c >= 0 && *c < 62 ? std::optional<int64_t>(int64_t{1} << *c)
                             : std::nullopt;
    return c ? exactQuotientDivisor(knownDivisor(def->getOperand(0)), *c) : 1;
  }
  if (auto linearize = dyn_cast<affine::AffineLinearizeIndexOp>(def)) {
    // sum(index_k * product of the basis after k).
    SmallVector<OpFoldResult> basis = linearize.getMixedBasis();
    ValueRange indices = linearize.getMultiIndex();
    int64_t divisor = kMaxKnownDivisor, scale = 1;
    for (int64_t k = indices.size() - 1; k >= 0; --k) {
      divisor = std::min(divisor, product(knownDivisor(indices[k]), scale));
      // With fewer basis entries than indices, the first has no bound.
      size_t b = k + basis.size() - indices.size();
      if (k > 0)
        scale = product(scale, knownDivisor(basis[b]));
    }
    return divisor;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<int64_t> dims, symbols;
    for (Value operand : apply.getDimOperands())
      dims.push_back(knownDivisor(operand));
    for (Value operand : apply.getSymbolOperands())
      symbols.push_back(knownDivisor(operand));
    return exprDivisor(map.getResult(0), dims, symbols);
  }
  return 1;
}
