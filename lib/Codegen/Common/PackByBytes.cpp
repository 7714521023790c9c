//===- PackByBytes.cpp - packed codes packed from bytes -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/PackByBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

struct PackByBytes : OpRewritePattern<vector::BitCastOp> {
  PackByBytes(MLIRContext *context)
      : OpRewritePattern<vector::BitCastOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(vector::BitCastOp bitcast,
                                PatternRewriter &rewriter) const override {
    auto trunc = bitcast.getSource().getDefiningOp<arith::TruncIOp>();
    VectorType codes = bitcast.getSourceVectorType();
    VectorType bytes = bitcast.getResultVectorType();
    if (!trunc || codes.getRank() != 1 || codes.isScalable() ||
        !bytes.getElementType().isInteger(8))
      return failure();
    unsigned codeBits = codes.getElementTypeBitWidth();
    if (!llvm::is_contained({1u, 2u, 4u}, codeBits))
      return failure();
    int64_t perByte = 8 / codeBits;
    int64_t byteCount = bytes.getNumElements();
    // Worth it from whole registers of bytes on; short vectors keep
    // upstream's form.
    if (byteCount < 8)
      return failure();

    Location loc = bitcast.getLoc();
    // Per position in a byte, the codes at that position (a strided
    // shuffle), masked and shifted into place and or-ed together, in the
    // codes' own width; then one truncation to bytes.
    Value wide = trunc.getIn();
    auto wideType = cast<VectorType>(wide.getType());
    auto combinedType = VectorType::get({byteCount}, wideType.getElementType());
    auto splat = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              combinedType,
              rewriter.getIntegerAttr(wideType.getElementType(), value)));
    };
    Value packed;
    for (int64_t position = 0; position < perByte; ++position) {
      SmallVector<int64_t> strided;
      for (int64_t k = 0; k < byteCount; ++k)
        strided.push_back(k * perByte + position);
      Value at = vector::ShuffleOp::create(rewriter, loc, wide, wide, strided);
      at = arith::AndIOp::create(rewriter, loc, at, splat((1 << codeBits) - 1));
      if (position > 0)
        at = arith::ShLIOp::create(rewriter, loc, at,
                                   splat(codeBits * position));
      packed =
          packed ? Value(arith::OrIOp::create(rewriter, loc, packed, at)) : at;
    }
    packed = arith::TruncIOp::create(rewriter, loc, bytes, packed);
    rewriter.replaceOp(bitcast, packed);
    return success();
  }
};

} // namespace

void quant_affine::populatePackByBytesPatterns(RewritePatternSet &patterns) {
  patterns.add<PackByBytes>(patterns.getContext());
}
