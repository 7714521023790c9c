//===- Vectorize.cpp - tile and vectorize elementwise generics ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowBroadcasts.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/TileAndReplace.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEVECTORIZEPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

bool isElementwise(linalg::GenericOp op) {
  return op.getNumLoops() > 0 && op.getNumLoops() == op.getNumParallelLoops() &&
         op.hasPureTensorSemantics();
}

/// Whether `op` reads or writes, in memory, elements whose vectors LLVM lays
/// out differently from a memref (i3, i9, i24, i40, ...; packed i1, i2 and
/// i4 agree, see NarrowTypes.h): its operands,
/// and tensors its body reads directly (tensor.extract). A vector load or
/// store would not match the scalar layout, so such ops stay scalar.
bool touchesNonVectorLayout(linalg::GenericOp op) {
  auto bad = [](Type type) {
    return isa<ShapedType>(type) &&
           !quant_affine::hasVectorMemoryLayout(getElementTypeOrSelf(type));
  };
  if (llvm::any_of(op->getOperandTypes(), bad))
    return true;
  WalkResult walk = op.getRegion().walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (bad(operand.getType()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Bytes a value of `type` takes in memory, when its shape is static: each
/// element takes the power of two of bytes that holds it, as in a memref.
std::optional<int64_t> staticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  Type element = shaped.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  uint64_t elementBytes = llvm::PowerOf2Ceil(
      llvm::divideCeil(element.getIntOrFloatBitWidth(), uint64_t(8)));
  return shaped.getNumElements() * static_cast<int64_t>(elementBytes);
}

/// The bytes `op` moves: the static sizes of the tensors it reads and
/// writes (operands, and tensors its body reads from above), each counted
/// once; tensors of dynamic shape count as nothing. None when a result has a
/// dynamic shape: its size is known only at run time.
std::optional<int64_t> footprintBytes(linalg::GenericOp op) {
  if (llvm::any_of(op->getResultTypes(), [](Type type) {
        return !cast<ShapedType>(type).hasStaticShape();
      }))
    return std::nullopt;
  llvm::SetVector<Value> tensors;
  for (Value operand : op->getOperands())
    tensors.insert(operand);
  op.getRegion().walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !op.getRegion().isAncestor(operand.getParentRegion()))
        tensors.insert(operand);
  });
  int64_t bytes = 0;
  for (Value tensor : tensors)
    bytes += staticBytes(tensor.getType()).value_or(0);
  // A tile of an scf.forall (quant-affine-fuse-reduction-rows) moves its
  // share of what the whole loop moves.
  for (auto loop = op->getParentOfType<scf::ForallOp>(); loop;
       loop = loop->getParentOfType<scf::ForallOp>()) {
    std::optional<SmallVector<int64_t>> lower =
        getConstantIntValues(loop.getMixedLowerBound());
    std::optional<SmallVector<int64_t>> upper =
        getConstantIntValues(loop.getMixedUpperBound());
    std::optional<SmallVector<int64_t>> steps =
        getConstantIntValues(loop.getMixedStep());
    if (!lower || !upper || !steps)
      return std::nullopt;
    for (auto [lb, ub, step] : llvm::zip_equal(*lower, *upper, *steps)) {
      if (step <= 0 || ub <= lb)
        continue;
      int64_t trips = llvm::divideCeil(ub - lb, step);
      bytes = bytes > INT64_MAX / trips ? INT64_MAX : bytes * trips;
    }
  }
  return bytes;
}

/// `tensor.dim %other, dim`, created right after `other` is defined so that
/// it can stand for equal dims anywhere after.
Value dimRightAfter(RewriterBase &rewriter, Value other, int64_t dim) {
  OpBuilder::InsertionGuard guard(rewriter);
  // A destination argument (memref) seen as a tensor: its dim is known from
  // the function's entry on.
  if (auto toTensor = other.getDefiningOp<bufferization::ToTensorOp>()) {
    if (auto arg = dyn_cast<BlockArgument>(toTensor.getBuffer())) {
      rewriter.setInsertionPointToStart(arg.getOwner());
      return memref::DimOp::create(rewriter, other.getLoc(), arg, dim);
    }
  }
  if (Operation *def = other.getDefiningOp())
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointToStart(cast<BlockArgument>(other).getOwner());
  return tensor::DimOp::create(rewriter, other.getLoc(), other, dim);
}

/// Replaces the `tensor.dim %packed, dim` ops that `size` dominates by it.
void replaceDims(RewriterBase &rewriter, DominanceInfo &dominance, Value packed,
                 int64_t dim, Value size) {
  for (Operation *user : llvm::make_early_inc_range(packed.getUsers())) {
    auto dimOp = dyn_cast<tensor::DimOp>(user);
    if (dimOp && dimOp.getConstantIndex() == dim &&
        dominance.properlyDominates(size, dimOp))
      rewriter.replaceOp(dimOp, size);
  }
}

/// Packed buffers keep no shape (docs/Packing.md), so a dynamic dim of a
/// packed input must not be read from it. Where the op ties such a dim to a
/// loop that an unpacked operand also spans (the scale or destination of a
/// dequantize), the dim is read from that operand instead: the input's own
/// `tensor.dim`s (sizes of the result, of a block expansion) are replaced,
/// and a direct input becomes a slice of itself of those sizes, from which
/// tiling takes its loop bounds. Dims tied to no unpacked operand are left
/// alone (the emulation diagnoses those it cannot know).
void takeDimsFromUnpackedOperands(RewriterBase &rewriter,
                                  DominanceInfo &dominance,
                                  linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || type.hasStaticShape() ||
        !quant_affine::isPackedType(type.getElementType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i)) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(i)));
        continue;
      }
      auto loop = dyn_cast<AffineDimExpr>(map.getResult(i));
      Value size;
      for (OpOperand &other : op->getOpOperands()) {
        auto otherType = dyn_cast<RankedTensorType>(other.get().getType());
        if (!loop || !otherType ||
            quant_affine::isPackedType(otherType.getElementType()))
          continue;
        AffineMap otherMap = op.getMatchingIndexingMap(&other);
        for (unsigned j = 0; j < otherMap.getNumResults() && !size; ++j)
          if (otherMap.getResult(j) == loop && otherType.isDynamicDim(j))
            size = dimRightAfter(rewriter, other.get(), j);
        if (size)
          break;
      }
      if (!size)
        break;
      sizes.push_back(size);
    }
    if (static_cast<int64_t>(sizes.size()) != type.getRank())
      continue;
    // The dims of the packed value, and of what a block expansion expanded.
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (auto size = dyn_cast<Value>(sizes[i]))
        replaceDims(rewriter, dominance, input->get(), i, size);
    if (auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>()) {
      for (auto [dim, group] :
           llvm::enumerate(expand.getReassociationIndices()))
        if (group.size() == 1)
          if (auto size = dyn_cast<Value>(sizes[group.front()]))
            replaceDims(rewriter, dominance, expand.getSrc(), dim, size);
    }
    rewriter.setInsertionPoint(op);
    SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), type, input->get(), zeros, sizes, ones);
    rewriter.modifyOpInPlace(op, [&] { input->set(slice); });
  }
}

/// The largest power of two not above `width` that divides `size`; 1 for a
/// dynamic size.
int64_t dividingWidth(int64_t size, int64_t width) {
  if (ShapedType::isDynamic(size))
    return 1;
  int64_t result = 1;
  while (result * 2 <= width && size % (result * 2) == 0)
    result *= 2;
  return result;
}

/// Whether `op`'s innermost loop is a static block over which the body
/// computes something once per block: an op whose operands come only from
/// operands that do not vary along the block (a scale read once per block,
/// by the next loop, or a per-tensor one) and constants, such as an E8M0
/// or E4M3 scale's decoding or a fused block_scale formula; and tiles of
/// `width` elements take whole blocks, shorter than `shorterThan` (the width
/// it would have otherwise), that divide the next loop. (Plain f32 scales
/// divide each element directly: int4 and int8 blocks of 32 measured the
/// same in either width. Blocks of 128 measured slower in 256-element
/// tiles: no such work to share.)
bool tilesWholeBlocks(linalg::GenericOp op, int64_t width,
                      int64_t shorterThan) {
  unsigned loops = op.getNumLoops();
  if (loops < 2)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t inner = ranges[loops - 1], next = ranges[loops - 2];
  if (ShapedType::isDynamic(inner) || ShapedType::isDynamic(next) ||
      inner <= 0 || inner >= shorterThan || width % inner != 0 ||
      next % (width / inner) != 0)
    return false;
  // Values that do not vary along the block: the block arguments of inputs
  // whose maps do not read the innermost loop, then what the body computes
  // from them and from constants alone.
  llvm::SmallPtrSet<Value, 8> perBlock;
  bool readsPerBlock = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(loops - 1))
      continue;
    perBlock.insert(op.getMatchingBlockArgument(input));
    readsPerBlock |= map.isFunctionOfDim(loops - 2);
  }
  if (!readsPerBlock)
    return false;
  bool computesPerBlock = false;
  for (Operation &bodyOp : op.getBody()->without_terminator()) {
    if (bodyOp.getNumRegions() || bodyOp.getNumOperands() == 0)
      continue;
    bool fromBlock = llvm::all_of(bodyOp.getOperands(), [&](Value v) {
      return perBlock.contains(v) || matchPattern(v, m_Constant()) ||
             !op.getRegion().isAncestor(v.getParentRegion());
    });
    if (!fromBlock)
      continue;
    computesPerBlock = true;
    for (Value result : bodyOp.getResults())
      perBlock.insert(result);
  }
  return computesPerBlock;
}

linalg::GenericOp tileInnermost(RewriterBase &rewriter, linalg::GenericOp op,
                                int64_t width, bool parallelLoops,
                                bool fullVectorsOnly) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t inner = ranges.back();
  if (fullVectorsOnly)
    width = dividingWidth(inner, width);
  SmallVector<OpFoldResult> sizes(loops, rewriter.getIndexAttr(1));
  // A static innermost dim narrower than the width (a block) is one tile;
  // the tile takes whole rows of the next dim too, up to the width, so that
  // a vector still spans `width` contiguous elements.
  if (!ShapedType::isDynamic(inner) && inner < width) {
    int64_t rows = inner > 0 ? width / inner : 1;
    int64_t next = loops >= 2 ? ranges[loops - 2] : ShapedType::kDynamic;
    if (!fullVectorsOnly && rows > 1 && width % inner == 0 &&
        !ShapedType::isDynamic(next) && next % rows == 0)
      sizes[loops - 2] = rewriter.getIndexAttr(rows);
    width = std::max<int64_t>(inner, 1);
  }
  sizes.back() = rewriter.getIndexAttr(width);
  return quant_affine::tileAndReplace(rewriter, op, sizes, parallelLoops);
}

/// Whether `op` fits scalable vectors through the rest of the pipeline:
/// every element an integer of whole bytes or an f16, f32 or f64 (packed
/// codes, bf16 and 8-bit floats are emulated on fixed vectors), every input
/// read along the innermost loop or broadcast across it by a projected
/// permutation, and a body of
/// arith and of the math functions SVE has instructions for (LLVM calls libm
/// for the others, lane by lane, which it cannot do for a scalable vector).
bool fitsScalableVectors(linalg::GenericOp op) {
  auto fits = [](Type type) {
    Type element = getElementTypeOrSelf(type);
    if (auto integer = dyn_cast<IntegerType>(element))
      return integer.getWidth() % 8 == 0;
    return element.isF16() || element.isF32() || element.isF64() ||
           isa<IndexType>(element);
  };
  if (!llvm::all_of(op->getOperandTypes(), fits) ||
      !llvm::all_of(op->getResultTypes(), fits))
    return false;
  unsigned innermost = op.getNumLoops() - 1;
  for (AffineMap map : op.getIndexingMapsArray()) {
    // No unit dims read at a constant: their reads become transposed
    // scalable transfers that nothing lowers.
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return false;
    // The innermost loop, if read at all, is the operand's last dim.
    for (auto [i, result] : llvm::enumerate(map.getResults()))
      if (result.isFunctionOfDim(innermost) && i + 1 != map.getNumResults())
        return false;
  }
  for (Operation &bodyOp : op.getBody()->without_terminator()) {
    if (isa<arith::RemFOp>(bodyOp))
      return false;
    if (bodyOp.getDialect()->getNamespace() == "arith")
      continue;
    if (isa<math::RoundEvenOp, math::RoundOp, math::FloorOp, math::CeilOp,
            math::TruncOp, math::SqrtOp, math::AbsFOp, math::AbsIOp,
            math::FmaOp, math::CopySignOp>(bodyOp))
      continue;
    return false;
  }
  return true;
}

/// Tiles the innermost dim of `op` by `width * vscale`, the others by one;
/// returns the tile, or null.
linalg::GenericOp tileInnermostScalable(RewriterBase &rewriter,
                                        linalg::GenericOp op, int64_t width,
                                        bool parallelLoops) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value vscale = vector::VectorScaleOp::create(rewriter, loc);
  Value size = arith::MulIOp::create(
      rewriter, loc, vscale,
      arith::ConstantIndexOp::create(rewriter, loc, width));
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(1));
  sizes.back() = size;
  return quant_affine::tileAndReplace(rewriter, op, sizes, parallelLoops);
}

/// Splits the outermost dim of `op` into an scf.forall of chunks (a row, or
/// 4096 elements of a rank-1 op); returns the op of one chunk, or null.
linalg::GenericOp splitOutermost(RewriterBase &rewriter, linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<OpFoldResult> sizes(loops, rewriter.getIndexAttr(0));
  sizes.front() = rewriter.getIndexAttr(loops == 1 ? 4096 : 1);
  return quant_affine::tileAndReplace(rewriter, op, sizes, /*forall=*/true);
}

/// Vectorizes `op` (with masks when `vectorSizes` is given; the last dim
/// scalable with `scalableLast`) and replaces it.
LogicalResult vectorizeAndReplace(RewriterBase &rewriter, linalg::GenericOp op,
                                  ArrayRef<int64_t> vectorSizes,
                                  bool scalableLast = false) {
  SmallVector<bool> scalable(vectorSizes.size(), false);
  if (scalableLast && !scalable.empty())
    scalable.back() = true;
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op, vectorSizes, scalable);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return success();
}

/// Gives masked transfers that `linalg::vectorize` left with a mask of the
/// iteration space the mask their permutation map asks for. Upstream masks
/// the contiguous load of a `tensor.extract` (a row of a rank-1 scale read in
/// a 1 x 8 tile, `permutation_map = (d0) -> (0, d0)`) with the 1 x 8 mask of
/// the tile, while the transfer takes one mask dim per source dim it reads
/// (`vector<8xi1>`). Where the dims the map drops are broadcast dims of size
/// 1 and the others keep their order, both masks hold the same bits in the
/// same order, and a shape_cast gives the right one.
void repairTransferMasks(RewriterBase &rewriter, Operation *root) {
  root->walk([&](vector::MaskOp maskOp) {
    auto transfer =
        dyn_cast_if_present<VectorTransferOpInterface>(maskOp.getMaskableOp());
    if (!transfer)
      return;
    auto maskable = cast<vector::MaskableOpInterface>(transfer.getOperation());
    auto expected = dyn_cast<VectorType>(maskable.getExpectedMaskType());
    auto actual = dyn_cast<VectorType>(maskOp.getMask().getType());
    VectorType vectorType = transfer.getVectorType();
    if (!expected || !actual || expected == actual ||
        actual.getShape() != vectorType.getShape() || actual.isScalable() ||
        expected.getNumElements() != actual.getNumElements())
      return;
    AffineMap map = transfer.getPermutationMap();
    int64_t lastDim = -1;
    for (auto [result, size] :
         llvm::zip_equal(map.getResults(), vectorType.getShape())) {
      if (auto dim = dyn_cast<AffineDimExpr>(result)) {
        if (static_cast<int64_t>(dim.getPosition()) <= lastDim)
          return;
        lastDim = dim.getPosition();
      } else if (size != 1) {
        return;
      }
    }
    rewriter.setInsertionPoint(maskOp);
    Value mask = vector::ShapeCastOp::create(rewriter, maskOp.getLoc(),
                                             expected, maskOp.getMask());
    rewriter.modifyOpInPlace(maskOp,
                             [&] { maskOp.getMaskMutable().assign(mask); });
  });
}

struct QuantAffineVectorizePass
    : quant_affine::impl::QuantAffineVectorizePassBase<
          QuantAffineVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    auto error = [&](const Twine &message) {
      return getOperation().emitError(message);
    };
    if (failed(quant_affine::checkVectorWidth(vectorWidth, error)))
      return signalPassFailure();
    if (largeVectorWidth < 0 || largeOpBytes < 0) {
      (void)error(largeVectorWidth < 0
                      ? "large-vector-width must be at least 0, got " +
                            Twine(largeVectorWidth)
                      : "large-op-bytes must be at least 0, got " +
                            Twine(largeOpBytes));
      return signalPassFailure();
    }
    IRRewriter shapes(&getContext());
    DominanceInfo dominance(getOperation());
    getOperation().walk([&](linalg::GenericOp op) {
      takeDimsFromUnpackedOperands(shapes, dominance, op);
    });
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      // An empty op has nothing to tile (and upstream tiling of a zero-size
      // dim crashes).
      if (isElementwise(op) && !touchesNonVectorLayout(op) &&
          !llvm::is_contained(op.getStaticLoopRanges(), 0))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      int64_t width = vectorWidth;
      if (largeVectorWidth > 0) {
        std::optional<int64_t> bytes = footprintBytes(op);
        if (bytes && *bytes > largeOpBytes) {
          width = largeVectorWidth;
          // Blocks shorter than that: their per-block work (the scale's
          // read and decoding) ran on a few lanes per tile.
          if (blockVectorWidth > width &&
              tilesWholeBlocks(op, blockVectorWidth, width))
            width = blockVectorWidth;
        }
      }
      // Inside a loop of threads already (quant-affine-fuse-reduction-rows):
      // no nested one.
      if (parallelOuter && !op->getParentOfType<scf::ForallOp>()) {
        op = splitOutermost(rewriter, op);
        if (!op)
          continue;
      }
      if (scalable && fitsScalableVectors(op)) {
        linalg::GenericOp tile =
            tileInnermostScalable(rewriter, op, vectorWidth, parallelLoops);
        if (!tile)
          continue;
        rewriter.setInsertionPoint(tile);
        SmallVector<int64_t> vectorSizes(tile.getNumLoops(), 1);
        vectorSizes.back() = vectorWidth;
        (void)vectorizeAndReplace(rewriter, tile, vectorSizes,
                                  /*scalableLast=*/true);
        continue;
      }
      linalg::GenericOp tile =
          tileInnermost(rewriter, op, width, parallelLoops, fullVectorsOnly);
      if (!tile)
        continue;
      rewriter.setInsertionPoint(tile);
      SmallVector<int64_t> tileShape = tile.getStaticLoopRanges();
      if (llvm::none_of(tileShape, ShapedType::isDynamic) &&
          succeeded(vectorizeAndReplace(rewriter, tile, {})))
        continue;
      // A partial or dynamic tile: vectorize at the full width with masks.
      SmallVector<int64_t> vectorSizes(tileShape.size(), 1);
      vectorSizes.back() = std::max<int64_t>(
          ShapedType::isDynamic(tileShape.back()) ? width : tileShape.back(),
          1);
      (void)vectorizeAndReplace(rewriter, tile, vectorSizes);
    }
    repairTransferMasks(rewriter, getOperation());
    quant_affine::narrowBroadcastComputations(getOperation());
    hoistInvariantVectors(getOperation());
  }

  /// Moves vector and scalar computations that do not change in a loop (a
  /// block's scale read and broadcast to its tile, a per-tensor scale) out
  /// of it, innermost loops first. On tensors the reads are pure; once
  /// bufferized, LLVM could not move them past the loop's stores, which
  /// might alias. Other tensor-valued ops than slices (fills, empties)
  /// stay: moved out of an scf.forall, their buffers would be shared and
  /// copied.
  static void hoistInvariantVectors(Operation *root) {
    root->walk([](LoopLikeOpInterface loop) {
      moveLoopInvariantCode(
          loop.getLoopRegions(),
          [&](Value value, Region *) {
            return loop.isDefinedOutsideOfLoop(value);
          },
          [](Operation *op, Region *) {
            return (isa<tensor::ExtractSliceOp>(op) ||
                    llvm::none_of(op->getResultTypes(),
                                  llvm::IsaPred<TensorType>)) &&
                   op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
                   isSpeculatable(op);
          },
          [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
    });
  }
};

} // namespace

LogicalResult mlir::quant_affine::checkVectorWidth(
    int64_t vectorWidth, function_ref<LogicalResult(const Twine &)> error) {
  if (vectorWidth < 1)
    return error("vector-width must be at least 1, got " + Twine(vectorWidth));
  return success();
}
