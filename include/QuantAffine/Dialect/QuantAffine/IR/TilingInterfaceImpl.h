//===- TilingInterfaceImpl.h - Tiling models of the tensor ops --*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TilingInterface and ReifyRankedShapedTypeOpInterface for quantize,
// dequantize and qdq, as external models (library
// QuantAffineTilingInterfaceImpl), so that upstream tiling and fusion
// (scf::tileUsingSCF, scf::tileConsumerAndFuseProducersUsingSCF,
// transform.structured.fuse_into_containing_op, ...) handle the tensor forms.
// The dialect promises both interfaces: register the models wherever the
// dialect is used with tiling. docs/Tiling.md has the tile-to-scale mapping.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_TILINGINTERFACEIMPL_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace quant_affine {

/// Attaches TilingInterface and ReifyRankedShapedTypeOpInterface to the
/// quantizer ops when the quant_affine dialect is loaded.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_IR_TILINGINTERFACEIMPL_H
