//===- DivideByReciprocal.cpp - roundeven(x / s) without a vector divide --===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Quantizing data that sits in cache is bound by the vector division. When the
// divisor is the same in every lane (per-tensor, per-channel on an outer dim,
// blocks along the vector), roundeven(x / s) is computed as roundeven(x * r)
// with r = 1 / s divided once, and checked; only a vector in which some lane
// could round differently from true division divides.
//
// Why the check is enough (f32, round to nearest even, no FMA contraction).
// Let q = x / s exactly, r = fl(1 / s), t = fl(x * r). If r is a normal finite
// number, r = (1 / s)(1 + e1) and t = x r (1 + e2) with |e1|, |e2| <= 2^-24
// (or t is subnormal). For normal t this gives |t - q| <= |q| (2^-23 + 2^-48),
// and fl(q), true division's result, is within 2^-24 |q| of q; with
// |q| <= |t| / (1 - 2^-22), |fl(q) - t| < 2^-22 |t|. Let h = floor(t) + 0.5,
// the rounding boundary nearest t (the others are more than 1/2 away). If
// |t| < 2^19 and |t - h| > 2^-20 |t|, then fl(q) is strictly on t's side of h
// and within 1/8 of t, so both round to the same integer; they have the same
// sign, so a zero result has the same sign too. A subnormal t (|q| < 2^-126
// or so) is far from every boundary and has q's sign, and so does fl(q): both
// round to a zero of that sign. Every other case (x or s NaN, infinite or
// zero, r subnormal, |t| >= 2^19, t near a boundary) fails the check, and the
// vector divides. The check itself is exact: floor, + 0.5, t - h and
// |t| * 2^-20 lose nothing for |t| < 2^19. The differential tests in
// test/Integration/CPU/divide-by-reciprocal.mlir check ties, near-ties,
// boundaries of every condition and random inputs against true division.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/CPU/Passes.h"
#include "QuantAffine/Codegen/Common/UniformReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEDIVIDEBYRECIPROCALPASS
#include "QuantAffine/Codegen/CPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// Whether every lane of `v` is defined: an unmasked transfer_read whose
/// lanes are all in bounds (a masked or padded read has poison lanes, and a
/// branch on a reduction over poison would be undefined).
bool allLanesDefined(Value v) {
  auto read = v.getDefiningOp<vector::TransferReadOp>();
  return read && !read.getMask() &&
         llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; });
}

/// The scalar in every lane of `v`, built at `v`, or null when `v` is not
/// known to be uniform: a broadcast, or a transfer_read of one element.
Value uniformScalar(PatternRewriter &rewriter, Value v) {
  auto type = cast<VectorType>(v.getType());
  Location loc = v.getLoc();
  if (auto broadcast = v.getDefiningOp<vector::BroadcastOp>()) {
    Value source = broadcast.getSource();
    if (!isa<VectorType>(source.getType()))
      return source;
    if (cast<VectorType>(source.getType()).getNumElements() != 1)
      return {};
  } else if (auto read = v.getDefiningOp<vector::TransferReadOp>()) {
    if (!quant_affine::readsOneElement(read))
      return {};
  } else {
    return {};
  }
  rewriter.setInsertionPointAfterValue(v);
  SmallVector<int64_t> zeros(type.getRank(), 0);
  return vector::ExtractOp::create(rewriter, loc, v, zeros);
}

struct RoundDivisionByReciprocal : OpRewritePattern<math::RoundEvenOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::RoundEvenOp round,
                                PatternRewriter &rewriter) const override {
    auto div = round.getOperand().getDefiningOp<arith::DivFOp>();
    auto type = dyn_cast<VectorType>(round.getType());
    if (!div || !div->hasOneUse() || !type || !type.getElementType().isF32() ||
        type.isScalable() || !allLanesDefined(div.getLhs()))
      return failure();
    Value scale = uniformScalar(rewriter, div.getRhs());
    if (!scale)
      return failure();

    Location loc = round.getLoc();
    rewriter.setInsertionPoint(round);
    Type f32 = rewriter.getF32Type();
    auto scalar = [&](double v) {
      return arith::ConstantOp::create(rewriter, loc, f32,
                                       rewriter.getF32FloatAttr(v));
    };
    auto splat = [&](double v) {
      return arith::ConstantOp::create(
          rewriter, loc, type,
          DenseElementsAttr::get(type, rewriter.getF32FloatAttr(v)));
    };
    // r = fl(1 / s), usable when normal and finite.
    Value r = arith::DivFOp::create(rewriter, loc, scalar(1.0), scale);
    Value absR = math::AbsFOp::create(rewriter, loc, r);
    Value rNormal = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGE, absR,
                              scalar(0x1p-126)),
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, absR,
                              scalar(std::numeric_limits<float>::infinity())));
    Value t = arith::MulFOp::create(
        rewriter, loc, div.getLhs(),
        vector::BroadcastOp::create(rewriter, loc, type, r));
    // |t| < 2^19 and |t - (floor(t) + 0.5)| > 2^-20 |t| in every lane.
    Value absT = math::AbsFOp::create(rewriter, loc, t);
    Value boundary = arith::AddFOp::create(
        rewriter, loc, math::FloorOp::create(rewriter, loc, t), splat(0.5));
    Value distance = math::AbsFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, t, boundary));
    Value margin = arith::MulFOp::create(rewriter, loc, absT, splat(0x1p-20));
    Value laneOk = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, absT,
                              splat(0x1p19)),
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                              distance, margin));
    Value flat = vector::ShapeCastOp::create(
        rewriter, loc,
        VectorType::get({type.getNumElements()}, rewriter.getI1Type()), laneOk);
    Value allOk = vector::ReductionOp::create(rewriter, loc,
                                              vector::CombiningKind::AND, flat);
    Value fast = arith::AndIOp::create(rewriter, loc, allOk, rNormal);

    auto branch = scf::IfOp::create(
        rewriter, loc, fast,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, Value(math::RoundEvenOp::create(b, l, t)));
        },
        [&](OpBuilder &b, Location l) {
          Value q = arith::DivFOp::create(b, l, div.getLhs(), div.getRhs());
          scf::YieldOp::create(b, l, Value(math::RoundEvenOp::create(b, l, q)));
        });
    rewriter.replaceOp(round, branch.getResults());
    rewriter.eraseOp(div);
    return success();
  }
};

struct QuantAffineDivideByReciprocalPass
    : quant_affine::impl::QuantAffineDivideByReciprocalPassBase<
          QuantAffineDivideByReciprocalPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RoundDivisionByReciprocal>(&getContext());
    // One rewrite per match: the fallback's roundeven(divf) must stay.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    SmallVector<Operation *> rounds;
    getOperation().walk([&](math::RoundEvenOp op) { rounds.push_back(op); });
    if (failed(applyOpPatternsGreedily(rounds, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
