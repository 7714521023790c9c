//===- QuantAffineBase.td - quant_affine dialect base ------*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The dialect definition, the base op class and the type constraints shared by
// the quantize, dequantize and qdq ops.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_BASE_TD
#define QUANT_AFFINE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def QuantAffine_Dialect : Dialect {
  let name = "quant_affine";
  let cppNamespace = "::mlir::quant_affine";
  // Folded constants are materialized as arith.constant; runtime
  // verification builds arith, tensor.dim and cf.assert ops.
  let dependentDialects = ["arith::ArithDialect", "cf::ControlFlowDialect",
                           "tensor::TensorDialect"];
  let hasConstantMaterializer = 1;
  // Canonicalization patterns on QuantizerOpInterface, registered once.
  let hasCanonicalizer = 1;
  let summary = "Exact affine quantization with AIMET v2 semantics";
  let description = [{
    The `quant_affine` dialect models affine (scale and offset) quantization
    exactly as AIMET v2 (`aimet_torch.v2.quantization.affine`) computes it, so
    that what quantization-aware training simulated is what deployment runs:

    ```
    quantize    q = clamp(roundeven(x / s) - o, qmin, qmax)
    dequantize  y = (q + o) * s
    qdq         y = (clamp(roundeven(x / s) - o, qmin, qmax) + o) * s
    ```

    Scales and offsets are SSA operands, not attributes: they are usually
    weights or values computed at run time (calibration, dynamic
    quantization), and one op then covers per-tensor, per-channel and
    per-block encodings, with static or dynamic shapes. `o` is AIMET's
    offset, the negated zero point (`zero_point = -offset`).

    See `docs/QuantAffineDialect.md` for the full numeric contract.
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The float types the dialect computes in and stores to.
def QuantAffine_Float : AnyTypeOf<[F16, BF16, F32, F64],
    "f16, bf16, f32 or f64">;

// Integer storage: signless, 1 to 32 bits (signedness comes from qmin).
def QuantAffine_Int : Type<
    CPred<"::llvm::isa<::mlir::IntegerType>($_self) && "
          "::llvm::cast<::mlir::IntegerType>($_self).isSignless() && "
          "::llvm::cast<::mlir::IntegerType>($_self).getWidth() >= 1 && "
          "::llvm::cast<::mlir::IntegerType>($_self).getWidth() <= 32">,
    "signless integer of 1 to 32 bits", "::mlir::IntegerType">;

class QuantAffine_ScalarVectorOrTensorOf<Type elem> : AnyTypeOf<[
    elem, VectorOfNonZeroRankOf<[elem]>, RankedTensorOf<[elem]>],
    elem.summary # " scalar, or vector or ranked tensor of " # elem.summary>;

def QuantAffine_FloatLike
    : QuantAffine_ScalarVectorOrTensorOf<QuantAffine_Float>;
// Float8 and float4 storage: the grid is the type's own values
// (docs/FloatQDQ.md).
def QuantAffine_NarrowFloat : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2,
                                         F8E5M2FNUZ, F6E2M3FN, F6E3M2FN,
                                         F4E2M1FN],
    "f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ, f6E2M3FN, f6E3M2FN or "
    "f4E2M1FN">;

def QuantAffine_IntOrFloatLike
    : QuantAffine_ScalarVectorOrTensorOf<
        AnyTypeOf<[QuantAffine_Float, QuantAffine_Int, QuantAffine_NarrowFloat],
                  "f16, bf16, f32, f64, signless i1..i32 or a float8 or float4 "
                  "type">>;

// A compute type, when given, is one of the dialect's float types.
def QuantAffine_ComputeTypeAttr : TypeAttrOf<QuantAffine_Float>;

//===----------------------------------------------------------------------===//
// Base op
//===----------------------------------------------------------------------===//

class QuantAffine_Op<string mnemonic, list<Trait> traits = []>
    : Op<QuantAffine_Dialect, mnemonic, traits>;

#endif // QUANT_AFFINE_BASE_TD
