//===- Passes.td - quant-affine transform passes -----------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
    `1 x ... x 1 x vector-width` with `scf.for` loops (where the innermost
    dim is a block narrower than the width, to `1 x ... x k x block` with
    `k x block = vector-width`) and vectorizes each tile
    with `linalg::vectorize`. Tiles of static shape become plain vector ops;
    where the innermost size is dynamic or not a multiple of the width, the
    tile is vectorized with masks. Ops that cannot be vectorized (gathers of
    doubly-dynamic block encodings) stay scalar and lower to loops, and so do
    ops that read or write (as operands, or through `tensor.extract` in the
    body) elements whose width is not a power of two of at least 8 bits
    (`i1`, `i4`, `i12`, `i24`, `i40`, ...): memrefs give each such element
    the alloc size of its scalar type (`i24` takes 4 bytes), while LLVM packs
    vectors of them bit by bit, so vector loads and stores would not match
    the scalar layout. (Results of such types that fuse into a consumer, like
    a widening `extsi`, never reach memory and are vectorized.) A masked
    contiguous read that upstream gives the tile's mask where the transfer
    takes fewer dims (a rank-1 `tensor.extract` source in a 1 x 8 tile) gets
    the mask reshaped to the dims it reads.

    With `full-vectors-only`, the width of each op shrinks to the largest
    power of two not above `vector-width` that divides its innermost size
    (dynamic sizes get width 1): no masks, and in buffers whose rows start
    aligned every vector access is aligned to its own size, which the GPU
    pipeline relies on for 16-byte `ld.global.v4`.

    With `parallel-outer`, the outermost dim is first split into chunks in
    an `scf.forall` (one row each, or 4096 elements of a rank-1 tensor), and
    the chunks are tiled with `scf.for`: coarse parallel work for threads,
    which the CPU pipeline's `openmp` option distributes.

    With `parallel-loops`, the tile loop is an `scf.forall`, whose
    iterations are independent by construction; the GPU pipeline turns it
    into `scf.parallel` and maps it to blocks and threads.

    Run it after `--convert-quant-affine-to-linalg` and before
    bufferization; `--quant-affine-cpu-pipeline` and
    `--quant-affine-gpu-pipeline` do.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost dim">,
    Option<"parallelLoops", "parallel-loops", "bool", /*default=*/"false",
           "Tile with scf.forall instead of scf.for">,
    Option<"parallelOuter", "parallel-outer", "bool", /*default=*/"false",
           "First split the outermost dim into an scf.forall of chunks "
           "(rows; 4096 elements for rank 1), then tile each chunk with "
           "scf.for">,
    Option<"fullVectorsOnly", "full-vectors-only", "bool", /*default=*/"false",
           "Shrink the width to a power of two dividing the innermost size, "
           "and keep dynamic innermost sizes scalar, so that no tile is "
           "partial and every vector access is aligned to its size">
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

    A splat input with splat (or per-tensor) scale and offset folds to a
    splat in constant time, whatever its size. Other results are computed
    element by element: those above `max-elements`, and those of 2^32
    elements or more (which could not be held), are left unfolded.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"std::numeric_limits<int64_t>::max()",
           "Leave ops with larger results alone (splat results fold at any "
           "size)">
  ];
  let dependentDialects = ["arith::ArithDialect"];
}

def QuantAffineMarkNontemporalPass
    : Pass<"quant-affine-mark-nontemporal", "func::FuncOp"> {
  let summary = "Make vector stores to memory non-temporal";
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "vector::VectorDialect"];
  let description = [{
    Lowers unmasked 1-D `vector.transfer_write`s on memrefs to `vector.store`
    and makes the stores non-temporal, so large outputs stream past the
    caches instead of being read for ownership first. Only worth it when the
    output does not fit in cache.

    x86 streams a store only when it is aligned to its size, which depends
    on the caller's buffer. So the function body is versioned: if every
    buffer the stores write (function arguments, through views) is aligned
    to its widest store (its size rounded up to a power of two: 64 bytes for
    a 48-byte row of 12 x i32), a copy runs with non-temporal stores, each
    carrying the largest power-of-two alignment that the buffer's and its
    offset's divisibility prove; otherwise the original runs with plain
    stores. Functions whose stores write other memrefs, or that return
    values computed in the body, are marked without versioning.
  }];
}

def QuantAffineMapToGPUPass
    : Pass<"quant-affine-map-to-gpu", "func::FuncOp"> {
  let summary = "Split top-level scf.parallel loops into GPU blocks and threads";
  let description = [{
    Tiles every outermost `scf.parallel` into a loop over blocks and a loop
    over the threads of a block, and marks both with the mapping that
    `--convert-parallel-loops-to-gpu` reads. Threads are handed out innermost
    dim first, up to `block-size` per block: the innermost dim goes to
    `thread_x`, so neighbouring threads touch neighbouring elements and
    global accesses coalesce. Iterations past a dim's end are guarded with
    `scf.if`, so every block has the same size. The block loop puts the dim
    with the most blocks on `block_x` (the only grid dim that may exceed
    65535); a static grid dim that does not fit `block_y`/`block_z`, and any
    dim past the third, runs as a loop inside the kernel. Linalg ops on
    memrefs outside any loop (ones that were not tiled) first become
    parallel loops; a rank-0 op, which has no loop, goes into a
    one-iteration `scf.parallel`, so that it too runs on the device.

    `--quant-affine-gpu-pipeline` runs it on bufferized, vectorized code
    whose tile loops `scf-forall-to-parallel` turned into `scf.parallel`.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">
  ];
  let dependentDialects = [
    "gpu::GPUDialect", "scf::SCFDialect", "arith::ArithDialect",
    "affine::AffineDialect", "linalg::LinalgDialect"
  ];
}

def QuantAffineCheckGPUTargetPass
    : Pass<"quant-affine-check-gpu-target", "gpu::GPUModuleOp"> {
  let summary = "Reject device code that the NVVM target cannot compile or link";
  let description = [{
    Runs on LLVM-dialect GPU modules with an `#nvvm.target`, before
    `gpu-module-to-binary`, and turns what would be a crash or a broken
    binary there into an error at the right place:

    - a chip the PTX version in the target's features (`+ptxNN`) does not
      support (LLVM aborts on it);
    - calls to `__nv_*` functions (what `convert-gpu-to-nvvm` makes of
      `math.roundeven` and friends) when
      `<cuda-path>/nvvm/libdevice/libdevice.10.bc` does not exist: the PTX
      would be emitted with unresolved externs and fail only when loaded;
    - any other external function, which nothing would resolve.
  }];
  let options = [
    Option<"cudaPath", "cuda-path", "std::string",
           /*default=*/"\"/usr/local/cuda\"", "CUDA toolkit root">
  ];
}

def QuantAffineDivideByReciprocalPass
    : Pass<"quant-affine-divide-by-reciprocal", "func::FuncOp"> {
  let summary = "Round x / s through x * (1 / s) where that is provably exact";
  let description = [{
    Rewrites `math.roundeven(arith.divf(%x, %s))` on f32 vectors whose
    divisor is the same in every lane (a broadcast, or a broadcasting
    `vector.transfer_read`: per-tensor scales, per-channel scales of an outer
    dim, blocks along the vector) and whose dividend is an unmasked, in-bounds
    read. `1 / s` is divided once as a scalar, `t = x * (1 / s)` is rounded,
    and a per-vector check decides whether that is what true division gives
    in every lane: `1 / s` normal and finite, `|t| < 2^19`, and `t` farther
    than `2^-20 |t|` from `floor(t) + 0.5`. Otherwise the vector divides
    (`scf.if`). The proof is in `DivideByReciprocal.cpp` and
    `docs/Pipelines.md`; the result is bit for bit that of true division for
    every input. Quantizing data that is in cache is bound by the vector
    division; this takes it off the common path.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "scf::SCFDialect",
    "vector::VectorDialect"
  ];
}

def QuantAffineManagedAllocationsPass
    : Pass<"quant-affine-managed-allocations", "ModuleOp"> {
  let summary = "Allocate host-code buffers as managed GPU memory";
  let description = [{
    Replaces `memref.alloc`/`memref.dealloc` outside GPU code with
    `gpu.alloc host_shared`/`gpu.dealloc`: the buffers that bufferization
    allocates in host code (results of functions that do not write into a
    destination, temporaries) are read or written by kernels, which cannot
    touch `malloc` memory. Managed memory stays readable by the host, so a
    returned buffer can be printed or copied there. Every host
    `memref.dealloc` becomes a `gpu.dealloc`: buffer deallocation also
    frees buffers that the program allocated with `gpu.alloc`, and `free()`
    on those would be wrong. Destination-style functions allocate nothing.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def QuantAffineFlattenTransfersPass
    : Pass<"quant-affine-flatten-transfers", "func::FuncOp"> {
  let summary = "Make vector transfers of contiguous memory one-dimensional";
  let description = [{
    Applies upstream's unit-dim dropping and flattening patterns to
    `vector.transfer_read`/`transfer_write` on memrefs: a `2 x 32` tile of
    two neighbouring blocks, contiguous in memory, becomes one 64-element
    access (and so, with `quant-affine-mark-nontemporal`, one streamed
    64-byte line for i8 results) instead of two half-line accesses. Where
    upstream's contiguity check would read past the end of a shape (an
    all-unit vector, `1x1x1`, or a broadcast read of a lower-rank memref),
    the transfer is left as it is.

    First, reads and writes (transfers, plain and masked loads and stores)
    of vectors whose elements LLVM lays out differently in a vector than in
    a memref are unrolled into one `memref.load`/`memref.store` per element
    (guarded by `scf.if` where masked or possibly out of bounds): LLVM packs
    vector elements bit by bit, while a memref gives each element the alloc
    size of its scalar type (`i1`..`i7` a byte, `i12` two, `i24` four). Only
    element widths that are a power of two of at least 8 bits keep vector
    accesses. `quant-affine-vectorize` keeps the generics it vectorizes off
    such types; this covers vectors the program writes itself.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "vector::VectorDialect"];
}

def QuantAffineDecomposeAggregatesPass
    : Pass<"quant-affine-decompose-aggregates", "func::FuncOp"> {
  let summary = "Decompose aggregate linalg ops (softmax, ...) into generics";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface`
    (`linalg.softmax`, the Winograd transforms) by the sequence of
    `linalg.generic`/`linalg.fill` ops its own `decomposeOperation` gives.
    Upstream has the decompositions but no pass that applies them; the
    pipelines run this first, so that such ops lower like any other linalg
    op instead of passing through unlowered.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "linalg::LinalgDialect", "math::MathDialect",
    "tensor::TensorDialect"
  ];
}

def QuantAffineCheckLoweredPass
    : Pass<"quant-affine-check-lowered", "ModuleOp"> {
  let summary = "Reject output that mlir-translate or mlir-runner cannot take";
  let description = [{
    The last pass of both pipelines. Every op left in the module must be one
    that `mlir-translate --mlir-to-llvmir` translates: `builtin.module` and
    the `llvm` and `omp` dialects, plus, with `gpu`, the `gpu.binary` and
    `gpu.launch_func` ops of lowered host code. Anything else (an op no
    stage lowered, an `unrealized_conversion_cast` left by a partial
    conversion) is an error naming the op, at its location, so a pipeline
    never succeeds with output that is not fully lowered. One error is
    reported per op name.
  }];
  let options = [
    Option<"allowGPU", "gpu", "bool", /*default=*/"false",
           "Also accept gpu.binary and gpu.launch_func (GPU host code)">,
    Option<"pipelineName", "pipeline", "std::string",
           /*default=*/"\"the pipeline\"",
           "Name of the pipeline the errors mention">
  ];
}

def QuantAffineFuseElementwisePass
    : Pass<"quant-affine-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops, with bodies of bounded size";
  let description = [{
    Upstream's elementwise fusion (`linalg-fuse-elementwise-ops`: producer
    into consumer where the producer has one use, reshapes folded by
    expansion, generic canonicalizations), with one difference: a fusion
    whose body would hold more than `max-body-ops` ops is not done. Each
    fusion clones both bodies, so fusing a chain of n elementwise ops into
    one body costs O(n^2) (1,000 chained ops took seconds, 5,000 minutes);
    with the bound, a chain fuses into n / max-body-ops generics in linear
    time, each still a single vectorized loop.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"128",
           "Largest fused body, in ops">
  ];
  let dependentDialects = [
    "affine::AffineDialect", "linalg::LinalgDialect", "tensor::TensorDialect"
  ];
}

#endif // QUANT_AFFINE_TRANSFORMS_PASSES_TD
