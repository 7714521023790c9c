//===- InitAll.h - Everything quant-affine-opt registers --------*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One small place that knows which dialects, extensions, passes and pipelines
// the driver offers. Including the upstream dialect headers is what makes a
// driver slow to compile, so only InitAll.cpp does it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_INITALL_H
#define QUANT_AFFINE_INITALL_H

namespace mlir {
class DialectRegistry;

namespace quant_affine {

/// Adds the quant_affine dialect, the upstream dialects our pipelines produce
/// or users feed in, and their interface extensions to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers our passes and pipelines and the upstream passes users combine
/// them with, for the command line.
void registerAllPasses();

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_INITALL_H
