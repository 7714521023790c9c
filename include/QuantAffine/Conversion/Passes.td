//===- Passes.td - quant-affine conversion passes ----------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_PASSES_TD
#define QUANT_AFFINE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertQuantAffineToArithPass : Pass<"convert-quant-affine-to-arith"> {
  let summary = "Lower scalar and vector quant_affine ops to arith and math";
  let description = [{
    Rewrites the scalar and vector forms of `quantize`, `dequantize` and `qdq`
    into `arith` and `math` ops that compute exactly the dialect's semantics:

    ```
    c  = convert x, s, o to the compute type C     (extf / truncf)
    q  = math.roundeven(arith.divf(x, s))          (true division)
    q  = arith.subf(q, o)
    q  = select(q < qmin, qmin, q); select(qmax < q, qmax, q)
    ```

    The formula itself lives in `Utils/Formula.h`, shared with the constant
    folder. A constant power-of-two divisor whose reciprocal is exact becomes
    `arith.mulf` by that reciprocal (the same bits for every input). No bf16
    conversion or arithmetic is emitted: bf16 widens by a shift, narrows by
    integer round-to-nearest-even, and bf16 steps run in f32, because LLVM's
    bf16 narrowing on AVX512-BF16 CPUs flushes subnormals.

    The clamp uses compare-and-select rather than `maximumf`/`minimumf`: both
    propagate NaN, but `maximumf(-0.0, 0.0)` is `+0.0`, while the contract's
    `min(max(v, lo), hi)` keeps `-0.0` (visible in float results and qdq).
    Integer results use `fptosi`/`fptoui` by the sign of `qmin`; dequantize
    reads integers with `sitofp`/`uitofp`. Tensor forms are left alone.

    Example:

    ```mlir
    %q = quant_affine.quantize %x, %s range [-128, 127] : (f32, f32) -> i8
    // becomes
    %d = arith.divf %x, %s : f32
    %r = math.roundeven %d : f32
    ... cmpf/select clamp ...
    %q = arith.fptosi %c : f32 to i8
    ```
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect"];
}

def ConvertQuantAffineToLinalgPass
    : Pass<"convert-quant-affine-to-linalg"> {
  let summary = "Lower tensor quant_affine ops to linalg.generic";
  let description = [{
    Rewrites each tensor `quantize`, `dequantize` and `qdq` into one
    `linalg.generic` whose body computes the scalar formula with `arith` and
    `math` (the same patterns as `--convert-quant-affine-to-arith`).

    Every indexing map is a projected permutation: per-tensor and broadcast
    scale dims map to the constant 0, per-element dims to the input dim, and
    blocks split an input dim `X` into `(X / B, B)` with
    `tensor.expand_shape` (the result is collapsed back). A block dim whose
    count and size are both dynamic (an `expand_shape` group with two dynamic
    sizes, which upstream `-expand-strided-metadata` cannot handle) reads its
    scale with `tensor.extract` at `j / B` instead.

    Splat constant scales and offsets become constants inside the body, so
    the arith lowering can multiply by power-of-two reciprocals.

    Sizes the types leave dynamic but that are known statically (from a
    `tensor.cast` producer or an earlier op, or fixed by the encoding: a
    static block times a static scale size, a static input size over a
    static block) are used: the operands are `tensor.cast` to them first and
    the result back, so every `expand_shape` group is static exactly when its
    input dim is.

    Sizes that break a shape rule are an error at the op, naming them, even
    where the op's type says `?` and the size is known only from a
    `tensor.cast` producer: `input dim 0 has 8 elements but block_size 4 x
    scale dim 0 size 3 needs 12`.

    With `runtime-checks`, what the types leave open (block tiling,
    broadcastability, offset and scale sizes) is checked at run time. A
    failed check writes `<file>:<line>:<col>: error: <op> run-time check
    failed: <rule with the run-time sizes>` to stderr with `dprintf(2, ...)`
    and calls `abort()`; both are declared in the module. Run the pass on
    the module for that: scheduled on functions, it cannot add declarations
    and emits `cf.assert`s instead (message on stdout, sizes as `?`).
  }];
  let options = [
    Option<"runtimeChecks", "runtime-checks", "bool", /*default=*/"false",
           "Check dynamic shapes at run time (report to stderr and abort)">
  ];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "linalg::LinalgDialect",
    "tensor::TensorDialect", "cf::ControlFlowDialect", "scf::SCFDialect",
    "LLVM::LLVMDialect", "func::FuncDialect"
  ];
}

def ConvertQuantToQuantAffinePass : Pass<"convert-quant-to-quant-affine"> {
  let summary = "Convert upstream quant casts and types to quant_affine ops";
  let description = [{
    Rewrites the `quant` dialect's casts into `quant_affine` ops and every
    `!quant.uniform` value into its storage integer:

    - `quant.qcast` becomes `quantize` and `quant.dcast` becomes
      `dequantize`, with the type's scales and zero points as constants
      (`offset = -zero_point`) and its storage range as `range`;
      `quant.scast` disappears.
    - Per-tensor, per-axis and sub-channel types are supported: a per-axis
      type on dim `d` of a rank-`n` tensor gives scales of shape
      `(C, 1, ..., 1)` (rank `n - d`); a sub-channel type gives its scale
      tensor and `block_size` (its block sizes, `-1` for dims it does not
      list).
    - Scales are doubles in the type; each is rounded to the expressed type,
      to nearest with ties to even (as `FloatAttr` and `lower-quant-ops`
      round it). Offsets are exact: in the expressed type when it holds
      every `-zero_point`, else in `f32` or `f64`.
    - The arithmetic is quant_affine's, in its default compute type:
      `clamp(roundeven(x / s) + zero_point, storage_min, storage_max)`. This
      is what `qcast` means (`QuantOps.td` clamps to the storage range);
      `lower-quant-ops` instead truncates toward zero and clamps only narrow
      ranges (docs/Interop.md).
    - Functions, calls, returns, branches, `scf` control flow and tensor ops
      carrying `!quant` types are retyped to the storage integers, as
      `strip-func-quant-types` does for signatures.

    What cannot be expressed is an error at the op: `!quant.any`,
    `!quant.calibrated`, unranked tensors, and other ops carrying `!quant`
    types.

    Example:

    ```mlir
    %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5:3>>
    // becomes
    %s = arith.constant dense<5.000000e-01> : tensor<f32>
    %o = arith.constant dense<-3.000000e+00> : tensor<f32>
    %q = quant_affine.quantize %x, %s, %o range [-128, 127]
        : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
    ```
  }];
  let options = [
    Option<"diagnoseOnly", "diagnose-only", "bool", /*default=*/"false",
           "Convert nothing: report the first op carrying a quant type as an "
           "error naming the pipelines' from-quant option (what the "
           "pipelines run without it)">
  ];
  let dependentDialects = [
    "arith::ArithDialect", "quant_affine::QuantAffineDialect",
    "quant::QuantDialect"
  ];
}

def ConvertQuantAffineToQuantPass : Pass<"convert-quant-affine-to-quant"> {
  let summary = "Convert quant_affine ops that are exactly a quant type to "
                "quant casts";
  let description = [{
    Rewrites each `quantize` into `quant.qcast` + `quant.scast` and each
    `dequantize` into `quant.scast` + `quant.dcast` when a `!quant.uniform`
    type encodes exactly what the op computes:

    - constant scales that the expressed type (the op's float type) holds as
      the op uses them (the same value in the op's compute type);
    - no offset, or constant integer offsets (`zero_point = -offset`);
    - an integer storage type whose range is the op's `range` (a narrow
      range becomes `i8<-127:127>` style bounds);
    - the default compute type, no `reciprocal`, no `float_zero_point`.

    `--convert-quant-to-quant-affine` then gives back ops that compute the
    same bits. Every other op (every `qdq` among them) is left as it is with
    a remark that says why.
  }];
  let dependentDialects = ["quant::QuantDialect"];
}

#endif // QUANT_AFFINE_CONVERSION_PASSES_TD
