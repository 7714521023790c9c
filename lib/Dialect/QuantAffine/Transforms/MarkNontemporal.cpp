//===- MarkNontemporal.cpp - non-temporal vector stores -------------------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEMARKNONTEMPORALPASS
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct QuantAffineMarkNontemporalPass
    : quant_affine::impl::QuantAffineMarkNontemporalPassBase<
          QuantAffineMarkNontemporalPass> {
  void runOnOperation() override {
    // Unmasked 1-D transfer writes become vector.store, which can be marked.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk(
        [](vector::StoreOp store) { store.setNontemporal(true); });
  }
};
} // namespace
