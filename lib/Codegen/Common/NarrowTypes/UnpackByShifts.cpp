//===- UnpackByShifts.cpp - packed codes unpacked by per-lane shifts ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// On a little-endian target, code j of a 32-bit word of packed B-bit codes
// sits in bits [B j, B j + B). Shifted left by 32 - B - B j it is the word's
// top B bits, and a right shift by 32 - B (arithmetic: sign-extending) leaves
// exactly the code, so the result is bit for bit the extension upstream
// computes.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/UnpackByShifts.h"

#include "QuantAffine/Codegen/Common/NarrowTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

#include <numeric>

using namespace mlir;

namespace {

constexpr int64_t kWordBits = 32;

struct UnpackByShifts : RewritePattern {
  UnpackByShifts(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool isSigned = isa<arith::ExtSIOp, arith::SIToFPOp>(op);
    bool toFloat = isa<arith::SIToFPOp, arith::UIToFPOp>(op);
    // f4E2M1FN codes, extended to a float: unpacked like unsigned int4,
    // then decoded in the lanes (f4Value).
    bool float4 = isa<arith::ExtFOp>(op) &&
                  isa<Float4E2M1FNType>(
                      getElementTypeOrSelf(op->getOperand(0).getType()));
    if (!isSigned && !isa<arith::ExtUIOp, arith::UIToFPOp>(op) && !toFloat &&
        !float4)
      return failure();
    toFloat |= float4;
    auto bitcast = op->getOperand(0).getDefiningOp<vector::BitCastOp>();
    if (!bitcast)
      return failure();
    VectorType bytes = bitcast.getSourceVectorType();
    VectorType codes = bitcast.getResultVectorType();
    auto result = cast<VectorType>(op->getResult(0).getType());
    unsigned codeBits = codes.getElementTypeBitWidth();
    if (bytes.getRank() != 1 || bytes.isScalable() ||
        !bytes.getElementType().isInteger(8) ||
        !llvm::is_contained({1u, 2u, 4u}, codeBits) ||
        bytes.getNumElements() % (kWordBits / 8) != 0)
      return failure();
    // The lanes are 32-bit: an integer result must be that wide.
    if (!toFloat && result.getElementTypeBitWidth() != kWordBits)
      return failure();

    Location loc = op->getLoc();
    int64_t perWord = kWordBits / codeBits;
    Type i32 = rewriter.getI32Type();
    auto groupType = VectorType::get({perWord}, i32);
    Value right = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(groupType,
                               static_cast<int32_t>(kWordBits - codeBits)));
    Type element = result.getElementType();
    SmallVector<Value> groups;
    for (Value top :
         quant_affine::spreadCodesToLaneTops(rewriter, loc, bitcast)) {
      Value code =
          isSigned ? Value(arith::ShRSIOp::create(rewriter, loc, top, right))
                   : Value(arith::ShRUIOp::create(rewriter, loc, top, right));
      // Every code is exact in any float type; unsigned codes are
      // non-negative i32, which the signed conversion (native on every
      // target) takes too.
      if (float4) {
        // Decoded in the lanes as arith.extf's expansion decodes them.
        code = quant_affine::decodeNarrowFloat(
            rewriter, loc, code, rewriter.getType<Float4E2M1FNType>());
        if (!element.isF32())
          code = element.getIntOrFloatBitWidth() > 32
                     ? Value(arith::ExtFOp::create(
                           rewriter, loc, VectorType::get({perWord}, element),
                           code))
                     : Value(arith::TruncFOp::create(
                           rewriter, loc, VectorType::get({perWord}, element),
                           code));
      } else if (toFloat)
        code = arith::SIToFPOp::create(
            rewriter, loc, VectorType::get({perWord}, element), code);
      groups.push_back(code);
    }
    rewriter.replaceOp(op, quant_affine::joinSideBySide(rewriter, loc, groups));
    return success();
  }
};

} // namespace

SmallVector<Value>
quant_affine::spreadCodesToLaneTops(OpBuilder &b, Location loc,
                                    vector::BitCastOp bitcast) {
  unsigned codeBits = bitcast.getResultVectorType().getElementTypeBitWidth();
  int64_t perWord = kWordBits / codeBits;
  int64_t wordCount =
      bitcast.getSourceVectorType().getNumElements() * 8 / kWordBits;
  Type i32 = b.getI32Type();
  auto groupType = VectorType::get({perWord}, i32);
  SmallVector<int32_t> leftShifts;
  for (int64_t lane = 0; lane < perWord; ++lane)
    leftShifts.push_back(kWordBits - codeBits - codeBits * lane);
  Value left = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(groupType, ArrayRef<int32_t>(leftShifts)));
  // Bytes loaded from a rank-1 buffer are loaded again word by word: LLVM's
  // x86 backend then broadcasts from memory, where an extract from the wide
  // load goes through general registers.
  auto load = bitcast.getSource().getDefiningOp<vector::LoadOp>();
  if (load && load.getMemRefType().getRank() != 1)
    load = nullptr;
  Value words;
  if (!load)
    words = vector::BitCastOp::create(b, loc, VectorType::get({wordCount}, i32),
                                      bitcast.getSource());
  SmallVector<Value> tops;
  for (int64_t word = 0; word < wordCount; ++word) {
    Value scalar;
    if (load) {
      Value index = arith::AddIOp::create(
          b, loc, load.getIndices().front(),
          arith::ConstantIndexOp::create(b, loc, 4 * word));
      Value bytes = vector::LoadOp::create(
          b, loc, VectorType::get({4}, b.getI8Type()), load.getBase(), index);
      scalar = vector::ExtractOp::create(
          b, loc,
          vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), bytes),
          0);
    } else {
      scalar = vector::ExtractOp::create(b, loc, words, word);
    }
    Value spread = vector::BroadcastOp::create(b, loc, groupType, scalar);
    tops.push_back(arith::ShLIOp::create(b, loc, spread, left));
  }
  return tops;
}

Value quant_affine::joinSideBySide(OpBuilder &b, Location loc,
                                   ArrayRef<Value> pieces) {
  SmallVector<Value> groups(pieces.begin(), pieces.end());
  while (groups.size() > 1) {
    SmallVector<Value> joined;
    for (size_t i = 0; i + 1 < groups.size(); i += 2) {
      auto width = [&](Value v) {
        return cast<VectorType>(v.getType()).getNumElements();
      };
      SmallVector<int64_t> both(width(groups[i]) + width(groups[i + 1]));
      std::iota(both.begin(), both.end(), 0);
      joined.push_back(
          vector::ShuffleOp::create(b, loc, groups[i], groups[i + 1], both));
    }
    if (groups.size() % 2)
      joined.push_back(groups.back());
    groups = std::move(joined);
  }
  return groups.front();
}

void quant_affine::populateUnpackByShiftsPatterns(RewritePatternSet &patterns) {
  patterns.add<UnpackByShifts>(patterns.getContext());
}
