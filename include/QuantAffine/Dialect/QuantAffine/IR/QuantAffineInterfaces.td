//===- QuantAffineInterfaces.td - quantizer op interface ---*- tablegen -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// QuantizerOpInterface: what quantize, dequantize and qdq share, so that the
// verifier, the folder, the canonicalizations and the lowerings handle the
// three ops as one. (compute_encoding computes scales and offsets; it is not a
// quantizer.)
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_INTERFACES_TD
#define QUANT_AFFINE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def QuantAffine_QuantizerOpInterface : OpInterface<"QuantizerOpInterface"> {
  let cppNamespace = "::mlir::quant_affine";
  let description = [{
    An op that applies an affine encoding to its input: `input`, `scale` and
    an optional `offset` are its operands, the grid `[qmin, qmax]`, the block
    sizes and the compute type its properties, and `getSpec()` returns all of
    them but the operands as one `QuantizerSpec` (with the formula variant and
    the effective compute type). Code that needs to know which of the ops it
    has asks the spec's formula, never the op's class.
  }];

  let methods = [
    StaticInterfaceMethod<"The conversion this op performs.",
      "::mlir::quant_affine::QuantizerKind", "getQuantizerKind">,
    InterfaceMethod<"The values converted.", "::mlir::Value", "getInput">,
    InterfaceMethod<"The scales.", "::mlir::Value", "getScale">,
    InterfaceMethod<"The offsets, or null (all zero).",
      "::mlir::Value", "getOffset">,
    InterfaceMethod<"The converted values.", "::mlir::Value", "getResult">,
    InterfaceMethod<"The scale operand, to replace it.",
      "::mlir::OpOperand &", "getScaleMutable">,
    InterfaceMethod<"The offset operand (empty or one), to replace it.",
      "::mlir::MutableOperandRange", "getOffsetMutable">,
    InterfaceMethod<"The lower end of the grid.", "uint64_t", "getQmin">,
    InterfaceMethod<"The upper end of the grid.", "uint64_t", "getQmax">,
    InterfaceMethod<"The block sizes, or null.",
      "::mlir::DenseI64ArrayAttr", "getBlockSizeAttr">,
    InterfaceMethod<"Sets or (with null) removes the block sizes.",
      "void", "setBlockSizeAttr", (ins "::mlir::DenseI64ArrayAttr":$value)>,
    InterfaceMethod<"The explicit compute type, or null.",
      "::mlir::TypeAttr", "getComputeTypeAttr">,
    InterfaceMethod<"Sets or (with null) removes the explicit compute type.",
      "void", "setComputeTypeAttr", (ins "::mlir::TypeAttr":$value)>,
    InterfaceMethod<"Whether it multiplies by the scale's reciprocal "
      "(torchao).", "bool", "getReciprocal">,
    InterfaceMethod<"Whether the offset is torchao's float zero point.",
      "bool", "getFloatZeroPoint">,
  ];

  let extraSharedClassDeclaration = [{
    /// The integer grid [qmin, qmax].
    ::mlir::quant_affine::QuantRange getRange() {
      return {static_cast<int64_t>($_op.getQmin()),
              static_cast<int64_t>($_op.getQmax())};
    }
    /// The formula variant this op evaluates.
    ::mlir::quant_affine::QuantizerFormula getFormula() {
      ::mlir::quant_affine::QuantizerFormula formula;
      formula.kind = $_op.getQuantizerKind();
      formula.reciprocal = $_op.getReciprocal();
      formula.floatZeroPoint = $_op.getFloatZeroPoint();
      return formula;
    }
    /// The type all arithmetic happens in: `compute_type` when present,
    /// otherwise AIMET's rule from the float side's type (the input of
    /// quantize and qdq, the result of dequantize).
    ::mlir::FloatType getEffectiveComputeType() {
      ::mlir::quant_affine::QuantizerKind kind = $_op.getQuantizerKind();
      ::mlir::Value floatSide =
          kind == ::mlir::quant_affine::QuantizerKind::Dequantize
              ? $_op.getResult() : $_op.getInput();
      ::mlir::FloatType explicitType;
      if (::mlir::TypeAttr attr = $_op.getComputeTypeAttr())
        explicitType = ::llvm::cast<::mlir::FloatType>(attr.getValue());
      return ::mlir::quant_affine::getEffectiveComputeType(
          kind,
          ::llvm::cast<::mlir::FloatType>(
              ::mlir::getElementTypeOrSelf(floatSide.getType())),
          getRange(), explicitType);
    }
    /// Everything but the operands, as one value.
    ::mlir::quant_affine::QuantizerSpec getSpec() {
      ::mlir::quant_affine::QuantizerSpec spec;
      spec.formula = getFormula();
      spec.range = getRange();
      if (::mlir::DenseI64ArrayAttr blocks = $_op.getBlockSizeAttr())
        spec.blockSize.emplace(blocks.asArrayRef());
      spec.computeType = getEffectiveComputeType();
      return spec;
    }
  }];

  let extraClassDeclaration = [{
    /// A copy of this op, properties and attributes included, at `builder`'s
    /// insertion point, on new operands (`offset` may be null) and with
    /// result type `resultType`.
    ::mlir::quant_affine::QuantizerOpInterface
    cloneWith(::mlir::OpBuilder &builder, ::mlir::Value input,
              ::mlir::Value scale, ::mlir::Value offset,
              ::mlir::Type resultType);
  }];
}

#endif // QUANT_AFFINE_INTERFACES_TD
