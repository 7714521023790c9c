//===- CalibrationToLinalg.h - calibration ops to linalg --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_CALIBRATIONTOLINALG_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_CALIBRATIONTOLINALG_H

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir {
namespace quant_affine {

/// How the op's encodings split each input dim (per scale dim: the block
/// size, 1 where one encoding per element, 0 where reduced whole), or, in
/// `error`, why the lowering cannot (a block size known only at run time).
FailureOr<SmallVector<int64_t>> encodingBlocks(ComputeEncodingOp op,
                                               std::string &error);
FailureOr<SmallVector<int64_t>> encodingBlocks(BlockScaleOp op,
                                               std::string &error);

/// compute_encoding and block_scale on tensors: one linalg.generic reduces
/// each encoding (min and max, or the largest magnitude), another computes
/// the scale (and offset) from it.
void populateCalibrationToLinalgPatterns(RewritePatternSet &patterns);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_CALIBRATIONTOLINALG_H
