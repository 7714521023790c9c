//===- Passes.td - target-independent codegen passes -------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Code generation passes that both pipelines run: linalg on tensors,
// tiling and vectorization, and the bufferization workarounds. No target
// dialect (LLVM, NVVM, GPU, OpenMP) is built or linked here.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_COMMON_PASSES_TD
#define QUANT_AFFINE_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

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

    With `fuse-block-reads=false` (the CPU pipeline), a producer that an
    all-parallel consumer reads once per block (an indexing map that is not a permutation
    and not 0-D: a block scale computed elementwise, as two-level NVFP4's
    `ts * extf(e)`, or a channel's) stays
    apart, unless the consumer feeds a contraction (a dequantization fused
    into a matmul's loop later computes per-block values once per block
    itself). Each block's value is then computed once and read from memory
    by broadcasting loads, where fused it was computed on the blocks of a
    tile and replicated across the tile's lanes by shuffles. The GPU
    pipeline keeps the fusion: there a separate kernel and buffer would cost
    more than the recomputation.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"128",
           "Largest fused body, in ops">,
    Option<"fuseBlockReads", "fuse-block-reads", "bool", /*default=*/"true",
           "Fuse producers that the consumer reads once per block (false: "
           "keep them apart unless the consumer feeds a contraction)">
  ];
  let dependentDialects = [
    "affine::AffineDialect", "linalg::LinalgDialect", "tensor::TensorDialect"
  ];
}

def QuantAffineFlattenBitCountsPass
    : Pass<"quant-affine-flatten-bit-counts"> {
  let summary = "math.ctlz, math.cttz and math.ctpop on n-D vectors as 1-D "
                "ones";
  let description = [{
    Upstream's `convert-math-to-llvm` lowers these bit counts only on scalars
    and 1-D vectors: its pattern tests the operand's type before conversion,
    which for an n-D vector is not an LLVM type, and fails; the pipeline
    then stopped at `convert-math-to-libm` with "failed to legalize
    operation 'math.ctlz'" (a `tensor<4x2xi32>` count vectorized whole, or
    an E8M0 scale's `rceil` rounding kept apart from its consumer). Each
    such op is applied to its operand shape-cast to one dim and the result
    cast back (elementwise, so exact; `flattenedVectorOp`, FlattenVectors.h,
    which `quant-affine-native-rounding` uses for the same reason);
    `convert-vector-to-llvm` lowers the casts. Both pipelines run it: on the
    host code before the math conversion, and in the kernels before
    `convert-gpu-to-nvvm`.
  }];
  let dependentDialects = ["vector::VectorDialect"];
}

def QuantAffineFuseReductionRowsPass
    : Pass<"quant-affine-fuse-reduction-rows", "func::FuncOp"> {
  let summary = "Tile an elementwise op that rereads a reduction's input by "
                "rows and fuse the reduction into each tile";
  let description = [{
    Dynamic quantization (`compute_encoding` feeding `quantize` of the same
    tensor) reads its input twice: once for the statistics, once to
    quantize. When the reduction keeps the input's first dim as a parallel
    dim of its results (per token, per block along a row, per channel of the
    first dim), this pass tiles the consumer (an all-parallel
    `linalg.generic` on tensors reading that input by rows) into an
    `scf.forall` of tiles of whole rows, as many as fit in `tile-bytes` of
    that input and divide the dim (the CPU pipeline makes the loop threads
    with `openmp`, an `scf.for` otherwise), and fuses the reduction, its `linalg.fill` destinations and the
    all-parallel ops between (the encoding's epilogue) into each tile with
    upstream's `tileConsumerAndFuseProducersUsingSCF`. Each tile then
    reduces its rows and quantizes them while they are still in the cache:
    the input comes from memory once. Results of the fused ops used
    elsewhere (the encodings) are yielded by the loop, from a `tensor.empty`
    of their own where they started from an uninitialized
    `bufferization.alloc_tensor`, so that empty-tensor elimination can put
    them into the caller's buffers. Upstream fuses a producer once per slice
    the tile reads; the copies are merged (the one writing into the loop's
    outputs is kept). A reduction over the
    first dim (per tensor, per channel of a later dim) is left alone: a tile
    would need the whole input.
  }];
  let options = [
    Option<"tileBytes", "tile-bytes", "int64_t", /*default=*/"16384",
           "Bytes of the reread input's rows per tile (at least one row)">
  ];
  let dependentDialects = [
    "bufferization::BufferizationDialect", "linalg::LinalgDialect",
    "scf::SCFDialect", "tensor::TensorDialect"
  ];
}

def QuantAffineVectorizeReductionsPass
    : Pass<"quant-affine-vectorize-reductions", "func::FuncOp"> {
  let summary = "Vectorize reductions whose combiners are exact in any order "
                "(min, max) by splitting them into lanes";
  let description = [{
    Compiles `linalg.generic` ops on tensors whose every result is a
    reduction by a combiner that gives the same bits in any order and
    grouping: `arith.minimumf`, `maximumf`, `minnumf`, `maxnumf` and the
    integer `minsi`, `maxsi`, `minui`, `maxui`, `addi`, `andi`, `ori`,
    `xori` (the min-max statistics of `compute_encoding`, users' own
    reductions). Float sums are not exact in another order and are left to
    `quant-affine-vectorize-contractions`.

    A float `minimumf`/`maximumf` reduction of one f32 or f64 input is first
    rewritten as an integer `minsi`/`maxsi` reduction of an ordered key (the
    bits, magnitude flipped when the sign is set, so that `-0 < +0`), and an
    elementwise op after it turns the results back and combines them with
    the destinations: IEEE's NaN-propagating min/max is several x86
    instructions, an integer one is one. NaN: a minimum and a maximum of
    the same element together need no test per element (positive NaNs' keys
    lie above +inf's, negative ones' below -inf's, so the decoding sees a
    NaN in the two results and makes both NaN); alone, NaN's key is the
    integer extreme that wins. A maximum of `math.absf` of the element (a
    largest magnitude: `block_scale`'s amax) alone keys on the bits without
    the sign, whose NaNs lie above +inf's: no test per element either, and
    the decoding makes a key above +inf's NaN. The elementwise op does not read destinations
    filled with the neutral element (+inf, -inf). A short reduction without
    other reduction loops starts each result from that neutral element as a
    constant rather than reading its destination. The last loop, a reduction that every input reads as its last,
    contiguous dim, is split into `size / lanes` steps and a parallel dim of
    `lanes`: the op reduces into `lanes` partial results per result (from
    the combiner's neutral element), and a second op combines the lanes into
    the original destination. Without a parallel loop (a per-tensor
    statistic), the outermost loop keeps its partial results apart too, so
    that its rows can be threads. The partial op is tiled into one row per
    iteration (`scf.forall` with `parallel-outer`) and one step at a time,
    each step vectorized and its accumulators hoisted into registers; the
    lane combination is vectorized per row. A last loop of at most 256 (a
    block of a blocked encoding) is not split, whose partial results would
    be nearly as large as the input: each is one vector, reduced in
    registers, whatever its length (one of exactly `lanes` too). Where
    that last loop is a multiple of `lanes` and `lanes` divides the
    innermost parallel loop (the blocks of a row), `lanes` blocks are one
    tile, one vector<lanes x block>, reduced together by a shuffle tree
    (ReductionTree.h: each row's columns `lanes` at a time, then pairs of
    vectors halved by two shuffles and one combination, log2(lanes) times)
    into one vector of the `lanes` results, where a horizontal reduction
    per block cost 2 log2(lanes) operations each. Ops of
    other forms (dynamic shapes, a last loop that is parallel, or longer
    than 256 and not divided by lanes, `linalg.index` in the body) are left
    to the other stages.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Lanes of the partial results (a power of two)">,
    Option<"parallelOuter", "parallel-outer", "bool", /*default=*/"false",
           "Tile the rows with scf.forall (threads), not scf.for">
  ];
  let dependentDialects = [
    "arith::ArithDialect", "linalg::LinalgDialect", "scf::SCFDialect",
    "tensor::TensorDialect", "vector::VectorDialect"
  ];
}

def QuantAffineVectorizeContractionsPass
    : Pass<"quant-affine-vectorize-contractions", "func::FuncOp"> {
  let summary = "Tile sums (matmuls, dequantize fused into them) into "
                "register tiles and vectorize them";
  let description = [{
    Compiles `linalg` ops on tensors with reduction loops whose body sums
    into its one result (`%out + f(ins)` in a float type): named
    contractions (`linalg.matmul` and its transposed and batched forms,
    `linalg.matvec`, ...), which are generalized first, and the generics
    that elementwise fusion makes when `quant_affine.dequantize` feeds them.
    The weight's element is dequantized inside the loop, in registers.

    The vector runs along the loop that is contiguous in the weight (the
    largest input read through a projected permutation): its last dim, or
    the result's last dim where the weight's is too short (a 3 x 3 filter).

    * When that loop is a reduction (`x @ W^T`, the layout of LLM weights),
      it is split into `K / lanes` steps and a parallel dim of `lanes`: the
      op sums into partial sums of `lanes` values per result
      (`linalg.generic` into `tensor<... x lanes>`), which a second op adds
      up, once per result, into the original destination.
    * When it is parallel (`x @ W`), the lanes are results of their own.
    * With 64 rows of the activation or more (`x @ W^T`, the weight computed
      from the weight's inputs alone), through panels: with
      `parallel-outer`, blocks of weight rows (at least 8) across threads
      first; then K in chunks of up to 256 (each chunk of the activation
      copied into a buffer the chunk loop carries), in each 32 weight rows
      at a time dequantized once into a K-major panel of at most 32 KiB
      (transposed in 16 x 16 blocks by shuffles), which tiles of 8
      activation rows multiply with outer products into 16 accumulators,
      one step of the chunk at a time (docs/FusedMatmul.md). Those numbers
      are the defaults, for 32 registers of 16 f32 (AVX-512); the CPU
      pipeline sets `panel-columns`, `panel-tile-rows` and `transpose-block`
      for its target (CPUTarget.h).

    The parallel loops are tiled into register tiles (4 rows of the weight,
    or `activation-rows` rows of the activation by 2 of the weight, with
    half the lanes)
    with `scf.forall` when `parallel-outer` (threads, through the CPU
    pipeline's `openmp`) and `scf.for` otherwise; the partial sums of a tile
    are fused into it (upstream's tile-and-fuse); the reduction loops are
    tiled with `scf.for` into steps of up to 64 elements (whole blocks of a
    blocked encoding, so a block's scale is read once per row); the unit
    dims of a step are dropped (a convolution's window becomes a plain
    read); each step is vectorized, its accumulator hoisted out of the
    reduction loops into registers (`hoistLoopInvariantSubsets`), and the
    vectors are unrolled to one dimension of `lanes`. Products of lane-split
    sums are marked `quant_affine.lanes_summed` for the int4 table lookup of
    `quant-affine-emulate-narrow-types`.

    Sums are reassociated (lane by lane, then the lanes); every other value
    is computed as in the op's body, so the weight is exactly what the
    dequantization gives. Ops of other forms (other combiners, dynamic
    shapes, sizes the lanes do not divide, `linalg.index` in the body) are
    left as they are and lower to loops.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"32",
           "Elements per vector (the accumulator's lanes)">,
    Option<"reductionLanes", "reduction-lanes", "int64_t", /*default=*/"0",
           "Elements per vector where the lanes split a reduction (x @ W^T "
           "with one activation row: decode); 0: lanes">,
    Option<"activationRows", "activation-rows", "int64_t", /*default=*/"8",
           "Rows of the activation per register tile (with 2 weight rows)">,
    Option<"panelColumns", "panel-columns", "int64_t", /*default=*/"32",
           "Weight rows per prefill panel (the lanes of a micro-kernel)">,
    Option<"panelTileRows", "panel-tile-rows", "int64_t", /*default=*/"8",
           "Rows of the activation per prefill micro-kernel">,
    Option<"transposeBlock", "transpose-block", "int64_t", /*default=*/"16",
           "Panels are transposed in square blocks of this many f32">,
    Option<"parallelOuter", "parallel-outer", "bool", /*default=*/"false",
           "Register tiles in an scf.forall (for threads)">,
  ];
  let dependentDialects = [
    "arith::ArithDialect", "linalg::LinalgDialect", "scf::SCFDialect",
    "tensor::TensorDialect", "vector::VectorDialect"
  ];
}

def QuantAffineOutlineRepeatedSumsPass
    : Pass<"quant-affine-outline-repeated-sums", "ModuleOp"> {
  let summary = "Compile each repeated float sum once: outline it into a "
                "private function called at each place";
  let description = [{
    A program that repeats a layer (an MLP of identical blocks, a model
    unrolled over its layers) repeats its matmuls, and the CPU pipeline
    would tile, vectorize and lower each copy on its own: compile time per
    layer is several milliseconds. This pass finds the float sums that
    `quant-affine-vectorize-contractions` compiles (a `linalg` op on tensors
    with reduction loops whose body adds into its output: matmuls with the
    dequantization fused in, convolutions) at the top level of functions,
    each with the `linalg.fill` that zeroes its destination when the sum is
    that fill's one user. Where at least `min-repeats` of them are the same
    but for the values they read (same ops, attributes, types and constants,
    the same pattern of operands), one private function computes them and
    each place calls it with its operands, the destination passed last, so
    the result is written where the op wrote it.

    Numbers are unchanged: the function's body is the op and its fill, as
    they were. Scalar and splat constants the ops read (a fill value, a
    per-tensor scale, which later patterns match as constants) are cloned
    into the function and so are part of the comparison; other values,
    tensor constants such as an imported model's weights included, become
    arguments, so layers with weights of their own share one function.
    Sums are left in place that read a value that may bufferize to a
    strided view (`tensor.extract_slice`, a reshape or cast of one,
    `bufferization.to_tensor` of a strided memref), since function
    boundaries take buffers of the identity layout and such an operand
    would be copied. Locations in the function are those of the first copy.

    Example (two identical layers):

    ```mlir
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %m0 = linalg.generic ... ins(%x, %w0, %s0 : ...) outs(%f0 : tensor<1x16xf32>)
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %m1 = linalg.generic ... ins(%m0, %w1, %s1 : ...) outs(%f1 : tensor<1x16xf32>)
    ```

    becomes

    ```mlir
    %m0 = call @mlp_sum(%x, %w0, %s0, %e0) : (...) -> tensor<1x16xf32>
    %m1 = call @mlp_sum(%m0, %w1, %s1, %e1) : (...) -> tensor<1x16xf32>
    ```
  }];
  let options = [
    Option<"minRepeats", "min-repeats", "int64_t", /*default=*/"2",
           "Outline a sum when at least this many copies of it exist">,
  ];
  let dependentDialects = ["func::FuncDialect"];
}

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

    With `large-vector-width`, an op whose tensors are large takes that
    width instead of `vector-width`: one whose operands (inputs and inits,
    and tensors its body reads with `tensor.extract`), counted once each at
    their static sizes in bytes, add up to more than `large-op-bytes`, and
    whose results all have static shapes. Tensors of dynamic shape among the
    inputs count as nothing; a dynamic result keeps `vector-width`. The CPU
    pipeline gives ops larger than the last-level cache 64 lanes this way,
    so that even i8 results fill whole 64-byte lines for streaming stores.
    An op in a tile of an `scf.forall` (quant-affine-fuse-reduction-rows)
    counts its bytes times the loop's trip count. Ops inside an
    `scf.forall` are not split into another one.

    Last, vector and scalar ops and slices that do not change in a loop (a
    block's scale read and broadcast to its tiles) move out of it, innermost
    loops first: on tensors the reads are pure, where once bufferized LLVM
    could not move them past the loop's stores. Other tensor ops (fills,
    empties) stay, whose buffers would be shared by the iterations of an
    `scf.forall`.

    With `scalable` (the CPU pipeline for SVE), the innermost tile is
    `vector-width * vector.vscale` elements and its vectors scalable
    (`vector<[4]xf32>`), the last tile masked: one binary for every SVE
    vector length.

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
           "partial and every vector access is aligned to its size">,
    Option<"scalable", "scalable", "bool", /*default=*/"false",
           "Scalable vectors of vector-width x vscale elements (SVE) for ops "
           "whose elements are all 8 bits or wider (packed and 8-bit float "
           "storage keeps fixed vectors); partial tiles masked">,
    Option<"largeVectorWidth", "large-vector-width", "int64_t",
           /*default=*/"0",
           "Elements per vector for ops that move more than large-op-bytes "
           "(0: vector-width for every op)">,
    Option<"largeOpBytes", "large-op-bytes", "int64_t", /*default=*/"0",
           "Static bytes of the tensors an op reads and writes above which "
           "it takes large-vector-width">,
    Option<"blockVectorWidth", "block-vector-width", "int64_t",
           /*default=*/"0",
           "Elements of a tile, whole blocks, for ops above large-op-bytes "
           "whose innermost dim is a block shorter than large-vector-width "
           "over which the body computes something once per block (an E8M0 "
           "or E4M3 scale's decoding, a fused block_scale formula); 0: "
           "large-vector-width">
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

def QuantAffinePrepareTensorDestinationsPass
    : Pass<"quant-affine-prepare-tensor-destinations", "ModuleOp"> {
  let summary = "Rename tensor destinations of materialize_in_destination so "
                "that One-Shot Analysis can write into them in place; where "
                "it cannot, materialize into a new buffer instead";
  let description = [{
    Works around a limitation of upstream One-Shot Analysis (MLIR 22); the
    pipelines run it before `-eliminate-empty-tensors` and before
    `-one-shot-bufferize`.

    `%r = bufferization.materialize_in_destination %y in %d` with a tensor
    `%d` must bufferize in place into `%d`'s buffer. The analysis checks that
    requirement before any other decision, and accepts the read of `%y` only
    if `%y`'s reverse use-def chain ends in a value equivalent to `%d` that
    is an OpResult: a function argument (a block argument) never matches, so
    a loop that writes its tiles into `%d` (what empty-tensor elimination and
    tiling make of any elementwise op) fails with "cannot avoid RaW
    conflict". So every such destination is first renamed by a same-type
    `tensor.cast` (which folds away after bufferization).

    Where writing into `%d` is impossible (`%d`'s old value is read after
    the write, ...), the analysis still fails; then the op that it names as
    the conflicting write is replaced by its source, whose value it has: the
    result lives in a new buffer and the destination is left as it is. The
    analysis (with the options the pipelines bufferize with) is run on a copy
    of the module until it succeeds or names no such op.
  }];
  let dependentDialects = ["tensor::TensorDialect"];
}

def QuantAffineGuardEmptyTensorEliminationPass
    : Pass<"quant-affine-guard-empty-tensor-elimination", "func::FuncOp"> {
  let summary = "Keep eliminate-empty-tensors from computing into a "
                "destination a value that is also used elsewhere";
  let description = [{
    Upstream `-eliminate-empty-tensors` replaces the `tensor.empty` at the
    root of a `materialize_in_destination` source's destination chain (DPS
    inits) with the destination, without asking whether a value on that
    chain is used elsewhere:

    ```mlir
    %r = reduce(fill(empty))
    %i = tensor.insert %v into %r
    bufferization.materialize_in_destination %i in %out
    return %r
    ```

    then computes `%r` in `%out`'s buffer, and the insert overwrites it while
    `%r` is still returned. Where any value on the chain (through DPS inits,
    reshapes, the values region ops yield and, conservatively, every tensor
    operand of any other op, such as a call) has another use, the root
    becomes a `bufferization.alloc_tensor` (the same uninitialized tensor,
    which the elimination leaves alone): the chain then computes in a buffer
    of its own and is copied into the destination.
  }];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def QuantAffineEliminateEmptyTensorsPass
    : Pass<"quant-affine-eliminate-empty-tensors", "ModuleOp"> {
  let summary = "Upstream -eliminate-empty-tensors, where it may find "
                "something to eliminate";
  let description = [{
    Runs upstream `-eliminate-empty-tensors` unless no subset insertion
    (`bufferization.materialize_in_destination`, `tensor.insert_slice`, ...)
    has a `tensor.empty` on its source's destination chain, in which case the
    upstream pass would change nothing. That pass first runs One-Shot
    Analysis on the whole module, whose cost grows faster than the program
    (with the number of readers of each tensor); the CPU pipeline runs it a
    second time for the row tiles of `quant-affine-fuse-reduction-rows`,
    which most programs do not have.

    The chain is followed as `quant-affine-guard-empty-tensor-elimination`
    follows it: from a destination-style result to its init, and through
    every tensor operand (and the values region ops yield) of any other op,
    a superset of what the upstream pass follows.
  }];
  let dependentDialects = ["bufferization::BufferizationDialect",
                           "tensor::TensorDialect"];
}

def QuantAffineUnshareEmptyTensorsPass
    : Pass<"quant-affine-unshare-empty-tensors", "func::FuncOp"> {
  let summary = "Give every use of a tensor.empty a tensor.empty of its own";
  let description = [{
    CSE merges identical `tensor.empty` ops, so in a function of many ops
    (a chain of thousands of fused elementwise generics) one `tensor.empty`
    becomes the destination of every op. One-Shot Analysis, which
    `-eliminate-empty-tensors` and `-one-shot-bufferize` both run, then sees
    all those destinations as one alias set and checks each write against
    every other use of it: time grows with the square of the number of ops
    (a chain of 8,000 qdq and addf ops: 2 s in each of these passes; 0.05 s
    with the destinations apart).

    A `tensor.empty` has no defined contents, so each use may take its own:
    every use after the first gets a clone, placed right before its op (the
    dynamic sizes dominate the original, so they dominate the clone). A
    `linalg.fill` of a `tensor.empty` is as fresh, and CSE shares it the
    same way (one zero-filled accumulator for every matmul of an MLP: 39 s
    of One-Shot Bufferize at 1,500 layers): each use after the first gets
    its own `tensor.empty` and fill. The pipelines run this before each
    `-eliminate-empty-tensors` and before `-one-shot-bufferize`.

    With `alloc-tensors`, every `tensor.empty` that has uses becomes a
    `bufferization.alloc_tensor` instead, what `-one-shot-bufferize` would
    make of it, and which CSE does not merge. After the last
    `-eliminate-empty-tensors` (which leaves `alloc_tensor` alone) and
    before CSE of tiled code: merged destinations there also give every
    tile loop of the same bounds the same operands, and CSE compares each
    such loop (its body included) with all the others.
  }];
  let options = [
    Option<"allocTensors", "alloc-tensors", "bool", /*default=*/"false",
           "Replace each used tensor.empty by a bufferization.alloc_tensor">
  ];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def QuantAffineHoistScalarInputsPass
    : Pass<"quant-affine-hoist-scalar-inputs", "func::FuncOp"> {
  let summary = "Read each 0-D tensor that elementwise generics take as an "
                "input once, as a scalar the generics capture";
  let description = [{
    A per-tensor scale or zero point reaches every fused generic that uses
    it as a 0-D `ins` operand: after fusion, a chain of N qdq ops has N / 16
    generics reading the same `tensor<f32>`. One-Shot Analysis (in
    `-eliminate-empty-tensors` and `-one-shot-bufferize`) gathers, for each
    operand it decides on, every read of every alias of its value, so one
    tensor read by k ops costs about k^2 (`-eliminate-empty-tensors`: 1.29 s
    of 21.9 s at 20,000 qdq + addf pairs, 0.24 s with the scale read once).

    Here each 0-D input of an all-parallel `linalg.generic` on tensors is
    replaced by its element: one `tensor.extract` per tensor, right after
    the tensor's definition (at the start of its block for a block
    argument), which the generic's body uses in place of the block argument.
    The values are those the generics read; only where the read happens
    moves. Generics are edited in place (their results, which later
    generics may take as 0-D inputs, stay the same values). Generics with
    reductions (fused contractions, whose planning
    reads their operands) and tensors defined outside the generic's
    isolated-from-above scope are left alone.

    With `before-each-user`, each generic gets its own `tensor.extract`,
    right before it, instead. The GPU pipeline's choice: there a read
    outside the generics is the host's until
    `quant-affine-sink-reads-into-launch` moves it into the kernel, which it
    does only when no op between the read and the kernel may write memory
    (a `vector.print` may); next to the generic, nothing is between. The
    analysis stays close to linear this way too (`-eliminate-empty-tensors`
    in the GPU pipeline at 20,000 pairs: 0.72 s with the 0-D inputs, 0.37 s
    with an extract before each generic, 0.30 s with one extract).
  }];
  let options = [
    Option<"beforeEachUser", "before-each-user", "bool", /*default=*/"false",
           "One tensor.extract right before each generic, rather than one "
           "after the tensor's definition">
  ];
  let dependentDialects = ["tensor::TensorDialect"];
}

def QuantAffineSplitDeallocsPass
    : Pass<"quant-affine-split-deallocs", "func::FuncOp"> {
  let summary = "Split each bufferization.dealloc of distinct fresh "
                "allocations into one dealloc per buffer";
  let description = [{
    Ownership-based buffer deallocation frees the buffers a block allocates
    with one `bufferization.dealloc` at its end, all of them in one op.
    `-buffer-deallocation-simplification` then asks, for every pair of
    buffers of that op, whether they may be the same allocation before it
    splits them: in a function of N intermediate buffers (a chain of
    thousands of fused generics) that is N^2 queries (1.55 s of the CPU
    pipeline's 21.9 s at 20,000 qdq + addf pairs).

    A dealloc that retains nothing and whose buffers are each the result of
    its own `memref.alloc` frees allocations that cannot alias: it is split
    here, in order, into one `bufferization.dealloc` per buffer with its own
    condition, which is what the simplification makes of it, without the
    pairwise queries; a buffer whose condition is the constant `true`
    becomes a `memref.dealloc`, which is what lowering the deallocation and
    canonicalizing make of it (lowered, the buffers of a block would be as
    many `scf.if %true`, which the canonicalizer merges one pair at a time:
    quadratic, 1.8 s of the GPU pipeline on an MLP of 10,000 layers).
    Anything else (retained values, a buffer that is a view, an argument or
    a block argument, a buffer named twice) is left to the simplification.
  }];
  let dependentDialects = [
    "bufferization::BufferizationDialect", "memref::MemRefDialect"
  ];
}

def QuantAffineNameConstantGlobalsPass
    : Pass<"quant-affine-name-constant-globals", "ModuleOp"> {
  let summary = "Names and places the constant globals of bufferized tensor "
                "constants in the program order of their first use";
  let description = [{
    One-Shot Module Bufferize makes each tensor constant a private
    `memref.global` named after its type (`__constant_4xf32`, then
    `__constant_4xf32_0`, ...) and places each first in the module. In LLVM
    22 it bufferizes the functions of a module in an order that varies from
    run to run (llvm/llvm-project#184722, fixed after 22.1), so with several
    functions the names and order of these globals did too. This pass gives
    them the names and places that bufferization gives them when it meets
    the constants in program order, so the output is the same on every run.
    Where there was one order only (one function, or one constant) nothing
    changes. The pipelines run it right after bufferization.
  }];
}

def QuantAffineLocalizeRegionResultsPass
    : Pass<"quant-affine-localize-region-results", "func::FuncOp"> {
  let summary = "In functions with unstructured control flow, pass memref "
                "results of region ops used outside their block through a "
                "memref.cast, so that ownership-based buffer deallocation "
                "never reads an erased value";
  let description = [{
    Works around a use after free in upstream ownership-based buffer
    deallocation (llvm/llvm-project#119863, fixed after 22.1); the pipelines
    run it right before the deallocation pipeline.

    The deallocation computes liveness once, then replaces each region op
    with memref results (`scf.for`, `scf.if`, ...) by a copy with ownership
    results, erasing the original. In a function with unstructured control
    flow it then reads the liveness sets of later blocks, which still hold
    the erased op's results: a crash or, when the memory is reused, a freed
    buffer that is still live. So in such functions each memref result of a
    region op that is used outside the op's block is first passed through a
    same-type `memref.cast` in that block: the liveness sets then name the
    cast, which is never replaced. Functions whose regions all have one
    block are left alone.
  }];
  let dependentDialects = ["memref::MemRefDialect"];
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

def QuantAffinePrefetchWeightsPass
    : Pass<"quant-affine-prefetch-weights", "func::FuncOp"> {
  let summary = "Prefetch the weights of fused contractions; drop the "
                "lanes_summed marks";
  let description = [{
    A fused contraction's register tile (quant-affine-vectorize-contractions)
    reads a few weight rows side by side, a short stretch of each per step:
    interleaved streams that jump to new rows every tile, which hardware
    prefetchers pick up late. Each weight read that a product marked
    `quant_affine.lanes_summed` inside a loop is computed from gets a
    `memref.prefetch` of the same place `distance` bytes further on: the
    outermost index is advanced by the whole number of its slices that
    covers the distance, and clamped to its last value. Weight reads are
    the vector reads of byte-sized integers (the codes) and the broadcast
    reads of one float (the blocks' scales and offsets: with int4 codes in
    blocks of 32, a fifth of the bytes; prefetching them took that decode
    from 7.8-8.2 to 8.5-9.0 GB/s on one thread, paired runs). Reads of
    memrefs with dynamic shapes, or shorter than the distance, are left
    alone.

    One prefetch brings in a 64-byte line, and packed codes are read a
    32-bit word at a time: reads of one buffer in one block whose indices
    differ only in the last, by amounts known at compile time
    (`affine::fullyComposeAndComputeConstantDelta`), share prefetches. Sorted
    by offset (bytes: the last dim must be contiguous), the first and the
    last keep theirs, and so does every read
    that the kept one before it would otherwise be more than a line from, so
    each line a read starts in still holds a prefetched address. With MXFP4
    decode that is 16 prefetches per loop step instead of 33.

    The marks' last user: the pass removes them all (they must not reach the
    LLVM dialect). It runs after bufferization and after the table lookup of
    quant-affine-emulate-narrow-types, which reads them too.
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"16384",
           "Bytes ahead to prefetch (0: no prefetch, only drop the marks)">
  ];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect"];
}

def QuantAffineSCFToCFBackwardPass
    : Pass<"quant-affine-scf-to-cf-backward", "func::FuncOp"> {
  let summary = "Lower scf loops and branches to cf with upstream's patterns, "
                "the last op of a block first";
  let description = [{
    Applies `convert-scf-to-cf`'s patterns (upstream's
    `populateSCFToControlFlowConversionPatterns`) once to each `scf.for`,
    `scf.if`, `scf.while`, `scf.index_switch` and `scf.execute_region` of
    the function that is nested only in such ops, visited from the last to
    the first (outer ops before the ops nested in them). Lowering an op
    splits its block at the op, moving every op after it into a new block:
    visited from the first, as `convert-scf-to-cf` visits them, the ops
    after each lowered op are all the rest of the function, quadratic in the
    number of loops of a block (upstream's pass took 0.19 s for 4,000
    sequential loops and 1.42 s for 16,000; 24.7 s with its rollback log).
    From the last, each split moves only the ops up to the branch into the
    op lowered before it. The blocks come out in the same order. Everything
    else (`scf.parallel`, `scf.forall` and what they or other ops with
    single-block regions hold) is left to `convert-scf-to-cf`, which the
    pipelines run after it: lowered here, an op inside them would leave
    blocks in a region that must keep one.
  }];
  let dependentDialects = ["cf::ControlFlowDialect", "arith::ArithDialect"];
}

def QuantAffineCanonicalizePass : Pass<"quant-affine-canonicalize"> {
  let summary = "Upstream's canonicalization that says when it changed "
                "nothing";
  let description = [{
    The canonicalization patterns and folders of every loaded dialect and
    registered op, applied by the greedy driver as `-canonicalize` applies
    them (top-down, 10 iterations at most), with the same output. The only
    difference: where nothing changed (the driver reports no rewrite to a
    listener, and the ops are the same in the same order: what the driver
    does to constants while it builds its first worklist is reported to
    neither), the pass marks every analysis preserved, so the pass manager
    skips verifying the whole IR after it.
    Upstream's pass never does, and about half of the pipelines'
    canonicalizations change nothing on most programs: at 20,000 qdq + addf
    pairs each verification after one costs 0.1 to 0.3 s.

    With `simplify-regions=false`, regions are not simplified (no dead
    block-argument elimination or block merging; the driver still erases
    unreachable blocks): the
    pipelines' canonicalizations before `convert-scf-to-cf`, where the code
    is still structured.
  }];
  let options = [
    Option<"topDown", "top-down", "bool", /*default=*/"true",
           "Seed the worklist in program order, as -canonicalize does by "
           "default">,
    Option<"simplifyRegions", "simplify-regions", "bool", /*default=*/"true",
           "Simplify regions as -canonicalize does by default">
  ];
}

def QuantAffineWhenPresentPass : Pass<"quant-affine-when-present"> {
  let summary = "Run a pipeline only where the ops it rewrites are present";
  let description = [{
    Runs `pipeline` on the op it is scheduled on if some op nested in it is
    named in `ops` (an op name such as `vector.mask`, or a dialect namespace
    such as `linalg` for all of that dialect's ops); otherwise does nothing
    and preserves every analysis, so that the pass manager skips the
    verification after it too.

    Why: every pass of a pipeline walks the whole program, and the pass
    manager verifies the whole program after it, even where the pass finds
    nothing to do. The pipelines run upstream passes that most programs give
    no work (`lower-vector-mask` without masks, `convert-linalg-to-loops`
    after vectorization, ...); on a function of 5,000 quantizers each cost
    about 0.1 s (issue 38, docs/Pipelines.md). MLIR has no conditional pass,
    so this is ours. A pass that can rewrite ops not named in `ops` must not
    be gated by it.

    Example: `func.func(quant-affine-when-present{ops=vector.mask
    pipeline=func.func(lower-vector-mask)})`.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Op names or dialect namespaces whose presence runs the "
               "pipeline">,
    ListOption<"pipelines", "pipeline", "OpPassManager",
               "The pipeline to run, anchored on the op this pass runs on "
               "(`func.func(...)`, `builtin.module(...)` or `any(...)`)">
  ];
}

def QuantAffineExpandNarrowFloatsPass : Pass<"quant-affine-expand-narrow-floats"> {
  let summary = "arith.truncf and arith.extf of float8 types in integer "
                "arithmetic";
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "vector::VectorDialect"];
  let description = [{
    LLVM has no float8 types, so conversions to and from `f8E4M3FN`,
    `f8E4M3FNUZ`, `f8E5M2` and `f8E5M2FNUZ` (which quantize and dequantize
    with float8 storage lower to) become arithmetic on the bits, with the
    semantics of `arith.truncf` and `arith.extf` (APFloat's, which is how
    they fold):

    - `truncf` from f16, bf16, f32 (through f32, exactly) or f64 rounds to
      nearest, ties to even, subnormals included. From f32 on the bits: an
      integer addition of just under half an ulp plus the lsb for normal
      results (the carry moves into the exponent), one f32 addition of a
      power of two whose ulp is the narrow quantum for subnormal ones
      (utils/narrow-encode-f32 checks every f32 input). From f64 the
      quantum at the value's binade comes from its exponent bits, and only
      a `roundeven` rounds (docs/FloatQDQ.md). A value that rounds beyond
      the largest finite value becomes +-inf (f8E5M2) or NaN (the other
      float8 types; the float6 and float4 types saturate); NaN becomes the
      type's NaN; the FNUZ types turn -0 into +0. An f32 that `quantize`
      clamped to the type's range first (`select(cmpf olt)` against the
      type's largest value and its negative, either first, through a
      `vector.shape_cast` too) is encoded from the value before the clamp,
      its magnitude limited to the largest value: one minimum instead of
      two, the same code for every input (utils/narrow-encode-f32 compares
      both forms); the clamp stays for any other user. Such a saturated
      encoding rounds normal and subnormal results alike in one f32
      addition of 2^(E + 23 - M) plus a constant number of ulps (E the
      magnitude's binade, at least the smallest normal's; the sign in the
      addend), the code in the low bits of the sum plus itself shifted
      right by 23 - M; f8E4M3FN's NaN is first lowered to 480, which
      encodes to its NaN code.
    - `extf` decodes sign, exponent and mantissa (subnormals through an
      exact multiplication), and the type's infinities and NaNs.
    - `extf` from `f8E8M0FNU` (MX's scale byte c, the value 2^(c - 127)):
      `c << 23` as f32 bits, 2^-127 (c = 0) as the f32 denormal, NaN for
      0xFF; then rounded once to f16 or bf16, or widened to f64.
    - `1 / extf(e)` in f32 for an `f8E8M0FNU` scale (quantize by a
      power-of-two scale multiplies by its reciprocal) is the scale of the
      code 254 - c (0xFF, NaN, stays NaN), decoded as above: exact for all
      256 codes (test/Integration/CPU/e8m0-reciprocal-codes.mlir), where
      the division put a vector divide at the head of every MXFP8 tile
      (5 to 8 % of bench/mxquant's MXFP8 loop in cache on Zen 5).

    Also f6E2M3FN, f6E3M2FN and f4E2M1FN. Scalars and vectors alike;
    upstream's arith-expand covers only f4E2M1FN and f8E8M0FNU (its E8M0
    `extf` reads code 0 as 0.0, not 2^-127).
  }];
}

def QuantAffineEmulateNarrowTypesPass
    : Pass<"quant-affine-emulate-narrow-types", "ModuleOp"> {
  let summary = "Store i1, i2 and i4 buffers packed, 8 / N values a byte";
  let description = [{
    Runs on bufferized code whose tiles are 1-D vector transfers, loops or
    scalar loads and stores. Every memref of `i1`, `i2` or `i4` becomes a
    rank-1 `i8` memref of its `ceil(count * N / 8)` bytes, the value with the
    lower row-major index in the lower bits (docs/Packing.md), everywhere:
    function signatures, calls, returns, loop-carried values, allocations,
    globals (constants are packed into bytes) and the accesses.

    Built on upstream's narrow-type emulation (its type converter and its
    `memref`, `arith` and `vector` patterns, and the shuffle-based
    `bitcast(trunci)` / `ext(bitcast)` rewrites) with these additions:
    vector loads and stores whose first element is proven to start a byte
    (the divisibility of the linearized index: constants, loop bounds and
    steps, sums and products) become one byte-vector access, with a prefix
    mask (`vector.create_mask`) as a byte mask and the at most `8 / N - 1`
    values of a partial last byte stored one by one; any other vector access
    is unrolled into scalar accesses, which upstream emulates with atomic
    read-modify-writes (rows that share a byte may be written by different
    threads). `memref.global`/`get_global`, `memref.cast` and
    `extract_aligned_pointer_as_index` are converted here too.

    A `memref.dim` of a packed memref has no answer after packing (the rank-1
    byte buffer does not keep the shape): the pass fails with a diagnostic
    there.

    Runs before buffer deallocation (whose ownership flags are `i1` buffers
    of its own, passed to a helper function with dynamic sizes: they stay
    one flag per byte). Linalg ops on packed buffers that were not
    vectorized become loops first (`scf.parallel` with `parallel-loops`,
    for the GPU pipeline to map, else `scf.for`).

    With `table-lookup` (the CPU pipeline), int4 codes that a fused
    contraction converts to float and scales before multiplying them into
    its partial sums are dequantized by table: the chain is computed once on
    the 16 codes, by the same ops, and each code looked up (one `vpermps`
    per 16 on x86). Every weight is bit for bit what the chain gives.
    With `float4-table-lanes`, f4E2M1FN codes extended to float (MXFP4
    weights) are looked up the same way: with 16, in one table of the 16
    codes; with 8 (AVX2's `vpermps`), in two tables of the chain on codes
    0-7 and 8-15, each lane taking its entry from the one its sign bit
    names (one `vblendvps`), the codes in their own order.

    With `shift-unpack`, codes that are extended to 32 bits or converted to
    float (the rest of the int4 dequantizations) are unpacked from whole
    32-bit words by per-lane shifts rather than upstream's byte shifts and
    interleaves: cheaper where the target shifts each lane by its own
    amount (AVX2, AVX-512, NEON). Packed f4E2M1FN codes extended to a float
    (MXFP4 weights) are unpacked the same way and decoded in the 32-bit
    lanes by the decoding `quant-affine-expand-narrow-floats` gives
    `arith.extf` (`decodeNarrowFloat`), without going back through i4.
    With `byte-pack`, codes computed in
    wider integers are packed by truncating them to bytes and combining the
    bytes of each position in a byte (strided byte shuffles), rather than by
    upstream's shuffles of 32-bit lanes.
  }];
  let options = [
    Option<"parallelLoops", "parallel-loops", "bool", /*default=*/"false",
           "Lower linalg ops on packed buffers to scf.parallel, not scf.for">,
    Option<"tableLookup", "table-lookup", "bool", /*default=*/"false",
           "Dequantize int4 codes inside summed products by a 16-entry "
           "table (LookupTables.h)">,
    Option<"float4TableLanes", "float4-table-lanes", "int64_t",
           /*default=*/"0",
           "Dequantize f4E2M1FN codes inside summed products by tables of "
           "this many f32 lanes: 16 or 8 (two tables); 0, not by table">,
    Option<"shiftUnpack", "shift-unpack", "bool", /*default=*/"false",
           "Unpack i1/i2/i4 codes extended to 32 bits or converted to float "
           "by per-lane shifts of whole words (UnpackByShifts.h)">,
    Option<"bytePack", "byte-pack", "bool", /*default=*/"false",
           "Pack i1/i2/i4 codes truncated from wider integers through a "
           "byte truncation and strided byte shuffles (PackByBytes.h)">
  ];
  let dependentDialects = [
    "affine::AffineDialect", "arith::ArithDialect", "memref::MemRefDialect",
    "quant_affine_vector::QuantAffineVectorDialect", "scf::SCFDialect",
    "vector::VectorDialect"
  ];
}

#endif // QUANT_AFFINE_CODEGEN_COMMON_PASSES_TD
