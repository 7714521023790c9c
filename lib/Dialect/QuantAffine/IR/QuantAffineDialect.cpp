//===- QuantAffineDialect.cpp - quant_affine dialect ----------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::quant_affine;

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOpsDialect.cpp.inc"

namespace {
/// Every quant_affine op is pure and region-free: always legal to inline.
struct QuantAffineInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void QuantAffineDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOps.cpp.inc"
      >();
  addInterfaces<QuantAffineInlinerInterface>();
  // Models in QuantAffineTilingInterfaceImpl (TilingInterfaceImpl.h): a
  // tiling driver that finds them unregistered fails loudly (in debug builds).
  declarePromisedInterfaces<TilingInterface, QuantizeOp, DequantizeOp, QDQOp>();
  declarePromisedInterfaces<ReifyRankedShapedTypeOpInterface, QuantizeOp,
                            DequantizeOp, QDQOp>();
}

Operation *QuantAffineDialect::materializeConstant(OpBuilder &builder,
                                                   Attribute value, Type type,
                                                   Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
