//===- QuantAffineVectorBase.td - quant_affine_vector base -*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_VECTOR_BASE_TD
#define QUANT_AFFINE_VECTOR_BASE_TD

include "mlir/IR/OpBase.td"

def QuantAffineVector_Dialect : Dialect {
  let name = "quant_affine_vector";
  let cppNamespace = "::mlir::quant_affine_vector";
  let summary = "Vector operations the CPU code generation needs and upstream "
                "lacks";
  let description = [{
    Operations on 1-D vectors that the CPU pipeline creates between
    vectorization and the conversion to the LLVM dialect, for which neither
    the `vector` dialect nor a target dialect (`x86vector`) has an op. They
    are internal to code generation: the pipeline lowers every one of them
    (`--quant-affine-lower-lookups`), and nothing in the `quant_affine`
    dialect's inputs or outputs contains them.

    See docs/CodegenOps.md for why each exists.
  }];
}

class QuantAffineVector_Op<string mnemonic, list<Trait> traits = []>
    : Op<QuantAffineVector_Dialect, mnemonic, traits>;

#endif // QUANT_AFFINE_VECTOR_BASE_TD
