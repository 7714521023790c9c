//===- OutlineRepeatedSums.cpp - compile each repeated sum once -----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Register tiling, vectorization and lowering make a few hundred ops of each
// matmul, so a program that repeats a layer thousands of times spends most
// of its compile time making the same code again. Before tiling, each float
// sum (with the fill of its destination) is cloned into a detached function
// of its own; functions that are the same but for their locations are
// bucketed by a hash, and where a bucket's class has enough members one copy
// joins the module and every member becomes a call of it. The rest of the
// pipeline then compiles that body once.
//
// Upstream has no such outliner for linalg on tensors (IREE forms and
// deduplicates dispatch regions for the same reason), and the comparison is
// OperationEquivalence's, as in quant-affine-deduplicate-kernels.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/FloatSums.h"
#include "QuantAffine/Codegen/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEOUTLINEREPEATEDSUMSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// A sum at the top level of a function and what it would be as a call: the
/// ops that move into the function (the destination's fill, then the sum),
/// the values passed for its arguments, and the detached function.
struct Candidate {
  SmallVector<Operation *, 2> ops;
  SmallVector<Value> arguments;
  func::FuncOp function;
};

/// What vectorize-contractions compiles: a float sum on tensors.
bool isSum(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumReductionLoops() > 0 &&
         quant_affine::floatSumStep(linalgOp);
}

/// A constant the function holds itself: a scalar or a splat (a fill value,
/// a per-tensor scale, which later patterns match as constants), made by an
/// op without operands or regions. Other tensor constants (weights, which
/// differ from layer to layer) are passed like any value.
bool isClonableConstant(Value value) {
  Operation *definingOp = value.getDefiningOp();
  Attribute attribute;
  if (!definingOp || definingOp->getNumOperands() != 0 ||
      definingOp->getNumRegions() != 0 || definingOp->getNumResults() != 1 ||
      !matchPattern(value, m_Constant(&attribute)))
    return false;
  if (!isa<ShapedType>(value.getType()))
    return true;
  auto elements = dyn_cast<DenseElementsAttr>(attribute);
  return elements && elements.isSplat();
}

/// Whether a value may be passed: a scalar, a vector or a tensor that does not
/// bufferize to a strided view (function boundaries take identity layouts,
/// and an operand of another layout would be copied into one).
bool isPassable(Value value) {
  Type type = value.getType();
  if (type.isIntOrIndexOrFloat() || isa<VectorType>(type))
    return true;
  if (!isa<RankedTensorType>(type))
    return false;
  // Follow views and destinations (a DPS op's result is its destination's
  // buffer) to where the buffer comes from.
  for (int depth = 0; depth < 16; ++depth) {
    Operation *definingOp = value.getDefiningOp();
    if (!definingOp)
      return true;
    if (isa<tensor::ExtractSliceOp>(definingOp))
      return false;
    // Views of their source: strided if it is.
    if (isa<tensor::CastOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
            definingOp)) {
      value = definingOp->getOperand(0);
      continue;
    }
    if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(definingOp))
      return cast<MemRefType>(toTensor.getBuffer().getType())
          .getLayout()
          .isIdentity();
    auto destinationStyle = dyn_cast<DestinationStyleOpInterface>(definingOp);
    if (!destinationStyle)
      return true;
    auto result = cast<OpResult>(value);
    if (result.getResultNumber() >= destinationStyle.getNumDpsInits())
      return true;
    value = destinationStyle.getDpsInitOperand(result.getResultNumber())->get();
  }
  return false;
}

/// The candidate of `sum`, or nullopt where it cannot be outlined.
std::optional<Candidate> makeCandidate(Operation *sum) {
  Candidate candidate;
  auto fill = sum->getOperand(sum->getNumOperands() - 1)
                  .getDefiningOp<linalg::FillOp>();
  if (fill && fill->getBlock() == sum->getBlock() && fill->hasOneUse() &&
      fill.hasPureTensorSemantics())
    candidate.ops.push_back(fill);
  candidate.ops.push_back(sum);

  // Arguments in order of first use; the destination of the first op last.
  OpOperand &destinationOperand = candidate.ops.front()->getOpOperands().back();
  Value destination = destinationOperand.get();
  llvm::SetVector<Value> used;
  for (Operation *op : candidate.ops) {
    for (OpOperand &operand : op->getOpOperands())
      if (&operand != &destinationOperand)
        used.insert(operand.get());
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    used.insert(captured.begin(), captured.end());
  }
  // The function writes its last argument: the same value read as another
  // would alias it.
  if (used.contains(destination))
    return std::nullopt;
  SmallVector<Value> constants;
  for (Value value : used) {
    if (value.getDefiningOp() == candidate.ops.front())
      continue;
    if (isClonableConstant(value))
      constants.push_back(value);
    else
      candidate.arguments.push_back(value);
  }
  candidate.arguments.push_back(destination);
  if (!llvm::all_of(candidate.arguments, isPassable))
    return std::nullopt;

  OpBuilder builder(sum->getContext());
  auto type = builder.getFunctionType(
      ValueRange(candidate.arguments).getTypes(), sum->getResultTypes());
  candidate.function = func::FuncOp::create(sum->getLoc(), "sum", type);
  Block *entry = candidate.function.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(candidate.arguments, entry->getArguments());
  for (Value constant : constants)
    mapping.map(constant,
                builder.clone(*constant.getDefiningOp())->getResult(0));
  for (Operation *op : candidate.ops)
    builder.clone(*op, mapping);
  SmallVector<Value> results;
  for (Value result : sum->getResults())
    results.push_back(mapping.lookup(result));
  func::ReturnOp::create(builder, sum->getLoc(), results);
  return candidate;
}

/// The symbol table the function would join: its caller's.
Operation *symbolTableOf(Candidate &candidate) {
  return candidate.ops.back()->getParentOfType<func::FuncOp>()->getParentOp();
}

llvm::hash_code hashFunction(func::FuncOp function) {
  llvm::hash_code hash =
      llvm::hash_value(function.getFunctionType().getAsOpaquePointer());
  function.getBody().walk([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool isSameFunction(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

/// Makes `members` calls of one function, inserted before the function that
/// holds the first of them. `replaced` maps the results of sums made calls
/// before to the calls' (a candidate's arguments may be such results).
void outline(ArrayRef<Candidate *> members, SymbolTableCollection &tables,
             DenseMap<Value, Value> &replaced) {
  Candidate &first = *members.front();
  auto caller = first.ops.back()->getParentOfType<func::FuncOp>();
  func::FuncOp function = first.function;
  function.setName((caller.getName() + "_sum").str());
  function.setPrivate();
  tables.getSymbolTable(symbolTableOf(first))
      .insert(function, Block::iterator(caller));
  for (Candidate *member : members) {
    Operation *sum = member->ops.back();
    SmallVector<Value> arguments;
    for (Value argument : member->arguments)
      arguments.push_back(replaced.lookup_or(argument, argument));
    OpBuilder builder(sum);
    auto call =
        func::CallOp::create(builder, sum->getLoc(), function, arguments);
    for (auto [result, callResult] :
         llvm::zip(sum->getResults(), call.getResults()))
      replaced[result] = callResult;
    sum->replaceAllUsesWith(call.getResults());
    for (Operation *op : llvm::reverse(member->ops))
      op->erase();
    if (member != &first)
      member->function.erase();
  }
}

struct QuantAffineOutlineRepeatedSumsPass
    : quant_affine::impl::QuantAffineOutlineRepeatedSumsPassBase<
          QuantAffineOutlineRepeatedSumsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::vector<Candidate> candidates;
    getOperation().walk([&](func::FuncOp caller) {
      // The function joins its caller's symbol table.
      if (caller.isExternal() ||
          !caller->getParentOp()->hasTrait<OpTrait::SymbolTable>())
        return;
      for (Block &block : caller.getBody())
        for (Operation &op : block)
          if (isSum(&op))
            if (std::optional<Candidate> candidate = makeCandidate(&op))
              candidates.push_back(std::move(*candidate));
    });

    // Classes of the same function in the same symbol table, in order of
    // their first member; a hash bucket holds one class per distinct one.
    DenseMap<llvm::hash_code, SmallVector<size_t, 1>> buckets;
    SmallVector<SmallVector<Candidate *>> classes;
    for (Candidate &candidate : candidates) {
      Operation *table = symbolTableOf(candidate);
      SmallVector<size_t, 1> &bucket =
          buckets[llvm::hash_combine(table, hashFunction(candidate.function))];
      auto *same = llvm::find_if(bucket, [&](size_t index) {
        Candidate &other = *classes[index].front();
        return symbolTableOf(other) == table &&
               isSameFunction(other.function, candidate.function);
      });
      if (same != bucket.end()) {
        classes[*same].push_back(&candidate);
        continue;
      }
      bucket.push_back(classes.size());
      classes.push_back({&candidate});
    }

    SymbolTableCollection tables;
    DenseMap<Value, Value> replaced;
    bool changed = false;
    for (SmallVector<Candidate *> &members : classes) {
      if (int64_t(members.size()) < minRepeats) {
        for (Candidate *member : members)
          member->function.erase();
        continue;
      }
      outline(members, tables, replaced);
      changed = true;
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
