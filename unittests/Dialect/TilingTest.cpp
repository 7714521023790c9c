//===- TilingTest.cpp - TilingInterface of the tensor ops -----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every tile of a 1-D op against every block size: the tiled op must give
// each element of the tile the scale the untiled op gives it, whatever the
// tile's alignment. And the C++ entry point of tile-and-fuse,
// scf::tileConsumerAndFuseProducersUsingSCF, on a matmul fed by a dequantize.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/IR/TilingInterfaceImpl.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
class TilingTest : public ::testing::Test {
protected:
  TilingTest() {
    DialectRegistry registry;
    registry.insert<QuantAffineDialect, affine::AffineDialect>();
    registry.insert<arith::ArithDialect, func::FuncDialect>();
    registry.insert<linalg::LinalgDialect, scf::SCFDialect>();
    registry.insert<tensor::TensorDialect>();
    registerTilingInterfaceExternalModels(registry);
    linalg::registerTilingInterfaceExternalModels(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// The static offset and size of a 1-D slice.
  static std::pair<int64_t, int64_t> sliceOf(Value v) {
    auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
    EXPECT_TRUE(slice);
    return {slice.getStaticOffsets()[0], slice.getStaticSizes()[0]};
  }

  /// Tiles a qdq of `x` elements whose scale has `s` elements (block_size
  /// `block`, or none when 0) at [off, off + size) and checks that element j
  /// of the tile uses scale j / trueBlock, as the untiled op does.
  void checkTile(int64_t x, int64_t s, int64_t block, int64_t trueBlock,
                 int64_t off, int64_t size) {
    OpBuilder b(&ctx);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    Value input = tensor::EmptyOp::create(b, loc, {x}, b.getF32Type());
    Value scale = tensor::EmptyOp::create(b, loc, {s}, b.getF32Type());
    SmallVector<int64_t> blocks;
    if (block)
      blocks.push_back(block);
    auto op =
        QDQOp::create(b, loc, input, scale, Value(), QuantRange(-8, 7), blocks);
    FailureOr<TilingResult> result =
        cast<TilingInterface>(op.getOperation())
            .getTiledImplementation(b, {b.getIndexAttr(off)},
                                    {b.getIndexAttr(size)});
    ASSERT_TRUE(succeeded(result));
    auto tiled = cast<QuantizerOpInterface>(result->tiledOps.front());
    auto [inOff, inSize] = sliceOf(tiled.getInput());
    int64_t sOff = 0, sSize = 1;
    if (s != 1)
      std::tie(sOff, sSize) = sliceOf(tiled.getScale());
    // Inside the input, covering the tile.
    EXPECT_TRUE(inOff >= 0 && inOff <= off && off + size <= inOff + inSize &&
                inOff + inSize <= x);
    // The tiled op's block, resolved as its verifier reads it.
    int64_t tiledBlock = 1;
    if (DenseI64ArrayAttr attr = tiled.getBlockSizeAttr())
      tiledBlock = attr[0] == -1 ? inSize / sSize : attr[0];
    else if (sSize == 1)
      tiledBlock = inSize;
    EXPECT_EQ(tiledBlock * sSize, inSize);
    // Where the tile lies in the tiled result.
    int64_t resultOff = 0;
    Value value = result->tiledValues.front();
    if (value != tiled.getResult())
      resultOff = sliceOf(value).first;
    EXPECT_EQ(cast<RankedTensorType>(value.getType()).getShape(),
              ArrayRef<int64_t>{size});
    EXPECT_EQ(inOff + resultOff, off);
    for (int64_t j = off; j < off + size; ++j)
      ASSERT_EQ(sOff + (j - inOff) / tiledBlock, j / trueBlock)
          << "x " << x << " block " << block << " tile [" << off << ", "
          << off + size << ") element " << j;
  }

  MLIRContext ctx;
};
} // namespace

TEST_F(TilingTest, EveryTileOfEveryBlock) {
  constexpr int64_t x = 24;
  for (int64_t block : {1, 2, 3, 4, 6, 8, 12, 24})
    for (int64_t off = 0; off < x; ++off)
      for (int64_t size = 1; off + size <= x; ++size) {
        checkTile(x, x / block, block, block, off, size);
        checkTile(x, x / block, -1, block, off, size);
      }
}

TEST_F(TilingTest, EveryTileUnblocked) {
  constexpr int64_t x = 12;
  for (int64_t off = 0; off < x; ++off)
    for (int64_t size = 1; off + size <= x; ++size) {
      checkTile(x, x, 0, 1, off, size); // per element
      checkTile(x, 1, 0, x, off, size); // broadcast
    }
}

// K tiles of 24 over blocks of 32: the fused dequantize reads whole blocks.
constexpr const char *kMatmulOfDequantize = R"mlir(
  func.func @f(%a: tensor<4x64xf32>, %w: tensor<8x64xi4>, %s: tensor<8x2xf32>,
               %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %b = quant_affine.dequantize %w, %s range [-8, 7] block [1, 32]
        : (tensor<8x64xi4>, tensor<8x2xf32>) -> tensor<8x64xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b : tensor<4x64xf32>, tensor<8x64xf32>)
        outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
)mlir";

TEST_F(TilingTest, TileConsumerAndFuseProducers) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kMatmulOfDequantize, &ctx);
  ASSERT_TRUE(module);
  linalg::MatmulOp matmul;
  module->walk([&](linalg::MatmulOp op) { matmul = op; });
  IRRewriter rewriter(&ctx);
  rewriter.setInsertionPoint(matmul);
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes({rewriter.getIndexAttr(2),
                                      rewriter.getIndexAttr(4),
                                      rewriter.getIndexAttr(24)});
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(matmul.getOperation()), options);
  ASSERT_TRUE(succeeded(result));
  rewriter.replaceOp(matmul, result->replacements.lookup(matmul.getResult(0)));

  ASSERT_EQ(result->fusedProducers.size(), 1u);
  auto producer = cast<DequantizeOp>(*result->fusedProducers.begin());
  // Only the slice that fusion replaced reads the untiled op any more.
  for (Operation *user : llvm::make_early_inc_range(producer->getUsers())) {
    EXPECT_TRUE(isa<tensor::ExtractSliceOp>(user) && user->use_empty());
    rewriter.eraseOp(user);
  }
  rewriter.eraseOp(producer);
  ASSERT_EQ(result->loops.size(), 3u);
  DequantizeOp fused;
  result->loops.back()->walk([&](DequantizeOp op) { fused = op; });
  ASSERT_TRUE(fused);
  EXPECT_EQ(fused.getBlockSizeAttr().asArrayRef(), ArrayRef<int64_t>({1, 32}));
  // Rows 4 of the weight, and whole blocks of K around each tile of 24.
  EXPECT_EQ(fused.getInput().getType(),
            RankedTensorType::get({4, ShapedType::kDynamic},
                                  IntegerType::get(&ctx, 4)));
  EXPECT_TRUE(succeeded(verify(*module)));
}
