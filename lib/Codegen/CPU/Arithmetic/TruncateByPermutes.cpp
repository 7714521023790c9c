//===- TruncateByPermutes.cpp - truncation to bytes by byte permutes ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A truncation of wide integer lanes to bytes keeps each lane's low byte. On
// x86, LLVM lowers it to one `vpmovdb` (or `vpmovwb`) per register, two
// micro-ops each on AMD's cores, and inserts to join the pieces: 11
// micro-ops for 64 lanes of i32. With AVX-512 VBMI one `vpermt2b` picks any
// bytes of two registers, so the same 64 bytes take two permutes and one
// insert. Written as a two-source `vector.shuffle` of the registers' bytes
// (a single-source one LLVM folds back into the truncation). MXFP8
// quantization ran 1.13 times faster in cache with it on Zen 5
// (docs/Benchmarks.md).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/UnpackByShifts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINETRUNCATEBYPERMUTESPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

struct TruncateToBytesByPermutes : OpRewritePattern<arith::TruncIOp> {
  TruncateToBytesByPermutes(MLIRContext *context, int64_t registerBytes)
      : OpRewritePattern(context), registerBytes(registerBytes) {}

  LogicalResult matchAndRewrite(arith::TruncIOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<VectorType>(op.getIn().getType());
    auto result = dyn_cast<VectorType>(op.getType());
    if (!source || source.getRank() == 0 || source.isScalable() ||
        !result.getElementType().isInteger(8))
      return rewriter.notifyMatchFailure(op, "not a vector truncation to i8");
    unsigned width = source.getElementTypeBitWidth();
    if (width != 16 && width != 32)
      return rewriter.notifyMatchFailure(op, "not from i16 or i32");
    int64_t registerLanes = registerBytes / (width / 8);
    if (source.getShape().back() % (2 * registerLanes))
      return rewriter.notifyMatchFailure(op, "rows not whole register pairs");

    Location loc = op.getLoc();
    SmallVector<int64_t> leading(source.getShape().drop_back());
    if (leading.empty()) {
      rewriter.replaceOp(op, truncateRow(rewriter, loc, op.getIn(), width / 8));
      return success();
    }
    // Row by row: the leading dims are LLVM arrays of rows.
    Value truncated = ub::PoisonOp::create(rewriter, loc, result);
    SmallVector<int64_t> strides = computeStrides(leading);
    int64_t rows = ShapedType::getNumElements(leading);
    for (int64_t row = 0; row < rows; ++row) {
      SmallVector<int64_t> position = delinearize(row, strides);
      Value rowValue =
          vector::ExtractOp::create(rewriter, loc, op.getIn(), position);
      Value bytes = truncateRow(rewriter, loc, rowValue, width / 8);
      truncated =
          vector::InsertOp::create(rewriter, loc, bytes, truncated, position);
    }
    rewriter.replaceOp(op, truncated);
    return success();
  }

  /// The low bytes of the lanes of `row` (1-D), a register pair at a time.
  Value truncateRow(PatternRewriter &rewriter, Location loc, Value row,
                    int64_t laneBytes) const {
    int64_t registerLanes = registerBytes / laneBytes;
    int64_t lanes = cast<VectorType>(row.getType()).getNumElements();
    auto bytesType = VectorType::get({registerBytes}, rewriter.getI8Type());
    // The low byte of each lane of both registers, in lane order.
    SmallVector<int64_t> lowBytes;
    for (int64_t lane = 0; lane < 2 * registerLanes; ++lane)
      lowBytes.push_back(lane * laneBytes);
    auto registerBytesAt = [&](int64_t offset) -> Value {
      Value lanesOf = vector::ExtractStridedSliceOp::create(
          rewriter, loc, row, ArrayRef<int64_t>{offset},
          ArrayRef<int64_t>{registerLanes}, ArrayRef<int64_t>{1});
      return vector::BitCastOp::create(rewriter, loc, bytesType, lanesOf);
    };
    SmallVector<Value> pieces;
    for (int64_t first = 0; first < lanes; first += 2 * registerLanes) {
      // In this order: the IR is the same whatever the compiler.
      Value low = registerBytesAt(first);
      Value high = registerBytesAt(first + registerLanes);
      pieces.push_back(
          vector::ShuffleOp::create(rewriter, loc, low, high, lowBytes));
    }
    return quant_affine::joinSideBySide(rewriter, loc, pieces);
  }

  int64_t registerBytes;
};

struct QuantAffineTruncateByPermutesPass
    : quant_affine::impl::QuantAffineTruncateByPermutesPassBase<
          QuantAffineTruncateByPermutesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (registerBytes == 0) {
      markAllAnalysesPreserved();
      return;
    }
    // Whole i32 lanes in a register, a power of two of them.
    if (registerBytes < 4 || !llvm::isPowerOf2_64(registerBytes)) {
      getOperation().emitError()
          << "quant-affine-truncate-by-permutes: register-bytes must be a "
             "power of two of at least 4, got "
          << static_cast<int64_t>(registerBytes);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<TruncateToBytesByPermutes>(&getContext(), registerBytes);
    // Only the truncations: nothing else is folded on the way.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
