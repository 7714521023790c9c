//===- BuildersTest.cpp - op builders for the three range forms -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
class BuildersTest : public ::testing::Test {
protected:
  BuildersTest() : builder(&ctx) {
    ctx.loadDialect<QuantAffineDialect, tensor::TensorDialect,
                    arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  Value empty(ArrayRef<int64_t> shape, Type elem) {
    return tensor::EmptyOp::create(builder, builder.getUnknownLoc(), shape,
                                   elem);
  }

  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(BuildersTest, QuantizeFromBitwidth) {
  Value x = empty({4, 64}, builder.getF32Type());
  Value s = empty({4, 2}, builder.getF32Type());
  Type i4 = RankedTensorType::get({4, 64}, builder.getIntegerType(4));
  auto op = QuantizeOp::create(builder, builder.getUnknownLoc(), i4, x, s,
                               /*offset=*/Value(),
                               *QuantRange::fromBitwidth(4, /*isSigned=*/true),
                               /*blockSize=*/{1, 32});
  EXPECT_EQ(op.getQmin(), static_cast<uint64_t>(-8));
  EXPECT_EQ(op.getRange(), QuantRange(-8, 7));
  EXPECT_EQ(op.getBlockSizeAttr().asArrayRef(), ArrayRef<int64_t>({1, 32}));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(BuildersTest, DequantizeFromNumSteps) {
  Value q = empty({16, 8}, builder.getIntegerType(8));
  Value s = empty({16, 1}, builder.getF32Type());
  Type f32 = RankedTensorType::get({16, 8}, builder.getF32Type());
  auto op = DequantizeOp::create(builder, builder.getUnknownLoc(), f32, q, s, s,
                                 *QuantRange::fromNumSteps(254, true));
  EXPECT_EQ(op.getRange(), QuantRange(-127, 127));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(BuildersTest, QDQFromQminQmaxInfersType) {
  Value x = empty({3, 5}, builder.getBF16Type());
  Value s = empty({}, builder.getF32Type());
  auto op = QDQOp::create(builder, builder.getUnknownLoc(), x, s, Value(),
                          QuantRange(0, 255));
  EXPECT_EQ(op.getType(), x.getType());
  EXPECT_EQ(op.getRange(), QuantRange(0, 255));
  // An 8-bit grid on bf16 computes in f32 unless told otherwise.
  EXPECT_TRUE(op.getEffectiveComputeType().isF32());
  auto explicitOp =
      QDQOp::create(builder, builder.getUnknownLoc(), x, s, Value(),
                    QuantRange(0, 255), {}, builder.getBF16Type());
  EXPECT_TRUE(explicitOp.getEffectiveComputeType().isBF16());
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(BuildersTest, VerifierRejectsBadRange) {
  Value x = empty({4}, builder.getF32Type());
  Value s = empty({}, builder.getF32Type());
  Type i4 = RankedTensorType::get({4}, builder.getIntegerType(4));
  QuantizeOp::create(builder, builder.getUnknownLoc(), i4, x, s, Value(),
                     QuantRange(0, 16));
  // Diagnostics go to stderr; only the failure matters here.
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(*module)));
}

// Every quantizer op gives its encoding through QuantizerOpInterface, as one
// value, without the consumer knowing which op it has.
TEST_F(BuildersTest, InterfaceGivesTheSpec) {
  Value x = empty({4, 64}, builder.getBF16Type());
  Value s = empty({4, 2}, builder.getF32Type());
  Type i4 = RankedTensorType::get({4, 64}, builder.getIntegerType(4));
  Location loc = builder.getUnknownLoc();
  auto quantize = QuantizeOp::create(builder, loc, i4, x, s, Value(),
                                     QuantRange(-8, 7), {1, -1});
  auto dequantize =
      DequantizeOp::create(builder, loc, x.getType(), quantize, s, Value(),
                           QuantRange(-8, 7), {1, 32}, builder.getF32Type());
  Value perTensor = empty({}, builder.getF32Type());
  auto qdq =
      QDQOp::create(builder, loc, x, perTensor, Value(), QuantRange(0, 255));

  QuantizerSpec q = cast<QuantizerOpInterface>(*quantize).getSpec();
  EXPECT_EQ(q.formula.kind, QuantizerKind::Quantize);
  EXPECT_TRUE(q.formula.quantizes() && !q.formula.dequantizes());
  EXPECT_EQ(q.range, QuantRange(-8, 7));
  ASSERT_TRUE(q.getBlockSize().has_value());
  EXPECT_EQ(*q.getBlockSize(), ArrayRef<int64_t>({1, -1}));
  EXPECT_TRUE(q.computeType.isBF16()); // 4 bits are stable in bf16

  QuantizerSpec d = cast<QuantizerOpInterface>(*dequantize).getSpec();
  EXPECT_EQ(d.formula.kind, QuantizerKind::Dequantize);
  EXPECT_TRUE(d.computeType.isF32()); // explicit
  EXPECT_FALSE(q.sameEncodingAs(d));  // blocks and compute type differ

  QuantizerSpec y = cast<QuantizerOpInterface>(*qdq).getSpec();
  EXPECT_EQ(y.formula.kind, QuantizerKind::QDQ);
  EXPECT_FALSE(y.getBlockSize().has_value());
  EXPECT_TRUE(y.computeType.isF32()); // 8 bits promote bf16
  EXPECT_TRUE(succeeded(verify(*module)));
}

// cloneWith keeps every property and attribute, whatever the op defines.
TEST_F(BuildersTest, CloneWithKeepsProperties) {
  Value x = empty({4, 64}, builder.getF32Type());
  Value s = empty({4, 2}, builder.getF32Type());
  Location loc = builder.getUnknownLoc();
  auto qdq = QDQOp::create(builder, loc, x, s, s, QuantRange(-8, 7), {1, 32},
                           builder.getF64Type());
  qdq->setAttr("user.tag", builder.getUnitAttr());
  Value x2 = empty({4, 64}, builder.getF32Type());
  QuantizerOpInterface copy = cast<QuantizerOpInterface>(*qdq).cloneWith(
      builder, x2, s, Value(), x2.getType());
  EXPECT_EQ(copy.getInput(), x2);
  EXPECT_FALSE(copy.getOffset());
  EXPECT_EQ(copy->getPropertiesAsAttribute(), qdq->getPropertiesAsAttribute());
  EXPECT_TRUE(copy->hasAttr("user.tag"));
  EXPECT_TRUE(succeeded(verify(*module)));
}
