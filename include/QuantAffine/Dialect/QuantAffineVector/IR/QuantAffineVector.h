//===- QuantAffineVector.h - quant_affine_vector dialect --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Vector operations internal to code generation (QuantAffineVectorOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINEVECTOR_IR_QUANTAFFINEVECTOR_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINEVECTOR_IR_QUANTAFFINEVECTOR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorOps.h.inc"

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINEVECTOR_IR_QUANTAFFINEVECTOR_H
