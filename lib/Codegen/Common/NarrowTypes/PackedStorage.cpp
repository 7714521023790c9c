//===- PackedStorage.cpp - packed allocations and globals -----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Allocations and globals of packed buffers in bytes, and the ops whose
// meaning does not depend on the element layout: what upstream's narrow-type
// emulation has no pattern for.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"
#include "QuantAffine/Codegen/Common/PackedMemory.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using quant_affine::isPackedMemRef;
using quant_affine::isPackedType;

namespace {

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
      // (checkPackedResourceSizes has checked the blob's size.)
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

} // namespace

LogicalResult quant_affine::checkPackedResourceSizes(ModuleOp module) {
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

void quant_affine::populatePackedStoragePatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 PatternBenefit benefit) {
  patterns.add<PackedAllocation<memref::AllocOp>,
               PackedAllocation<memref::AllocaOp>, PackedGlobal,
               PackedGetGlobal, SameOpOnPackedTypes<memref::CastOp>,
               SameOpOnPackedTypes<memref::ExtractAlignedPointerAsIndexOp>>(
      converter, patterns.getContext(), benefit);
}
