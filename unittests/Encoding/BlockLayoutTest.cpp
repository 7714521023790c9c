//===- BlockLayoutTest.cpp - block sizes, broadcasting, scale index -------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;
using Shape = llvm::SmallVector<int64_t>;

bool fits(Shape x, Shape s, std::optional<Shape> b = std::nullopt) {
  std::optional<llvm::ArrayRef<int64_t>> ref;
  if (b)
    ref = llvm::ArrayRef<int64_t>(*b);
  return !checkEncodingShapes(x, s, ref).has_value();
}

Shape resolve(Shape x, Shape s, std::optional<Shape> b = std::nullopt) {
  std::optional<llvm::ArrayRef<int64_t>> ref;
  if (b)
    ref = llvm::ArrayRef<int64_t>(*b);
  return resolveBlockSizes(x, s, ref);
}
} // namespace

TEST(BlockLayout, BroadcastRules) {
  EXPECT_TRUE(fits({4, 8}, {}));     // per-tensor, rank 0
  EXPECT_TRUE(fits({4, 8}, {1, 1})); // per-tensor, all ones
  EXPECT_TRUE(fits({4, 8}, {8}));    // (C) pairs with the last axis
  EXPECT_FALSE(fits({4, 8}, {4}));   // ... not with axis 0
  EXPECT_TRUE(fits({4, 8}, {4, 1})); // per-channel on axis 0
  EXPECT_TRUE(fits({4, 8}, {4, 8})); // per-element
  EXPECT_FALSE(fits({4, 8}, {2, 1}));
  EXPECT_FALSE(fits({4, 8}, {1, 4, 8})); // scale rank above input rank
  EXPECT_TRUE(fits({kDyn, 8}, {3, 1}));  // checked at run time
  EXPECT_TRUE(fits({4, 8}, {kDyn, 1}));
}

TEST(BlockLayout, BlockRules) {
  EXPECT_TRUE(fits({4, 64}, {4, 2}, Shape{1, 32}));
  EXPECT_TRUE(fits({4, 64}, {4, 2}, Shape{-1, -1}));
  EXPECT_TRUE(fits({8, 8}, {8, 2}, Shape{-1, 4}));     // seed 003
  EXPECT_FALSE(fits({4, 64}, {4, 2}, Shape{1, 16}));   // partial cover
  EXPECT_FALSE(fits({4, 64}, {4, 3}, Shape{1, -1}));   // 64 % 3 != 0
  EXPECT_FALSE(fits({4, 64}, {4, 2}, Shape{1, 0}));    // 0 is not a size
  EXPECT_FALSE(fits({4, 64}, {4, 2}, Shape{1, -2}));   // below -1
  EXPECT_FALSE(fits({4, 64}, {4, 2}, Shape{32}));      // wrong length
  EXPECT_TRUE(fits({2, 4, 64}, {4, 2}, Shape{1, 32})); // leading dim shared
  EXPECT_TRUE(fits({kDyn, 64}, {kDyn, 2}, Shape{1, 32}));
  EXPECT_TRUE(fits({4, kDyn}, {4, 2}, Shape{1, 32}));
  EXPECT_TRUE(fits({0, 64}, {0, 2}, Shape{-1, 32}));
  EXPECT_FALSE(fits({4, 64}, {0, 2}, Shape{-1, 32}));
  // A block times a scale dim that overflows int64 never matches.
  EXPECT_FALSE(
      fits({4, 64}, {4, int64_t{1} << 40}, Shape{1, int64_t{1} << 40}));
}

// Overflow is rejected even where the input dim is only known at run time;
// a static input dim that a block does not divide fits no dynamic scale.
TEST(BlockLayout, BlockOverflowAndDivisibility) {
  int64_t big = int64_t{1} << 62;
  EXPECT_FALSE(fits({kDyn}, {4}, Shape{big}));
  EXPECT_FALSE(fits({kDyn}, {2}, Shape{big})); // 2^63 is above INT64_MAX
  EXPECT_TRUE(fits({kDyn}, {1}, Shape{big}));
  EXPECT_FALSE(fits({kDyn, 8}, {2, 2}, Shape{INT64_MAX, 4}));
  auto msg = checkEncodingShapes({kDyn}, {4}, llvm::ArrayRef<int64_t>(big));
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("overflows int64"), std::string::npos) << *msg;

  EXPECT_FALSE(fits({6}, {kDyn}, Shape{4}));
  EXPECT_TRUE(fits({8}, {kDyn}, Shape{4}));
  EXPECT_TRUE(fits({0}, {kDyn}, Shape{4}));
  EXPECT_TRUE(fits({6}, {kDyn}, Shape{-1})); // the wildcard adapts
}

TEST(BlockLayout, StaticElementCount) {
  EXPECT_EQ(staticElementCount({}), 1);
  EXPECT_EQ(staticElementCount({4, kDyn, 8}), 32);
  EXPECT_EQ(staticElementCount({int64_t{1} << 32, int64_t{1} << 31}),
            std::nullopt); // 2^63
  EXPECT_EQ(staticElementCount({int64_t{1} << 32, int64_t{1} << 30}),
            int64_t{1} << 62);
  EXPECT_EQ(staticElementCount({int64_t{1} << 32, int64_t{1} << 32}),
            std::nullopt);
  // A static 0 empties the shape whatever the other dims.
  EXPECT_EQ(staticElementCount({INT64_MAX, INT64_MAX, 0}), 0);
  EXPECT_EQ(staticElementCount({INT64_MAX, kDyn}), INT64_MAX);
}

TEST(BlockLayout, ShapeSize) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx), i8 = IntegerType::get(&ctx, 8);
  Type i4 = IntegerType::get(&ctx, 4), f64 = Float64Type::get(&ctx);
  EXPECT_FALSE(checkShapeSize({4, 64}, f32));
  EXPECT_FALSE(checkShapeSize({INT64_MAX}, i8));
  EXPECT_FALSE(checkShapeSize({INT64_MAX}, i4)); // at most a byte each
  EXPECT_TRUE(checkShapeSize({INT64_MAX}, f32));
  EXPECT_FALSE(checkShapeSize({int64_t{1} << 59, kDyn}, f64));
  EXPECT_TRUE(checkShapeSize({int64_t{1} << 60, kDyn}, f64)); // 2^63 bytes
  std::optional<std::string> msg =
      checkShapeSize({int64_t{1} << 32, int64_t{1} << 32}, i8);
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("element count overflows int64"), std::string::npos)
      << *msg;
  msg = checkShapeSize({int64_t{1} << 62}, f32);
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("in bytes"), std::string::npos) << *msg;
}

TEST(BlockLayout, CheckMessagesNameTheRule) {
  Shape x{4, 64}, s{4, 3}, b{1, -1};
  auto msg = checkEncodingShapes(x, s, llvm::ArrayRef<int64_t>(b));
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("needs a multiple of scale dim 1 size 3"),
            std::string::npos)
      << *msg;
}

TEST(BlockLayout, Resolve) {
  EXPECT_EQ(resolve({4, 64}, {4, 2}, Shape{1, 32}), (Shape{1, 32}));
  EXPECT_EQ(resolve({4, 64}, {4, 2}, Shape{-1, -1}), (Shape{1, 32}));
  EXPECT_EQ(resolve({4, 64}, {4, 1}), (Shape{1, 64}));
  EXPECT_EQ(resolve({4, 64}, {64}), (Shape{1}));
  EXPECT_EQ(resolve({4, 64}, {}), (Shape{}));
  EXPECT_EQ(resolve({kDyn, 64}, {1, 1}), (Shape{kDyn, 64}));
  EXPECT_EQ(resolve({kDyn, 64}, {kDyn, 2}, Shape{1, -1}), (Shape{1, 32}));
  EXPECT_EQ(resolve({4, kDyn}, {4, 2}, Shape{1, -1}), (Shape{1, kDyn}));
  EXPECT_EQ(resolve({4, 64}, {4, kDyn}), (Shape{1, kDyn}));
}

TEST(BlockLayout, ScaleIndexFollowsFloorDivision) {
  // i_d = floor(j_d / B_d) over the trailing dims.
  Shape blocks = resolve({2, 4, 64}, {4, 2}, Shape{1, 32});
  EXPECT_EQ(scaleIndexOf({1, 3, 31}, blocks), (Shape{3, 0}));
  EXPECT_EQ(scaleIndexOf({0, 2, 32}, blocks), (Shape{2, 1}));
  EXPECT_EQ(scaleIndexOf({1, 0, 63}, blocks), (Shape{0, 1}));
  // Broadcast dims always use index 0.
  Shape perRow = resolve({4, 8}, {4, 1});
  for (int64_t j = 0; j < 8; ++j)
    EXPECT_EQ(scaleIndexOf({2, j}, perRow), (Shape{2, 0}));
  EXPECT_EQ(scaleIndexOf({3, 7}, resolve({4, 8}, {})), (Shape{}));
}
