//===- AimetEncodings.h - AIMET's encodings files ---------------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The encodings JSON that AIMET writes beside an exported ONNX model
// (formats 0.6.1, 1.0.0 and 2.x), read into one form: per named tensor, the
// grid, AIMET's offsets (o = -zero_point) and scales, and how they are laid
// out. docs/Import.md has the conventions of each format.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TARGET_ONNX_AIMETENCODINGS_H
#define QUANT_AFFINE_TARGET_ONNX_AIMETENCODINGS_H

#include "QuantAffine/Dialect/QuantAffine/Utils/Encoding.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace quant_affine {
namespace onnx_import {

/// One tensor's encoding, as AIMET's simulation applies it.
struct AimetEncoding {
  enum class Layout { PerTensor, PerChannel, PerBlock };

  std::string name;
  /// A float fake-cast (no scale): `float_qdq format [exponentBits,
  /// mantissaBits]` on AIMET's IEEE-like grid.
  bool isFloat = false;
  int64_t exponentBits = 0, mantissaBits = 0;

  /// An integer grid: qdq with `range`, `scales` and AIMET's `offsets`, both
  /// row-major over the scale's shape.
  QuantRange range;
  std::vector<double> scales, offsets;
  Layout layout = Layout::PerTensor;
  /// The scale's full shape when the file gives it (2.x per-block and
  /// LPBQ); else derived from the tensor and its consumer.
  std::vector<int64_t> scaleShape;
  /// The channel axis (per channel) or the block axis (per block), when the
  /// file stores it (2.x); else inferred from the consumer.
  std::optional<int64_t> axis;
  /// The block length along the block axis (per block).
  int64_t blockSize = 0;
  /// LPBQ in format 1.0.0: `scales` are per channel and these per block
  /// (row-major over the scale's shape, which the consumer decides); the
  /// block's scale is their f32 product, as AIMET computes it.
  std::vector<double> lpbqIntScales;
  /// Where the entry is in the file, for diagnostics: "format 1.0.0,
  /// param_encodings[3]".
  std::string origin;
};

/// All entries of one file, in file order.
struct AimetEncodingFile {
  std::string version;
  std::vector<AimetEncoding> encodings;
};

/// Parses an encodings file's JSON text. On failure returns nothing and sets
/// `error` to a message naming the entry and the field.
std::optional<AimetEncodingFile> parseAimetEncodings(llvm::StringRef json,
                                                     std::string &error);

} // namespace onnx_import
} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_TARGET_ONNX_AIMETENCODINGS_H
