//===- QuantAffine.h - quant_affine dialect and ops -------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_QUANTAFFINE_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_QUANTAFFINE_H

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/BlockScaleFormula.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/CalibrationFormula.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/FloatFormula.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOpsDialect.h.inc"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineInterfaces.h.inc"

namespace mlir {
namespace quant_affine {
/// The verifier of every quantizer op (QuantAffineOps.cpp). It looks at
/// types and properties only, so folding never makes valid IR invalid.
LogicalResult verifyQuantizerOp(QuantizerOpInterface op);

/// RuntimeVerifiableOpInterface of every quantizer op (ShapeChecks.cpp): a
/// cf.assert for each shape rule that the tensor types leave open.
void generateQuantizerRuntimeVerification(
    QuantizerOpInterface op, OpBuilder &builder, Location loc,
    function_ref<std::string(Operation *, StringRef)> generateErrorMessage);
} // namespace quant_affine
} // namespace mlir

#define GET_OP_CLASSES
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOps.h.inc"

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_QUANTAFFINE_H
