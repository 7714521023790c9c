//===- FlattenTransfers.cpp - n-D transfers on contiguous memory to 1-D ---===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINEFLATTENTRANSFERSPASS
#include "QuantAffine/Dialect/QuantAffine/Transforms/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {
struct QuantAffineFlattenTransfersPass
    : quant_affine::impl::QuantAffineFlattenTransfersPassBase<
          QuantAffineFlattenTransfersPass> {
  void runOnOperation() override {
    // Upstream's patterns; MLIR has them but no pass that applies them.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateFlattenVectorTransferPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
