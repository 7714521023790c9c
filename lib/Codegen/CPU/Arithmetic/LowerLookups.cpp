//===- LowerLookups.cpp - quant_affine_vector.lookup to LLVM's terms ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A table lookup stays one op through the pipeline (QuantAffineVectorOps.td)
// and becomes the target's permute just before the LLVM conversion. Written
// as per-lane extracts from the start, each 16-lane lookup was about 50 ops
// in every pass after bufferization and 65 LLVM instructions for the
// backend to match back into one `vpermps`: half of what a small int4
// matmul compiled to, and half its compile time (docs/Benchmarks.md).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINELOWERLOOKUPSPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// "16xf32" for vector<16xf32>: the key of a table's shape in the option.
std::string shapeKey(VectorType type) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << type.getNumElements() << 'x' << type.getElementType();
  return key;
}

/// One extract per lane at the index's position, gathered.
Value lookUpByExtracts(RewriterBase &rewriter,
                       quant_affine_vector::LookupOp op) {
  Location loc = op.getLoc();
  VectorType result = op.getType();
  SmallVector<Value> lanes;
  for (int64_t lane = 0; lane < result.getNumElements(); ++lane) {
    Value index =
        vector::ExtractOp::create(rewriter, loc, op.getIndices(), lane);
    if (!index.getType().isIndex())
      index = arith::IndexCastUIOp::create(rewriter, loc,
                                           rewriter.getIndexType(), index);
    lanes.push_back(vector::ExtractOp::create(rewriter, loc, op.getTable(),
                                              ArrayRef<OpFoldResult>{index}));
  }
  return vector::FromElementsOp::create(rewriter, loc, result, lanes);
}

struct QuantAffineLowerLookupsPass
    : quant_affine::impl::QuantAffineLowerLookupsPassBase<
          QuantAffineLowerLookupsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringMap<std::string> intrinsics;
    for (const std::string &entry : permuteIntrinsics) {
      auto [shape, name] = StringRef(entry).split(':');
      if (shape.empty() || name.empty()) {
        getOperation().emitError()
            << "permute-intrinsics entries are LANESxTYPE:NAME, got '" << entry
            << "'";
        return signalPassFailure();
      }
      intrinsics[shape] = name.str();
    }
    SmallVector<quant_affine_vector::LookupOp> lookups;
    getOperation().walk(
        [&](quant_affine_vector::LookupOp op) { lookups.push_back(op); });
    if (lookups.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (quant_affine_vector::LookupOp op : lookups) {
      rewriter.setInsertionPoint(op);
      VectorType table = op.getTable().getType();
      VectorType indices = op.getIndices().getType();
      auto intrinsic = intrinsics.find(shapeKey(table));
      if (intrinsic != intrinsics.end() &&
          indices.getNumElements() == table.getNumElements() &&
          indices.getElementType().isInteger(32)) {
        rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
            op, op.getType(), rewriter.getStringAttr(intrinsic->second),
            ValueRange{op.getTable(), op.getIndices()});
        continue;
      }
      rewriter.replaceOp(op, lookUpByExtracts(rewriter, op));
    }
  }
};

} // namespace
