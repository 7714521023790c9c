//===- PrefetchWeights.cpp - software prefetch of weight streams ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fused contraction's register tile reads a few weight rows side by side,
// a short stretch of each per step: interleaved streams that jump to new
// rows every tile, which the hardware prefetchers pick up late. Each weight
// read gets a prefetch of the same place some rows ahead. Upstream has the
// op (memref.prefetch) but no pass that places it.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/LookupTables.h"
#include "QuantAffine/Codegen/Common/Passes.h"
#include "QuantAffine/Codegen/Common/UniformReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEPREFETCHWEIGHTSPASS
#include "QuantAffine/Codegen/Common/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The memref and indices `read` reads (vector.load or transfer_read), or a
/// null memref.
std::pair<Value, SmallVector<Value>> readAddress(Operation *read) {
  if (auto load = dyn_cast<vector::LoadOp>(read))
    return {load.getBase(), llvm::to_vector(load.getIndices())};
  if (auto transfer = dyn_cast<vector::TransferReadOp>(read))
    return {transfer.getBase(), llvm::to_vector(transfer.getIndices())};
  return {Value(), {}};
}

/// Whether `read` broadcasts one float to every lane: a block's scale (or
/// float offset), read once per block of codes.
bool readsBlockParameter(Operation *read) {
  auto transfer = dyn_cast<vector::TransferReadOp>(read);
  return transfer &&
         isa<FloatType>(transfer.getVectorType().getElementType()) &&
         quant_affine::readsOneElement(transfer);
}

/// The weight reads that `factor` is computed from by side-effect-free ops
/// of `block` (casts, bitcasts, shuffles, table lookups, arithmetic): vector
/// reads of byte-sized integers (the codes, packed or not) and broadcast
/// reads of floats (the blocks' scales and offsets, a fifth of the bytes
/// with int4 codes in blocks of 32).
void collectWeightReads(Value factor, Block *block,
                        llvm::SetVector<Operation *> &reads) {
  SmallVector<Value> work{factor};
  llvm::SmallPtrSet<Operation *, 32> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != block || !seen.insert(op).second)
      continue;
    if (Value base = readAddress(op).first) {
      auto type = dyn_cast<MemRefType>(base.getType());
      if (type &&
          (type.getElementType().isInteger(8) || readsBlockParameter(op)))
        reads.insert(op);
      continue;
    }
    if (!isMemoryEffectFree(op))
      continue;
    for (Value operand : op->getOperands())
      work.push_back(operand);
  }
}

/// Prefetches what `read` reads, `distanceBytes` further on (whole indices,
/// clamped to the last) along the outermost dim whose index steps at most
/// that far and is long enough for it, or else the next dim out: the rows of
/// a matrix, and with rows spread over it (`[rows, N / rows, K]`) the rows of
/// one stream, not the next stream. Never along the last dim of a buffer of
/// rank 2 or more.
void prefetchAhead(Operation *read, int64_t distanceBytes) {
  auto [base, indices] = readAddress(read);
  auto type = cast<MemRefType>(base.getType());
  if (!type.hasStaticShape() || type.getRank() == 0)
    return;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return;
  // The bytes one step of each dim moves, innermost first.
  int64_t dim = type.getRank() - 1;
  int64_t sliceBytes = element.getIntOrFloatBitWidth() / 8;
  while (dim > 0 && (dim + 1 == type.getRank() ||
                     sliceBytes * type.getDimSize(dim) <= distanceBytes))
    sliceBytes *= type.getDimSize(dim--);
  int64_t ahead = (distanceBytes + sliceBytes - 1) / sliceBytes;
  while (dim > 0 && ahead > type.getDimSize(dim) - 1) {
    sliceBytes *= type.getDimSize(dim--);
    ahead = (distanceBytes + sliceBytes - 1) / sliceBytes;
  }
  int64_t last = type.getDimSize(dim) - 1;
  if (ahead > last)
    return;
  OpBuilder b(read);
  Location loc = read->getLoc();
  Value shifted = arith::AddIOp::create(
      b, loc, indices[dim], arith::ConstantIndexOp::create(b, loc, ahead));
  indices[dim] = arith::MinUIOp::create(
      b, loc, shifted, arith::ConstantIndexOp::create(b, loc, last));
  memref::PrefetchOp::create(b, loc, base, indices, /*isWrite=*/false,
                             /*localityHint=*/3, /*isDataCache=*/true);
}

struct QuantAffinePrefetchWeightsPass
    : quant_affine::impl::QuantAffinePrefetchWeightsPassBase<
          QuantAffinePrefetchWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    llvm::SetVector<Operation *> reads;
    if (distance > 0) {
      function.walk([&](arith::MulFOp product) {
        if (!product->hasAttr(quant_affine::kLanesSummedAttrName) ||
            !product->getParentOfType<scf::ForOp>())
          return;
        for (Value factor : product->getOperands())
          collectWeightReads(factor, product->getBlock(), reads);
      });
      for (Operation *read : reads)
        prefetchAhead(read, distance);
    }
    if (!quant_affine::dropLanesSummedMarks(function) && reads.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
