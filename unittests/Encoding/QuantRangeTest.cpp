//===- QuantRangeTest.cpp - qmin/qmax derivation --------------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "gtest/gtest.h"

using namespace mlir::quant_affine;

// AIMET: n = 2^b - 1; signed [-ceil(n/2), floor(n/2)], unsigned [0, n]. For an
// odd n that is exactly the two's complement range of b bits.
TEST(QuantRange, BitwidthUnsigned1To32) {
  for (unsigned b = 1; b <= 32; ++b) {
    QuantRange r = *QuantRange::fromBitwidth(b, /*isSigned=*/false);
    EXPECT_EQ(r.qmin, 0) << "bitwidth " << b;
    EXPECT_EQ(r.qmax, (int64_t{1} << b) - 1) << "bitwidth " << b;
    EXPECT_FALSE(r.isSigned());
    EXPECT_TRUE(r.fitsInteger(b));
    if (b > 1)
      EXPECT_FALSE(r.fitsInteger(b - 1));
  }
}

TEST(QuantRange, BitwidthSigned1To32) {
  for (unsigned b = 1; b <= 32; ++b) {
    QuantRange r = *QuantRange::fromBitwidth(b, /*isSigned=*/true);
    EXPECT_EQ(r.qmin, -(int64_t{1} << (b - 1))) << "bitwidth " << b;
    EXPECT_EQ(r.qmax, (int64_t{1} << (b - 1)) - 1) << "bitwidth " << b;
    EXPECT_TRUE(r.isSigned());
    EXPECT_TRUE(r.fitsInteger(b));
    EXPECT_EQ(r, QuantRange::ofInteger(b, /*isSigned=*/true));
  }
}

TEST(QuantRange, KnownBitwidths) {
  EXPECT_EQ(*QuantRange::fromBitwidth(1, true), QuantRange(-1, 0));
  EXPECT_EQ(*QuantRange::fromBitwidth(1, false), QuantRange(0, 1));
  EXPECT_EQ(*QuantRange::fromBitwidth(4, true), QuantRange(-8, 7));
  EXPECT_EQ(*QuantRange::fromBitwidth(8, true), QuantRange(-128, 127));
  EXPECT_EQ(*QuantRange::fromBitwidth(8, false), QuantRange(0, 255));
  EXPECT_EQ(*QuantRange::fromBitwidth(32, true),
            QuantRange(-2147483648LL, 2147483647LL));
  EXPECT_EQ(*QuantRange::fromBitwidth(32, false), QuantRange(0, 4294967295LL));
}

TEST(QuantRange, NumSteps) {
  EXPECT_EQ(*QuantRange::fromNumSteps(15, true), QuantRange(-8, 7));
  EXPECT_EQ(*QuantRange::fromNumSteps(14, true), QuantRange(-7, 7));
  EXPECT_EQ(*QuantRange::fromNumSteps(15, false), QuantRange(0, 15));
  EXPECT_EQ(*QuantRange::fromNumSteps(254, true), QuantRange(-127, 127));
  EXPECT_EQ(*QuantRange::fromNumSteps(1, true), QuantRange(-1, 0));
  EXPECT_EQ(*QuantRange::fromNumSteps(0, true), QuantRange(0, 0));
  EXPECT_EQ(*QuantRange::fromNumSteps(0, false), QuantRange(0, 0));
  // Every step count agrees with the closed forms.
  for (uint64_t n = 0; n < 600; ++n) {
    QuantRange s = *QuantRange::fromNumSteps(n, true);
    EXPECT_EQ(s.qmin, -static_cast<int64_t>((n + 1) / 2));
    EXPECT_EQ(s.qmax, static_cast<int64_t>(n / 2));
    EXPECT_EQ(s.numSteps(), n);
    EXPECT_EQ(QuantRange::fromNumSteps(n, false)->numSteps(), n);
  }
}

TEST(QuantRange, FitsInteger) {
  EXPECT_TRUE(QuantRange(-8, 7).fitsInteger(4));
  EXPECT_FALSE(QuantRange(-8, 8).fitsInteger(4));
  EXPECT_FALSE(QuantRange(-9, 7).fitsInteger(4));
  EXPECT_TRUE(QuantRange(0, 15).fitsInteger(4));
  EXPECT_FALSE(QuantRange(0, 16).fitsInteger(4));
  EXPECT_TRUE(QuantRange(3, 5).fitsInteger(3));
  EXPECT_TRUE(QuantRange(-1, 0).fitsInteger(1));
  EXPECT_TRUE(QuantRange(0, 1).fitsInteger(1));
  EXPECT_FALSE(QuantRange(-1, 1).fitsInteger(1));
  EXPECT_TRUE(QuantRange(INT64_MIN, INT64_MAX).fitsInteger(64));
}

TEST(QuantRange, NumStepsDoesNotOverflow) {
  EXPECT_EQ(QuantRange(INT64_MIN, INT64_MAX).numSteps(), UINT64_MAX);
  EXPECT_EQ(QuantRange(-5, -5).numSteps(), 0u);
  EXPECT_TRUE(QuantRange(-5, -5).isValid());
  EXPECT_FALSE(QuantRange(1, 0).isValid());
}

// Bit widths outside [1, 63] have no grid with int64 ends: they fail instead
// of shifting out of range.
TEST(QuantRange, BitwidthOutOfRangeFails) {
  for (bool isSigned : {false, true}) {
    EXPECT_TRUE(failed(QuantRange::fromBitwidth(0, isSigned)));
    EXPECT_TRUE(failed(QuantRange::fromBitwidth(64, isSigned)));
    EXPECT_TRUE(failed(QuantRange::fromBitwidth(65, isSigned)));
    EXPECT_TRUE(failed(QuantRange::fromBitwidth(~0u, isSigned)));
    EXPECT_TRUE(succeeded(QuantRange::fromBitwidth(1, isSigned)));
    EXPECT_TRUE(succeeded(QuantRange::fromBitwidth(63, isSigned)));
  }
  EXPECT_EQ(*QuantRange::fromBitwidth(63, false), QuantRange(0, INT64_MAX));
  EXPECT_EQ(*QuantRange::fromBitwidth(63, true),
            QuantRange(-(int64_t{1} << 62), (int64_t{1} << 62) - 1));
}

TEST(QuantRange, NumStepsOutOfRangeFails) {
  uint64_t max = QuantRange::kMaxNumSteps;
  EXPECT_EQ(*QuantRange::fromNumSteps(max, false), QuantRange(0, INT64_MAX));
  // ceil(n/2) computed without overflowing n + 1.
  EXPECT_EQ(*QuantRange::fromNumSteps(max, true),
            QuantRange(-(int64_t{1} << 62), (int64_t{1} << 62) - 1));
  EXPECT_TRUE(failed(QuantRange::fromNumSteps(max + 1, false)));
  EXPECT_TRUE(failed(QuantRange::fromNumSteps(max + 1, true)));
  EXPECT_TRUE(failed(QuantRange::fromNumSteps(UINT64_MAX, true)));
}

// A 0-bit integer holds only 0; the check never shifts out of range.
TEST(QuantRange, FitsZeroWidthInteger) {
  EXPECT_TRUE(QuantRange(0, 0).fitsInteger(0));
  EXPECT_FALSE(QuantRange(0, 1).fitsInteger(0));
  EXPECT_FALSE(QuantRange(-1, 0).fitsInteger(0));
}
