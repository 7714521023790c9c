//===- TilingInterfaceImpl.cpp - Tiling models of the tensor ops ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One parallel loop per result dim. A tile [off, off + size) of an input dim
// needs, of the matching scale (and offset) dim:
//   - broadcast (size 1): the whole dim; a blocked op's block becomes -1,
//     one block spanning the tile;
//   - no block_size, one scale per element: the tile itself;
//   - block B: rows [off / B, ceil((off + size) / B)).
// The tiled op must satisfy B * S == X again, and the op has no notion of a
// partial block. So a tile known to start on a block boundary is computed as
// it is (grown to whole blocks at its end if its size is not known to be a
// multiple of B), a tile known to lie inside one block gets that block's scale
// and block -1, and any other tile is computed on the block-aligned range
// around it, from which the tile is then sliced: correct for every offset, at
// the cost of up to B - 1 elements recomputed at each end. What is "known"
// comes from constants, affine.apply and loop bounds (KnownDivisor.h).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/TilingInterfaceImpl.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/KnownDivisor.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// Whether `value` is known to be a multiple of `m` (> 0).
bool isKnownMultipleOf(OpFoldResult value, int64_t m) {
  if (m == 1)
    return true;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c % m == 0;
  if (knownDivisor(value) % m == 0)
    return true;
  // Affine producers, for m that is not a power of two: `value mod m` folds.
  Value v = cast<Value>(value);
  AffineMap map = AffineMap::get(1, 0, getAffineDimExpr(0, v.getContext()) % m);
  SmallVector<Value> operands = {v};
  affine::fullyComposeAffineMapAndOperands(&map, &operands);
  auto c = dyn_cast<AffineConstantExpr>(map.getResult(0));
  return c && c.getValue() == 0;
}

/// The slices a tile needs and where the tile lies in the tiled op's result.
struct TilePlan {
  SmallVector<OpFoldResult> inputOffsets, inputSizes;
  SmallVector<OpFoldResult> scaleOffsets, scaleSizes;
  /// Per input dim: the tile's offset in the tiled op's result.
  SmallVector<OpFoldResult> resultOffsets;
  /// The tiled op's block_size (when the op has one).
  SmallVector<int64_t> blockSize;
  /// Whether the tiled op computes more than the tile (resultOffsets apply).
  bool grown = false;
};

/// What tiling reads of an op: its input and the scale-shaped operand (a
/// quantizer's scale, float_qdq's maxval) with its block sizes.
struct EncodedOp {
  Value input, scale;
  DenseI64ArrayAttr blockSize;
};

/// Plans the tile of `op` at `offsets`/`sizes` (one per input dim).
class TilePlanner {
public:
  TilePlanner(OpBuilder &b, Location loc, EncodedOp op)
      : b(b), loc(loc), op(op) {}

  TilePlan plan(ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
    auto inputType = cast<RankedTensorType>(op.input.getType());
    auto scaleType = cast<RankedTensorType>(op.scale.getType());
    int64_t n = inputType.getRank(), k = scaleType.getRank();
    std::optional<ArrayRef<int64_t>> blocks;
    if (DenseI64ArrayAttr attr = op.blockSize)
      blocks = attr.asArrayRef();
    SmallVector<int64_t> resolved =
        resolveBlockSizes(inputType.getShape(), scaleType.getShape(), blocks);

    TilePlan p;
    p.inputOffsets.assign(offsets);
    p.inputSizes.assign(sizes);
    p.resultOffsets.assign(n, b.getIndexAttr(0));
    if (blocks)
      p.blockSize.assign(*blocks);
    for (int64_t d = 0; d < k; ++d) {
      int64_t a = n - k + d;
      int64_t x = inputType.getDimSize(a), s = scaleType.getDimSize(d);
      int64_t block = resolved[d];
      // A static input dim and block fix the scale size (x == block * s).
      if (blocks && ShapedType::isDynamic(s) && !ShapedType::isDynamic(x) &&
          (*blocks)[d] > 0)
        s = x / (*blocks)[d];
      if (s == 1) {
        p.scaleOffsets.push_back(b.getIndexAttr(0));
        p.scaleSizes.push_back(b.getIndexAttr(1));
        if (blocks)
          p.blockSize[d] = -1;
      } else if (!blocks) {
        planUnblocked(p, a, d, !ShapedType::isDynamic(s));
      } else if (!ShapedType::isDynamic(block)) {
        // (A static wildcard over an empty dim resolves to 0: no element
        // uses a scale there, any block does.)
        planStaticBlock(p, a, d, std::max<int64_t>(block, 1));
      } else {
        planDynamicBlock(p, a, d);
      }
    }
    return p;
  }

private:
  OpFoldResult apply(AffineExpr expr, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineApply(b, loc, expr, operands);
  }
  Value value(OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(b, loc, v);
  }
  Value dim(Value tensor, int64_t d) {
    return value(tensor::getMixedSize(b, loc, tensor, d));
  }

  /// Without block_size a scale dim is 1 (handled by the caller) or the input
  /// dim; a dynamic one may be either, so the choice is made at run time.
  void planUnblocked(TilePlan &p, int64_t a, int64_t d, bool perElement) {
    OpFoldResult off = p.inputOffsets[a], size = p.inputSizes[a];
    if (perElement) {
      p.scaleOffsets.push_back(off);
      p.scaleSizes.push_back(size);
      return;
    }
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value broadcast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            dim(op.scale, d), one);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    p.scaleOffsets.push_back(
        arith::SelectOp::create(b, loc, broadcast, zero, value(off))
            .getResult());
    p.scaleSizes.push_back(
        arith::SelectOp::create(b, loc, broadcast, one, value(size))
            .getResult());
  }

  void planStaticBlock(TilePlan &p, int64_t a, int64_t d, int64_t block) {
    OpFoldResult off = p.inputOffsets[a], size = p.inputSizes[a];
    AffineExpr d0, d1;
    bindDims(b.getContext(), d0, d1);
    p.scaleOffsets.push_back(apply(d0.floorDiv(block), {off}));
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    if (block > 1 && staticSize && *staticSize > 0 && *staticSize < block &&
        block % *staticSize == 0 && isKnownMultipleOf(off, *staticSize)) {
      // Inside one block: its scale, and a block spanning the tile.
      p.scaleSizes.push_back(b.getIndexAttr(1));
      p.blockSize[d] = -1;
      return;
    }
    if (isKnownMultipleOf(off, block)) {
      // Starts on a boundary. A size not known to be a multiple of the block
      // (the last, shorter tile of a dim) grows to whole blocks, which the
      // input holds: its size is a multiple of the block.
      if (isKnownMultipleOf(size, block)) {
        p.scaleSizes.push_back(apply(d0.floorDiv(block), {size}));
        return;
      }
      p.scaleSizes.push_back(apply(d0.ceilDiv(block), {size}));
      p.inputSizes[a] = apply(d0.ceilDiv(block) * block, {size});
      p.grown = true;
      return;
    }
    // Anywhere: the enclosing whole blocks.
    AffineExpr count = (d0 + d1).ceilDiv(block) - d0.floorDiv(block);
    p.scaleSizes.push_back(apply(count, {off, size}));
    p.inputOffsets[a] = apply(d0.floorDiv(block) * block, {off});
    p.inputSizes[a] = apply(count * block, {off, size});
    p.resultOffsets[a] = apply(d0 % block, {off});
    p.grown = true;
  }

  /// A wildcard block whose size depends on dynamic dims: the enclosing whole
  /// blocks, in arith (affine maps cannot divide by a value).
  void planDynamicBlock(TilePlan &p, int64_t a, int64_t d) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value scaleDim = arith::MaxUIOp::create(b, loc, dim(op.scale, d), one);
    Value block = arith::MaxUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, dim(op.input, a), scaleDim),
        one);
    Value off = value(p.inputOffsets[a]), size = value(p.inputSizes[a]);
    Value first = arith::DivUIOp::create(b, loc, off, block);
    Value end = arith::CeilDivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, off, size), block);
    Value count = arith::SubIOp::create(b, loc, end, first);
    Value start = arith::MulIOp::create(b, loc, first, block);
    p.scaleOffsets.push_back(first);
    p.scaleSizes.push_back(count);
    p.inputOffsets[a] = start;
    p.inputSizes[a] = arith::MulIOp::create(b, loc, count, block).getResult();
    p.resultOffsets[a] = arith::SubIOp::create(b, loc, off, start).getResult();
    p.grown = true;
  }

  OpBuilder &b;
  Location loc;
  EncodedOp op;
};

/// A slice of `source` with unit strides (rank 0: `source` itself).
Value slice(OpBuilder &b, Location loc, Value source,
            ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
            SmallVectorImpl<Operation *> &slices) {
  if (offsets.empty())
    return source;
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  auto op =
      tensor::ExtractSliceOp::create(b, loc, source, offsets, sizes, strides);
  slices.push_back(op);
  return op;
}

/// Tiles one of the tensor ops: operand 0 is the input, the others (a
/// quantizer's scale and offset, float_qdq's maxval) are laid out like a
/// scale by `block_size`. The tile is a copy of the op, every property kept,
/// on the slices.
FailureOr<TilingResult> tileEncodedOp(OpBuilder &b, Operation *op,
                                      ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes) {
  Value input = op->getOperand(0);
  if (!isa<RankedTensorType>(input.getType()))
    return failure();
  Location loc = op->getLoc();
  auto blockSize = dyn_cast_or_null<DenseI64ArrayAttr>(
      op->getInherentAttr("block_size").value_or(Attribute()));
  TilePlan p;
  if (op->getNumOperands() > 1) {
    p = TilePlanner(b, loc, {input, op->getOperand(1), blockSize})
            .plan(offsets, sizes);
  } else { // float_qdq without maxval: elementwise
    p.inputOffsets.assign(offsets);
    p.inputSizes.assign(sizes);
  }
  TilingResult result;
  SmallVector<Value, 3> operands = {slice(
      b, loc, input, p.inputOffsets, p.inputSizes, result.generatedSlices)};
  for (Value encoding : op->getOperands().drop_front())
    operands.push_back(slice(b, loc, encoding, p.scaleOffsets, p.scaleSizes,
                             result.generatedSlices));
  Operation *tiled = b.clone(*op);
  tiled->setOperands(operands);
  tiled->getResult(0).setType(
      cast<RankedTensorType>(operands[0].getType())
          .clone(getElementTypeOrSelf(op->getResult(0))));
  if (!p.blockSize.empty())
    tiled->setAttr("block_size", b.getDenseI64ArrayAttr(p.blockSize));
  result.tiledOps.push_back(tiled);
  Value value = tiled->getResult(0);
  if (p.grown) {
    // Not a generated slice: it reads the tiled op, not an operand.
    SmallVector<Operation *> ignored;
    value = slice(b, loc, value, p.resultOffsets, sizes, ignored);
  }
  result.tiledValues.push_back(value);
  return result;
}

template <typename OpTy>
struct QuantizerTilingModel
    : TilingInterface::ExternalModel<QuantizerTilingModel<OpTy>, OpTy> {
  static RankedTensorType tensorType(Operation *op) {
    return dyn_cast<RankedTensorType>(op->getResult(0).getType());
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    RankedTensorType type = tensorType(op);
    if (!type)
      return {};
    return SmallVector<utils::IteratorType>(type.getRank(),
                                            utils::IteratorType::parallel);
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    if (!tensorType(op))
      return {};
    Value input = op->getOperand(0); // the input, of every op here
    SmallVector<Range> domain;
    for (OpFoldResult size : tensor::getMixedSizes(b, op->getLoc(), input))
      domain.push_back({b.getIndexAttr(0), size, b.getIndexAttr(1)});
    return domain;
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    return tileEncodedOp(b, op, offsets, sizes);
  }

  // Elementwise: result tile, iteration tile and input tile coincide.
  LogicalResult getResultTilePosition(
      Operation *, OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    resultOffsets.assign(offsets);
    resultSizes.assign(sizes);
    return success();
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *, OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVectorImpl<OpFoldResult> &iterOffsets,
      SmallVectorImpl<OpFoldResult> &iterSizes) const {
    iterOffsets.assign(offsets.begin(), offsets.end());
    iterSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    return getTiledImplementation(op, b, offsets, sizes);
  }

  bool isOpFusableWithConsumerSlice(Operation *op, unsigned,
                                    ArrayRef<OpFoldResult>,
                                    ArrayRef<OpFoldResult>) const {
    return static_cast<bool>(tensorType(op));
  }
};

/// The result has the input's shape. tensor::getOrCreateDestinations uses
/// this for the tensor.empty a tiling loop writes the tiles into: the ops
/// have no destination operand (DESIGN.md fixes their syntax).
template <typename OpTy>
struct QuantizerReifyModel
    : ReifyRankedShapedTypeOpInterface::ExternalModel<QuantizerReifyModel<OpTy>,
                                                      OpTy> {
  LogicalResult reifyResultShapes(Operation *op, OpBuilder &b,
                                  ReifiedRankedShapedTypeDims &shapes) const {
    Value input = op->getOperand(0);
    if (!isa<RankedTensorType>(input.getType()))
      return failure();
    shapes.push_back(tensor::getMixedSizes(b, op->getLoc(), input));
    return success();
  }
};

template <typename... Ops> void attachModels(MLIRContext *ctx) {
  (Ops::template attachInterface<QuantizerTilingModel<Ops>,
                                 QuantizerReifyModel<Ops>>(*ctx),
   ...);
}
} // namespace

void mlir::quant_affine::registerTilingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, QuantAffineDialect *) {
    attachModels<QuantizeOp, DequantizeOp, QDQOp, FloatQDQOp>(ctx);
  });
}
