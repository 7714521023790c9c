//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes only the CPU pipeline runs: vector code for the host (division,
// memory layout, streaming stores) and bf16 as the x86 backend needs it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_CPU_PASSES_TD
#define QUANT_AFFINE_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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

    A read whose lanes all hold one element (unmasked; every vector dim
    broadcast or of size 1 and in bounds: a per-row scale or maxval factor
    broadcast along the row) becomes one `memref.load` and a
    `vector.broadcast`. `convert-vector-to-scf` would lower it to a loop of
    one load and one insert per lane, which LLVM collapses only at `-O2` and
    above.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "vector::VectorDialect"];
}

def QuantAffinePrefetchStreamsPass
    : Pass<"quant-affine-prefetch-streams", "func::FuncOp"> {
  let summary = "Prefetch the inputs of loops that stream their outputs";
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "vector::VectorDialect"];
  let description = [{
    A loop whose vector stores are non-temporal (quant-affine-mark-nontemporal)
    streams a large output, and so reads large inputs too, a row per thread.
    Each `vector.load` in the same loop body, from a view of a memref of
    static shape and identity layout (a function argument, say), gets a
    `memref.prefetch` of the element `distance` bytes further on in that
    memref, in row-major order (so the end of a row prefetches the start of
    the next), clamped to its last element. The address is taken from the
    view's strided metadata, on a rank-1 view of the whole memref; a load
    wider than a 64-byte line gets one prefetch per line (a 64-lane f32
    load, four: with one, three lines in four came unprefetched), the first
    clamped so that the last is at most the last element and the others at
    constant distances from it: one clamp per load (four instructions),
    where a clamp per line outweighed a 512-lane block reduction's work.

    A load in a loop that rereads what an earlier loop of its row tile read
    (the quantization after its blocks' reduction: an op before the loop,
    in the body of an enclosing loop, reads the same buffer) finds its lines
    in the cache; it prefetches instead the same place in the next row
    tile: as far ahead as the tile's view of the buffer is long (a static,
    contiguous view made in that body). The next tile's reduction then
    reads the cache while this loop computes (bench/mxquant: MXFP8 1.4
    times as fast on Zen 5). Those prefetches fetch into L1 by default
    (`reread-locality` 3, `prefetcht0`): the next tile is read twice soon
    after, and with a 16 KiB tile both tiles fit a 32 KiB L1. On Zen 5
    (48 KiB L1) that made MXFP8 and NVFP4 quantization 4 to 8 % faster on
    one thread than fetching into L2, and up to 10 % on two
    (docs/Benchmarks.md).

    The prefetches fetch into the L2 cache (`locality` 2, `prefetcht1` on
    x86) 4 KiB ahead by default: a single core's bandwidth is bound by the
    lines it has in flight, and on the Intel host of docs/Benchmarks.md
    this made the streamed loops 10 to 20 % faster than prefetching into
    L1 1 KiB ahead, and dynamic quantization per tensor 10 to 15 % (paired
    runs of both builds, cold inputs); 8 and 16 KiB measured the same as 4.

    With `large-nest-bytes`, loops whose stores stay in the cache get the
    same prefetches where their data does not: each `vector.load` of a
    function argument in a loop whose outermost loop nest references more
    than that many bytes of static-shape buffers, unless the loop prefetches
    already (`quant-affine-prefetch-weights`). Those are the reductions over
    large inputs (`compute_encoding`'s statistics, per tensor and per row)
    and the row tiles of `quant-affine-fuse-reduction-rows`, which stream
    their input once and write a tile at a time; on a server core, whose
    single-thread bandwidth is bound by how many lines are in flight,
    prefetching them takes dynamic quantization from 0.6 to 0.75 of its
    limit up to 0.75 to 1.2 (docs/Benchmarks.md).

    Unmasked 1-D `vector.transfer_read`s are first lowered to `vector.load`
    (upstream's transfer lowering patterns), so that loops are prefetched
    whether or not `quant-affine-mark-nontemporal` ran before.

    Under either rule, loads of a buffer of at most 32 KiB, and of one that
    another block of the nest writes (what an earlier loop of a row tile
    produced), are in the cache: not prefetched. Nor are loads of a single
    element (the broadcast activations of a prefill panel's outer-product
    step): they reach a new line only every 16 steps, and a prefetch per
    step cost the fused matmul 10 to 20 %.

    A load whose value flows (through vector inserts) into the init of a
    loop later in the same `scf.for` body reads a register tile's
    accumulators (a prefill panel's 8 x 32 output tile): it is prefetched
    for the next iteration of that `scf.for` instead, the address ops of the
    body cloned with the induction variable one step on (on the last
    iteration, its own tile again, so that no view leaves its bounds). The
    reduction in between hides the misses; `distance` bytes ahead would be
    a tile of other columns. On the Intel host of docs/Benchmarks.md this
    made the int4 prefill matmul (128 x 4096 x 4096) 3 to 6 % faster on one
    thread and 7 to 15 % on two (paired runs).
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"4096",
           "Bytes ahead to prefetch (0: none)">,
    Option<"locality", "locality", "unsigned", /*default=*/"2",
           "Temporal locality of the prefetches, as memref.prefetch's "
           "(0-3; 3 fetches into L1, 2 into L2)">,
    Option<"rereadLocality", "reread-locality", "unsigned",
           /*default=*/"3",
           "Temporal locality of a rereading loop's prefetches of the next "
           "row tile (0-3), which two loops read soon after">,
    Option<"largeNestBytes", "large-nest-bytes", "int64_t", /*default=*/"0",
           "Also prefetch the loads of loop nests moving more than this "
           "(0: only loops with non-temporal stores)">
  ];
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
    offset's divisibility prove (a packed byte index, an element index
    divided by the codes a byte holds, included); otherwise the original
    runs with plain stores. A store of an `arith.trunci` result narrower
    than 64 bytes keeps no alignment: LLVM folds an aligned one into a
    truncating store (`vpmovdb` to memory), which is not non-temporal,
    where an unaligned one streams as `movnti`s (packed int2/int4
    quantization ran 1.2 times slower with the folded stores on Zen 5).
    Functions whose stores write other memrefs, or that return
    values computed in the body, are marked without versioning.

    With `large-op-bytes` above 0, only the stores of large loop nests are
    made non-temporal: a store streams when the buffer it writes has a
    static shape and the outermost loop around it (the store itself outside
    loops) references buffers whose static sizes add up to more than
    `large-op-bytes` bytes (each buffer counted once, through its views;
    buffers of dynamic shape count as nothing). Other stores stay plain, in
    both versions of the body; a function with no such store is left as it
    is. The CPU pipeline passes the last-level cache size: then the output
    would not stay in cache for its consumer anyway, and streaming saves
    reading each output line for ownership first.

    Either way, a store whose buffer a load in another block of its nest
    reads (a later loop reading back what an earlier one wrote: a row
    tile's statistics, its encodings) stays plain: a streamed line would be
    fetched back from memory. (An `omp.loop_nest` is a loop of the nest too;
    a buffer carried through `scf.for` iter_args is one buffer.) So does a
    store into a buffer the function allocates and does not return (a
    temporary: float_qdq's per-channel factors), which is read again in the
    function; marked, it also left the function unversioned, and x86 split
    every unaligned streamed vector of the output into 8-byte `movnti`s
    (float_qdq with a maxval ran 20 to 25 % slower for it).
  }];
  let options = [
    Option<"largeOpBytes", "large-op-bytes", "int64_t", /*default=*/"0",
           "Stream only stores of loop nests that move more than this many "
           "bytes, into buffers of static shape (0: every vector store)">
  ];
}

def QuantAffineTruncateByPermutesPass
    : Pass<"quant-affine-truncate-by-permutes", "func::FuncOp"> {
  let summary = "Truncate integer vectors to bytes by permuting the bytes of "
                "register pairs";
  let description = [{
    Rewrites `arith.trunci` of a vector of i16 or i32 to i8 whose rows (its
    innermost dim) fill a whole number of pairs of `register-bytes`-byte
    registers, row by row (`vector.extract`/`vector.insert` over the
    leading dims, LLVM's arrays of rows): each pair is split off
    (`vector.extract_strided_slice`), bitcast to bytes and shuffled into
    the low byte of each lane (one two-source `vector.shuffle`), and the
    pieces are concatenated. On x86 with AVX-512 VBMI, LLVM selects each
    shuffle as one `vpermt2b`; it lowers the truncation itself to one
    `vpmovdb` per register (two micro-ops on Zen 4 and Zen 5) and inserts
    to join the pieces. Exact on little-endian targets, where a lane's low
    byte is its first: the CPU pipeline runs it only for x86 targets with
    VBMI (`CPUTarget.h`). `register-bytes` 0 leaves every truncation as it
    is; anything else must be a power of two of at least 4.
  }];
  let options = [
    Option<"registerBytes", "register-bytes", "int64_t", /*default=*/"0",
           "Bytes of a vector register the permute selects from (two of "
           "them); 0: nothing is rewritten">
  ];
  let dependentDialects = ["ub::UBDialect", "vector::VectorDialect"];
}

def QuantAffineLowerLookupsPass
    : Pass<"quant-affine-lower-lookups", "func::FuncOp"> {
  let summary = "Lower quant_affine_vector.lookup to the target's permute or "
                "to per-lane extracts";
  let description = [{
    Rewrites each `quant_affine_vector.lookup`: where `permute-intrinsics`
    names an LLVM intrinsic for its table's shape (entries
    `LANESxTYPE:NAME`, e.g. `16xf32:llvm.x86.avx512.permvar.sf.512`, for an
    intrinsic `<LANES x TYPE> (<LANES x TYPE> table, <LANES x i32> indices)`)
    and its indices are that many i32, into an `llvm.call_intrinsic` of it;
    otherwise into one `vector.extract` at a dynamic position per lane,
    gathered by `vector.from_elements`. The CPU pipeline runs it just before
    the conversion to the LLVM dialect, after bufferization (whose
    deallocation rejects the call's unknown memory effects), with the
    intrinsics its target description names (`CPUTarget.h`): x86 `vpermps`
    of 16 lanes with AVX-512 and of 8 with AVX2. The intrinsics permute by
    the low bits of each index, a refinement of the lookup's poison for
    indices out of range.
  }];
  let options = [
    ListOption<"permuteIntrinsics", "permute-intrinsics", "std::string",
               "LLVM intrinsics that permute a table by i32 indices, as "
               "LANESxTYPE:NAME">
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "arith::ArithDialect",
                           "vector::VectorDialect"];
}

def QuantAffineExpandBF16Pass : Pass<"quant-affine-expand-bf16"> {
  let summary = "Expand bf16 extf/truncf into integer arithmetic";
  let description = [{
    Applies only upstream's bf16 `arith.extf`/`arith.truncf` expansion
    (`arith::populateExpandBFloat16Patterns`): widening is a 16-bit shift,
    narrowing rounds to nearest even in integer arithmetic. The CPU pipeline
    runs it after `arith-emulate-unsupported-floats`, so that no bf16
    conversion reaches LLVM, whose x86 backend would narrow with
    `VCVTNEPS2BF16` (which flushes subnormals) on AVX512-BF16 hosts.

    Unlike `arith-expand{include-bf16}`, which also expands
    `maximumf`/`minimumf` into a compare and select that returns `-0.0` for
    `maximumf(+0.0, -0.0)`, nothing else is touched.
  }];
  let dependentDialects = ["arith::ArithDialect"];
}

def QuantAffineCarryBF16AsI16Pass
    : Pass<"quant-affine-carry-bf16-as-i16", "LLVM::LLVMFuncOp"> {
  let summary = "Carry bf16 values that are only moved (loads, stores, vector "
                "shuffles, phis) as i16, so no backend rounds them";
  let description = [{
    By the end of the CPU pipeline no bf16 arithmetic is left (it is
    emulated in f32 and rounded in integer arithmetic), but bf16 *values*
    still move: loads, stores, vector inserts and shuffles, phis. The x86
    backend keeps a bf16 that lives across basic blocks (every value at
    -O0, phis at any level) in an f32 register and rounds it back where it
    is used. With AVX512-BF16 or AVX-NE-CONVERT that rounding is
    `VCVTNEPS2BF16`, which flushes subnormals to zero
    (llvm/llvm-project#221052).

    This pass retypes every LLVM-dialect op that only moves bits (and every
    phi) from bf16 to i16, element types and aggregates included, so no bf16
    value is left to be rounded. Ops that really take or make bf16 (calls,
    returns, anything else) keep their types: a bitcast next to them
    converts, in the same block. Function signatures keep bf16 so the ABI is
    unchanged. The CPU pipeline runs it last, after canonicalization, which
    would fold its bitcast pairs back.
  }];
}

def QuantAffineSetCPUTargetPass
    : Pass<"quant-affine-set-cpu-target", "ModuleOp"> {
  let summary = "Record the CPU the code was planned for on the LLVM module";
  let description = [{
    Sets the module's `llvm.target_triple` and, on every `llvm.func` with a
    body, `target_cpu` and `target_features`, so that translating the module
    and compiling it anywhere (`mlir-translate`, then `llc` or `clang`)
    selects instructions for the CPU the pipeline planned vector widths and
    register tiles for, whatever the compiling machine is. Empty options mean
    the host (`llvm::sys::getProcessTriple`, `getHostCPUName`,
    `getHostCPUFeatures`); an unknown triple, CPU or feature is an error
    (CPUTarget.h).
  }];
  let options = [
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"\"\"",
           "Target triple (x86_64-... or aarch64-...); empty: the host's">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"\"",
           "LLVM CPU name (-mcpu); empty: the host's, or generic">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "LLVM target features (+avx512f,-avx512bw); empty: the CPU's">
  ];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

#endif // QUANT_AFFINE_CODEGEN_CPU_PASSES_TD
