//===- PackedAccesses.cpp - loads and stores of packed buffers ------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Vector and scalar loads and stores of packed buffers, converted to bytes.
// Upstream's vector accesses need a statically known position within the
// byte; these prove that the first element starts a byte from the index
// arithmetic and fall back to an access per element otherwise.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PackedMemory.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using quant_affine::hasStaticStrides;
using quant_affine::isPackedMemRef;
using quant_affine::isPackedType;

namespace {

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
/// `op` (checkPackedAccessesAddressable has already rejected such accesses;
/// this catches any created since).
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

} // namespace

LogicalResult quant_affine::checkPackedAccessesAddressable(ModuleOp module) {
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

void quant_affine::populatePackedAccessPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                PatternBenefit benefit) {
  patterns.add<PackedVectorLoad<vector::LoadOp>,
               PackedVectorLoad<vector::MaskedLoadOp>,
               PackedVectorStore<vector::StoreOp>,
               PackedVectorStore<vector::MaskedStoreOp>, PackedScalarLoad,
               PackedScalarStore>(converter, patterns.getContext(), benefit);
}
