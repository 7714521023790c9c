//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes only the GPU pipeline runs: managed memory for host buffers,
// blocks and threads, and the NVVM target check.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CODEGEN_GPU_PASSES_TD
#define QUANT_AFFINE_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    A host `memref.copy` from or into a buffer the caller passed (through
    views; identity layouts), which may be device memory, becomes
    `gpu.memcpy` (waited for): the copy a function makes to return a tensor
    computed into an argument's buffer runs through the driver, not as a
    host `memcpy`.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def QuantAffineCheckHostAccessPass
    : Pass<"quant-affine-check-host-access", "ModuleOp"> {
  let summary = "Reject host code that touches device memory, and kernels "
                "that read host memory";
  let description = [{
    Runs after the launches are made. Buffer arguments of a GPU function may
    be device memory (`cuMemAlloc`), which the host cannot touch: any host
    op that reads or writes a buffer whose root (through views) is a
    function argument is an error at that op, naming the argument (every
    buffer argument of a public function; of a private one, those that a
    call in the module passes such a buffer). Such code
    comes from ops the pipeline does not map to the GPU: vector ops and
    element reads or writes on arguments outside any linalg op. (`gpu.memcpy`
    is allowed: the driver makes the copy.)

    A kernel that captures host-only memory is an error at the launch with a
    note at the buffer: a stack buffer (`memref.alloca`) or a global that
    `quant-affine-managed-constants` did not copy (a mutable one).
  }];
}

def QuantAffineManagedConstantsPass
    : Pass<"quant-affine-managed-constants", "ModuleOp"> {
  let summary = "Give kernels managed copies of module constants";
  let description = [{
    Bufferization turns constant tensors into `memref.global` constants,
    which live in host memory: a kernel that reads one, directly or through
    a function the constant is passed to, would dereference a host pointer
    (`CUDA_ERROR_ILLEGAL_ADDRESS`). Every host `memref.get_global` of a
    constant global (static shape, identity layout) becomes a managed copy
    (`gpu.alloc host_shared`, filled by `memref.copy`) made the first time
    the program reaches it and kept, in an `llvm.mlir.global` pointer slot
    of its own, for the rest of the run: later calls reuse it, kernels and
    the host (which may print a returned constant) both read it. The copy is
    never freed, like the global it stands for.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "gpu::GPUDialect", "LLVM::LLVMDialect",
    "memref::MemRefDialect", "scf::SCFDialect"
  ];
}

def QuantAffineKernelsForHostAccessesPass
    : Pass<"quant-affine-kernels-for-host-accesses", "func::FuncOp"> {
  let summary = "Move buffer accesses left in host code into one-thread "
                "parallel loops";
  let description = [{
    Element and vector accesses of buffers (`memref.load`/`store`,
    `vector.transfer_read`/`write`, `vector.load`/`store`) outside any
    parallel loop would run on the host, but a buffer may be device memory.
    They come from tile loops of one iteration that canonicalization folded
    away (an op on a 1 x 1 tensor), and from the vector-form and scalar-form
    ops users write. Each run of neighbouring such accesses and the
    side-effect-free ops between them moves into a one-iteration
    `scf.parallel`, which `quant-affine-map-to-gpu` turns into a one-thread
    kernel. Reads and side-effect-free ops first move down to their first
    user where no op in between may write the buffer read, so that a read
    and the store it feeds meet. A read that several runs use (after CSE
    merged the reads of two ops, say, with an allocation between them) is
    read again in each later run, with the side-effect-free ops that carry
    its value, where no op in between may write the buffer: each run's
    kernel then reads for itself. A run that reads a value the host needs
    afterwards (a branch condition, a loop bound), or one that a later
    kernel needs but that run may not read again, stays on the host, where
    `quant-affine-check-host-access` reports it if the buffer may be device
    memory; no kernel uses a value another kernel defined.
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def QuantAffineSplitReductionsPass
    : Pass<"quant-affine-split-reductions", "func::FuncOp"> {
  let summary = "Split reductions to one element over many GPU threads";
  let description = [{
    A `linalg.generic` on buffers whose loops are all reductions (the min
    and max of a whole tensor that a per-tensor `compute_encoding` takes,
    static or dynamic dims) would run on one GPU thread. When each result
    combines the running value with a value computed from the inputs by an
    idempotent operation (`minimumf`, `maximumf`, `minnumf`, `maxnumf`,
    signed and unsigned `min`/`max`, `andi`, `ori`), splitting is exact for
    every input, NaN and signed zeros included: the order of the
    combinations and how often the initial value takes part change no bit.

    The op becomes an `scf.parallel` over `outer x inner` threads, each
    reducing a part into partial buffers (the innermost dim strided over
    `inner` threads, so neighbouring threads read neighbouring elements;
    the outermost in `outer` contiguous chunks; about 64 elements a thread,
    at most 65536 threads), and the same reduction over the partials, split
    again while it has more than 256 elements. The last runs on one thread.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "memref::MemRefDialect", "scf::SCFDialect"
  ];
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
    one-iteration `scf.parallel`, so that it too runs on the device. A
    parallel loop directly in a thread's work (the element loop of a tile
    that was not vectorized) is marked `sequential` and runs in order in
    the thread: upstream's conversion needs a mapping on it, and without
    one it leaves the whole nest on the host.

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

def QuantAffineReductionLoopsPass
    : Pass<"quant-affine-reduction-loops", "func::FuncOp"> {
  let summary = "Lower linalg reductions on buffers to loops that carry the sum";
  let description = [{
    Rewrites every linalg op on buffers that has reduction dims and one
    output (a fused dequantize-matmul, a convolution, a sum) into an
    `scf.parallel` over its parallel dims holding `scf.for` loops over its
    reduction dims, in the op's order, that carry the output element in
    `iter_args`: it is loaded once before the loops and stored once after.
    Upstream's lowering loads and stores it in every iteration, which LLVM
    cannot keep in a register in a kernel (it does not know that the output
    aliases no input), so each step of a sum waited on global memory. The
    arithmetic and its order are unchanged. A reduction to one result (no
    parallel dim, or all of size 1) is left to `quant-affine-map-to-gpu`
    unless it gets a warp: a one-iteration `scf.parallel` made here would be
    folded away before the mapping, and the sum would run on the host.

    An f32 sum (the body yields `%out + v`, `%out` used nowhere else, no
    `linalg.index`; NVVM shuffles 32-bit values) whose parallel dims give fewer than `warp-threads`
    results, and whose outermost reduction dim k has a static size that 32
    divides, is spread over a warp instead: a new innermost parallel dim of
    32 lanes, lane l summing k = l, l + 32, ... from -0.0
    (neighbouring lanes read neighbouring elements of k); `gpu.shuffle xor`
    adds the 32 partial sums in a tree, and lane 0 adds the total to the
    output element. `quant-affine-map-to-gpu` gives that innermost dim to
    `thread_x` (32 threads, one warp, when `block-size` is a multiple of 32,
    which this form requires). Sums in another order are what contractions
    promise (docs/FusedMatmul.md): each result stays within
    K 2^-24 sum |x w| of the exact sum. Where the innermost reduction dim is
    contiguous in every input that reads it and the body is elementwise,
    each lane reads up to `vector-width` elements of it per step as one
    vector (`ld.global.v4` in PTX) and keeps as many partial sums, added up
    at the end with `vector.reduction`. Vectors take their alignment, so
    the width also divides each such view's offset and outer strides (a
    dynamic one leaves scalar reads).

    With `rows` above 1, a warp computes that many consecutive results along
    the innermost parallel dim that an input reading the reduction does not
    use (n of a matmul, which x does not use): each step reads x once for
    all of them (the reads are the same, LLVM keeps one) and each row's
    weights, and each row's lane sums meet through their own shuffles.

    A `linalg.fill` of the whole output right before the op (zeros, with
    only views or side-effect-free ops between) is folded into it: its value
    is where the sums start, and no kernel runs for it.
  }];
  let options = [
    Option<"warpThreads", "warp-threads", "int64_t", /*default=*/"0",
           "Spread float sums with fewer results than this over a warp each "
           "(0: never)">,
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block quant-affine-map-to-gpu will use">,
    Option<"vectorWidthLimit", "vector-width", "int64_t", /*default=*/"16",
           "At most this many elements of the innermost reduction dim per "
           "lane and step of a warp sum">,
    Option<"rowsLimit", "rows", "int64_t", /*default=*/"1",
           "At most this many results per warp (along a parallel dim some "
           "input does not use, whose reads the results then share)">
  ];
  let dependentDialects = [
    "affine::AffineDialect", "arith::ArithDialect", "gpu::GPUDialect",
    "memref::MemRefDialect", "scf::SCFDialect", "vector::VectorDialect"
  ];
}

def QuantAffineSinkReadsIntoLaunchPass
    : Pass<"quant-affine-sink-reads-into-launch", "func::FuncOp"> {
  let summary = "Move host reads of buffers that kernels use into the kernels";
  let description = [{
    Loop-invariant code motion on the vectorized loops takes reads that do
    not depend on the loop (a per-tensor scale broadcast to every lane) out
    of them, so that once the loop is a `gpu.launch` the host reads the
    buffer and passes the value to the kernel. A buffer the caller allocated
    with `cuMemAlloc` is device memory: the host cannot read it, and the
    program would crash. This pass sinks every read that feeds a
    `gpu.launch` from outside (and the side-effect-free ops between the read
    and the launch) into the launch's body, as long as neither the launch
    nor an op between the read and the launch writes a buffer with the same
    root (a function argument or an allocation, through views), so each
    thread reads the value the host would have read. Function arguments are
    taken not to alias one another, as bufferization takes them.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def QuantAffineDeduplicateKernelsPass
    : Pass<"quant-affine-deduplicate-kernels", "ModuleOp"> {
  let summary = "Keep one gpu.module of each set of identical kernels";
  let description = [{
    `gpu-kernel-outlining` gives every launch a kernel and a `gpu.module` of
    its own, so a program that repeats its code (an MLP of identical layers,
    a model unrolled over its blocks, the same function inlined twice) has
    as many copies of a kernel as launches of it, and each copy is lowered,
    linked with libdevice and compiled by the NVPTX back end again. This
    pass drops every `gpu.module` of the module it runs on that is the same
    as an earlier one, and points the references to it (`gpu.launch_func
    @m::@f`, and any reference that starts so, in the host code and the
    module's own attributes) at the one kept. Nested modules are left as
    they are: their `gpu.module`s may be named from outside them.

    Two `gpu.module`s are the same when they have the same attributes
    (targets, offloading handler) and the same ops in the same order, equal
    but for their locations and for the names of their kernels: each
    kernel's attributes and properties but its name, its argument types, its
    body op for op (operands, attributes, types, regions). Other symbols
    (helper functions, declarations, globals) must have the same names too,
    so a kernel's references to them mean the same in both. A module in
    which a reference names one of its own kernels is never dropped nor
    kept for another (the names the comparison ignores would matter), and
    a module that device code names (a kernel that launches another) is
    kept. What a kernel
    computes is untouched: each launch runs the same code as before, under
    the kept kernel's name. Locations are the first copy's.

    Example:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(%a: memref<16xf32>) kernel {...} }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(%a: memref<16xf32>) kernel {...} }
    gpu.launch_func @f_kernel::@f_kernel ... args(%x : memref<16xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel ... args(%y : memref<16xf32>)
    ```

    becomes, where the two bodies are the same,

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(%a: memref<16xf32>) kernel {...} }
    gpu.launch_func @f_kernel::@f_kernel ... args(%x : memref<16xf32>)
    gpu.launch_func @f_kernel::@f_kernel ... args(%y : memref<16xf32>)
    ```
  }];
}

def QuantAffineMergeKernelModulesPass
    : Pass<"quant-affine-merge-kernel-modules", "ModuleOp"> {
  let summary = "Put the kernels of a module into one gpu.module";
  let description = [{
    `gpu-kernel-outlining` gives every kernel a `gpu.module` of its own.
    Each of them is then lowered, linked with libdevice and compiled by the
    NVPTX back end on its own, at a fixed cost per module that doubles the
    time `gpu-module-to-binary` takes on a program of hundreds of small
    kernels, and the program loads one CUDA module per kernel when it
    starts. This pass moves the contents of the `gpu.module`s of each
    module (this one and nested ones, each its own) with the same
    attributes (targets, offloading handler, data layout) into one, named
    `kernels` (or the first free `kernels_N`), and rewrites the host code's
    references to them (`gpu.launch_func @m::@f`). A kernel module with no
    partner (other attributes) keeps its name and contents. With
    `max-modules=N` a merged module takes at most N of them, in order (the
    next ones start another, `kernels_0`, ...): the GPU pipeline merges 64
    at most, since lowering and verifying launches scan a module's kernels.
    Every kernel module, merged or not, then moves to the top of its
    module, where the GPU dialect's verifier, which scans the module for
    each launch's kernel module after every pass, finds it first.

    A symbol whose name is taken in the merged module is renamed: a kernel
    to the name of the `gpu.module` it came from (which outlining made
    unique), anything else to its name with the first free `_N` suffix;
    the references inside its old module follow it. A declaration (or a
    global without a body) that the merged module has already, the same,
    is kept once. Kernel bodies are moved, not changed.

    Example:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel {...} }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(...) kernel {...} }
    gpu.launch_func @f_kernel_0::@f_kernel ...
    ```

    becomes

    ```mlir
    gpu.module @kernels {
      gpu.func @f_kernel(...) kernel {...}
      gpu.func @f_kernel_0(...) kernel {...}
    }
    gpu.launch_func @kernels::@f_kernel_0 ...
    ```
  }];
  let options = [
    Option<"maxModules", "max-modules", "int64_t", /*default=*/"0",
           "Merge at most this many gpu.modules into one (0: no limit)">,
  ];
}

def QuantAffineNativeRoundingPass
    : Pass<"quant-affine-native-rounding", "gpu::GPUModuleOp"> {
  let summary = "Round to integral values with PTX instructions, not "
                "libdevice calls";
  let description = [{
    `convert-gpu-to-nvvm` lowers `math.roundeven`, `math.floor`,
    `math.ceil` and `math.trunc` to calls of libdevice functions
    (`__nv_rintf`, ...), one call per vector element, which
    `gpu-module-to-binary` then links and inlines: each of those functions
    is one `cvt.rni`/`cvt.rmi`/`cvt.rpi`/`cvt.rzi` instruction, which the
    NVPTX back end selects directly for LLVM's `roundeven`, `floor`, `ceil`
    and `trunc` intrinsics. This pass makes those ops on f32 and f64
    (scalars and vectors of rank 1 or more) the LLVM intrinsics, before
    that conversion: the PTX is the same (without `ftz`, which the pipeline
    never sets), and no call is left to link or inline (libdevice is still
    linked: `gpu-module-to-binary` links it into every module). Quantizing
    every element rounds, so
    on programs of thousands of ops the calls, their unpacking from vectors
    and their inlining were a fifth of the compile time. Other element
    types (f16, bf16) keep upstream's lowering.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "vector::VectorDialect"];
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
      `math.exp` and friends) when
      `<cuda-path>/nvvm/libdevice/libdevice.10.bc` does not exist, at each
      function; without such calls, the missing file at the module, since
      `gpu-module-to-binary` links it into every module and would fail
      with the whole module dumped;
    - any other external function, which nothing would resolve;
    - a global of more than 2^32 bytes (a constant the kernels read, copied
      into the module), whose initializer LLVM would materialize whole and
      run out of memory on;
    - an op left outside the LLVM and NVVM dialects (one no lowering took),
      whose translation would fail with the whole module dumped.
  }];
  let options = [
    Option<"cudaPath", "cuda-path", "std::string",
           /*default=*/"\"/usr/local/cuda\"", "CUDA toolkit root">
  ];
}

def QuantAffineTestLaunchesOnCPUPass
    : Pass<"quant-affine-test-launches-on-cpu", "func::FuncOp"> {
  let summary = "Run gpu.launch bodies as loops on the CPU (tests only)";
  let description = [{
    For testing the GPU mapping where there is no GPU. Every `gpu.launch`
    becomes `scf.for` loops over its blocks (z, y, x) and, inside each
    block, over its threads (z, y, x), with the body unchanged: block and
    thread ids are the loop indices, grid and block sizes the launch's
    operands. A wrong tile offset, stride or guard in the mapping therefore
    gives wrong values on the CPU too.

    Threads of a block that exchange values run in lockstep: the body is
    cut at each `gpu.shuffle` and `gpu.barrier` (also inside an `scf.if`
    without results) into pieces, each run for every thread of the block
    before the next. A value one piece makes and a later piece uses is
    kept per thread in a buffer, unless it is side-effect free and can be
    recomputed; a shuffle reads its partner's published value, with the
    lane arithmetic of `shfl.sync` (`xor`, `up`, `down`, `idx` within
    `width`). Anything else that needs the threads of a block or warp at
    once is an error.

    Host-side GPU memory operations become their memref forms:
    `gpu.alloc` (also `host_shared`) `memref.alloc`, `gpu.dealloc`
    `memref.dealloc`, `gpu.memcpy` `memref.copy`; `gpu.wait` goes away.

    `--quant-affine-test-gpu-on-cpu-pipeline` runs it where the GPU
    pipeline outlines its kernels.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "memref::MemRefDialect", "scf::SCFDialect"
  ];
}

#endif // QUANT_AFFINE_CODEGEN_GPU_PASSES_TD
