//===- EmulateNarrowTypes.cpp - packed i1/i2/i4 buffers -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Packs i1, i2 and i4 buffers 8 / N values a byte with upstream's narrow-type
// emulation (f4E2M1FN like i4, by its bits: scalar accesses bitcast it to and
// from i4). What upstream leaves to its users is here:
//  - preparation: 1-D transfers on packed buffers become vector loads and
//    stores, views fold into them (the emulation wants them on the root
//    buffer), and float-to-packed conversions go through i32 so that
//    upstream's shuffle rewrite of bitcast(trunci) applies;
//  - vector accesses: upstream's need a statically known position within the
//    byte; ours prove that the first element starts a byte from the index
//    arithmetic and fall back to scalar accesses otherwise;
//  - the ops upstream has no pattern for (globals, casts, aligned pointers)
//    and the function, call, return, branch and scf boundaries.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/LookupTables.h"
#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PackByBytes.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/ScalarizeAccesses.h"
#include "QuantAffine/Codegen/Common/UnpackByShifts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/NarrowTypeEmulationConverter.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEEMULATENARROWTYPESPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using quant_affine::isPackedType;

namespace {

bool isPackedMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isPackedType(memref.getElementType());
}

bool touchesPackedMemRef(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isPackedMemRef) ||
         llvm::any_of(op->getResultTypes(), isPackedMemRef);
}

//===-- Preparation -------------------------------------------------------===//

/// fptosi/fptoui to a packed vector type through i32 and a trunci: the same
/// value wherever the original is not poison (the value fits), and the form
/// upstream's bitcast(trunci) rewrite packs with shuffles.
template <typename ConvertOp>
struct ConvertToPackedThroughI32 : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || !isPackedType(type.getElementType()))
      return failure();
    auto wide = type.clone(rewriter.getI32Type());
    Value converted =
        ConvertOp::create(rewriter, op.getLoc(), wide, op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, converted);
    return success();
  }
};

/// Copies between views of packed buffers: a tile copied onto itself (the
/// two subviews of a forall's output tile, merged by CSE) goes away, any
/// other becomes a linalg copy, lowered to loops below. (Upstream copies only
/// whole buffers of one layout.)
void rewriteCopies(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, module);
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (touchesPackedMemRef(copy))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    if (copy.getSource() != copy.getTarget()) {
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (source == target && source.getLayout().isIdentity())
        continue; // Upstream copies the bytes.
      rewriter.setInsertionPoint(copy);
      linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
    }
    rewriter.eraseOp(copy);
  }
}

/// The 1-D mask of a transfer of a vector whose leading dims are units:
/// `create_mask 1, ..., 1, %n` becomes `create_mask %n`. Null when the
/// transfer has no mask; failure when its mask is of another form.
FailureOr<Value> innermostMask(PatternRewriter &rewriter, Location loc,
                               Value mask, VectorType flat) {
  if (!mask)
    return Value();
  auto create = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!create)
    return failure();
  OperandRange sizes = create.getOperands();
  for (Value size : sizes.drop_back())
    if (getConstantIntValue(size) != 1)
      return failure();
  return vector::CreateMaskOp::create(rewriter, loc,
                                      flat.clone(rewriter.getI1Type()),
                                      ValueRange{sizes.back()})
      .getResult();
}

/// The 1-D vector type of the same elements when `transfer` moves one
/// contiguous run of memory from its indices on: a vector whose dims are
/// units but the last, along the innermost memref dim, in bounds but for a
/// masked last dim; or, unmasked and in bounds, a vector that is a
/// contiguous slice of the memref (two blocks of 32 of rows of 4096).
template <typename TransferOp>
std::optional<VectorType> flatTransferType(TransferOp transfer) {
  VectorType type = transfer.getVectorType();
  auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
  if (!memref || !isPackedType(memref.getElementType()) || type.isScalable() ||
      type.getRank() == 0 || !transfer.getPermutationMap().isMinorIdentity())
    return std::nullopt;
  auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
  ArrayRef<int64_t> leading = type.getShape().drop_back();
  if (llvm::all_of(leading, [](int64_t size) { return size == 1; })) {
    for (int64_t j = 0; j + 1 < type.getRank(); ++j)
      if (!transfer.isDimInBounds(j))
        return std::nullopt;
    if (!transfer.isDimInBounds(type.getRank() - 1) && !transfer.getMask())
      return std::nullopt;
    return flat;
  }
  // (isContiguousSlice reads past the shapes of all-unit vectors and of
  // vectors of higher rank than the memref: excluded above and here.)
  if (transfer.getMask() || type.getRank() > memref.getRank())
    return std::nullopt;
  for (int64_t j = 0; j < type.getRank(); ++j)
    if (!transfer.isDimInBounds(j))
      return std::nullopt;
  if (!vector::isContiguousSlice(memref, type))
    return std::nullopt;
  return flat;
}

struct FlatTransferRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    std::optional<VectorType> flat = flatTransferType(read);
    if (!flat || isa<VectorType>(read.getPadding().getType()))
      return failure();
    Location loc = read.getLoc();
    FailureOr<Value> mask = innermostMask(rewriter, loc, read.getMask(), *flat);
    if (failed(mask))
      return failure();
    Value loaded;
    if (*mask) {
      Value padding =
          vector::BroadcastOp::create(rewriter, loc, *flat, read.getPadding());
      loaded =
          vector::MaskedLoadOp::create(rewriter, loc, *flat, read.getBase(),
                                       read.getIndices(), *mask, padding);
    } else {
      loaded = vector::LoadOp::create(rewriter, loc, *flat, read.getBase(),
                                      read.getIndices());
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, read.getVectorType(),
                                                     loaded);
    return success();
  }
};

struct FlatTransferWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    std::optional<VectorType> flat = flatTransferType(write);
    if (!flat || !isa<MemRefType>(write.getBase().getType()))
      return failure();
    Location loc = write.getLoc();
    FailureOr<Value> mask =
        innermostMask(rewriter, loc, write.getMask(), *flat);
    if (failed(mask))
      return failure();
    Value value =
        vector::ShapeCastOp::create(rewriter, loc, *flat, write.getVector());
    if (*mask)
      vector::MaskedStoreOp::create(rewriter, loc, write.getBase(),
                                    write.getIndices(), *mask, value);
    else
      vector::StoreOp::create(rewriter, loc, value, write.getBase(),
                              write.getIndices());
    rewriter.eraseOp(write);
    return success();
  }
};

bool hasStaticStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         !llvm::any_of(strides, ShapedType::isDynamic);
}

/// Accesses of a packed buffer of dynamic strides through a memref.cast of
/// it to static strides that dominates them: canonicalization folds casts
/// into accesses (to the less static type), but a caller that casts a
/// returned buffer to the shape it knows gives the strides packing needs.
void accessThroughStaticCasts(ModuleOp module) {
  DominanceInfo dominance;
  module.walk([&](Operation *op) {
    if (!isa<memref::LoadOp, memref::StoreOp, vector::TransferReadOp,
             vector::TransferWriteOp, vector::LoadOp, vector::StoreOp,
             vector::MaskedLoadOp, vector::MaskedStoreOp>(op))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type || !isPackedType(type.getElementType()) ||
          hasStaticStrides(type))
        continue;
      for (Operation *user : operand.get().getUsers()) {
        auto cast = dyn_cast<memref::CastOp>(user);
        auto castType =
            cast ? dyn_cast<MemRefType>(cast.getType()) : MemRefType();
        if (castType && hasStaticStrides(castType) &&
            dominance.properlyDominates(cast.getOperation(), op)) {
          operand.set(cast.getResult());
          break;
        }
      }
    }
  });
}

/// Linalg ops on packed buffers to loops, which the emulation understands.
LogicalResult lowerLinalgToLoops(ModuleOp module, bool parallel) {
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    if (touchesPackedMemRef(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    if (parallel ? failed(linalg::linalgOpToParallelLoops(rewriter, op))
                 : failed(linalg::linalgOpToLoops(rewriter, op)))
      return op.emitOpError("could not be lowered to loops on packed buffers");
    rewriter.eraseOp(op);
  }
  return success();
}

LogicalResult prepare(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<vector::TransferReadOp, vector::TransferWriteOp, memref::LoadOp,
            memref::StoreOp, vector::LoadOp, vector::StoreOp,
            vector::MaskedLoadOp, vector::MaskedStoreOp, memref::SubViewOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::DimOp>(
            op) &&
        touchesPackedMemRef(op))
      ops.push_back(op);
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(module.getContext());
  // Tiles (1x1x16 too) to 1-D loads and stores.
  patterns.add<FlatTransferRead, FlatTransferWrite>(module.getContext(),
                                                    /*benefit=*/2);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  patterns.add<ConvertToPackedThroughI32<arith::FPToSIOp>,
               ConvertToPackedThroughI32<arith::FPToUIOp>>(module.getContext());
  FrozenRewritePatternSet frozen(std::move(patterns));
  // No folding: an access's folder would look through a memref.cast to the
  // dynamic buffer it came from (a result cast back to the static shape the
  // caller knows), whose strides packing cannot recover.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableFolding(false);
  if (failed(applyOpPatternsGreedily(ops, frozen, config)))
    return failure();
  // What did not become a plain or masked 1-D access (out-of-bounds dims,
  // broadcasts, n-D) goes element by element; views then fold into those.
  bool scalarized = false;
  quant_affine::scalarizeVectorAccesses(module, [&](Operation *op, VectorType,
                                                    Value base) {
    bool packed = isa<vector::TransferReadOp, vector::TransferWriteOp>(op) &&
                  isPackedMemRef(base.getType());
    scalarized |= packed;
    return packed;
  });
  if (!scalarized)
    return success();
  ops.clear();
  module.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::SubViewOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::DimOp>(
            op) &&
        touchesPackedMemRef(op))
      ops.push_back(op);
  });
  if (failed(applyOpPatternsGreedily(ops, frozen, config)))
    return failure();
  // Bounds checks of the scalarized accesses ask for static dims.
  IRRewriter rewriter(module.getContext());
  module.walk([&](memref::DimOp dim) {
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!type || !isPackedType(type.getElementType()) || !index ||
        *index >= type.getRank() || type.isDynamicDim(*index))
      return;
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        dim, type.getDimSize(*index));
  });
  return success();
}

//===-- Vector accesses ---------------------------------------------------===//

/// Where a vector access on a packed buffer starts, in elements from the
/// start of the buffer, and how many elements a byte holds.
struct PackedAccess {
  OpFoldResult linearIndex;
  int64_t perByte;
};

/// The sizes a buffer of identity layout was made with, where its defining
/// op says them (an allocation, a reshape of one): the strides of a buffer
/// the function allocated itself follow from them.
std::optional<SmallVector<OpFoldResult>> definingSizes(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.getLayout().isIdentity())
    return std::nullopt;
  if (auto alloc = memref.getDefiningOp<memref::AllocOp>())
    return alloc.getMixedSizes();
  if (auto alloca = memref.getDefiningOp<memref::AllocaOp>())
    return alloca.getMixedSizes();
  if (auto expand = memref.getDefiningOp<memref::ExpandShapeOp>())
    if (cast<MemRefType>(expand.getSrc().getType()).getLayout().isIdentity())
      return expand.getMixedOutputShape();
  // A cast keeps the sizes (and may make some static).
  if (auto castOp = memref.getDefiningOp<memref::CastOp>()) {
    std::optional<SmallVector<OpFoldResult>> sizes =
        definingSizes(castOp.getSource());
    if (sizes)
      for (auto [d, size] : llvm::enumerate(*sizes))
        if (!type.isDynamicDim(d))
          size = IntegerAttr::get(IndexType::get(memref.getContext()),
                                  type.getDimSize(d));
    return sizes;
  }
  return std::nullopt;
}

/// Where element `indices` of `memref` is, counted in elements from the start
/// of its buffer: from static strides, or from the sizes of a buffer the
/// function allocated. Null otherwise (a dynamic stride of an argument would
/// come from its shape, which packing does not keep).
std::optional<PackedAccess> linearize(OpBuilder &b, Location loc, Value memref,
                                      ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t perByte = 8 / type.getElementTypeBitWidth();
  MLIRContext *context = b.getContext();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(type.getStridesAndOffset(strides, offset)) &&
      !ShapedType::isDynamic(offset) &&
      !llvm::any_of(strides, ShapedType::isDynamic)) {
    AffineExpr linear = getAffineConstantExpr(offset, context);
    for (auto [i, stride] : llvm::enumerate(strides))
      linear = linear + getAffineSymbolExpr(i, context) * stride;
    return PackedAccess{affine::makeComposedFoldedAffineApply(
                            b, loc, linear, getAsOpFoldResult(indices)),
                        perByte};
  }
  std::optional<SmallVector<OpFoldResult>> sizes = definingSizes(memref);
  if (!sizes)
    return std::nullopt;
  // Row-major: ((i0 * s1 + i1) * s2 + i2) ..., sizes and indices as symbols.
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> operands(indices.begin(), indices.end());
  operands.append(sizes->begin(), sizes->end());
  AffineExpr linear = getAffineConstantExpr(0, context);
  for (int64_t k = 0; k < rank; ++k) {
    AffineExpr size = getAffineSymbolExpr(rank + k, context);
    linear =
        (k == 0 ? linear : linear * size) + getAffineSymbolExpr(k, context);
  }
  return PackedAccess{
      affine::makeComposedFoldedAffineApply(b, loc, linear, operands), perByte};
}

Value byteIndex(OpBuilder &b, Location loc, const PackedAccess &access) {
  AffineExpr s0;
  bindSymbols(b.getContext(), s0);
  return getValueOrCreateConstantIndexOp(
      b, loc,
      affine::makeComposedFoldedAffineApply(b, loc, s0.floorDiv(access.perByte),
                                            {access.linearIndex}));
}

/// The `n` of a `vector.create_mask %n` (or constant_mask) 1-D mask; null
/// for other masks.
Value prefixLength(OpBuilder &b, Location loc, Value mask) {
  if (auto create = mask.getDefiningOp<vector::CreateMaskOp>())
    if (create.getNumOperands() == 1)
      return create.getOperand(0);
  if (auto constant = mask.getDefiningOp<vector::ConstantMaskOp>())
    if (constant.getMaskDimSizes().size() == 1)
      return arith::ConstantIndexOp::create(b, loc,
                                            constant.getMaskDimSizes()[0]);
  return {};
}

VectorType bytesFor(VectorType packed, int64_t perByte) {
  return VectorType::get(
      {llvm::divideCeilSigned(packed.getNumElements(), perByte)},
      IntegerType::get(packed.getContext(), 8));
}

/// `value` with lanes of undefined content appended up to `lanes`.
Value padTo(OpBuilder &b, Location loc, Value value, int64_t lanes) {
  auto type = cast<VectorType>(value.getType());
  int64_t n = type.getNumElements();
  if (n == lanes)
    return value;
  SmallVector<int64_t> positions;
  for (int64_t i = 0; i < lanes; ++i)
    positions.push_back(i < n ? i : 0);
  return vector::ShuffleOp::create(b, loc, value, value, positions);
}

Value sliceTo(OpBuilder &b, Location loc, Value value, int64_t lanes) {
  if (cast<VectorType>(value.getType()).getNumElements() == lanes)
    return value;
  return vector::ExtractStridedSliceOp::create(b, loc, value, {0}, {lanes},
                                               {1});
}

/// The byte holding element `linear` of a packed buffer, and the element's
/// first bit in it.
std::pair<Value, Value> bytePosition(OpBuilder &b, Location loc,
                                     OpFoldResult linear, int64_t perByte) {
  AffineExpr s0;
  bindSymbols(b.getContext(), s0);
  int64_t bits = 8 / perByte;
  Value byte = byteIndex(b, loc, PackedAccess{linear, perByte});
  Value shift = getValueOrCreateConstantIndexOp(
      b, loc,
      affine::makeComposedFoldedAffineApply(b, loc, (s0 % perByte) * bits,
                                            {linear}));
  return {byte, arith::IndexCastOp::create(b, loc, b.getI8Type(), shift)};
}

/// The integer of `type`'s width that holds its bits (f4E2M1FN: i4), with
/// `type`'s shape.
Type bitsTypeOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isInteger())
    return type;
  auto bits =
      IntegerType::get(type.getContext(), element.getIntOrFloatBitWidth());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(bits);
  return bits;
}

/// `value` as its bits: packed floats (f4E2M1FN) are bitcast, since the
/// integer ops that pack and unpack take integers only.
Value asBits(OpBuilder &b, Location loc, Value value) {
  Type bits = bitsTypeOf(value.getType());
  if (bits == value.getType())
    return value;
  return arith::BitcastOp::create(b, loc, bits, value);
}

/// The value of type `type` whose bits are the low bits of `wide`.
Value fromLowBits(OpBuilder &b, Location loc, Value wide, Type type) {
  Type bits = bitsTypeOf(type);
  Value value = arith::TruncIOp::create(b, loc, bits, wide);
  if (bits == type)
    return value;
  return arith::BitcastOp::create(b, loc, type, value);
}

/// The indices of byte `index` of `bytes`: none where the buffer is 0-D
/// (the byte of a 0-D packed value; `index` is then 0).
SmallVector<Value> byteIndices(Value bytes, Value index) {
  if (cast<MemRefType>(bytes.getType()).getRank() == 0)
    return {};
  return {index};
}

Value loadElement(OpBuilder &b, Location loc, Value bytes, OpFoldResult linear,
                  Type elementType) {
  int64_t perByte = 8 / elementType.getIntOrFloatBitWidth();
  auto [index, shift] = bytePosition(b, loc, linear, perByte);
  Value byte = memref::LoadOp::create(b, loc, bytes, byteIndices(bytes, index));
  Value shifted = arith::ShRUIOp::create(b, loc, byte, shift);
  return fromLowBits(b, loc, shifted, elementType);
}

/// The index of the last element of a static packed buffer whose last byte
/// has padding bits; none otherwise (no padding, or a dynamic size).
std::optional<int64_t> paddedLastElement(Type type) {
  auto memref = cast<MemRefType>(type);
  if (!memref.hasStaticShape())
    return std::nullopt;
  int64_t count = memref.getNumElements();
  int64_t perByte = 8 / memref.getElementTypeBitWidth();
  if (count == 0 || count % perByte == 0)
    return std::nullopt;
  return count - 1;
}

/// Clears the element's bits, then sets them, each an atomic read-modify-
/// write of its byte: rows that share a byte may be written by different
/// threads. Storing element `last` of a buffer also clears the padding bits
/// above it, so that the last byte is zero-padded (DESIGN section 9).
void storeElement(OpBuilder &b, Location loc, Value element, Value bytes,
                  OpFoldResult linear, std::optional<int64_t> last) {
  int64_t bits = element.getType().getIntOrFloatBitWidth();
  auto [index, shift] = bytePosition(b, loc, linear, 8 / bits);
  Type i8 = b.getI8Type();
  Value ones = arith::ConstantIntOp::create(b, loc, i8, -1);
  auto clearFrom = [&](int64_t field) {
    Value bitsToClear = arith::ShLIOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, i8, field), shift);
    return arith::XOrIOp::create(b, loc, bitsToClear, ones).getResult();
  };
  Value clear = clearFrom((1 << bits) - 1);
  if (last) {
    Value isLast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              getValueOrCreateConstantIndexOp(b, loc, linear),
                              arith::ConstantIndexOp::create(b, loc, *last));
    clear = arith::SelectOp::create(b, loc, isLast, clearFrom(0xFF), clear);
  }
  Value value = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i8, asBits(b, loc, element)),
      shift);
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::andi, clear, bytes,
                              byteIndices(bytes, index));
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori, value, bytes,
                              byteIndices(bytes, index));
}

OpFoldResult plus(OpBuilder &b, Location loc, OpFoldResult linear,
                  OpFoldResult lane) {
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  return affine::makeComposedFoldedAffineApply(b, loc, s0 + s1, {linear, lane});
}

/// Stores lanes [from, to) of `value` one by one. (The body is built once
/// the loop is in its block: affine folding asks where its operands live.)
void storeLanes(OpBuilder &b, Location loc, Value value, Value bytes,
                OpFoldResult linear, Value from, Value to,
                std::optional<int64_t> last) {
  // The lanes are taken from bytes: LLVM's AArch64 backend miscompiles an
  // extractelement at a variable position of an <N x i4> vector (the last of
  // 5 lanes read as 0, test/Integration/AArch64).
  auto vectorType = cast<VectorType>(value.getType());
  Value widened = arith::ExtUIOp::create(
      b, loc, vectorType.clone(b.getIntegerType(8)), asBits(b, loc, value));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, from, to, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value lane = loop.getInductionVar();
  Value byte = vector::ExtractOp::create(b, loc, widened, OpFoldResult(lane));
  Value element = fromLowBits(b, loc, byte, vectorType.getElementType());
  storeElement(b, loc, element, bytes, plus(b, loc, linear, lane), last);
}

/// The access unrolled into one scalar access per lane, each under its mask
/// bit: for positions not known to start a byte, and masks that are not
/// prefixes.
Value scalarize(OpBuilder &b, Location loc, Value bytes, OpFoldResult linear,
                VectorType type, Value mask, Value storeValue, Value passThru,
                std::optional<int64_t> last = std::nullopt) {
  Value result = passThru;
  if (!storeValue && !result)
    result = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    OpFoldResult at = plus(b, loc, linear, b.getIndexAttr(i));
    Value enabled;
    if (mask)
      enabled = vector::ExtractOp::create(b, loc, mask, i);
    if (storeValue) {
      auto emit = [&](OpBuilder &nested, Location loc) {
        Value element = vector::ExtractOp::create(nested, loc, storeValue, i);
        storeElement(nested, loc, element, bytes, at, last);
      };
      if (!enabled) {
        emit(b, loc);
        continue;
      }
      scf::IfOp::create(b, loc, enabled, [&](OpBuilder &nested, Location loc) {
        emit(nested, loc);
        scf::YieldOp::create(nested, loc);
      });
      continue;
    }
    Value element;
    if (!enabled) {
      element = loadElement(b, loc, bytes, at, type.getElementType());
    } else {
      auto branch = scf::IfOp::create(
          b, loc, enabled,
          [&](OpBuilder &nested, Location loc) {
            scf::YieldOp::create(
                nested, loc,
                ValueRange{loadElement(nested, loc, bytes, at,
                                       type.getElementType())});
          },
          [&](OpBuilder &nested, Location loc) {
            scf::YieldOp::create(
                nested, loc,
                ValueRange{vector::ExtractOp::create(nested, loc, result, i)});
          });
      element = branch.getResult(0);
    }
    result = vector::InsertOp::create(b, loc, element, result, i);
  }
  return result;
}

constexpr const char kDynamicStrides[] =
    "cannot address a packed buffer of dynamic strides: only its outermost "
    "dim may be dynamic";

/// The position of an access to `memref` at `indices`, or a diagnostic at
/// `op` (checkAddressable has already rejected such accesses; this catches
/// any created since).
FailureOr<PackedAccess> packedAccessOf(OpBuilder &b, Operation *op,
                                       Value memref, ValueRange indices) {
  std::optional<PackedAccess> access =
      linearize(b, op->getLoc(), memref, indices);
  if (!access)
    return op->emitOpError(kDynamicStrides);
  return *access;
}

bool startsAByte(const PackedAccess &access) {
  return quant_affine::knownDivisor(access.linearIndex) % access.perByte == 0;
}

/// vector.load / vector.maskedload of a packed buffer.
template <typename LoadOp>
struct PackedVectorLoad : OpConversionPattern<LoadOp> {
  using OpConversionPattern<LoadOp>::OpConversionPattern;
  using OpAdaptor = typename LoadOp::Adaptor;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPackedMemRef(op.getBase().getType()))
      return failure();
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return rewriter.notifyMatchFailure(op, "not a fixed 1-D vector");
    Location loc = op.getLoc();
    Value mask, passThru;
    if constexpr (std::is_same_v<LoadOp, vector::MaskedLoadOp>) {
      mask = op.getMask();
      passThru = op.getPassThru();
    }
    FailureOr<PackedAccess> access =
        packedAccessOf(rewriter, op, op.getBase(), op.getIndices());
    if (failed(access))
      return failure();
    Value length = mask ? prefixLength(rewriter, loc, mask) : Value();
    if (!startsAByte(*access) || (mask && !length)) {
      rewriter.replaceOp(op, scalarize(rewriter, loc, adaptor.getBase(),
                                       access->linearIndex, type, mask,
                                       /*storeValue=*/{}, passThru));
      return success();
    }
    VectorType bytesType = bytesFor(type, access->perByte);
    Value index = byteIndex(rewriter, loc, *access);
    Value bytes;
    if (!mask) {
      bytes = vector::LoadOp::create(rewriter, loc, bytesType,
                                     adaptor.getBase(), index);
    } else {
      // Every byte holding an enabled lane; the rest of it is selected away.
      AffineExpr s0;
      bindSymbols(rewriter.getContext(), s0);
      Value byteCount = getValueOrCreateConstantIndexOp(
          rewriter, loc,
          affine::makeComposedFoldedAffineApply(
              rewriter, loc, s0.ceilDiv(access->perByte), {length}));
      Value byteMask = vector::CreateMaskOp::create(
          rewriter, loc, bytesType.clone(rewriter.getI1Type()), byteCount);
      Value zeros = arith::ConstantOp::create(rewriter, loc, bytesType,
                                              rewriter.getZeroAttr(bytesType));
      bytes = vector::MaskedLoadOp::create(
          rewriter, loc, bytesType, adaptor.getBase(), index, byteMask, zeros);
    }
    auto paddedType = VectorType::get(
        {bytesType.getNumElements() * access->perByte}, type.getElementType());
    Value values =
        sliceTo(rewriter, loc,
                vector::BitCastOp::create(rewriter, loc, paddedType, bytes),
                type.getNumElements());
    if (mask)
      values = arith::SelectOp::create(rewriter, loc, mask, values, passThru);
    rewriter.replaceOp(op, values);
    return success();
  }
};

/// vector.store / vector.maskedstore to a packed buffer.
template <typename StoreOp>
struct PackedVectorStore : OpConversionPattern<StoreOp> {
  using OpConversionPattern<StoreOp>::OpConversionPattern;
  using OpAdaptor = typename StoreOp::Adaptor;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPackedMemRef(op.getBase().getType()))
      return failure();
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return rewriter.notifyMatchFailure(op, "not a fixed 1-D vector");
    Location loc = op.getLoc();
    Value mask;
    if constexpr (std::is_same_v<StoreOp, vector::MaskedStoreOp>)
      mask = op.getMask();
    Value value = adaptor.getValueToStore();
    FailureOr<PackedAccess> access =
        packedAccessOf(rewriter, op, op.getBase(), op.getIndices());
    if (failed(access))
      return failure();
    int64_t lanes = type.getNumElements();
    Value length =
        mask ? prefixLength(rewriter, loc, mask)
             : arith::ConstantIndexOp::create(rewriter, loc, lanes).getResult();
    if (!startsAByte(*access) || !length) {
      scalarize(rewriter, loc, adaptor.getBase(), access->linearIndex, type,
                mask, value, /*passThru=*/{},
                paddedLastElement(op.getBase().getType()));
      rewriter.eraseOp(op);
      return success();
    }
    // Whole bytes in one (masked) vector store; the values of a partial last
    // byte one by one, since its other bits may belong to a row another
    // thread writes.
    VectorType bytesType = bytesFor(type, access->perByte);
    int64_t paddedLanes = bytesType.getNumElements() * access->perByte;
    Value bytes = vector::BitCastOp::create(
        rewriter, loc, bytesType, padTo(rewriter, loc, value, paddedLanes));
    Value index = byteIndex(rewriter, loc, *access);
    std::optional<int64_t> staticLength = getConstantIntValue(length);
    if (staticLength && *staticLength == lanes &&
        lanes % access->perByte == 0) {
      vector::StoreOp::create(rewriter, loc, bytes, adaptor.getBase(), index);
      rewriter.eraseOp(op);
      return success();
    }
    AffineExpr s0;
    bindSymbols(rewriter.getContext(), s0);
    Value wholeBytes = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, s0.floorDiv(access->perByte), {length}));
    Value byteMask = vector::CreateMaskOp::create(
        rewriter, loc, bytesType.clone(rewriter.getI1Type()), wholeBytes);
    vector::MaskedStoreOp::create(rewriter, loc, adaptor.getBase(), index,
                                  byteMask, bytes);
    Value tailStart = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, s0.floorDiv(access->perByte) * access->perByte,
            {length}));
    storeLanes(rewriter, loc, value, adaptor.getBase(), access->linearIndex,
               tailStart, length, paddedLastElement(op.getBase().getType()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// memref.load of a packed buffer: its byte, shifted. (Upstream's pattern
/// asks the original buffer for its strides, which it cannot give once a
/// function signature has been converted.)
struct PackedScalarLoad : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPackedMemRef(op.getMemRef().getType()))
      return failure();
    FailureOr<PackedAccess> access =
        packedAccessOf(rewriter, op, op.getMemRef(), adaptor.getIndices());
    if (failed(access))
      return failure();
    rewriter.replaceOp(op,
                       loadElement(rewriter, op.getLoc(), adaptor.getMemref(),
                                   access->linearIndex, op.getType()));
    return success();
  }
};

/// memref.store to a packed buffer: atomic read-modify-writes of its byte.
struct PackedScalarStore : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPackedMemRef(op.getMemRef().getType()))
      return failure();
    FailureOr<PackedAccess> access =
        packedAccessOf(rewriter, op, op.getMemRef(), adaptor.getIndices());
    if (failed(access))
      return failure();
    storeElement(rewriter, op.getLoc(), adaptor.getValue(), adaptor.getMemref(),
                 access->linearIndex,
                 paddedLastElement(op.getMemRef().getType()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Allocations of packed buffers: `ceil(count * N / 8)` bytes. (Upstream's
/// rounds the byte count of a dynamic size down: 4 x i1 got 0 bytes.)
template <typename AllocOp>
struct PackedAllocation : OpConversionPattern<AllocOp> {
  using OpConversionPattern<AllocOp>::OpConversionPattern;
  using OpAdaptor = typename AllocOp::Adaptor;

  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    if (!isPackedType(type.getElementType()) || type.hasStaticShape())
      return failure();
    auto converted =
        this->getTypeConverter()->template convertType<MemRefType>(type);
    if (!converted)
      return failure();
    Location loc = op.getLoc();
    int64_t bits = type.getElementTypeBitWidth();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    AffineExpr count = getAffineConstantExpr(1, rewriter.getContext());
    for (size_t i = 0; i < sizes.size(); ++i)
      count = count * getAffineSymbolExpr(i, rewriter.getContext());
    Value bytes = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, (count * bits).ceilDiv(8), sizes));
    rewriter.replaceOpWithNewOp<AllocOp>(op, converted, ValueRange{bytes},
                                         adaptor.getSymbolOperands(),
                                         adaptor.getAlignmentAttr());
    return success();
  }
};

//===-- Ops upstream has no pattern for -----------------------------------===//

/// Packs a dense i1/i2/i4 attribute into the bytes of `packed` (its
/// converted buffer type): row-major, lower index in the lower bits, the
/// last byte padded with zeros.
DenseElementsAttr packBytes(DenseElementsAttr values, MemRefType packed) {
  int64_t byteCount = packed.getNumElements();
  auto type = cast<ShapedType>(values.getType());
  unsigned bits = type.getElementTypeBitWidth();
  int64_t perByte = 8 / bits;
  SmallVector<int8_t> bytes(byteCount, 0);
  int64_t i = 0;
  // Float codes (f4E2M1FN) are packed by their bits.
  SmallVector<APInt> codes;
  if (isa<FloatType>(type.getElementType()))
    for (const APFloat &value : values.getValues<APFloat>())
      codes.push_back(value.bitcastToAPInt());
  else
    codes = llvm::to_vector(values.getValues<APInt>());
  for (const APInt &value : codes) {
    uint8_t field = value.getZExtValue() & ((1u << bits) - 1);
    bytes[i / perByte] |= field << ((i % perByte) * bits);
    ++i;
  }
  // In the packed buffer's shape: one dim of bytes, or none for a 0-D value.
  auto bytesType = RankedTensorType::get(
      packed.getShape(), IntegerType::get(values.getContext(), 8));
  return DenseElementsAttr::get(bytesType, ArrayRef<int8_t>(bytes));
}

struct PackedGlobal : OpConversionPattern<memref::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "no static packed type");
    Attribute initial = op.getInitialValueAttr();
    if (auto dense = dyn_cast_if_present<DenseElementsAttr>(initial)) {
      initial = packBytes(dense, type);
    } else if (auto resource =
                   dyn_cast_if_present<DenseResourceElementsAttr>(initial)) {
      // A dense_resource of iN already holds the packed bytes (the ONNX
      // importer's int4 initializers): the same blob, typed as bytes.
      // (checkResourceSizes has checked the blob's size.)
      initial = DenseResourceElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          resource.getRawHandle());
    } else if (initial && !isa<UnitAttr>(initial)) {
      return rewriter.notifyMatchFailure(op, "unsupported initial value");
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.setType(type);
      if (initial)
        op.setInitialValueAttr(initial);
    });
    return success();
  }
};

struct PackedGetGlobal : OpConversionPattern<memref::GetGlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GetGlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type, op.getName());
    return success();
  }
};

/// Ops whose meaning does not depend on the element layout: the same op on
/// the converted operand and result types.
template <typename OpT> struct SameOpOnPackedTypes : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(this->getTypeConverter()->convertTypes(op->getResultTypes(),
                                                      types)))
      return failure();
    Operation *converted =
        rewriter.create(op.getLoc(), op->getName().getIdentifier(),
                        adaptor.getOperands(), types, op->getAttrs());
    rewriter.replaceOp(op, converted->getResults());
    return success();
  }
};

//===-- After the conversion ----------------------------------------------===//

/// Keeps the conversions out of and into packed types next to the bitcasts
/// of the loads and stores, where upstream's shuffle rewrites find them:
/// `ext(shape_cast(bitcast))` becomes `shape_cast(ext(bitcast))` and
/// `bitcast(shape_cast(trunc))` becomes `bitcast(trunc(shape_cast))`.
/// (Otherwise LLVM unpacks the nibbles of the n-D vector one by one.)
struct MoveShapeCastPastPackedCast : RewritePattern {
  MoveShapeCastPastPackedCast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::TruncIOp>(op))
      return failure();
    auto source = dyn_cast<VectorType>(op->getOperand(0).getType());
    auto result = dyn_cast<VectorType>(op->getResult(0).getType());
    if (!source || !result)
      return failure();
    Location loc = op->getLoc();
    // From a packed type: the shape_cast moves below.
    if (isPackedType(source.getElementType())) {
      auto shapeCast = op->getOperand(0).getDefiningOp<vector::ShapeCastOp>();
      if (!shapeCast)
        return failure();
      VectorType flat = shapeCast.getSourceVectorType();
      OperationState state(
          loc, op->getName().getIdentifier(), ValueRange{shapeCast.getSource()},
          TypeRange{flat.clone(result.getElementType())}, op->getAttrs());
      Value converted = rewriter.create(state)->getResult(0);
      rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, result, converted);
      return success();
    }
    // To a packed type, used by one shape_cast: that moves above.
    if (!isPackedType(result.getElementType()) || !op->hasOneUse())
      return failure();
    auto shapeCast = dyn_cast<vector::ShapeCastOp>(*op->user_begin());
    if (!shapeCast)
      return failure();
    VectorType flat = shapeCast.getResultVectorType();
    Value reshaped = vector::ShapeCastOp::create(
        rewriter, loc, flat.clone(source.getElementType()), op->getOperand(0));
    OperationState state(loc, op->getName().getIdentifier(),
                         ValueRange{reshaped}, TypeRange{flat}, op->getAttrs());
    rewriter.replaceOp(shapeCast, rewriter.create(state)->getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

//===-- The pass ----------------------------------------------------------===//

/// A packed global's dense_resource must hold exactly its packed bytes.
LogicalResult checkResourceSizes(ModuleOp module) {
  WalkResult walk = module.walk([](memref::GlobalOp global) {
    auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(
        global.getInitialValueAttr());
    MemRefType type = global.getType();
    if (!resource || !isPackedMemRef(type) || !type.hasStaticShape())
      return WalkResult::advance();
    int64_t bytes =
        (type.getNumElements() * type.getElementTypeBitWidth() + 7) / 8;
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (blob && static_cast<int64_t>(blob->getData().size()) == bytes)
      return WalkResult::advance();
    global.emitOpError("dense_resource of ")
        << type << " must hold " << bytes << " packed bytes";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

bool usesPackedMemory(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    if (touchesPackedMemRef(op))
      return WalkResult::interrupt();
    if (auto global = dyn_cast<memref::GlobalOp>(op))
      if (isPackedMemRef(global.getType()))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), isPackedMemRef))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

struct QuantAffineEmulateNarrowTypesPass
    : quant_affine::impl::QuantAffineEmulateNarrowTypesPassBase<
          QuantAffineEmulateNarrowTypesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (float4TableLanes != 0 && float4TableLanes != 8 &&
        float4TableLanes != 16) {
      module.emitError("float4-table-lanes must be 0, 8 or 16, got ")
          << static_cast<int64_t>(float4TableLanes);
      return signalPassFailure();
    }
    if (!usesPackedMemory(module))
      return markAllAnalysesPreserved();
    rewriteCopies(module);
    accessThroughStaticCasts(module);
    if (failed(lowerLinalgToLoops(module, parallelLoops)) ||
        failed(prepare(module)))
      return signalPassFailure();
    if (failed(quant_affine::passPackedLogicalSizes(module)) ||
        failed(checkShapesKnown(module)) || failed(checkAddressable(module)) ||
        failed(checkResourceSizes(module)))
      return signalPassFailure();

    arith::NarrowTypeEmulationConverter converter(/*targetBitwidth=*/8);
    memref::populateMemRefNarrowTypeEmulationConversions(converter);
    // Tried first: only i1, i2 and i4 are packed; i3, i5, ... keep a byte.
    converter.addConversion([](MemRefType type) -> std::optional<Type> {
      if (!isPackedType(type.getElementType()))
        return type;
      return std::nullopt;
    });

    ConversionTarget target(*context);
    auto legal = [&](Operation *op) { return converter.isLegal(op); };
    target.markUnknownOpDynamicallyLegal(legal);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<memref::GlobalOp>(
        [](memref::GlobalOp op) { return !isPackedMemRef(op.getType()); });
    target.addDynamicallyLegalOp<memref::GetGlobalOp>(legal);

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    arith::populateArithNarrowTypeEmulationPatterns(converter, patterns);
    memref::populateMemRefNarrowTypeEmulationPatterns(converter, patterns);
    patterns
        .add<PackedVectorLoad<vector::LoadOp>,
             PackedVectorLoad<vector::MaskedLoadOp>,
             PackedVectorStore<vector::StoreOp>,
             PackedVectorStore<vector::MaskedStoreOp>, PackedScalarLoad,
             PackedAllocation<memref::AllocOp>,
             PackedAllocation<memref::AllocaOp>, PackedScalarStore,
             PackedGlobal, PackedGetGlobal, SameOpOnPackedTypes<memref::CastOp>,
             SameOpOnPackedTypes<memref::ExtractAlignedPointerAsIndexOp>>(
            converter, context, /*benefit=*/2);
    // No folding (as in prepare): an access folded through a memref.cast
    // would address the dynamic buffer the cast came from.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, target, std::move(patterns),
                                      config)))
      return signalPassFailure();

    // Packs and unpacks in registers with shuffles and shifts.
    RewritePatternSet moves(context);
    moves.add<MoveShapeCastPastPackedCast>(context);
    if (failed(applyPatternsGreedily(module, std::move(moves))))
      return signalPassFailure();
    if (tableLookup || float4TableLanes)
      quant_affine::lookUpPackedCodesInTables(module, tableLookup,
                                              float4TableLanes);
    if (shiftUnpack || bytePack) {
      RewritePatternSet targeted(context);
      if (shiftUnpack)
        quant_affine::populateUnpackByShiftsPatterns(targeted);
      if (bytePack)
        quant_affine::populatePackByBytesPatterns(targeted);
      if (failed(applyPatternsGreedily(module, std::move(targeted))))
        return signalPassFailure();
    }
    RewritePatternSet upstream(context);
    vector::populateVectorNarrowTypeRewritePatterns(upstream);
    RewritePatternSet rewrites(context);
    for (std::unique_ptr<RewritePattern> &pattern :
         upstream.getNativePatterns()) {
      // Its extsi of a shuffled, masked and logically shifted field extends
      // the zero-extended value (an i1 of 1 became 1, not -1; MLIR 22.1).
      // The i2/i4 patterns sign-extend correctly; other widths fall back to
      // LLVM's own extension of the bitcast vector.
      if (pattern->getDebugName().contains(
              "RewriteExtOfBitCast<mlir::arith::ExtSIOp>"))
        continue;
      rewrites.add(std::move(pattern));
    }
    if (failed(applyPatternsGreedily(module, std::move(rewrites))))
      return signalPassFailure();
  }

  /// Accesses find their element from static strides and offset: the rank-1
  /// bytes keep neither.
  static LogicalResult checkAddressable(ModuleOp module) {
    WalkResult walk = module.walk([](Operation *op) {
      if (!isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp,
               vector::MaskedLoadOp, vector::MaskedStoreOp>(op))
        return WalkResult::advance();
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type || !isPackedType(type.getElementType()))
          continue;
        if (hasStaticStrides(type) || definingSizes(operand))
          continue;
        op->emitOpError(kDynamicStrides) << ", got " << type;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// A packed buffer keeps no shape: its dims must not be asked for.
  static LogicalResult checkShapesKnown(ModuleOp module) {
    WalkResult walk = module.walk([](memref::DimOp dim) {
      auto type = dyn_cast<MemRefType>(dim.getSource().getType());
      if (!type || !isPackedType(type.getElementType()))
        return WalkResult::advance();
      std::optional<int64_t> index = dim.getConstantIndex();
      if (index && !type.isDynamicDim(*index))
        return WalkResult::advance();
      dim.emitError() << "the size of a dynamic dim of " << type
                      << " is not known once it is packed into bytes: give "
                         "the op an operand or destination of the same shape "
                         "in another type, or a static shape";
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }
};

} // namespace
