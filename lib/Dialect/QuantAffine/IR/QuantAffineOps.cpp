//===- QuantAffineOps.cpp - quant_affine op verifiers ---------------------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//
//
// The three ops share one verifier: it checks types and properties only, never
// the values of other ops, so folding can never turn valid IR invalid. The
// shape rules themselves live in Utils/Encoding.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

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

static bool haveSameShape(Type a, Type b) {
  auto sa = dyn_cast<ShapedType>(a), sb = dyn_cast<ShapedType>(b);
  if (!sa || !sb)
    return !sa && !sb;
  if (sa.getShape() != sb.getShape())
    return false;
  auto va = dyn_cast<VectorType>(a), vb = dyn_cast<VectorType>(b);
  return !va || va.getScalableDims() == vb.getScalableDims();
}

/// The kind of container, for "must be a tensor like the input" messages.
static StringRef containerKind(Type t) {
  if (isa<RankedTensorType>(t))
    return "a ranked tensor";
  if (isa<VectorType>(t))
    return "a vector";
  return "a scalar";
}

/// An integer operand or result must hold the whole grid.
static LogicalResult verifyIntegerHoldsRange(Operation *op, StringRef name,
                                             Type type, QuantRange range) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  if (!intType || range.fitsInteger(intType.getWidth()))
    return success();
  QuantRange full = QuantRange::ofInteger(intType.getWidth(), range.isSigned());
  return op->emitOpError()
         << "range [" << range.qmin << ", " << range.qmax << "] does not fit "
         << name << " element type " << intType << ", which holds ["
         << full.qmin << ", " << full.qmax << "] when read as "
         << (range.isSigned() ? "signed (qmin < 0)" : "unsigned (qmin >= 0)");
}

/// Checks that `scale` or `offset` (`name`) can encode `input`.
static LogicalResult verifyEncodingOperand(Operation *op, StringRef name,
                                           Type input, Type encoding,
                                           std::optional<ArrayRef<int64_t>>
                                               blockSize) {
  auto inputTensor = dyn_cast<RankedTensorType>(input);
  if (!inputTensor) {
    if (!haveSameShape(input, encoding) ||
        isa<RankedTensorType>(encoding))
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
    return op->emitOpError() << "'" << name << "' of type " << encoding
                             << " does not encode input " << input << ": "
                             << *error;
  return success();
}

/// The verifier shared by quantize, dequantize and qdq.
template <typename OpT>
static LogicalResult verifyEncodingOp(OpT op) {
  Operation *operation = op.getOperation();
  QuantRange range = op.getRange();
  if (!range.isValid())
    return op.emitOpError() << "requires qmin <= qmax, got qmin = "
                            << range.qmin << " and qmax = " << range.qmax;

  Type input = op.getInput().getType(), result = op.getResult().getType();
  if (containerKind(input) != containerKind(result))
    return op.emitOpError() << "result must be " << containerKind(input)
                            << " like the input, got " << result;
  if (!haveSameShape(input, result))
    return op.emitOpError()
           << "result shape "
           << shapeStr(cast<ShapedType>(result).getShape())
           << " must equal input shape "
           << shapeStr(cast<ShapedType>(input).getShape());

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

  Type scale = op.getScale().getType();
  if (failed(verifyEncodingOperand(operation, "scale", input, scale,
                                   blockSize)))
    return failure();
  if (Value offset = op.getOffset()) {
    if (!haveSameShape(scale, offset.getType()))
      return op.emitOpError() << "'offset' of type " << offset.getType()
                              << " must have the shape of 'scale' (" << scale
                              << ")";
  }
  return success();
}

LogicalResult QuantizeOp::verify() { return verifyEncodingOp(*this); }
LogicalResult DequantizeOp::verify() { return verifyEncodingOp(*this); }
LogicalResult QDQOp::verify() { return verifyEncodingOp(*this); }

/// The explicit compute type of `op`, if any.
template <typename OpT>
static FloatType explicitComputeType(OpT op) {
  if (std::optional<Type> type = op.getComputeType())
    return cast<FloatType>(*type);
  return {};
}

FloatType QuantizeOp::getEffectiveComputeType() {
  return quant_affine::getEffectiveComputeType(
      EncodingOpKind::Quantize,
      cast<FloatType>(getElementTypeOrSelf(getInput())), getRange(),
      explicitComputeType(*this));
}

FloatType DequantizeOp::getEffectiveComputeType() {
  return quant_affine::getEffectiveComputeType(
      EncodingOpKind::Dequantize,
      cast<FloatType>(getElementTypeOrSelf(getResult())), getRange(),
      explicitComputeType(*this));
}

FloatType QDQOp::getEffectiveComputeType() {
  return quant_affine::getEffectiveComputeType(
      EncodingOpKind::QDQ, cast<FloatType>(getElementTypeOrSelf(getInput())),
      getRange(), explicitComputeType(*this));
}

OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  return foldEncodingOpConstants(*this, adaptor.getOperands(),
                                 kCanonicalizeFoldLimit);
}
OpFoldResult DequantizeOp::fold(FoldAdaptor adaptor) {
  return foldEncodingOpConstants(*this, adaptor.getOperands(),
                                 kCanonicalizeFoldLimit);
}
OpFoldResult QDQOp::fold(FoldAdaptor adaptor) {
  return foldEncodingOpConstants(*this, adaptor.getOperands(),
                                 kCanonicalizeFoldLimit);
}

#define GET_OP_CLASSES
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffineOps.cpp.inc"
