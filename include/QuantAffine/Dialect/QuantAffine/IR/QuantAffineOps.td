//===- QuantAffineOps.td - quant_affine operations ---------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// quantize, dequantize and qdq. The three ops share their operands, their
// properties, their assembly format, QuantizerOpInterface, one verifier and
// one folder, and the encoding rules, which are spelled out once here and
// appended to every op description: the generated op docs are the dialect's
// specification. (Append with !strconcat: `[{...}] # Name` would paste the
// identifier's name, not the variable.)
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_OPS_TD
#define QUANT_AFFINE_OPS_TD

include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineBase.td"
include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineInterfaces.td"
include "mlir/Interfaces/RuntimeVerifiableOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

defvar QuantAffine_EncodingRules = [{

    #### Operands and properties

    - `input`: the values to convert, a scalar, a vector or a ranked tensor
      (static or dynamic dims).
    - `scale`, `offset` (optional, absent means 0): the encoding. With a
      tensor `input` they are ranked float tensors of the same shape `S` and
      rank `k <= rank(input)`. With a scalar or vector `input` they are
      scalars or vectors of the shape of `input` (the op is elementwise; a
      tensor encoding is an error) and there is no `block_size`.
    - `qmin`, `qmax` (`i64`): the integer grid, `qmin <= qmax`. An integer
      value is read as signed when `qmin < 0`, otherwise as unsigned.
    - `block_size` (optional `array<i64>` of length `k`): block encodings.
    - `compute_type` (optional `f16`, `bf16`, `f32` or `f64`): the type in
      which all arithmetic happens. Without it, AIMET's rule picks it (below).

    #### Which scale an element uses

    Element `j` of the input uses `scale[i]` and `offset[i]` with
    `i_d = floor(j_d / B_d)` over the trailing `k` dims; the leading
    `rank(input) - k` dims share the encodings.

    - With `block_size = B`: for each trailing dim, `B_d * S_d == X_d` exactly
      (no partial blocks). `B_d = -1` is a wildcard for `X_d / S_d`, which must
      divide evenly. `B_d` is never 0 or below -1. A static `X_d` with a
      dynamic `S_d` must be a multiple of `B_d`.
    - Without `block_size`: right-aligned broadcasting, each `S_d` is 1 or
      `X_d`. A `(C)` scale pairs with the *last* axis; per-channel on axis 0 of
      a matrix is `(C, 1)`. A rank-0 scale (or any all-ones shape) is
      per-tensor.
    - Dynamic dims are allowed everywhere; what the verifier cannot check
      statically is checked at run time by the lowering when asked to.

    #### Compute type

    Arithmetic happens in the compute type `C`; `scale`, `offset`, `qmin`
    and `qmax` are converted to `C` first and the result is rounded once to
    the result type. Without `compute_type`, `quantize` and `qdq` start from
    the input type and promote to `f32`, then `f64`, while
    `eps(C) > 0.25 / (qmax - qmin)` or one of `qmin`, `qmin + 1`, `qmax - 1`,
    `qmax` is not exactly representable in `C` (so an 8-bit `qdq` of `bf16`
    computes in `f32` and one of `f16` in `f16`). `dequantize` computes in its
    result type. When `C` is `f64` and the result is `f16` or `bf16`, the
    result is rounded through `f32`, as AIMET does.

    An explicit `compute_type` of a `quantize` with an integer result must
    represent `qmin` and `qmax` exactly, so that the clamp keeps every value
    convertible to the integer (`bf16` cannot hold `[-32768, 32767]`: 32767
    rounds to 32768). The default rule always picks such a type. Float
    results, `qdq` and `dequantize` never convert to an integer: with them
    a rounded grid end is applied as the value it rounds to.

    #### torchao's conventions

    - `reciprocal` (`quantize`, `qdq`): multiply by `r = 1 / s` instead of
      dividing by `s`, as torchao's `quantize_affine` (INT and NONE
      zero-point domains) and PyTorch's `fake_quantize_*` kernels do. `r` is
      rounded in the scale's element type, then converted to `C`:
      `q = clamp(roundeven(x * r) - o, qmin, qmax)`. The dequantizing half
      of `qdq` still multiplies by `s`.
    - `float_zero_point` (all three ops): torchao's FLOAT zero-point domain.
      The `offset` operand holds torchao's float zero point `z` itself (not
      negated; absent means `z = +0.0`, computed like any other), and with
      `mid = (qmin + qmax + 1) / 2`:
      `q = clamp(roundeven((x - (z - s * mid)) / s), qmin, qmax)` and
      `y = ((q - mid) * s) + z`, every step rounded to `C`. It does not
      combine with `reciprocal` (that domain divides).

    docs/Calibration.md maps torchao's arguments to these properties.

    #### Sizes

    Static shapes (the static dims of dynamic ones) hold at most `2^63 - 1`
    elements and `2^63 - 1` bytes (each element counted in whole bytes), and
    every `B_d * S_d` fits `int64`, so that no shape arithmetic overflows.
}];

//===----------------------------------------------------------------------===//
// Shared op class
//===----------------------------------------------------------------------===//

// `kind` names the op's QuantizerKind.
class QuantAffine_QuantizerOp<string mnemonic, string kind, Type inputType,
                              Type resultType, list<Trait> traits = []>
    : QuantAffine_Op<mnemonic, !listconcat(traits,
          [Pure, QuantAffine_QuantizerOpInterface,
           DeclareOpInterfaceMethods<RuntimeVerifiableOpInterface>])> {
  let arguments = (ins
    inputType:$input,
    QuantAffine_FloatLike:$scale,
    Optional<QuantAffine_FloatLike>:$offset,
    I64Attr:$qmin,
    I64Attr:$qmax,
    OptionalAttr<DenseI64ArrayAttr>:$block_size,
    OptionalAttr<QuantAffine_ComputeTypeAttr>:$compute_type,
    UnitAttr:$reciprocal,
    UnitAttr:$float_zero_point
  );
  let results = (outs resultType:$result);

  let assemblyFormat = [{
    $input `,` $scale (`,` $offset^)?
    `range` ` ` `[` $qmin `,` $qmax `]`
    (`reciprocal` $reciprocal^)?
    (`float_zero_point` $float_zero_point^)?
    (`block` $block_size^)?
    (`compute` $compute_type^)?
    attr-dict `:` functional-type(operands, results)
  }];

  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input,
                   "::mlir::Value":$scale, "::mlir::Value":$offset,
                   "::mlir::quant_affine::QuantRange":$range,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$blockSize,
                   CArg<"::mlir::Type", "{}">:$computeType), [{
      build($_builder, $_state, resultType, input, scale, offset,
            range.qmin, range.qmax,
            blockSize.empty() ? ::mlir::DenseI64ArrayAttr()
                              : $_builder.getDenseI64ArrayAttr(blockSize),
            computeType ? ::mlir::TypeAttr::get(computeType)
                        : ::mlir::TypeAttr());
    }]>
  ];

  // verifyQuantizerOp (QuantAffineOps.cpp).
  let hasVerifier = 1;
  // Constant folding (up to kCanonicalizeFoldLimit elements), computed by the
  // same formula template as the generated code.
  let hasFolder = 1;
  // The canonicalization patterns (QuantAffineCanonicalize.cpp) are the
  // dialect's: most of them apply to any quantizer op.

  let extraClassDeclaration = [{
    static ::mlir::quant_affine::QuantizerKind getQuantizerKind() {
      return ::mlir::quant_affine::QuantizerKind::}] # kind # [{;
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::quant_affine::verifyQuantizerOp(*this);
    }
    void $cppClass::generateRuntimeVerification(
        ::mlir::OpBuilder &builder, ::mlir::Location loc,
        ::llvm::function_ref<std::string(::mlir::Operation *,
                                         ::llvm::StringRef)>
            generateErrorMessage) {
      ::mlir::quant_affine::generateQuantizerRuntimeVerification(
          *this, builder, loc, generateErrorMessage);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::quant_affine::foldQuantizerConstants(
          *this, adaptor.getOperands(),
          ::mlir::quant_affine::kCanonicalizeFoldLimit);
    }
  }];
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

def QuantAffine_QuantizeOp : QuantAffine_QuantizerOp<"quantize", "Quantize",
    QuantAffine_FloatLike, QuantAffine_IntOrFloatLike> {
  let summary = "Affine quantization: clamp(roundeven(x / s) - o, qmin, qmax)";
  let description = !strconcat([{
    Maps float values onto the integer grid `[qmin, qmax]`:

    ```
    q = clamp(roundeven(x / s) - o, qmin, qmax)        in the compute type C
    ```

    - `/` is IEEE division, never a multiplication by `1 / s`.
    - `roundeven` rounds half to even and applies to `x / s` *before* the
      offset is subtracted (with an odd offset this differs from
      `roundeven(x / s - o)` at ties).
    - `clamp(v, lo, hi) = min(max(v, lo), hi)` in floating point, before any
      conversion to an integer: finite values out of range and `±inf`
      saturate, NaN and `-0.0` are kept.
    - The result is a signless integer type `i1`..`i32` (read as signed when
      `qmin < 0`), whose range must hold `[qmin, qmax]`, or a float type
      holding integer values, as AIMET's `QuantizedTensor` does (NaN stays
      NaN, `-0.0` stays `-0.0`, a non-integer offset gives non-integer
      values). For an integer result a NaN input gives poison, as
      `arith.fptosi` does; nothing else is undefined.
    - A float8, float6 or float4 result (`f8E4M3FN`, `f8E4M3FNUZ`,
      `f8E5M2`, `f8E5M2FNUZ`, `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN`) is narrow
      float storage, ONNX's QuantizeLinear to float8 and float4e2m1 and
      the elements of MX formats (docs/Microscaling.md): the grid is the type's own
      values, so there is no `roundeven` to integers:
      `q = truncf(clamp(x / s - o, qmin, qmax))`, `arith.truncf`'s rounding
      (to nearest even, subnormals included). With `[qmin, qmax]` within
      the type's largest value (`[-448, 448]` for `f8E4M3FN`) values
      saturate (ONNX's `saturate = 1`); with a wider range, values that
      round past the largest become `+-inf` (`f8E5M2`) or NaN (the others),
      as ONNX's `saturate = 0`. NaN stays NaN; the FNUZ types have no `-0`.
      `f4E2M1FN`, `f6E2M3FN` and `f6E3M2FN` have neither inf nor NaN: they
      saturate, and a NaN becomes a zero of its sign (APFloat's
      conversion); `[-8, 8]` saturates `f6E2M3FN` at its largest value 7.5.
      `f4E2M1FN` is stored packed two values a byte, like `i4`; the float6
      types one a byte.
    - Scales that are 0, negative, NaN or infinite are applied literally.

    Example: block-32 signed int4 quantization of a weight.

    ```mlir
    %q = quant_affine.quantize %w, %s, %o range [-8, 7] block [1, 32]
        : (tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x64xi4>
    ```
  }], QuantAffine_EncodingRules);
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

def QuantAffine_DequantizeOp : QuantAffine_QuantizerOp<"dequantize",
    "Dequantize", QuantAffine_IntOrFloatLike, QuantAffine_FloatLike> {
  let summary = "Affine dequantization: (q + o) * s";
  let description = !strconcat([{
    Maps grid values back to floats:

    ```
    y = (q + o) * s                                    in the compute type C
    ```

    - The input is a signless integer type `i1`..`i32`, a float type
      holding grid values, or narrow float storage (`f8E4M3FN`,
      `f8E4M3FNUZ`, `f8E5M2`, `f8E5M2FNUZ`, `f6E2M3FN`, `f6E3M2FN`,
      `f4E2M1FN`: ONNX's DequantizeLinear from float8 and float4e2m1, MX
      elements), read exactly
      (`arith.extf`). `qmin` and `qmax` describe the encoding of the
      input: an integer input is read as signed iff `qmin < 0`, and its type
      must hold `[qmin, qmax]`.
    - `dequantize` never clamps: its input is read as it is, in range or not.
    - The compute type defaults to the result type.

    Example: per-channel (axis 0) dequantization of an unsigned 8-bit tensor.

    ```mlir
    %y = quant_affine.dequantize %q, %s, %o range [0, 255]
        : (tensor<16x8xi8>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x8xf32>
    ```
  }], QuantAffine_EncodingRules);
}

//===----------------------------------------------------------------------===//
// QDQOp
//===----------------------------------------------------------------------===//

def QuantAffine_QDQOp : QuantAffine_QuantizerOp<"qdq", "QDQ",
    QuantAffine_FloatLike, QuantAffine_FloatLike,
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "Fake quantization: dequantize(quantize(x)) in floating point";
  let description = !strconcat([{
    Quantizes and dequantizes in one step without leaving the float domain,
    as quantization-aware training simulates it:

    ```
    y = (clamp(roundeven(x / s) - o, qmin, qmax) + o) * s   in the compute type C
    ```

    The rules of `quantize` apply to the inner expression. NaN stays NaN and
    `±inf` saturates to the grid's ends. The result has the input's type.

    Example: per-tensor 8-bit fake quantization with a dynamic batch.

    ```mlir
    %y = quant_affine.qdq %x, %s range [0, 255]
        : (tensor<?x16xf16>, tensor<f32>) -> tensor<?x16xf16>
    ```
  }], QuantAffine_EncodingRules);

  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Value":$scale,
                   "::mlir::Value":$offset,
                   "::mlir::quant_affine::QuantRange":$range,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$blockSize,
                   CArg<"::mlir::Type", "{}">:$computeType), [{
      build($_builder, $_state, input.getType(), input, scale, offset,
            range.qmin, range.qmax,
            blockSize.empty() ? ::mlir::DenseI64ArrayAttr()
                              : $_builder.getDenseI64ArrayAttr(blockSize),
            computeType ? ::mlir::TypeAttr::get(computeType)
                        : ::mlir::TypeAttr());
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// ComputeEncodingOp
//===----------------------------------------------------------------------===//

def QuantAffine_ComputeEncodingOp : QuantAffine_Op<"compute_encoding", [Pure]> {
  let summary = "Min-max calibration: an encoding from one batch of data";
  let description = [{
    Computes, from the values of `input`, the scale and offset that AIMET
    2.x's `compute_encodings()` with its default min-max analyzer gives a
    `Quantize` or `QuantizeDequantize` quantizer of encoding shape `S` (the
    results' shape), grid `[qmin, qmax]`, `symmetric` and `block_size` (the
    2025 behaviour). Feeding the results to `quantize` or `qdq` with the same
    `qmin`, `qmax` and `block_size` quantizes with that encoding.

    Element `j` of the input belongs to encoding `i` by the rules of the
    other ops (`i_d = floor(j_d / B_d)` over the trailing dims, the leading
    dims shared); each encoding reduces over its elements. With
    `n = qmax - qmin`, `m = min(2^-23, 0.01 / n)`, `T` the input's element
    type and `P = promote(T, f32)`:

    1. `mn`, `mx`: the minimum and maximum of the encoding's elements in `T`.
       NaN propagates; `-0.0` counts as below `+0.0`.
    2. The range, in `T` and `P` exactly as AIMET orders the steps:
       `lo = min(mn, 0)`, `hi = max(mx, 0)`, `a = m` when
       `(hi - lo) / n < m` (in `T`), else `0`.
       - Asymmetric: `[lo, hi + n * a]`.
       - `symmetric`, with `p = floor(n / 2)`, `c = ceil(n / 2)`:
         `d = max((hi + p * a) / (p + [n == 3]), -(lo - c * a) / c)` (NaN
         propagates), range `[-c * d, p * d]`.
       Both ends are clamped to the finite range of `T` and rounded to `T`.
    3. In f32: `scale = (max - min) / n`, raised to `m` when below it (NaN
       stays NaN). Asymmetric:
       `offset = clamp(roundeven(min / scale) - qmin, -qmax, -qmin)`;
       symmetric: `offset = -roundeven((qmin + qmax) / 2)`.

    The results are these f32 values, converted once to the result element
    type when it is another float type.

    Example: symmetric 4-bit encodings per block of 32 along rows.

    ```mlir
    %s, %o = quant_affine.compute_encoding %w range [-8, 7] symmetric
        block [1, 32] : tensor<4x64xf32> -> (tensor<4x2xf32>, tensor<4x2xf32>)
    ```

    #### Operands, properties and results

    - `input`: a ranked tensor of `f16`, `bf16`, `f32` or `f64` (static or
      dynamic dims).
    - `qmin < qmax` (`i64`): the grid; `n = qmax - qmin` steps.
    - `symmetric` (unit): a grid centred on zero.
    - `block_size` (optional `array<i64>`): block encodings, by the same
      rules as the other ops (`B_d * S_d == X_d`, `-1` a wildcard; without
      it each `S_d` is 1 or `X_d`). A rank-0 or all-ones `S` is per-tensor.
    - `scale`, `offset`: float tensors of one shape `S`, rank at most the
      input's. A dynamic dim of `S` is one encoding per block of its input
      dim (per element without `block_size`).

    #### torchao's `choose_qparams_affine`

    With `torchao`, the encoding is the one torchao 0.10's
    `choose_qparams_affine` chooses (docs/Calibration.md maps its
    arguments), every step rounded in `T` (f16 and bf16 steps with a
    Python number in f32 first), results converted once to the result types:

    - mapping type: `symmetric` is SYMMETRIC, `symmetric no_clipping_err`
      SYMMETRIC_NO_CLIPPING_ERR, neither ASYMMETRIC;
    - `eps` (f64, default `finfo(T).eps`; torchao's head defaults to
      `finfo(T).smallest_normal`: give it): the scale's lower bound;
    - `no_preserve_zero` (ASYMMETRIC with `float_zero_point` only): the
      range is not widened to hold 0;
    - the offset result is the negated zero point (AIMET's convention, for
      `quantize` as it is), or with `float_zero_point` torchao's FLOAT-domain
      zero point itself (for the ops' `float_zero_point`). For the NONE
      domain, use the scale and drop the offset.

    ```
    lo = min(mn, 0), hi = max(mx, 0)      (mn, mx without no_preserve_zero)
    SYMMETRIC:     scale = max(-lo, hi) / ((qmax - qmin) / 2)
                   zero point = trunc((qmax + qmin + 1) / 2)
    NO_CLIPPING:   scale = max(lo / qmin, hi / qmax), same zero point
    ASYMMETRIC:    scale = (hi - lo) / (qmax - qmin)
                   zero point = clamp(qmin - roundeven(lo / scale), qmin, qmax)
                   (no_preserve_zero: lo + scale * (qmax + qmin + 1) / 2)
    scale = max(scale, eps)  (before the zero point of ASYMMETRIC)
    ```
  }];

  let arguments = (ins
    RankedTensorOf<[QuantAffine_Float]>:$input,
    I64Attr:$qmin,
    I64Attr:$qmax,
    UnitAttr:$symmetric,
    UnitAttr:$torchao,
    UnitAttr:$no_clipping_err,
    UnitAttr:$no_preserve_zero,
    UnitAttr:$float_zero_point,
    OptionalAttr<F64Attr>:$eps,
    OptionalAttr<DenseI64ArrayAttr>:$block_size
  );
  let results = (outs RankedTensorOf<[QuantAffine_Float]>:$scale,
                      RankedTensorOf<[QuantAffine_Float]>:$offset);

  let assemblyFormat = [{
    $input `range` ` ` `[` $qmin `,` $qmax `]`
    (`symmetric` $symmetric^)?
    (`torchao` $torchao^)?
    (`no_clipping_err` $no_clipping_err^)?
    (`no_preserve_zero` $no_preserve_zero^)?
    (`float_zero_point` $float_zero_point^)?
    (`eps` $eps^)?
    (`block` $block_size^)?
    attr-dict `:` type($input) `->` `(` type($scale) `,` type($offset) `)`
  }];

  let hasVerifier = 1;
  // Constant folding (up to kCanonicalizeFoldLimit input elements), computed
  // by the same formula template as the generated code.
  let hasFolder = 1;

  let extraClassDeclaration = [{
    ::mlir::quant_affine::QuantRange getRange() {
      return {getQminAttr().getInt(), getQmaxAttr().getInt()};
    }
    std::optional<::llvm::ArrayRef<int64_t>> getBlockSizeArray() {
      if (auto attr = getBlockSizeAttr())
        return attr.asArrayRef();
      return std::nullopt;
    }
    /// The calibration its properties choose (torchao's eps defaulted for
    /// the input type).
    ::mlir::quant_affine::EncodingChoice getEncodingChoice() {
      ::mlir::quant_affine::EncodingChoice choice;
      choice.range = getRange();
      choice.symmetric = getSymmetric();
      if (!getTorchao())
        return choice;
      ::mlir::quant_affine::TorchaoChoice torchao;
      torchao.symmetric = getSymmetric();
      torchao.noClippingErr = getNoClippingErr();
      torchao.preserveZero = !getNoPreserveZero();
      torchao.floatZeroPoint = getFloatZeroPoint();
      torchao.eps = getEpsAttr()
                        ? getEpsAttr().getValueAsDouble()
                        : ::mlir::quant_affine::torchaoDefaultEps(
                              ::llvm::cast<::mlir::FloatType>(
                                  getInput().getType().getElementType()));
      choice.torchao = torchao;
      return choice;
    }
  }];
}

//===----------------------------------------------------------------------===//
// BlockScaleOp
//===----------------------------------------------------------------------===//

def QuantAffine_BlockScaleOp : QuantAffine_Op<"block_scale", [Pure]> {
  let summary = "Microscaling block scales from each block's largest magnitude";
  let description = [{
    Computes one scale per block of `input` for a block-float element format
    (`element`), from the block's largest magnitude `amax` (NaN propagates):
    the scale of MX (OCP Microscaling v1.0), NVFP4 and FP8-block formats.
    Quantizing then divides by it: `quant_affine.quantize` to the element
    type with the scale in f32 and `range [-max, max]` (docs/Microscaling.md).

    ```mlir
    // MXFP4: E8M0 scales per block of 32 along rows, OCP's rule.
    %s = quant_affine.block_scale %x element f4E2M1FN rounding "floor"
        block [1, 32] : (tensor<4x64xf32>) -> tensor<4x2xf8E8M0FNU>
    ```

    #### Elements

    `element` is `f4E2M1FN` (largest value 6, `emax` 2), `f6E2M3FN` (7.5,
    2), `f6E3M2FN` (28, 4), `f8E4M3FN` (448, 8), `f8E5M2` (57344, 15) or
    `i8`, MXINT8: two's complement codes times `2^-6` (127/64, 0). `max` is
    the largest value, `emax` the exponent of its binade.

    #### Power-of-two scales: `rounding`

    With `rounding`, the scale is `X = 2^k`, `k` clamped to `[-127, 127]`,
    stored as `f8E8M0FNU` (the byte `k + 127`) or as an `f32` value. `E` is
    the exponent field of `amax` in f32 minus 127 (-127 for zero and
    denormals), `M` its mantissa field:

    | `rounding` | `k` | used by |
    |---|---|---|
    | `"floor"` | `E - emax`, OCP §6.3: `floor(log2 amax) - emax` | OCP, torchao's default FLOOR, microxcaling, llama.cpp, oneDNN |
    | `"rceil"` | `ceil(log2(amax / max))`, exactly | cuBLAS, TransformerEngine, torchao RCEIL, ONNX `Cast` to float8e8m0 `round_mode="up"` |
    | `"ceil"` | `E + (M != 0) - emax` | torchao CEIL |
    | `"even"` | `E - emax` of `amax` rounded to the element's mantissa width (torchao EVEN: add `2^(22 - m)` to the bits, clear the mantissa; a carry to infinity gives NaN) | torchao EVEN |
    | `"nearest"` | `round(log2(amax / max))`, exactly | torchao's float8 scales rounded to E8M0 |

    A NaN or infinite `amax` gives the NaN scale (E8M0 `0xFF`, f32 NaN), as
    OCP and torchao do; a zero block gives `2^-127` (the byte 0). An `f32`
    result holds the same power of two (`2^-127` as a denormal).

    #### Other scales (no `rounding`)

    - `f32`, `f16` or `bf16`: `amax / max` in f32 (FP8 blocks: DeepSeek-V3's
      `amax / 448`), converted once to the result type.
    - `f8E4M3FN` (NVFP4 with `f4E2M1FN`): `amax / max` in f32, divided by
      `tensor_scale` when given (two-level NVFP4, torchao's
      `nvfp4_quantize`: `tensor_scale = tensor_amax / (448 * 6)`), clamped to
      `[2^-6, 448]` and rounded to nearest even.

    #### Operands, properties and results

    - `input`: a ranked tensor of `f16`, `bf16` or `f32` with static or
      dynamic dims.
    - `tensor_scale` (optional): a rank-0 f32 tensor; `f8E4M3FN` results
      only.
    - `block_size`: the block, by the rules of the other ops (`B_d * S_d ==
      X_d`, `-1` a wildcard).
    - `result`: `f8E8M0FNU` (needs `rounding`), `f32` (with or without),
      `f16`, `bf16` or `f8E4M3FN` (without).
  }];

  let arguments = (ins
    RankedTensorOf<[F16, BF16, F32]>:$input,
    Optional<0DTensorOf<[F32]>>:$tensor_scale,
    TypeAttr:$element,
    OptionalAttr<StrAttr>:$rounding,
    DenseI64ArrayAttr:$block_size
  );
  let results = (outs RankedTensorOf<[F8E8M0FNU, F8E4M3FN, F16, BF16, F32]>:
                     $scale);

  let assemblyFormat = [{
    $input (`,` $tensor_scale^)? `element` $element
    (`rounding` $rounding^)? `block` $block_size
    attr-dict `:` functional-type(operands, results)
  }];

  let hasVerifier = 1;
  // Constant folding (up to kCanonicalizeFoldLimit input elements) by the
  // formula the lowering emits (Utils/BlockScaleFormula.h).
  let hasFolder = 1;

  let extraClassDeclaration = [{
    /// The element format's largest value and the exponent of its binade,
    /// or nothing for a type that is not one.
    static std::optional<std::pair<double, int64_t>>
    elementLimits(::mlir::Type element);
    /// The rule BlockScaleFormula.h evaluates for this op.
    ::mlir::quant_affine::BlockScaleRule getRule();
  }];
}

//===----------------------------------------------------------------------===//
// FloatQDQOp
//===----------------------------------------------------------------------===//

def QuantAffine_FloatQDQOp : QuantAffine_Op<"float_qdq",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Float fake-cast: round onto a float format's grid";
  let description = [{
    Rounds values, to nearest with ties to even, onto the grid of a float
    format with `E = exponent_bits` and `M = mantissa_bits`, as AIMET 2.x's
    `FloatQuantizeDequantize` does (the 2025 behaviour):

    ```
    without maxval:  y = fake_cast(clamp(x, -fmt_max, fmt_max))         in T
    with maxval:     k = exp2(log2|maxval| - log2 fmt_max)              in f32
                     y = fake_cast(clamp(x / k, -fmt_max, fmt_max)) * k
                                             in promote(T, f32), rounded once to T
    ```

    - `(E, M, finite, unsigned_zero)` names a real format for `(5, 10)` (f16),
      `(8, 7)` (bf16), `(4, 3, finite)` (`f8E4M3FN`), `(4, 3, finite,
      unsigned_zero)` (`f8E4M3FNUZ`), `(5, 2)` (`f8E5M2`) and `(5, 2, finite,
      unsigned_zero)` (`f8E5M2FNUZ`): its grid, subnormals included, and
      `fmt_max` its largest finite value. Any other `(E, M)` is AIMET's
      IEEE-like grid: bias `b = 2^(E-1) - 1`, `fmt_max = (2 - 2^-M) * 2^b`,
      smallest normal exponent `-b` (one subnormal binade more than IEEE).
      `finite` and `unsigned_zero` exist only where they name a real format.
    - The rounding is exact: the quantum at `|c|` is
      `2^(max(e, emin) - M)`, `e` read from `c`'s exponent bits. No
      `log2` or `exp2` of data values is ever computed.
    - NaN stays NaN, `+-inf` saturates to `+-fmt_max`, `-0.0` stays `-0.0`
      except with `unsigned_zero`, where it becomes `+0.0`.
    - `maxval` (optional): a positive scale-like operand, one value per
      tensor, channel or block by the encoding rules of `quantize`
      (`block_size` as there). `log2` and `exp2` of `k` are evaluated in f64
      and rounded to f32, which are AIMET's f32 functions correctly rounded
      (docs/FloatQDQ.md). A `maxval` of 0, NaN or inf is applied literally.
    - `E` is 1 to 11 and `M` 0 to 52; every quantum of the format, its
      inverse and `fmt_max` must be normal f64 numbers.

    Example: fp8 E4M3 fake cast of activations, and per-channel fp8 E5M2
    with a maxval.

    ```mlir
    %y = quant_affine.float_qdq %x format [4, 3] finite
        : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %z = quant_affine.float_qdq %w, %m format [5, 2]
        : (tensor<16x64xbf16>, tensor<16x1xf32>) -> tensor<16x64xbf16>
    ```
  }];

  let arguments = (ins
    QuantAffine_FloatLike:$input,
    Optional<QuantAffine_FloatLike>:$maxval,
    I64Attr:$exponent_bits,
    I64Attr:$mantissa_bits,
    UnitAttr:$finite,
    UnitAttr:$unsigned_zero,
    OptionalAttr<DenseI64ArrayAttr>:$block_size
  );
  let results = (outs QuantAffine_FloatLike:$result);

  let assemblyFormat = [{
    $input (`,` $maxval^)?
    `format` ` ` `[` $exponent_bits `,` $mantissa_bits `]`
    (`finite` $finite^)?
    (`unsigned_zero` $unsigned_zero^)?
    (`block` $block_size^)?
    attr-dict `:` functional-type(operands, results)
  }];

  let hasVerifier = 1;
  // Constant folding (up to kCanonicalizeFoldLimit elements) by the formula
  // template of Utils/FloatFormula.h.
  let hasFolder = 1;
  let hasCanonicalizer = 1;

  let extraClassDeclaration = [{
    ::mlir::quant_affine::FloatFormat getFormat() {
      return {static_cast<int64_t>(getExponentBits()),
              static_cast<int64_t>(getMantissaBits()), getFinite(),
              getUnsignedZero()};
    }
    std::optional<::llvm::ArrayRef<int64_t>> getBlockSizeArray() {
      if (auto attr = getBlockSizeAttr())
        return attr.asArrayRef();
      return std::nullopt;
    }
  }];
}

#endif // QUANT_AFFINE_OPS_TD
