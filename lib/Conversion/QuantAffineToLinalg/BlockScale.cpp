//===- BlockScale.cpp - block_scale's formulas as arith ops ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Instantiates Utils/BlockScaleFormula.h with scalar arith ops.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/BlockScale.h"

#include "QuantAffine/Dialect/QuantAffine/Utils/BlockScaleFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// The formula's steps as scalar arith ops at one location.
struct BlockScaleEmitter {
  OpBuilder &b;
  Location loc;

  Value toF32(Value v) {
    Type f32 = b.getF32Type();
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
  }
  Value negF(Value v) { return arith::NegFOp::create(b, loc, v); }
  Value maximumF(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value minimumF(Value x, Value y) {
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  Value divF(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value f32(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value truncF(Value v, Type to) {
    return v.getType() == to ? v : arith::TruncFOp::create(b, loc, to, v);
  }
  Value bitsOf(Value v) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value addI(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subI(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shrUI(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value shlI(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value maxSI(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value minSI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value ctlz(Value v) { return math::CountLeadingZerosOp::create(b, loc, v); }
  Value cmpI(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value extUI(Value flag) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), flag);
  }
  Value select(Value flag, Value x, Value y) {
    return arith::SelectOp::create(b, loc, flag, x, y);
  }
  Value e8m0(Value code) {
    Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), code);
    return arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(),
                                    byte);
  }
  // quant-affine-expand-narrow-floats decodes the extf.
  Value e8m0ToF32(Value v) {
    return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  }
};

} // namespace

Value mlir::quant_affine::emitBlockScale(OpBuilder &b, Location loc,
                                         const BlockScaleRule &rule, Value min,
                                         Value max, Value tensorScale,
                                         Type result) {
  BlockScaleEmitter emitter{b, loc};
  return blockScaleFormula(emitter, rule, min, max, tensorScale != nullptr,
                           tensorScale, result);
}
