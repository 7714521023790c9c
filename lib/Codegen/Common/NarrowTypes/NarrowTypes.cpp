//===- NarrowTypes.cpp - packed sub-byte integers in memory ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

bool quant_affine::isPackedType(Type type) {
  // f4E2M1FN is packed like i4 (docs/FloatQDQ.md).
  if (isa<Float4E2M1FNType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return false;
  unsigned width = integer.getWidth();
  return width == 1 || width == 2 || width == 4;
}

bool quant_affine::hasVectorMemoryLayout(Type type) {
  if (!type.isIntOrFloat())
    return true;
  unsigned width = type.getIntOrFloatBitWidth();
  return (width >= 8 && llvm::isPowerOf2_32(width)) || isPackedType(type);
}

bool quant_affine::isPackedMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isPackedType(memref.getElementType());
}

bool quant_affine::touchesPackedMemRef(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isPackedMemRef) ||
         llvm::any_of(op->getResultTypes(), isPackedMemRef);
}

bool quant_affine::hasStaticStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         !llvm::any_of(strides, ShapedType::isDynamic);
}
