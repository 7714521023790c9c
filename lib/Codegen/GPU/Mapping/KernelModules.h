//===- KernelModules.h - what the kernel-module passes share ----*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// quant-affine-deduplicate-kernels and quant-affine-merge-kernel-modules both
// move kernels between gpu.modules after outlining, and then point the host
// code's launches at where the kernels went.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_LIB_CODEGEN_GPU_MAPPING_KERNELMODULES_H
#define QUANT_AFFINE_LIB_CODEGEN_GPU_MAPPING_KERNELMODULES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace quant_affine {

/// Whether `op` is a kernel (a gpu.func marked `kernel`).
bool isKernel(Operation *op);

/// What decides how a gpu.module compiles: all its attributes but its name.
DictionaryAttr compileAttributes(gpu::GPUModuleOp module);

/// Rewrites each reference in the host code of `host`, and in its own
/// attributes, that starts with a reference `moved` maps (`@m::@f` or `@m`;
/// the longer first, the rest of the reference kept), in one walk.
/// gpu.modules and nested modules are skipped: a nested module's references
/// are its own, and device code that names a gpu.module of the host is the
/// caller's to handle (quant-affine-deduplicate-kernels keeps such modules).
void redirectHostReferences(
    ModuleOp host, const llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> &moved);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_LIB_CODEGEN_GPU_MAPPING_KERNELMODULES_H
