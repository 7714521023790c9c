//===- QuantAffineOps.cpp - quant_affine op verifiers ---------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The quantizer ops share one verifier: it checks types and properties only,
// never the values of other ops, so folding can never turn valid IR invalid.
// The shape rules themselves live in Utils/Encoding.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::quant_affine;

/// Prints a shape as `[4, ?, 8]` for diagnostics.
static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return out;
}

/// The kind of container, for "must be a tensor like the input" messages.
/// The ODS constraints admit scalars, vectors and ranked tensors; the other
/// kinds are named too so that no message ever lies about a type.
static StringRef containerKind(Type t) {
  if (isa<RankedTensorType>(t))
    return "a ranked tensor";
  if (isa<UnrankedTensorType>(t))
    return "an unranked tensor";
  if (isa<VectorType>(t))
    return "a vector";
  if (isa<BaseMemRefType>(t))
    return "a memref";
  if (isa<ShapedType>(t))
    return "a shaped value";
  return "a scalar";
}

/// Whether `a` and `b` are the same kind of container with the same shape
/// (and, for vectors, the same scalable dims). Any two types may be passed.
static bool haveSameShape(Type a, Type b) {
  if (containerKind(a) != containerKind(b))
    return false;
  auto sa = dyn_cast<ShapedType>(a), sb = dyn_cast<ShapedType>(b);
  if (!sa || !sb)
    return !sa && !sb;
  if (sa.hasRank() != sb.hasRank() ||
      (sa.hasRank() && sa.getShape() != sb.getShape()))
    return false;
  auto va = dyn_cast<VectorType>(a), vb = dyn_cast<VectorType>(b);
  return !va || !vb || va.getScalableDims() == vb.getScalableDims();
}

/// A shaped operand or result must have an element count and a byte size
/// that int64 holds, so that no shape arithmetic downstream overflows.
static LogicalResult verifyShapeSize(Operation *op, StringRef name, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return success();
  if (std::optional<std::string> error =
          checkShapeSize(shaped.getShape(), shaped.getElementType()))
    return op->emitOpError() << "'" << name << "' of type " << type
                             << " is too large: " << *error;
  return success();
}

/// An integer operand or result must hold the whole grid.
static LogicalResult verifyIntegerHoldsRange(Operation *op, StringRef name,
                                             Type type, QuantRange range) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  if (!intType || range.fitsInteger(intType.getWidth()))
    return success();
  QuantRange full = QuantRange::ofInteger(intType.getWidth(), range.isSigned());
  return op->emitOpError() << "range [" << range.qmin << ", " << range.qmax
                           << "] does not fit " << name << " element type "
                           << intType << ", which holds [" << full.qmin << ", "
                           << full.qmax << "] when read as "
                           << (range.isSigned() ? "signed (qmin < 0)"
                                                : "unsigned (qmin >= 0)");
}

/// Checks that `scale` or `offset` (`name`) can encode `input`.
static LogicalResult
verifyEncodingOperand(Operation *op, StringRef name, Type input, Type encoding,
                      std::optional<ArrayRef<int64_t>> blockSize) {
  auto inputTensor = dyn_cast<RankedTensorType>(input);
  if (!inputTensor) {
    if (!haveSameShape(input, encoding))
      return op->emitOpError()
             << "'" << name << "' must have the shape of the input ("
             << containerKind(input) << " of type " << input
             << ") when the input is a scalar or vector, got " << encoding;
    return success();
  }
  auto encodingTensor = dyn_cast<RankedTensorType>(encoding);
  if (!encodingTensor)
    return op->emitOpError()
           << "'" << name << "' must be a ranked tensor when the input is a "
           << "tensor, got " << encoding;
  if (std::optional<std::string> error = checkEncodingShapes(
          inputTensor.getShape(), encodingTensor.getShape(), blockSize))
    return op->emitOpError()
           << "'" << name << "' of type " << encoding
           << " does not encode input " << input << ": " << *error;
  return success();
}

LogicalResult mlir::quant_affine::verifyQuantizerOp(QuantizerOpInterface op) {
  Operation *operation = op.getOperation();
  QuantRange range = op.getRange();
  if (!range.isValid())
    return op.emitOpError()
           << "requires qmin <= qmax, got qmin = " << range.qmin
           << " and qmax = " << range.qmax;

  QuantizerFormula formula = op.getFormula();
  if (formula.reciprocal && !formula.quantizes())
    return op.emitOpError()
           << "'reciprocal' applies to quantize and qdq: dequantize "
              "multiplies by the scale already";
  if (formula.reciprocal && formula.floatZeroPoint)
    return op.emitOpError()
           << "'reciprocal' and 'float_zero_point' do not combine: torchao's "
              "FLOAT zero-point domain divides by the scale";

  Type input = op.getInput().getType(), result = op.getResult().getType();
  Type scale = op.getScale().getType();
  Value offset = op.getOffset();
  if (failed(verifyShapeSize(operation, "input", input)) ||
      failed(verifyShapeSize(operation, "result", result)) ||
      failed(verifyShapeSize(operation, "scale", scale)) ||
      (offset &&
       failed(verifyShapeSize(operation, "offset", offset.getType()))))
    return failure();

  if (containerKind(input) != containerKind(result))
    return op.emitOpError() << "result must be " << containerKind(input)
                            << " like the input, got " << result;
  if (!haveSameShape(input, result)) {
    auto inputShaped = dyn_cast<ShapedType>(input);
    auto resultShaped = dyn_cast<ShapedType>(result);
    if (inputShaped && resultShaped && inputShaped.hasRank() &&
        resultShaped.hasRank() &&
        inputShaped.getShape() != resultShaped.getShape())
      return op.emitOpError()
             << "result shape " << shapeStr(resultShaped.getShape())
             << " must equal input shape " << shapeStr(inputShaped.getShape());
    return op.emitOpError() << "result type " << result
                            << " must have the shape of input type " << input;
  }

  if (failed(verifyIntegerHoldsRange(operation, "result", result, range)) ||
      failed(verifyIntegerHoldsRange(operation, "input", input, range)))
    return failure();

  std::optional<ArrayRef<int64_t>> blockSize;
  if (op.getBlockSizeAttr()) {
    if (!isa<RankedTensorType>(input))
      return op.emitOpError()
             << "'block_size' requires tensor operands; scalar and vector "
                "forms are elementwise";
    blockSize = op.getBlockSizeAttr().asArrayRef();
  }

  if (failed(
          verifyEncodingOperand(operation, "scale", input, scale, blockSize)))
    return failure();
  // An offset shaped like the (valid) scale encodes the input as well.
  if (offset) {
    Type offsetType = offset.getType();
    if (containerKind(offsetType) != containerKind(scale))
      return op.emitOpError()
             << "'offset' must be " << containerKind(scale) << " like 'scale' ("
             << scale << "), got " << offsetType;
    if (!haveSameShape(scale, offsetType))
      return op.emitOpError()
             << "'offset' of type " << offsetType
             << " must have the shape of 'scale' (" << scale << ")";
  }

  // An explicit compute type must hold the grid's ends when the result is an
  // integer: the clamp then keeps every value convertible. (The default rule
  // always picks such a type. qdq, dequantize and float results never convert
  // to an integer: there the rounded ends are ordinary values.)
  TypeAttr computeType = op.getComputeTypeAttr();
  if (computeType && isa<IntegerType>(getElementTypeOrSelf(result))) {
    if (std::optional<std::string> error = checkComputeTypeHoldsGrid(
            cast<FloatType>(computeType.getValue()), range))
      return op.emitOpError()
             << "'compute_type' " << computeType.getValue()
             << " cannot hold the grid [" << range.qmin << ", " << range.qmax
             << "] of integer result " << getElementTypeOrSelf(result) << ": "
             << *error
             << "; with an integer result an explicit compute_type must "
                "represent qmin and qmax exactly";
  }
  return success();
}

LogicalResult ComputeEncodingOp::verify() {
  Operation *operation = getOperation();
  int64_t qmin = getQminAttr().getInt(), qmax = getQmaxAttr().getInt();
  if (qmin >= qmax)
    return emitOpError() << "requires qmin < qmax (a grid of at least one "
                         << "step), got qmin = " << qmin
                         << " and qmax = " << qmax;
  if (!llvm::checkedSub(qmax, qmin) ||
      qmin == std::numeric_limits<int64_t>::min())
    return emitOpError() << "grid [" << qmin << ", " << qmax
                         << "] is too wide: qmax - qmin and -qmin must fit "
                            "int64";
  Type input = getInput().getType(), scale = getScale().getType(),
       offset = getOffset().getType();
  if (failed(verifyShapeSize(operation, "input", input)) ||
      failed(verifyShapeSize(operation, "scale", scale)) ||
      failed(verifyShapeSize(operation, "offset", offset)))
    return failure();
  if (!getTorchao()) {
    StringRef needsTorchao = getNoClippingErr()    ? "no_clipping_err"
                             : getNoPreserveZero() ? "no_preserve_zero"
                             : getFloatZeroPoint() ? "float_zero_point"
                             : getEpsAttr()        ? "eps"
                                                   : "";
    if (!needsTorchao.empty())
      return emitOpError() << "'" << needsTorchao
                           << "' is a property of torchao's convention: add "
                              "'torchao'";
  } else {
    if (getNoClippingErr() && !getSymmetric())
      return emitOpError() << "'no_clipping_err' is a symmetric mapping: add "
                              "'symmetric'";
    if (getFloatZeroPoint() && getSymmetric())
      return emitOpError() << "'float_zero_point' (torchao's FLOAT domain) "
                              "takes the asymmetric mapping only";
    if (getNoPreserveZero() && !getFloatZeroPoint())
      return emitOpError() << "'no_preserve_zero' is defined for torchao's "
                              "FLOAT zero-point domain only: add "
                              "'float_zero_point'";
    if (getEpsAttr() && !(getEpsAttr().getValueAsDouble() >= 0))
      return emitOpError() << "'eps' must be a non-negative number, got "
                           << getEpsAttr().getValueAsDouble();
  }
  if (llvm::is_contained(getInput().getType().getShape(), 0))
    return emitOpError() << "input of type " << input
                         << " has no elements: an encoding needs at least "
                            "one value to take its minimum and maximum";
  if (!haveSameShape(scale, offset))
    return emitOpError() << "'offset' of type " << offset
                         << " must have the shape of 'scale' (" << scale << ")";
  return verifyEncodingOperand(operation, "scale", input, scale,
                               getBlockSizeArray());
}

LogicalResult ComputeEncodingOp::fold(FoldAdaptor adaptor,
                                      SmallVectorImpl<OpFoldResult> &results) {
  return foldComputeEncodingConstants(*this, adaptor.getInput(),
                                      kCanonicalizeFoldLimit, results);
}

LogicalResult FloatQDQOp::verify() {
  FloatFormat format = getFormat();
  if (!format.hasValidWidths())
    return emitOpError() << "exponent_bits must be 1 to 11 and mantissa_bits "
                            "0 to 52, got ("
                         << format.exponentBits << ", " << format.mantissaBits
                         << ")";
  if ((format.finite || format.unsignedZero) && !format.isNamed())
    return emitOpError()
           << "'finite' and 'unsigned_zero' name real formats only: (4, 3) "
              "finite is f8E4M3FN, (4, 3) finite unsigned_zero f8E4M3FNUZ, "
              "(5, 2) finite unsigned_zero f8E5M2FNUZ; got ("
           << format.exponentBits << ", " << format.mantissaBits << ")"
           << (format.finite ? " finite" : "")
           << (format.unsignedZero ? " unsigned_zero" : "");
  Type input = getInput().getType();
  auto elem = cast<FloatType>(getElementTypeOrSelf(input));
  if (std::optional<std::string> error = format.checkInput(elem))
    return emitOpError() << "format (" << format.exponentBits << ", "
                         << format.mantissaBits << ") cannot round " << elem
                         << " exactly: " << *error;
  if (failed(verifyShapeSize(getOperation(), "input", input)))
    return failure();
  std::optional<ArrayRef<int64_t>> blockSize = getBlockSizeArray();
  if (blockSize && !getMaxval())
    return emitOpError() << "'block_size' lays out a 'maxval': add one";
  if (blockSize && !isa<RankedTensorType>(input))
    return emitOpError() << "'block_size' requires tensor operands; scalar "
                            "and vector forms are elementwise";
  if (Value maxval = getMaxval()) {
    if (failed(verifyShapeSize(getOperation(), "maxval", maxval.getType())))
      return failure();
    return verifyEncodingOperand(getOperation(), "maxval", input,
                                 maxval.getType(), blockSize);
  }
  return success();
}

OpFoldResult FloatQDQOp::fold(FoldAdaptor adaptor) {
  return foldFloatQDQConstants(*this, adaptor.getOperands(),
                               kCanonicalizeFoldLimit);
}

#define GET_OP_CLASSES
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOps.cpp.inc"

//===----------------------------------------------------------------------===//
// BlockScaleOp
//===----------------------------------------------------------------------===//

std::optional<std::pair<double, int64_t>>
BlockScaleOp::elementLimits(Type element) {
  if (isa<Float4E2M1FNType>(element))
    return std::make_pair(6.0, int64_t{2});
  if (isa<Float6E2M3FNType>(element))
    return std::make_pair(7.5, int64_t{2});
  if (isa<Float6E3M2FNType>(element))
    return std::make_pair(28.0, int64_t{4});
  if (isa<Float8E4M3FNType>(element))
    return std::make_pair(448.0, int64_t{8});
  if (isa<Float8E5M2Type>(element))
    return std::make_pair(57344.0, int64_t{15});
  if (element.isSignlessInteger(8)) // MXINT8: codes times 2^-6
    return std::make_pair(127.0 / 64.0, int64_t{0});
  return std::nullopt;
}

BlockScaleRule BlockScaleOp::getRule() {
  BlockScaleRule rule;
  if (auto rounding = getRoundingAttr())
    rule.rounding = rounding.getValue().str();
  auto [maxElement, emaxElement] = *elementLimits(getElement());
  rule.maxElement = maxElement;
  rule.emaxElement = emaxElement;
  if (auto floatType = dyn_cast<FloatType>(getElement()))
    rule.mantissaBits = floatType.getFPMantissaWidth() - 1;
  else
    rule.mantissaBits = 6; // MXINT8: 6 fraction bits below the units
  return rule;
}

OpFoldResult BlockScaleOp::fold(FoldAdaptor adaptor) {
  return foldBlockScaleConstants(*this, adaptor.getInput(),
                                 adaptor.getTensorScale(),
                                 kCanonicalizeFoldLimit);
}

LogicalResult BlockScaleOp::verify() {
  Operation *operation = getOperation();
  if (!elementLimits(getElement()))
    return emitOpError() << "element " << getElement()
                         << " is not a block-float element format (f4E2M1FN, "
                            "f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2, or i8 for "
                            "MXINT8)";
  auto scaleType = cast<RankedTensorType>(getScale().getType());
  Type scale = scaleType.getElementType();
  bool powerOfTwo = getRoundingAttr() != nullptr;
  if (powerOfTwo &&
      !llvm::is_contained({"floor", "rceil", "ceil", "even", "nearest"},
                          getRoundingAttr().getValue()))
    return emitOpError() << "'rounding' must be \"floor\", \"rceil\", "
                            "\"ceil\", \"even\" or \"nearest\", got \""
                         << getRoundingAttr().getValue() << "\"";
  if (isa<Float8E8M0FNUType>(scale) && !powerOfTwo)
    return emitOpError() << "an f8E8M0FNU scale is a power of two: it needs "
                            "'rounding' (\"floor\", \"rceil\", \"ceil\", "
                            "\"even\" or \"nearest\")";
  if (powerOfTwo && !isa<Float8E8M0FNUType, Float32Type>(scale))
    return emitOpError() << "'rounding' makes a power-of-two scale, held in "
                            "f8E8M0FNU or f32, not "
                         << scale;
  if (getTensorScale() && !isa<Float8E4M3FNType>(scale))
    return emitOpError() << "'tensor_scale' is the per-tensor level of an "
                            "f8E4M3FN (NVFP4) scale, not of "
                         << scale;
  Type input = getInput().getType();
  if (failed(verifyShapeSize(operation, "input", input)) ||
      failed(verifyShapeSize(operation, "scale", scaleType)))
    return failure();
  return verifyEncodingOperand(operation, "scale", input, scaleType,
                               getBlockSize());
}
