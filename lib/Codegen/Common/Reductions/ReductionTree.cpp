//===- ReductionTree.cpp - rows reduced together by shuffles --------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream lowers an inner multi-reduction to one horizontal reduction per
// row: for blocks as short as a vector (MX blocks of 32, NVFP4's 16) that
// shuffle tree per block costs more than reading the block. Reducing R rows
// together transposes as it reduces: every shuffle moves useful lanes.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/ReductionTree.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"

using namespace mlir;

namespace {

using vector::CombiningKind;

/// Whether combining by `kind` on `element` gives the same bits in any
/// order and grouping.
bool isExactInAnyOrder(CombiningKind kind, Type element) {
  switch (kind) {
  case CombiningKind::ADD:
  case CombiningKind::MUL:
    return isa<IntegerType>(element); // wrapping, so associative
  case CombiningKind::MINUI:
  case CombiningKind::MINSI:
  case CombiningKind::MAXUI:
  case CombiningKind::MAXSI:
  case CombiningKind::AND:
  case CombiningKind::OR:
  case CombiningKind::XOR:
  case CombiningKind::MINIMUMF:
  case CombiningKind::MAXIMUMF:
    return true;
  default:
    // minnumf/maxnumf: which NaN a pair of NaNs gives is not fixed.
    return false;
  }
}

struct ReduceRowsByShuffleTree : OpRewritePattern<vector::MultiDimReductionOp> {
  ReduceRowsByShuffleTree(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    if (type.getRank() != 2 || type.isScalable() ||
        op.getReductionMask() != ArrayRef<bool>{false, true} ||
        !isExactInAnyOrder(op.getKind(), type.getElementType()))
      return rewriter.notifyMatchFailure(op, "not an exact inner reduction");
    int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
    if (rows < 2 || !llvm::isPowerOf2_64(rows) || columns % rows != 0)
      return rewriter.notifyMatchFailure(op, "not R x kR, R a power of two");

    Location loc = op.getLoc();
    CombiningKind kind = op.getKind();
    auto combine = [&](Value a, Value b) {
      return vector::makeArithReduction(rewriter, loc, kind, a, b);
    };
    // Each row's columns, R at a time.
    SmallVector<Value> vectors;
    for (int64_t r = 0; r < rows; ++r) {
      Value row = vector::ExtractOp::create(rewriter, loc, op.getSource(), r);
      Value folded;
      for (int64_t c = 0; c < columns; c += rows) {
        Value chunk = columns == rows
                          ? row
                          : vector::ExtractStridedSliceOp::create(
                                rewriter, loc, row, ArrayRef<int64_t>{c},
                                ArrayRef<int64_t>{rows}, ArrayRef<int64_t>{1});
        folded = folded ? combine(folded, chunk) : chunk;
      }
      vectors.push_back(folded);
    }
    // Each vector holds `groups` rows' partial results, `width` lanes each,
    // in row order. A pair (A, B) becomes one vector of both pairs' rows,
    // each row's first half of lanes combined with its second half.
    for (int64_t groups = 1; vectors.size() > 1; groups *= 2) {
      int64_t width = rows / groups, half = width / 2;
      SmallVector<int64_t> low, high;
      for (int64_t source : {int64_t{0}, rows})
        for (int64_t g = 0; g < groups; ++g)
          for (int64_t t = 0; t < half; ++t) {
            low.push_back(source + g * width + t);
            high.push_back(source + g * width + half + t);
          }
      SmallVector<Value> next;
      for (size_t i = 0; i < vectors.size(); i += 2) {
        Value a = vectors[i], b = vectors[i + 1];
        next.push_back(
            combine(vector::ShuffleOp::create(rewriter, loc, a, b, low),
                    vector::ShuffleOp::create(rewriter, loc, a, b, high)));
      }
      vectors = std::move(next);
    }
    Value result = vectors.front();
    rewriter.replaceOp(op, combine(op.getAcc(), result));
    return success();
  }
};

} // namespace

void mlir::quant_affine::populateReductionTreePatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReduceRowsByShuffleTree>(patterns.getContext());
}
