//===- QuantAffineDialect.cpp - quant_affine dialect ----------------------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

using namespace mlir;
using namespace mlir::quant_affine;

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOpsDialect.cpp.inc"

void QuantAffineDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOps.cpp.inc"
      >();
}
