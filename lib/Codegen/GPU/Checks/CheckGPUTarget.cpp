//===- CheckGPUTarget.cpp - device code must compile and link -------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_QUANTAFFINECHECKGPUTARGETPASS
#include "QuantAffine/Codegen/GPU/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;

namespace {

/// The oldest PTX ISA (major * 10 + minor) that can target each chip, as
/// the NVPTX backend of LLVM 22 requires.
const llvm::StringMap<int> &minimumPTXVersions() {
  static const llvm::StringMap<int> versions = {
      {"sm_50", 40},   {"sm_52", 41},  {"sm_53", 42},   {"sm_60", 50},
      {"sm_61", 50},   {"sm_62", 50},  {"sm_70", 60},   {"sm_72", 61},
      {"sm_75", 63},   {"sm_80", 70},  {"sm_86", 71},   {"sm_87", 74},
      {"sm_89", 78},   {"sm_90", 78},  {"sm_90a", 80},  {"sm_100", 86},
      {"sm_100a", 86}, {"sm_101", 86}, {"sm_101a", 86}, {"sm_120", 87},
      {"sm_120a", 87}};
  return versions;
}

/// The PTX version a `+ptxNN` feature asks for, if any.
std::optional<int> requestedPTXVersion(StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    StringRef feature = part.trim();
    int version;
    if (feature.consume_front("+ptx") && !feature.getAsInteger(10, version))
      return version;
  }
  return std::nullopt;
}

LogicalResult checkTarget(gpu::GPUModuleOp module,
                          NVVM::NVVMTargetAttr target) {
  StringRef chip = target.getChip();
  auto minimum = minimumPTXVersions().find(chip);
  if (minimum == minimumPTXVersions().end())
    return emitError(module.getLoc()) << "unknown NVIDIA chip '" << chip
                                      << "' (expected sm_80, sm_90, ...)";
  StringRef features = target.getFeatures();
  std::optional<int> version = requestedPTXVersion(features);
  if (version && *version < minimum->second)
    return emitError(module.getLoc())
           << "PTX " << *version / 10 << "." << *version % 10 << " (features '"
           << features << "') cannot target " << chip << ", which needs PTX "
           << minimum->second / 10 << "." << minimum->second % 10
           << " or newer";
  return success();
}

/// The most bytes a global of device code may take.
constexpr uint64_t kMaxGlobalBytes = uint64_t(1) << 32;

/// The bytes of `type` (arrays of arrays of scalars or vectors), saturating
/// at the largest uint64_t; 0 for other types (structs), which a folded
/// constant never has.
uint64_t typeBytes(Type type, const DataLayout &layout) {
  uint64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count = llvm::SaturatingMultiply(count, array.getNumElements());
    type = array.getElementType();
  }
  if (!type.isIntOrFloat() && !isa<VectorType>(type))
    return 0;
  return llvm::SaturatingMultiply(
      count, static_cast<uint64_t>(layout.getTypeSize(type).getFixedValue()));
}

// Errors are emitted at locations, not ops: the op would be printed with
// each, and a gpu.module holds every kernel.
struct QuantAffineCheckGPUTargetPass
    : quant_affine::impl::QuantAffineCheckGPUTargetPassBase<
          QuantAffineCheckGPUTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    bool failed = false;
    for (Attribute attr : module.getTargetsAttr()
                              ? module.getTargetsAttr().getValue()
                              : ArrayRef<Attribute>()) {
      if (auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr))
        failed |= mlir::failed(checkTarget(module, target));
    }

    // An op no device lowering took: its translation would fail with the
    // whole module dumped. (The casts a failed conversion leaves around it
    // are left out of the report.)
    Operation *leftCast = nullptr;
    module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa_and_nonnull<LLVM::LLVMDialect, NVVM::NVVMDialect>(
              op->getDialect()))
        return;
      if (isa<UnrealizedConversionCastOp>(op)) {
        leftCast = leftCast ? leftCast : op;
        return;
      }
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName()
                                << "' is left in the device code: the GPU "
                                   "pipeline has no lowering for it";
      if (op->getNumResults() == 1)
        diag << " on " << op->getResult(0).getType();
      failed = true;
    });
    if (leftCast && !failed) {
      emitError(leftCast->getLoc())
          << "a value of type " << leftCast->getOperand(0).getType()
          << " is left unconverted in the device code";
      failed = true;
    }

    // LLVM materializes a global's initializer whole, a splat too: one
    // beyond what a device module can hold would exhaust memory instead.
    DataLayout layout(module);
    module.walk([&](LLVM::GlobalOp global) {
      if (!global.getValueOrNull() && !global.getInitializerBlock())
        return;
      uint64_t bytes = typeBytes(global.getGlobalType(), layout);
      if (bytes <= kMaxGlobalBytes)
        return;
      emitError(global.getLoc())
          << "device code would hold a copy of @" << global.getSymName()
          << " of " << bytes
          << " bytes, more than the 2^32 bytes the GPU pipeline puts into a "
             "device module";
      failed = true;
    });

    SmallString<256> libdevice(cudaPath);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    bool haveLibdevice = llvm::sys::fs::is_regular_file(libdevice);
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (!func.isExternal())
        return;
      StringRef name = func.getName();
      if (name.starts_with("__nv_")) {
        if (haveLibdevice)
          return;
        emitError(func.getLoc())
            << "'" << name << "' comes from libdevice, but " << libdevice
            << " does not exist; point the pipeline's cuda-path "
               "option at a CUDA toolkit";
      } else {
        emitError(func.getLoc())
            << "external function '" << name
            << "' would stay unresolved in the device code";
      }
      failed = true;
    });
    // gpu-module-to-binary links libdevice into every module, needed or not,
    // and fails (dumping the module) without it.
    if (!haveLibdevice && !failed) {
      emitError(module.getLoc())
          << "device code is linked with libdevice, but " << libdevice
          << " does not exist; point the pipeline's cuda-path "
             "option at a CUDA toolkit";
      failed = true;
    }
    if (failed)
      return signalPassFailure();
    // Only looked: the IR need not be verified again.
    markAllAnalysesPreserved();
  }
};

} // namespace
