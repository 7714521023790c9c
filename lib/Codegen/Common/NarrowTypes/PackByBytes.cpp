//===- PackByBytes.cpp - packed codes packed from bytes -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/PackByBytes.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

/// The arith.truncf to f4E2M1FN from f16, bf16 or f32 vectors that `v` is
/// (through a vector.shape_cast), if it is: the packing runs before
/// quant-affine-expand-narrow-floats expands it into integer codes.
arith::TruncFOp truncToFloat4(Value v) {
  if (auto cast = v.getDefiningOp<vector::ShapeCastOp>())
    v = cast.getSource();
  auto truncF = v.getDefiningOp<arith::TruncFOp>();
  if (!truncF || !isa<Float4E2M1FNType>(getElementTypeOrSelf(v)) ||
      !isa<VectorType>(v.getType()))
    return {};
  Type in = getElementTypeOrSelf(truncF.getIn());
  return in.isF32() || in.isF16() || in.isBF16() ? truncF : arith::TruncFOp();
}

struct PackByBytes : OpRewritePattern<vector::BitCastOp> {
  PackByBytes(MLIRContext *context)
      : OpRewritePattern<vector::BitCastOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(vector::BitCastOp bitcast,
                                PatternRewriter &rewriter) const override {
    auto trunc = bitcast.getSource().getDefiningOp<arith::TruncIOp>();
    arith::TruncFOp truncF = truncToFloat4(bitcast.getSource());
    VectorType codes = bitcast.getSourceVectorType();
    VectorType bytes = bitcast.getResultVectorType();
    if ((!trunc && !truncF) || codes.getRank() != 1 || codes.isScalable() ||
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
    if (truncF) {
      // The conversion quant-affine-expand-narrow-floats would give it, on
      // the same values made 1-D: its codes in i32 lanes, truncated.
      Value in = truncF.getIn();
      auto inType = cast<VectorType>(in.getType());
      if (inType.getRank() != 1)
        in = vector::ShapeCastOp::create(
            rewriter, loc, codes.clone(inType.getElementType()), in);
      trunc = quant_affine::encodeNarrowFloat(
                  rewriter, loc, in, cast<FloatType>(codes.getElementType()))
                  .getDefiningOp<arith::TruncIOp>();
    }
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
