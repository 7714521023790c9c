//===- TestHarness.cpp - Run a graph on ONNX test data and count mismatches =//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX's node tests ship inputs and expected outputs as TensorProto files.
// The harness puts them in the module as constants and compares in MLIR,
// so that a test is one pipeline run printing one line per output.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Target/ONNX/Import.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

/// The constant of a test tensor.
FailureOr<Value> testConstant(OpBuilder &b, Location loc,
                              const OnnxTensor &tensor) {
  Type element = elementTypeOf(tensor.type, b.getContext());
  if (!element)
    return emitError(loc) << "test tensor '" << tensor.name << "' of type "
                          << onnxTypeName(tensor.type) << " is not supported";
  auto type = RankedTensorType::get(tensor.dims, element);
  DenseElementsAttr attr = denseAttrOf(tensor, type);
  if (!attr)
    return emitError(loc) << "test tensor '" << tensor.name
                          << "' holds too few bytes for " << type;
  return Value(arith::ConstantOp::create(b, loc, attr));
}

/// An i1 tensor: where `actual` differs from `expected` (same type).
Value mismatchMask(OpBuilder &b, Location loc, Value actual, Value expected,
                   TestTolerance tolerance) {
  auto type = cast<RankedTensorType>(expected.getType());
  auto maskType = type.clone(b.getI1Type());
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!floatType)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, actual,
                                 expected);
  if (isa<Float8E8M0FNUType>(floatType)) {
    // E8M0 by its bits: one NaN code (0xFF), no zero, no sign.
    auto bytes = type.clone(b.getI8Type());
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::BitcastOp::create(b, loc, bytes, actual),
        arith::BitcastOp::create(b, loc, bytes, expected));
  }
  if (floatType.getWidth() <= 8) {
    // float8 and float4 as their f32 values, which nothing is lost in (-0
    // and NaN included): nothing lowers arith.cmpf or a bitcast on them.
    auto wide = type.clone(b.getF32Type());
    return mismatchMask(b, loc, arith::ExtFOp::create(b, loc, wide, actual),
                        arith::ExtFOp::create(b, loc, wide, expected),
                        tolerance);
  }
  Value bothNaN = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, actual, actual),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, expected,
                            expected));
  Value differs;
  if (tolerance.rtol == 0 && tolerance.atol == 0) {
    auto bitsType = type.clone(b.getIntegerType(floatType.getWidth()));
    differs = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::BitcastOp::create(b, loc, bitsType, actual),
        arith::BitcastOp::create(b, loc, bitsType, expected));
  } else {
    // |a - e| > atol + rtol * |e| (NaN compares as different), unless equal
    // (infinities).
    auto splat = [&](double value) -> Value {
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(type, b.getFloatAttr(floatType, value)));
    };
    Value diff = math::AbsFOp::create(
        b, loc, arith::SubFOp::create(b, loc, actual, expected));
    Value bound = arith::AddFOp::create(
        b, loc, splat(tolerance.atol),
        arith::MulFOp::create(b, loc, splat(tolerance.rtol),
                              math::AbsFOp::create(b, loc, expected)));
    differs = arith::AndIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, diff, bound),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, actual,
                              expected));
  }
  Value ones = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(maskType, b.getBoolAttr(true)));
  return arith::AndIOp::create(b, loc, differs,
                               arith::XOrIOp::create(b, loc, bothNaN, ones));
}

/// The number of true elements of an i1 tensor, as an i64.
Value countTrue(OpBuilder &b, Location loc, Value mask) {
  auto type = cast<RankedTensorType>(mask.getType());
  Value wide = arith::ExtUIOp::create(b, loc, type.clone(b.getI64Type()), mask);
  // As one dim (a rank-0 tensor as one element).
  SmallVector<ReassociationIndices> groups;
  if (type.getRank() == 0) {
    wide = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1}, b.getI64Type()), wide, groups);
  } else if (type.getRank() > 1) {
    groups.emplace_back();
    for (int64_t d = 0; d < type.getRank(); ++d)
      groups.back().push_back(d);
    wide = tensor::CollapseShapeOp::create(b, loc, wide, groups);
  }
  Value zero = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                             b.getI64IntegerAttr(0)));
  auto sum = linalg::ReduceOp::create(
      b, loc, ValueRange{wide}, ValueRange{zero}, ArrayRef<int64_t>{0},
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value add = arith::AddIOp::create(nested, nestedLoc, args[0], args[1]);
        linalg::YieldOp::create(nested, nestedLoc, add);
      });
  return tensor::ExtractOp::create(b, loc, sum.getResult(0), ValueRange{});
}

} // namespace

LogicalResult mlir::quant_affine::onnx_import::addTestHarness(
    ModuleOp module, ArrayRef<OnnxTensor> inputs, ArrayRef<OnnxTensor> expected,
    TestTolerance tolerance, bool printOutputs) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<linalg::LinalgDialect, math::MathDialect,
                   tensor::TensorDialect>();
  Location loc = module.getLoc();
  auto graph = module.lookupSymbol<func::FuncOp>(kGraphFunctionName);
  if (!graph)
    return emitError(loc) << "no @" << kGraphFunctionName << " to test";
  FunctionType graphType = graph.getFunctionType();
  if (graphType.getNumInputs() != inputs.size() ||
      graphType.getNumResults() != expected.size())
    return emitError(loc) << "the test data has " << inputs.size()
                          << " inputs and " << expected.size()
                          << " outputs; the graph takes "
                          << graphType.getNumInputs() << " and returns "
                          << graphType.getNumResults();

  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto unranked = UnrankedTensorType::get(b.getI64Type());
  auto print = func::FuncOp::create(b, loc, "printMemrefI64",
                                    b.getFunctionType({unranked}, {}));
  print.setPrivate();
  // The printers only read: bufferization then shares the printed buffer.
  StringAttr readAccess = b.getStringAttr("read");
  print.setArgAttr(0, "bufferization.access", readAccess);
  auto unrankedF32 = UnrankedTensorType::get(b.getF32Type());
  func::FuncOp printF32;
  if (printOutputs) {
    printF32 = func::FuncOp::create(b, loc, "printMemrefF32",
                                    b.getFunctionType({unrankedF32}, {}));
    printF32.setPrivate();
    printF32.setArgAttr(0, "bufferization.access", readAccess);
  }
  auto main = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(main.addEntryBlock());

  SmallVector<Value> arguments;
  for (auto [tensor, type] : llvm::zip(inputs, graphType.getInputs())) {
    FailureOr<Value> constant = testConstant(b, loc, tensor);
    if (failed(constant))
      return failure();
    Value argument = *constant;
    auto argumentType = cast<RankedTensorType>(argument.getType());
    Type wanted = cast<RankedTensorType>(type).getElementType();
    if (argumentType.getElementType() != wanted &&
        argumentType.getElementType().getIntOrFloatBitWidth() ==
            wanted.getIntOrFloatBitWidth())
      argument = arith::BitcastOp::create(b, loc, argumentType.clone(wanted),
                                          argument);
    if (argument.getType() != type)
      argument = tensor::CastOp::create(b, loc, type, argument);
    arguments.push_back(argument);
  }
  auto call = func::CallOp::create(b, loc, graph, arguments);
  for (auto [index, tensor] : llvm::enumerate(expected)) {
    FailureOr<Value> reference = testConstant(b, loc, tensor);
    if (failed(reference))
      return failure();
    Value actual = call.getResult(index);
    if (printOutputs &&
        cast<RankedTensorType>(actual.getType()).getElementType().isF32())
      func::CallOp::create(
          b, loc, printF32,
          ValueRange{tensor::CastOp::create(b, loc, unrankedF32, actual)});
    auto referenceType = cast<RankedTensorType>(reference->getType());
    auto actualType = cast<RankedTensorType>(actual.getType());
    if (actualType.getElementType() != referenceType.getElementType()) {
      // ONNX 1.12's test data holds bfloat16 as uint16: compare the bits.
      Type bits = referenceType.getElementType();
      if (actualType.getElementType().getIntOrFloatBitWidth() !=
          bits.getIntOrFloatBitWidth())
        return emitError(loc) << "output " << index << " is " << actualType
                              << ", the test data " << referenceType;
      actual = arith::BitcastOp::create(b, loc, actualType.clone(bits), actual);
    }
    if (actual.getType() != reference->getType())
      actual = tensor::CastOp::create(b, loc, reference->getType(), actual);
    Value count =
        countTrue(b, loc, mismatchMask(b, loc, actual, *reference, tolerance));
    Value indexValue =
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(index));
    Value line = tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({2}, b.getI64Type()),
        ValueRange{indexValue, count});
    func::CallOp::create(
        b, loc, print,
        ValueRange{tensor::CastOp::create(b, loc, unranked, line)});
  }
  func::ReturnOp::create(b, loc);
  return success();
}
