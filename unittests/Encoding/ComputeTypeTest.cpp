//===- ComputeTypeTest.cpp - AIMET's compute-type rule --------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each threshold is tested on both sides: eps(C) > 0.25 / (qmax - qmin)
// promotes, i.e. f16 keeps grids of up to 256 steps, bf16 up to 32 and f32 up
// to 2^21; a grid value C cannot represent exactly also promotes.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
class ComputeTypeTest : public ::testing::Test {
protected:
  MLIRContext ctx;
  FloatType f16 = Float16Type::get(&ctx);
  FloatType bf16 = BFloat16Type::get(&ctx);
  FloatType f32 = Float32Type::get(&ctx);
  FloatType f64 = Float64Type::get(&ctx);

  FloatType qdq(FloatType t, QuantRange r) {
    return getEffectiveComputeType(QuantizerKind::QDQ, t, r);
  }
  FloatType quantize(FloatType t, QuantRange r) {
    return getEffectiveComputeType(QuantizerKind::Quantize, t, r);
  }
};
} // namespace

TEST_F(ComputeTypeTest, F16Threshold) {
  EXPECT_EQ(qdq(f16, {0, 255}), f16);
  EXPECT_EQ(qdq(f16, {-128, 127}), f16);
  EXPECT_EQ(qdq(f16, {0, 256}), f16); // n = 256: eps = 0.25 / n exactly
  EXPECT_EQ(qdq(f16, {0, 257}), f32); // n = 257 promotes
  EXPECT_EQ(qdq(f16, {-8, 7}), f16);
  EXPECT_EQ(qdq(f16, *QuantRange::fromBitwidth(16, true)), f32);
}

TEST_F(ComputeTypeTest, BF16Threshold) {
  EXPECT_EQ(qdq(bf16, {0, 32}), bf16);
  EXPECT_EQ(qdq(bf16, {0, 33}), f32);
  EXPECT_EQ(qdq(bf16, {-16, 15}), bf16);  // 5-bit
  EXPECT_EQ(qdq(bf16, {-32, 31}), f32);   // 6-bit
  EXPECT_EQ(qdq(bf16, {-128, 127}), f32); // 8-bit qdq of bf16 runs in f32
}

TEST_F(ComputeTypeTest, F32Threshold) {
  EXPECT_EQ(qdq(f32, {0, 1 << 21}), f32);
  EXPECT_EQ(qdq(f32, {0, (1 << 21) + 1}), f64);
  EXPECT_EQ(qdq(f32, *QuantRange::fromBitwidth(16, false)), f32);
  EXPECT_EQ(qdq(f32, *QuantRange::fromBitwidth(32, true)), f64);
  EXPECT_EQ(qdq(f32, *QuantRange::fromBitwidth(32, false)), f64);
  EXPECT_EQ(qdq(f16, *QuantRange::fromBitwidth(32, true)), f64);
}

TEST_F(ComputeTypeTest, F64Stays) {
  EXPECT_EQ(qdq(f64, {0, 255}), f64);
  EXPECT_EQ(qdq(f64, *QuantRange::fromBitwidth(32, true)), f64);
  EXPECT_EQ(qdq(f64, {INT64_MIN, INT64_MAX}), f64);
}

TEST_F(ComputeTypeTest, GridRepresentability) {
  // One step, but 2049 needs 12 significant bits: f16 (11) cannot hold it.
  EXPECT_EQ(qdq(f16, {2048, 2049}), f32);
  EXPECT_EQ(qdq(f16, {1024, 1025}), f16);
  EXPECT_EQ(qdq(bf16, {256, 257}), f32);
  EXPECT_EQ(qdq(bf16, {128, 129}), bf16);
  // Both ends representable, but qmin + 1 = 2^25 + 1 is not in f32.
  EXPECT_EQ(qdq(f32, {1 << 25, (1 << 25) + (1 << 21)}), f64);
  // Beyond f16's largest finite value.
  EXPECT_EQ(qdq(f16, {65504, 65504}), f32);
  EXPECT_EQ(qdq(f16, {-2, -2}), f16); // one-point grid
}

TEST_F(ComputeTypeTest, QuantizeFollowsQDQRule) {
  EXPECT_EQ(quantize(bf16, {-128, 127}), f32);
  EXPECT_EQ(quantize(f16, {0, 255}), f16);
  EXPECT_EQ(quantize(f32, *QuantRange::fromBitwidth(32, true)), f64);
}

TEST_F(ComputeTypeTest, DequantizeUsesResultType) {
  EXPECT_EQ(
      getEffectiveComputeType(QuantizerKind::Dequantize, bf16, {-128, 127}),
      bf16);
  EXPECT_EQ(getEffectiveComputeType(QuantizerKind::Dequantize, f32,
                                    *QuantRange::fromBitwidth(32, true)),
            f32);
}

TEST_F(ComputeTypeTest, ExplicitWins) {
  EXPECT_EQ(
      getEffectiveComputeType(QuantizerKind::QDQ, bf16, {-128, 127}, bf16),
      bf16);
  EXPECT_EQ(
      getEffectiveComputeType(QuantizerKind::Dequantize, f16, {0, 255}, f64),
      f64);
}

// f64 results are rounded to f16/bf16 through f32 (AIMET), and f16 <-> bf16
// goes through f32, which holds both; everything else rounds once.
TEST_F(ComputeTypeTest, ConversionIntermediate) {
  EXPECT_EQ(conversionIntermediate(f64, f16), f32);
  EXPECT_EQ(conversionIntermediate(f64, bf16), f32);
  EXPECT_EQ(conversionIntermediate(f16, bf16), f32);
  EXPECT_EQ(conversionIntermediate(bf16, f16), f32);
  EXPECT_EQ(conversionIntermediate(f64, f32), std::nullopt);
  EXPECT_EQ(conversionIntermediate(f32, f16), std::nullopt);
  EXPECT_EQ(conversionIntermediate(f16, f64), std::nullopt);
  EXPECT_EQ(conversionIntermediate(f32, f32), std::nullopt);
}

// An explicit compute type with an integer result must hold qmin and qmax
// exactly (DESIGN section 3); the message names the end and its rounding.
TEST_F(ComputeTypeTest, ExplicitTypeMustHoldGridEnds) {
  std::optional<std::string> bf16Int16 =
      checkComputeTypeHoldsGrid(bf16, {-32768, 32767});
  ASSERT_TRUE(bf16Int16.has_value());
  EXPECT_NE(bf16Int16->find("qmax = 32767"), std::string::npos) << *bf16Int16;
  EXPECT_NE(bf16Int16->find("rounds to 32768"), std::string::npos)
      << *bf16Int16;
  // qmin = -32768 is a power of two: only qmax fails.
  EXPECT_FALSE(checkComputeTypeHoldsGrid(bf16, {-32768, 256}).has_value());
  EXPECT_FALSE(checkComputeTypeHoldsGrid(bf16, {-128, 127}).has_value());
  EXPECT_FALSE(checkComputeTypeHoldsGrid(f32, {-32768, 32767}).has_value());
  // f16 rounds 65535 past its largest finite value.
  std::optional<std::string> f16Uint16 =
      checkComputeTypeHoldsGrid(f16, {0, 65535});
  ASSERT_TRUE(f16Uint16.has_value());
  EXPECT_NE(f16Uint16->find("rounds to inf"), std::string::npos) << *f16Uint16;
  std::optional<std::string> f32Int32 =
      checkComputeTypeHoldsGrid(f32, {-2147483647 - 1, 2147483647});
  ASSERT_TRUE(f32Int32.has_value());
  EXPECT_NE(f32Int32->find("qmax = 2147483647"), std::string::npos);
  EXPECT_FALSE(
      checkComputeTypeHoldsGrid(f64, {INT32_MIN, INT64_C(4294967295)}));
  EXPECT_TRUE(isExactlyRepresentable(bf16, 256));
  EXPECT_FALSE(isExactlyRepresentable(bf16, 257));
  EXPECT_TRUE(isExactlyRepresentable(f64, INT64_MIN));
  EXPECT_FALSE(isExactlyRepresentable(f64, INT64_MAX));
}

// The default rule always picks a type that holds the grid's ends, so a
// compute_type equal to it is always valid (and canonicalization may drop or
// keep it freely).
TEST_F(ComputeTypeTest, DefaultTypeHoldsIntegerGrids) {
  for (FloatType t : {f16, bf16, f32, f64})
    for (unsigned bits = 1; bits <= 32; ++bits)
      for (bool isSigned : {false, true}) {
        QuantRange r = *QuantRange::fromBitwidth(bits, isSigned);
        FloatType c = quantize(t, r);
        EXPECT_FALSE(checkComputeTypeHoldsGrid(c, r).has_value())
            << bits << " bits, signed " << isSigned;
      }
}
