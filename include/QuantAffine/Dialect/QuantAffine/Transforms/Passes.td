//===- Passes.td - quant-affine transform passes -----------*- tablegen -*-===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_TRANSFORMS_PASSES_TD
#define QUANT_AFFINE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QuantAffineVectorizePass
    : Pass<"quant-affine-vectorize", "func::FuncOp"> {
  let summary = "Tile elementwise linalg.generic ops and vectorize the tiles";
  let description = [{
    Tiles every all-parallel `linalg.generic` on tensors to
    `1 x ... x 1 x vector-width` with `scf.for` loops and vectorizes each tile
    with `linalg::vectorize`. Tiles of static shape become plain vector ops;
    where the innermost size is dynamic or not a multiple of the width, the
    tile is vectorized with masks. Ops that cannot be vectorized (gathers of
    doubly-dynamic block encodings) stay scalar and lower to loops, and so do
    ops that read or write integers of a width that is not a whole number of
    bytes (`i1`, `i4`, ...): memrefs give each such element its own bytes,
    while LLVM packs vectors of them bit by bit, so vector loads and stores
    would not match the scalar layout. (Results of such types that fuse into a
    consumer, like a widening `extsi`, never reach memory and are vectorized.)

    Run it after `--convert-quant-affine-to-linalg` and before
    bufferization; `--quant-affine-cpu-pipeline` does.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost dim">
  ];
  let dependentDialects = [
    "scf::SCFDialect", "vector::VectorDialect", "tensor::TensorDialect",
    "affine::AffineDialect", "arith::ArithDialect"
  ];
}

def QuantAffineReshapeDestinationsPass
    : Pass<"quant-affine-reshape-destinations", "func::FuncOp"> {
  let summary = "Move block reshapes onto materialize_in_destination targets";
  let description = [{
    Blocked encodings compute in an expanded shape and `collapse_shape` the
    result. Upstream empty-tensor elimination only follows same-type chains, so
    it cannot hand such a result the caller's buffer. This pass rewrites

    ```mlir
    %c = tensor.collapse_shape %r [...] : tensor<4x2x32xi8> into tensor<4x64xi8>
    %m = bufferization.materialize_in_destination %c in %dest
    ```

    into a materialization into `expand_shape %dest` (placed right after
    `%dest` is defined; `memref.expand_shape` for a `restrict writable`
    buffer destination) followed by a collapse, after which
    `-eliminate-empty-tensors` writes the result in place.
  }];
  let dependentDialects = ["tensor::TensorDialect", "memref::MemRefDialect",
                           "bufferization::BufferizationDialect"];
}

def QuantAffineFoldConstantsPass : Pass<"quant-affine-fold-constants"> {
  let summary = "Fold quant_affine ops on constants of any size";
  let description = [{
    Replaces every `quantize`, `dequantize` and `qdq` whose operands are
    constants with an `arith.constant`, computed by the op folders' evaluator
    (the formula template the generated code uses, in APFloat), without the
    size limit of `-canonicalize` (65,536 elements). Use it to quantize
    weights ahead of time.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"std::numeric_limits<int64_t>::max()",
           "Leave ops with larger results alone">
  ];
  let dependentDialects = ["arith::ArithDialect"];
}

def QuantAffineMarkNontemporalPass
    : Pass<"quant-affine-mark-nontemporal", "func::FuncOp"> {
  let summary = "Make vector stores to memory non-temporal";
  let dependentDialects = ["vector::VectorDialect", "memref::MemRefDialect"];
  let description = [{
    Lowers unmasked 1-D `vector.transfer_write`s on memrefs to `vector.store`
    and sets `nontemporal` on every `vector.store`, so
    large outputs stream past the caches instead of being read for ownership
    first. Only worth it when the output does not fit in cache.
  }];
}

#endif // QUANT_AFFINE_TRANSFORMS_PASSES_TD
