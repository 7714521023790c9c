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

#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
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

/// The bytes of one cache line: one prefetch brings in a whole line.
constexpr int64_t kLineBytes = 64;

/// Of reads of one stretch of memory (the same buffer and block, the same
/// indices but the last, whose distances apart are known), those whose
/// prefetch is needed: packed codes are read a word at a time, and one
/// prefetch per word repeats each line's up to 16 times. Sorted by offset,
/// the first and the last are kept, and between them every read that a
/// kept one would otherwise be more than a line from, so that each line a
/// read starts in holds a prefetched address. Reads whose distance to the
/// stretch is unknown are kept.
SmallVector<Operation *>
readsToPrefetch(const llvm::SetVector<Operation *> &reads) {
  // Each stretch's first read, and its reads with their byte offsets from
  // it.
  llvm::MapVector<Operation *, SmallVector<std::pair<int64_t, Operation *>>>
      stretches;
  // The stretches' first reads by buffer and block: a function of many
  // matmuls has many stretches, and comparing each read with all of them
  // was quadratic in the function's size.
  DenseMap<std::pair<Value, Block *>, SmallVector<Operation *, 2>> firstsOf;
  SmallVector<Operation *> kept;
  for (Operation *read : reads) {
    auto [base, indices] = readAddress(read);
    auto type = cast<MemRefType>(base.getType());
    Type element = type.getElementType();
    bool placed = false;
    // Offsets in bytes are index deltas times the element size only where
    // the last dim is contiguous.
    if (!indices.empty() && element.isIntOrFloat() &&
        element.getIntOrFloatBitWidth() % 8 == 0 &&
        type.isLastDimUnitStride()) {
      int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
      SmallVector<Operation *, 2> &firsts = firstsOf[{base, read->getBlock()}];
      for (Operation *first : firsts) {
        SmallVector<Value> firstIndices = readAddress(first).second;
        if (ArrayRef(firstIndices).drop_back() != ArrayRef(indices).drop_back())
          continue;
        FailureOr<int64_t> delta = affine::fullyComposeAndComputeConstantDelta(
            indices.back(), firstIndices.back());
        if (failed(delta))
          continue;
        stretches[first].push_back({*delta * elementBytes, read});
        placed = true;
        break;
      }
      if (!placed) {
        stretches[read].push_back({0, read});
        firsts.push_back(read);
        placed = true;
      }
    }
    if (!placed)
      kept.push_back(read);
  }
  for (auto &[first, offsets] : stretches) {
    llvm::stable_sort(offsets,
                      [](auto &a, auto &b) { return a.first < b.first; });
    int64_t lastKept = offsets.front().first;
    kept.push_back(offsets.front().second);
    for (size_t i = 1; i < offsets.size(); ++i) {
      bool isLast = i + 1 == offsets.size();
      bool nextTooFar = !isLast && offsets[i + 1].first - lastKept > kLineBytes;
      if (isLast || nextTooFar) {
        lastKept = offsets[i].first;
        kept.push_back(offsets[i].second);
      }
    }
  }
  return kept;
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
      for (Operation *read : readsToPrefetch(reads))
        prefetchAhead(read, distance);
    }
    if (!quant_affine::dropLanesSummedMarks(function) && reads.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
