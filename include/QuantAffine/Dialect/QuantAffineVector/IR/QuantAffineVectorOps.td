//===- QuantAffineVectorOps.td - quant_affine_vector ops ---*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_VECTOR_OPS_TD
#define QUANT_AFFINE_VECTOR_OPS_TD

include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVectorBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def QuantAffineVector_LookupOp : QuantAffineVector_Op<"lookup", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "Lanes of a table chosen by a vector of indices";
  let description = [{
    Lane `i` of the result is lane `indices[i]` of `table`: a permutation
    of lanes by run-time indices (x86 `vpermps`). The result has as many
    lanes as `indices` and the element type of `table`. An index outside
    `[0, lanes of table)` makes its lane poison, as `vector.extract` at such
    a position does.

    ```mlir
    %w = quant_affine_vector.lookup %table[%codes]
        : vector<16xf32>, vector<16xi32>
    ```

    The CPU pipeline dequantizes int4 and f4E2M1FN codes inside fused
    matmuls by looking them up in a table of their 16 dequantized values
    (docs/FusedMatmul.md). Upstream expresses such a lookup only as one
    `vector.extract` at a dynamic position per lane gathered by
    `vector.from_elements` (about 50 ops for 16 lanes, which LLVM's x86
    backend selects back into one `vpermps`); `llvm.call_intrinsic` of the
    permute has unknown memory effects, which bufferization's deallocation
    rejects. This op is the lookup as one pure op until
    `--quant-affine-lower-lookups` lowers it, to the target's permute
    intrinsic where the target description names one for its shape, and to
    the extracts otherwise.
  }];
  let arguments = (ins
    VectorOfRankAndType<[1], [AnyInteger, AnyFloat]>:$table,
    VectorOfRankAndType<[1], [AnySignlessInteger, Index]>:$indices);
  let results = (outs VectorOfRankAndType<[1], [AnyInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $table `[` $indices `]` attr-dict `:` type($table) `,` type($indices)
  }];
  let hasVerifier = 1;
}

#endif // QUANT_AFFINE_VECTOR_OPS_TD
