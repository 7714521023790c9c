//===- CalibrationToLinalg.cpp - calibration ops to linalg ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// compute_encoding and block_scale on tensors become two linalg.generics:
// one reduces each encoding's elements (leading dims, size-1 scale dims and
// the blocks are its reductions; a blocked dim is split into (count, block)
// with tensor.expand_shape), the other computes each encoding's scale (and
// offset) from the reduction with the op's formula (Utils/CalibrationFormula.h,
// BlockScale.h), as arith ops.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/CalibrationToLinalg.h"

#include "QuantAffine/Conversion/QuantAffineToArith/ArithEmitter.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/BlockScale.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/TensorShapes.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/CalibrationFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// How compute_encoding treats each input dim: reduced whole (leading dims,
/// and scale dims of static size 1), one encoding per element (block 1, or a
/// dynamic scale size without block_size), or split into (count, block) with
/// the block reduced. Returns the block sizes (1 where not blocked), or an
/// error for what the lowering cannot split (a block size known only at run
/// time).
FailureOr<SmallVector<int64_t>>
encodingBlocksOf(RankedTensorType inputType, RankedTensorType scaleType,
                 std::optional<ArrayRef<int64_t>> blockSize,
                 std::string &error) {
  int64_t n = inputType.getRank(), k = scaleType.getRank();
  SmallVector<int64_t> blocks;
  for (int64_t d = 0; d < k; ++d) {
    int64_t s = scaleType.getDimSize(d), x = inputType.getDimSize(n - k + d);
    int64_t b = blockSize ? (*blockSize)[d] : (s == 1 ? -1 : 1);
    if (s == 1) {
      blocks.push_back(0); // reduced whole
      continue;
    }
    if (b == -1) {
      if (ShapedType::isDynamic(s) || ShapedType::isDynamic(x)) {
        error = "with a wildcard block over a dynamic size is not lowered "
                "yet (give the block size)";
        return failure();
      }
      b = x / s;
    }
    blocks.push_back(b);
  }
  return blocks;
}

/// Each encoding's minimum and maximum, over the encoding dims (the scale's
/// dims that are not reduced whole).
struct EncodingMinMax {
  Value min, max;
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
};

/// What each encoding's reduction computes: its minimum and maximum, or
/// only its largest magnitude (block_scale's amax: one reduction where
/// max(-min, max) needs two).
enum class EncodingStatistic { MinMax, MaxMagnitude };

/// One linalg.generic that reduces each encoding's elements of `input` to
/// their minimum and maximum (NaN propagates, -0.0 below +0.0), or, for
/// MaxMagnitude, to the maximum of their absolute values (in `max`; NaN
/// propagates). Encodings are the parallel loops; the leading dims, the
/// size-1 scale dims and the blocks are reductions. Dynamic sizes come from
/// the input (a dynamic scale dim is one encoding per block of its input
/// dim).
EncodingMinMax reduceEncodings(RewriterBase &rewriter, Location loc,
                               Value input, RankedTensorType scaleType,
                               ArrayRef<int64_t> blocks,
                               EncodingStatistic statistic) {
  auto inputType = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = rewriter.getContext();
  auto elem = cast<FloatType>(inputType.getElementType());
  int64_t n = inputType.getRank(), k = scaleType.getRank();
  ShapeBuilder sb{rewriter, loc};
  EncodingMinMax result;

  // The iteration space: a blocked dim becomes (count, block).
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> loopSizes;
  SmallVector<OpFoldResult> loopValues;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<AffineExpr> encodingExprs; // the parallel loops, in order
  for (int64_t a = 0; a < n; ++a) {
    int64_t d = a - (n - k), size = inputType.getDimSize(a);
    OpFoldResult sizeValue = tensor::getMixedSize(rewriter, loc, input, a);
    int64_t first = loopSizes.size();
    auto addLoop = [&](int64_t loopSize, OpFoldResult value, bool parallel) {
      if (parallel) {
        encodingExprs.push_back(getAffineDimExpr(loopSizes.size(), ctx));
        result.shape.push_back(loopSize);
        result.sizes.push_back(value);
      }
      loopSizes.push_back(loopSize);
      loopValues.push_back(value);
      iterators.push_back(parallel ? utils::IteratorType::parallel
                                   : utils::IteratorType::reduction);
    };
    int64_t block = d < 0 ? 0 : blocks[d];
    if (block == 0) {
      addLoop(size, sizeValue, /*parallel=*/false);
      groups.push_back({first});
    } else if (block == 1) {
      addLoop(size, sizeValue, /*parallel=*/true);
      groups.push_back({first});
    } else {
      int64_t count =
          ShapedType::isDynamic(size) ? ShapedType::kDynamic : size / block;
      OpFoldResult countValue =
          ShapedType::isDynamic(size)
              ? OpFoldResult(arith::DivUIOp::create(rewriter, loc,
                                                    sb.dim(input, a),
                                                    sb.index(block))
                                 .getResult())
              : OpFoldResult(rewriter.getIndexAttr(count));
      addLoop(count, countValue, /*parallel=*/true);
      addLoop(block, rewriter.getIndexAttr(block), /*parallel=*/false);
      groups.push_back({first, first + 1});
    }
  }
  if (static_cast<int64_t>(loopSizes.size()) != n)
    input = tensor::ExpandShapeOp::create(
        rewriter, loc, inputType.clone(loopSizes), input, groups, loopValues);

  auto filled = [&](bool negative) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, result.sizes, elem);
    Value inf = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getFloatAttr(
            elem, llvm::APFloat::getInf(elem.getFloatSemantics(), negative)));
    return linalg::FillOp::create(rewriter, loc, inf, empty).getResult(0);
  };
  int64_t loops = loopSizes.size();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, ctx);
  AffineMap encodingMap = AffineMap::get(loops, 0, encodingExprs, ctx);
  if (statistic == EncodingStatistic::MaxMagnitude) {
    Value maxInit = filled(true);
    auto amax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{maxInit.getType()}, ValueRange{input},
        ValueRange{maxInit}, SmallVector<AffineMap>{identity, encodingMap},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value magnitude = math::AbsFOp::create(b, l, args[0]);
          linalg::YieldOp::create(
              b, l,
              arith::MaximumFOp::create(b, l, args[1], magnitude).getResult());
        });
    result.max = amax.getResult(0);
    return result;
  }
  Value minInit = filled(false), maxInit = filled(true);
  auto stats = linalg::GenericOp::create(
      rewriter, loc, TypeRange{minInit.getType(), maxInit.getType()},
      ValueRange{input}, ValueRange{minInit, maxInit},
      SmallVector<AffineMap>{identity, encodingMap, encodingMap}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value mn = arith::MinimumFOp::create(b, l, args[1], args[0]);
        Value mx = arith::MaximumFOp::create(b, l, args[2], args[0]);
        linalg::YieldOp::create(b, l, ValueRange{mn, mx});
      });
  result.min = stats.getResult(0);
  result.max = stats.getResult(1);
  return result;
}

/// An encoding-dims tensor `value` as the full scale-shaped `type`: each
/// encoding dim groups with the unit dims after it (the leading unit dims
/// with the first).
Value restoreUnitDims(RewriterBase &rewriter, Location loc, Value value,
                      RankedTensorType type, ArrayRef<int64_t> blocks,
                      const EncodingMinMax &encodings) {
  int64_t k = type.getRank(), encodingRank = encodings.shape.size();
  SmallVector<ReassociationIndices> unitGroups;
  SmallVector<OpFoldResult> fullSizes;
  int64_t next = 0;
  for (int64_t d = 0; d < k; ++d) {
    bool unit = blocks[d] == 0;
    fullSizes.push_back(unit ? rewriter.getIndexAttr(1)
                             : encodings.sizes[next]);
    if (!unit || unitGroups.empty())
      unitGroups.emplace_back();
    unitGroups.back().push_back(d);
    next += unit ? 0 : 1;
  }
  if (encodingRank > 0 && blocks[0] == 0) {
    // Leading unit dims joined the first group, which must hold the first
    // encoding dim too: merge it with the next group.
    for (size_t g = 1; g < unitGroups.size(); ++g)
      if (llvm::any_of(unitGroups[g],
                       [&](int64_t d) { return blocks[d] != 0; })) {
        unitGroups[0].append(unitGroups[g].begin(), unitGroups[g].end());
        unitGroups.erase(unitGroups.begin() + g);
        break;
      }
  }
  SmallVector<int64_t> fullShape;
  for (int64_t d = 0, e = 0; d < k; ++d)
    fullShape.push_back(blocks[d] == 0 ? 1 : encodings.shape[e++]);
  auto fullType = type.clone(fullShape);
  Value result = value;
  if (encodingRank != k)
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, fullType, value,
        encodingRank == 0 ? SmallVector<ReassociationIndices>{} : unitGroups,
        fullSizes);
  return castTo(rewriter, loc, result, type);
}

/// Lowers compute_encoding: reduceEncodings, then a linalg.generic computes
/// the scale and offset from each minimum and maximum
/// (Utils/CalibrationFormula.h, emitted as arith ops: the folder evaluates
/// the same template). Unit scale dims are dropped from both generics and
/// restored at the end.
struct ComputeEncodingToLinalg : OpConversionPattern<ComputeEncodingOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ComputeEncodingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string error;
    FailureOr<SmallVector<int64_t>> blocks = encodingBlocks(op, error);
    if (failed(blocks))
      return rewriter.notifyMatchFailure(op, error);
    Value input = adaptor.getInput();
    auto scaleType = cast<RankedTensorType>(op.getScale().getType());
    auto offsetType = cast<RankedTensorType>(op.getOffset().getType());
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto elem = cast<FloatType>(
        cast<RankedTensorType>(input.getType()).getElementType());
    EncodingMinMax encodings = reduceEncodings(
        rewriter, loc, input, scaleType, *blocks, EncodingStatistic::MinMax);

    auto scaleElem = cast<FloatType>(scaleType.getElementType());
    auto offsetElem = cast<FloatType>(offsetType.getElementType());
    int64_t encodingRank = encodings.shape.size();
    AffineMap same = AffineMap::getMultiDimIdentityMap(encodingRank, ctx);
    Value scaleInit =
        tensor::EmptyOp::create(rewriter, loc, encodings.sizes, scaleElem);
    Value offsetInit =
        tensor::EmptyOp::create(rewriter, loc, encodings.sizes, offsetElem);
    EncodingChoice choice = op.getEncodingChoice();
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scaleInit.getType(), offsetInit.getType()},
        ValueRange{encodings.min, encodings.max},
        ValueRange{scaleInit, offsetInit}, SmallVector<AffineMap>(4, same),
        SmallVector<utils::IteratorType>(encodingRank,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          FloatType f32 = b.getF32Type();
          ArithEmitter inT(b, l, elem, elem), inF32(b, l, elem, f32),
              inP(b, l, elem, elem.isF64() ? elem : f32);
          CalibrationArith<ArithEmitter> arith{inT, inF32, inP};
          auto [scale, offset] =
              computeEncodingFromMinMax(arith, args[0], args[1], choice);
          linalg::YieldOp::create(
              b, l,
              ValueRange{inF32.toFloat(scale, scaleElem),
                         inF32.toFloat(offset, offsetElem)});
        });
    rewriter.replaceOp(
        op, ValueRange{restoreUnitDims(rewriter, loc, epilogue.getResult(0),
                                       scaleType, *blocks, encodings),
                       restoreUnitDims(rewriter, loc, epilogue.getResult(1),
                                       offsetType, *blocks, encodings)});
    return success();
  }
};

/// Lowers block_scale: reduceEncodings (each block's largest magnitude),
/// then a linalg.generic computes each block's scale from it (BlockScale.h).
struct BlockScaleToLinalg : OpConversionPattern<BlockScaleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BlockScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string error;
    FailureOr<SmallVector<int64_t>> blocks = encodingBlocks(op, error);
    if (failed(blocks))
      return rewriter.notifyMatchFailure(op, error);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto scaleType = cast<RankedTensorType>(op.getScale().getType());
    EncodingMinMax encodings =
        reduceEncodings(rewriter, loc, adaptor.getInput(), scaleType, *blocks,
                        EncodingStatistic::MaxMagnitude);
    int64_t encodingRank = encodings.shape.size();
    AffineMap same = AffineMap::getMultiDimIdentityMap(encodingRank, ctx);
    Type scaleElem = scaleType.getElementType();
    Value scaleInit =
        tensor::EmptyOp::create(rewriter, loc, encodings.sizes, scaleElem);
    SmallVector<Value> inputs{encodings.max};
    SmallVector<AffineMap> maps{same};
    if (Value tensorScale = adaptor.getTensorScale()) {
      inputs.push_back(tensorScale);
      maps.push_back(AffineMap::get(encodingRank, 0, {}, ctx));
    }
    maps.push_back(same);
    BlockScaleRule rule = op.getRule();
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scaleInit.getType()}, inputs,
        ValueRange{scaleInit}, maps,
        SmallVector<utils::IteratorType>(encodingRank,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value tensorScale = args.size() == 3 ? args[1] : Value();
          linalg::YieldOp::create(
              b, l,
              emitBlockScale(b, l, rule, args[0], tensorScale, scaleElem));
        });
    rewriter.replaceOp(op, restoreUnitDims(rewriter, loc, epilogue.getResult(0),
                                           scaleType, *blocks, encodings));
    return success();
  }
};

} // namespace

FailureOr<SmallVector<int64_t>>
mlir::quant_affine::encodingBlocks(ComputeEncodingOp op, std::string &error) {
  return encodingBlocksOf(op.getInput().getType(),
                          cast<RankedTensorType>(op.getScale().getType()),
                          op.getBlockSizeArray(), error);
}

FailureOr<SmallVector<int64_t>>
mlir::quant_affine::encodingBlocks(BlockScaleOp op, std::string &error) {
  return encodingBlocksOf(op.getInput().getType(),
                          cast<RankedTensorType>(op.getScale().getType()),
                          op.getBlockSize(), error);
}

void mlir::quant_affine::populateCalibrationToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ComputeEncodingToLinalg, BlockScaleToLinalg>(
      patterns.getContext());
}
