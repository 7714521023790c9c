//===- Pipelines.h - quant-affine pass pipelines ----------------*- C++ -*-===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_PIPELINES_PIPELINES_H
#define QUANT_AFFINE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;

namespace quant_affine {

/// Options of --quant-affine-cpu-pipeline.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per vector along the innermost dim (16 f32 "
                     "lanes fill an AVX-512 register)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> nontemporalStores{
      *this, "nontemporal-stores",
      llvm::cl::desc("Store results with non-temporal (streaming) stores"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Assert at run time what dynamic shapes leave unchecked"),
      llvm::cl::init(false)};
};

/// quant_affine on tensors (with func/tensor/linalg/arith) to the LLVM
/// dialect, vectorized, with results written in place into caller buffers.
void buildQuantAffineCPUPipeline(OpPassManager &pm,
                                 const CPUPipelineOptions &options);

/// Registers --quant-affine-cpu-pipeline.
void registerQuantAffinePipelines();

/// The interface models the pipelines rely on (bufferization, tiling, value
/// bounds, subsets). Embedders add these to their registry.
void registerPipelineExtensions(DialectRegistry &registry);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_PIPELINES_PIPELINES_H
