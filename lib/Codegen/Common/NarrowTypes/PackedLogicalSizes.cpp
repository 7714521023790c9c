//===- PackedLogicalSizes.cpp - dynamic dims of packed arguments ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A packed buffer is a rank-1 run of bytes, and a byte count cannot say how
// many values a dynamic dim holds (5 int4 values and 6 both take 3 bytes).
// DESIGN.md section 9: a function whose packed argument (or result) has
// dynamic dims takes (or returns), after the others, one index per such dim
// (argument order, then dim order) holding its logical size. This adds them
// to every function, call and return, and answers the body's memref.dim of
// such an argument or call result with them, before the buffers are packed.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/NarrowTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {

/// The (value index, dim) pairs of the dynamic dims of packed memrefs in
/// `types`, in order.
SmallVector<std::pair<unsigned, unsigned>> packedDynamicDims(TypeRange types) {
  SmallVector<std::pair<unsigned, unsigned>> dims;
  for (auto [index, type] : llvm::enumerate(types)) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !quant_affine::isPackedType(memref.getElementType()))
      continue;
    for (unsigned d = 0; d < memref.getRank(); ++d)
      if (memref.isDynamicDim(d))
        dims.push_back({static_cast<unsigned>(index), d});
  }
  return dims;
}

/// The size of dim `d` of `value`, folded to what defines it where it can.
Value logicalSize(OpBuilder &b, Location loc, Value value, unsigned d) {
  OpFoldResult size = memref::getMixedSize(b, loc, value, d);
  return getValueOrCreateConstantIndexOp(b, loc, size);
}

/// Replaces memref.dim ops of `value` (directly or through memref.cast) at
/// dim `d` with `size`.
void answerDims(Value value, unsigned d, Value size) {
  SmallVector<Value> views = {value};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : llvm::make_early_inc_range(view.getUsers())) {
      if (auto cast = dyn_cast<memref::CastOp>(user)) {
        views.push_back(cast.getResult());
        continue;
      }
      auto dim = dyn_cast<memref::DimOp>(user);
      std::optional<int64_t> index =
          dim ? dim.getConstantIndex() : std::nullopt;
      if (dim && index && *index == d) {
        dim.replaceAllUsesWith(size);
        dim.erase();
      }
    }
  }
}

/// Uses of a packed argument (or call result, at `b`) with a dynamic dim
/// other than the outermost
/// (`memref<?x?xi2>`: its row stride is a size) go through the argument
/// collapsed and expanded back with `sizes` (its dynamic dims' logical
/// sizes, in order): the expansion's shape gives the accesses their strides
/// once the bytes keep none.
void addressWithSizes(OpBuilder &b, Value argument, ValueRange sizes) {
  auto type = cast<MemRefType>(argument.getType());
  if (type.getRank() < 2 || !type.getLayout().isIdentity() ||
      llvm::none_of(llvm::seq<int64_t>(1, type.getRank()),
                    [&](int64_t d) { return type.isDynamicDim(d); }))
    return;
  Location loc = argument.getLoc();
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  Value flat = memref::CollapseShapeOp::create(
      b, loc, argument, ArrayRef<ReassociationIndices>{all});
  SmallVector<OpFoldResult> shape;
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(sizes[next++])
                        : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  Value shaped = memref::ExpandShapeOp::create(
      b, loc, type, flat, ArrayRef<ReassociationIndices>{all}, shape);
  argument.replaceAllUsesExcept(shaped, flat.getDefiningOp());
}

} // namespace

LogicalResult mlir::quant_affine::passPackedLogicalSizes(ModuleOp module) {
  MLIRContext *context = module.getContext();
  IndexType index = IndexType::get(context);
  // Calls first, while callees still have their old signatures: each gets
  // the sizes of its packed operands after the others, and its packed
  // results' sizes answer the dims asked of them.
  SmallVector<std::tuple<Value, unsigned, Value>> answered;
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) { calls.push_back(call); });
  for (func::CallOp call : calls) {
    auto operandDims = packedDynamicDims(call.getOperandTypes());
    auto resultDims = packedDynamicDims(call.getResultTypes());
    if (operandDims.empty() && resultDims.empty())
      continue;
    OpBuilder b(call);
    Location loc = call.getLoc();
    SmallVector<Value> operands(call.getOperands());
    for (auto [operand, d] : operandDims)
      operands.push_back(logicalSize(b, loc, call.getOperand(operand), d));
    SmallVector<Type> results(call.getResultTypes());
    results.append(resultDims.size(), index);
    auto replacement =
        func::CallOp::create(b, loc, call.getCalleeAttr(), results, operands);
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    for (unsigned i = 0; i < call.getNumResults(); ++i)
      call.getResult(i).replaceAllUsesWith(replacement.getResult(i));
    for (auto [k, rd] : llvm::enumerate(resultDims))
      answered.push_back({replacement.getResult(rd.first), rd.second,
                          replacement.getResult(call.getNumResults() + k)});
    call.erase();
  }
  // (After all calls: a later call asks the sizes of an earlier one's
  // result too.)
  DenseMap<Value, SmallVector<Value>> resultSizes;
  for (auto [value, d, size] : answered) {
    answerDims(value, d, size);
    resultSizes[value].push_back(size);
  }
  for (auto &[value, sizes] : resultSizes) {
    OpBuilder afterCall(value.getContext());
    afterCall.setInsertionPointAfter(value.getDefiningOp());
    addressWithSizes(afterCall, value, sizes);
  }
  for (auto func : module.getOps<func::FuncOp>()) {
    FunctionType type = func.getFunctionType();
    auto argumentDims = packedDynamicDims(type.getInputs());
    auto resultDims = packedDynamicDims(type.getResults());
    if (argumentDims.empty() && resultDims.empty())
      continue;
    SmallVector<Type> inputs(type.getInputs()), outputs(type.getResults());
    inputs.append(argumentDims.size(), index);
    outputs.append(resultDims.size(), index);
    func.setFunctionType(FunctionType::get(context, inputs, outputs));
    if (func.isExternal())
      continue;
    // Returns first: the sizes they return may be dims of arguments, which
    // the new arguments then answer.
    func.walk([&](func::ReturnOp ret) {
      if (resultDims.empty())
        return;
      OpBuilder b(ret);
      SmallVector<Value> values(ret.getOperands());
      for (auto [result, d] : resultDims)
        values.push_back(
            logicalSize(b, ret.getLoc(), ret.getOperand(result), d));
      ret.getOperandsMutable().assign(values);
    });
    Block &entry = func.getBody().front();
    DenseMap<unsigned, SmallVector<Value>> sizesOf;
    for (auto [argument, d] : argumentDims) {
      BlockArgument size = entry.addArgument(index, func.getLoc());
      answerDims(entry.getArgument(argument), d, size);
      sizesOf[argument].push_back(size);
    }
    OpBuilder atEntry = OpBuilder::atBlockBegin(&entry);
    for (auto &[argument, dynamicSizes] : sizesOf)
      addressWithSizes(atEntry, entry.getArgument(argument), dynamicSizes);
    // Argument attributes: one (empty) dictionary per new argument.
    if (ArrayAttr attrs = func.getArgAttrsAttr()) {
      SmallVector<Attribute> all(attrs.begin(), attrs.end());
      all.append(argumentDims.size(), DictionaryAttr::get(context));
      func.setArgAttrsAttr(ArrayAttr::get(context, all));
    }
    if (ArrayAttr attrs = func.getResAttrsAttr()) {
      SmallVector<Attribute> all(attrs.begin(), attrs.end());
      all.append(resultDims.size(), DictionaryAttr::get(context));
      func.setResAttrsAttr(ArrayAttr::get(context, all));
    }
  }
  return success();
}
