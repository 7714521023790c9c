//===- FloatQDQTruncFTest.cpp - float_qdq against arith.truncf ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For the six formats MLIR has as types, float_qdq without maxval is
// extf(truncf(clamp(x, -fmt_max, fmt_max))) to that type, the clamp in
// f32 and the last rounding to x's type: arith.truncf
// rounds to nearest even, and after the clamp nothing overflows (the FNUZ
// types have no -0, which is unsigned_zero). This checks that relation on
// every f16 and bf16 input and on 2^18 f32 bit patterns, with float_qdq's
// folder (the formula the generated code computes) on one side and APFloat's
// conversion, which folds arith.truncf, on the other.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

struct Target {
  const char *name;
  FloatFormat format;
  const llvm::fltSemantics &(*semantics)();
};

const Target kTargets[] = {
    {"f16", {5, 10, false, false}, llvm::APFloat::IEEEhalf},
    {"bf16", {8, 7, false, false}, llvm::APFloat::BFloat},
    {"f8E4M3FN", {4, 3, true, false}, llvm::APFloat::Float8E4M3FN},
    {"f8E4M3FNUZ", {4, 3, true, true}, llvm::APFloat::Float8E4M3FNUZ},
    {"f8E5M2", {5, 2, false, false}, llvm::APFloat::Float8E5M2},
    {"f8E5M2FNUZ", {5, 2, true, true}, llvm::APFloat::Float8E5M2FNUZ},
};

class FloatQDQTruncFTest : public ::testing::Test {
protected:
  FloatQDQTruncFTest() : builder(&ctx) {
    ctx.loadDialect<QuantAffineDialect, arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// float_qdq of `values` (of type `elem`) by the folder.
  SmallVector<llvm::APFloat> fold(ArrayRef<llvm::APFloat> values,
                                  FloatType elem, const FloatFormat &f) {
    auto type =
        RankedTensorType::get({static_cast<int64_t>(values.size())}, elem);
    auto input = DenseElementsAttr::get(type, values);
    Value x = arith::ConstantOp::create(builder, builder.getUnknownLoc(), type,
                                        input);
    auto op = FloatQDQOp::create(builder, builder.getUnknownLoc(), type, x,
                                 Value(), f.exponentBits, f.mantissaBits,
                                 f.finite, f.unsignedZero, nullptr);
    Attribute folded =
        foldFloatQDQConstants(op, {input}, static_cast<int64_t>(1) << 30);
    op->erase();
    return llvm::to_vector(
        cast<DenseElementsAttr>(folded).getValues<llvm::APFloat>());
  }

  /// extf(truncf(clamp(x))) to the target type, by APFloat, the clamp at
  /// fmt_max exactly (in f32, which holds every input here but f64, and
  /// every fmt_max): bf16 cannot hold 65504, f16's largest value, and rounds
  /// it to 65536 only at the end.
  static llvm::APFloat viaTruncF(llvm::APFloat x, const Target &t) {
    const llvm::fltSemantics &sem = x.getSemantics();
    bool losesInfo;
    (void)x.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (!x.isNaN()) {
      llvm::APFloat max(static_cast<float>(t.format.maxValue()));
      llvm::APFloat min = -max;
      if (x.compare(min) == llvm::APFloat::cmpLessThan)
        x = min;
      if (max.compare(x) == llvm::APFloat::cmpLessThan)
        x = max;
    }
    (void)x.convert(t.semantics(), llvm::APFloat::rmNearestTiesToEven,
                    &losesInfo);
    (void)x.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return x;
  }

  /// Number of elements where the two sides differ (NaN equals NaN).
  int64_t mismatches(ArrayRef<llvm::APFloat> values, FloatType elem,
                     const Target &t) {
    SmallVector<llvm::APFloat> folded = fold(values, elem, t.format);
    int64_t count = 0;
    for (auto [x, y] : llvm::zip(values, folded)) {
      llvm::APFloat expected = viaTruncF(x, t);
      bool same = (expected.isNaN() && y.isNaN()) || expected.bitwiseIsEqual(y);
      if (!same && count++ < 3)
        ADD_FAILURE() << t.name << ": input " << x.convertToDouble()
                      << " folds to " << y.convertToDouble()
                      << ", truncf gives " << expected.convertToDouble();
    }
    return count;
  }

  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

SmallVector<llvm::APFloat> every16BitValue(const llvm::fltSemantics &sem) {
  SmallVector<llvm::APFloat> values;
  for (uint32_t bits = 0; bits < 65536; ++bits)
    values.emplace_back(sem, llvm::APInt(16, bits));
  return values;
}

} // namespace

TEST_F(FloatQDQTruncFTest, EveryF16) {
  SmallVector<llvm::APFloat> values =
      every16BitValue(llvm::APFloat::IEEEhalf());
  for (const Target &t : kTargets)
    EXPECT_EQ(mismatches(values, builder.getF16Type(), t), 0) << t.name;
}

TEST_F(FloatQDQTruncFTest, EveryBF16) {
  SmallVector<llvm::APFloat> values = every16BitValue(llvm::APFloat::BFloat());
  for (const Target &t : kTargets)
    EXPECT_EQ(mismatches(values, builder.getBF16Type(), t), 0) << t.name;
}

TEST_F(FloatQDQTruncFTest, RandomF32) {
  std::mt19937 rng(20261126);
  SmallVector<llvm::APFloat> values;
  for (int i = 0; i < (1 << 18); ++i) {
    // Half uniform bit patterns, half near 1 where the formats' grids are.
    uint32_t bits = rng();
    if (i % 2)
      bits = (0x3C000000u + bits % 0x08000000u) | (bits & 0x80000000u);
    values.emplace_back(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits));
  }
  for (const Target &t : kTargets)
    EXPECT_EQ(mismatches(values, builder.getF32Type(), t), 0) << t.name;
}
