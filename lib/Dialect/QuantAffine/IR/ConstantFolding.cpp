//===- ConstantFolding.cpp - Evaluate quant_affine ops on constants -------===//
//
// Part of the quant-affine project.
//
//===----------------------------------------------------------------------===//
//
// Instantiates the formula of Utils/Formula.h with APFloat arithmetic. Every
// step rounds as the generated code does (IEEE, ties to even), so folding
// never changes a bit. Scales are looked up per element with the encoding
// library's block rules.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/ConstantFolding.h"

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/Utils/Formula.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// A scalar in flight: a float, or an integer (a compare result, or storage).
struct Scalar {
  llvm::APFloat f = llvm::APFloat(0.0);
  llvm::APInt i;
};

/// The formula's arithmetic in APFloat, rounding to nearest, ties to even.
struct APFloatArith {
  using Value = Scalar;
  FloatType compute;
  static constexpr auto kRNE = llvm::APFloat::rmNearestTiesToEven;

  Value constant(int64_t v) const {
    Scalar r;
    r.f = llvm::APFloat(compute.getFloatSemantics());
    (void)r.f.convertFromAPInt(llvm::APInt(64, v, /*isSigned=*/true),
                               /*IsSigned=*/true, kRNE);
    return r;
  }
  Value div(Value a, const Value &b) const {
    (void)a.f.divide(b.f, kRNE);
    return a;
  }
  Value sub(Value a, const Value &b) const {
    (void)a.f.subtract(b.f, kRNE);
    return a;
  }
  Value add(Value a, const Value &b) const {
    (void)a.f.add(b.f, kRNE);
    return a;
  }
  Value mul(Value a, const Value &b) const {
    (void)a.f.multiply(b.f, kRNE);
    return a;
  }
  Value roundEven(Value a) const {
    (void)a.f.roundToIntegral(kRNE);
    return a;
  }
  Value less(const Value &a, const Value &b) const {
    Scalar r;
    r.i = llvm::APInt(1, a.f.compare(b.f) == llvm::APFloat::cmpLessThan);
    return r;
  }
  Value select(const Value &p, const Value &a, const Value &b) const {
    return p.i.getBoolValue() ? a : b;
  }
  Value toFloat(Value v, FloatType to) const {
    auto &sem = to.getFloatSemantics();
    if (&v.f.getSemantics() == &sem)
      return v;
    bool losesInfo;
    (void)v.f.convert(sem, kRNE, &losesInfo);
    return v;
  }
  Value intToFloat(const Value &v, FloatType to, bool isSigned) const {
    Scalar r;
    r.f = llvm::APFloat(to.getFloatSemantics());
    (void)r.f.convertFromAPInt(v.i, isSigned, kRNE);
    return r;
  }
  Value floatToInt(const Value &v, IntegerType to, bool isSigned) const {
    llvm::APSInt result(to.getWidth(), /*isUnsigned=*/!isSigned);
    bool isExact;
    if (v.f.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact) &
        llvm::APFloat::opInvalidOp)
      result = llvm::APSInt(to.getWidth(), !isSigned); // poison: any value
    Scalar r;
    r.i = result;
    return r;
  }
};

/// toFloat in APFloatArith converts once; apply the formula's rule for which
/// conversions go through f32 by routing through conversionIntermediate.
struct APFloatFormulaArith : APFloatArith {
  Value toFloat(Value v, FloatType to) const {
    MLIRContext *ctx = to.getContext();
    FloatType from = floatTypeOf(v.f.getSemantics(), ctx);
    if (std::optional<FloatType> via = conversionIntermediate(from, to))
      v = APFloatArith::toFloat(v, *via);
    return APFloatArith::toFloat(v, to);
  }

  static FloatType floatTypeOf(const llvm::fltSemantics &sem,
                               MLIRContext *ctx) {
    if (&sem == &llvm::APFloat::IEEEhalf())
      return Float16Type::get(ctx);
    if (&sem == &llvm::APFloat::BFloat())
      return BFloat16Type::get(ctx);
    if (&sem == &llvm::APFloat::IEEEsingle())
      return Float32Type::get(ctx);
    return Float64Type::get(ctx);
  }
};

/// Reads element `index` of a constant operand as a Scalar.
Scalar readElement(Attribute attr, int64_t index) {
  Scalar s;
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    s.f = f.getValue();
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    s.i = i.getValue();
  } else {
    auto dense = cast<DenseElementsAttr>(attr);
    if (isa<FloatType>(dense.getElementType()))
      s.f = dense.getValues<llvm::APFloat>()[index];
    else
      s.i = dense.getValues<llvm::APInt>()[index];
  }
  return s;
}

bool isConstantOperand(Attribute attr) {
  return isa_and_nonnull<FloatAttr, IntegerAttr, DenseElementsAttr>(attr);
}

EncodingOpKind kindOf(Operation *op) {
  if (isa<QuantizeOp>(op))
    return EncodingOpKind::Quantize;
  if (isa<DequantizeOp>(op))
    return EncodingOpKind::Dequantize;
  return EncodingOpKind::QDQ;
}

/// The pieces of an op the evaluation needs, whichever op it is.
struct EncodingOpView {
  QuantRange range;
  FloatType compute;
  std::optional<ArrayRef<int64_t>> blockSize;
};

EncodingOpView viewOf(Operation *op) {
  EncodingOpView view;
  auto fill = [&](auto typed) {
    view.range = typed.getRange();
    view.compute = typed.getEffectiveComputeType();
    if (typed.getBlockSizeAttr())
      view.blockSize = typed.getBlockSizeAttr().asArrayRef();
  };
  if (auto q = dyn_cast<QuantizeOp>(op))
    fill(q);
  else if (auto d = dyn_cast<DequantizeOp>(op))
    fill(d);
  else
    fill(cast<QDQOp>(op));
  return view;
}

} // namespace

Attribute mlir::quant_affine::foldEncodingOpConstants(
    Operation *op, ArrayRef<Attribute> operands, int64_t maxElements) {
  bool hasOffset = op->getNumOperands() == 3;
  if (operands.size() < 2 || !isConstantOperand(operands[0]) ||
      !isConstantOperand(operands[1]) ||
      (hasOffset && !isConstantOperand(operands[2])))
    return {};
  Type resultType = op->getResult(0).getType();
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (shaped && (!shaped.hasStaticShape() ||
                 shaped.getNumElements() > maxElements))
    return {};

  EncodingOpView view = viewOf(op);
  EncodingOpKind kind = kindOf(op);
  Type inputElem = getElementTypeOrSelf(op->getOperand(0));
  Type scaleElem = getElementTypeOrSelf(op->getOperand(1));
  Type offsetElem = hasOffset ? getElementTypeOrSelf(op->getOperand(2)) : Type();
  Type resultElem = getElementTypeOrSelf(resultType);
  APFloatFormulaArith arith{{view.compute}};

  auto evaluate = [&](int64_t inputIndex, int64_t scaleIndex) {
    std::optional<Scalar> offset;
    if (hasOffset)
      offset = readElement(operands[2], scaleIndex);
    return evaluateEncodingOp(arith, kind, view.range,
                              readElement(operands[0], inputIndex), inputElem,
                              readElement(operands[1], scaleIndex), scaleElem,
                              offset, offsetElem, resultElem);
  };

  if (!shaped) { // scalar form
    Scalar r = evaluate(0, 0);
    if (isa<FloatType>(resultElem))
      return FloatAttr::get(resultElem, r.f);
    return IntegerAttr::get(resultElem, r.i);
  }

  // Tensor form: element j uses scale[floor(j / B)] over the trailing dims;
  // the vector form is elementwise (scale index = input index).
  ArrayRef<int64_t> shape = shaped.getShape();
  SmallVector<int64_t> scaleShape(shape);
  SmallVector<int64_t> blocks(shape.size(), 1);
  if (isa<RankedTensorType>(resultType)) {
    scaleShape = llvm::to_vector(
        cast<ShapedType>(op->getOperand(1).getType()).getShape());
    blocks = resolveBlockSizes(shape, scaleShape, view.blockSize);
  }
  SmallVector<int64_t> scaleStrides(scaleShape.size(), 1);
  for (int64_t d = static_cast<int64_t>(scaleShape.size()) - 2; d >= 0; --d)
    scaleStrides[d] = scaleStrides[d + 1] * scaleShape[d + 1];

  int64_t n = shaped.getNumElements(), rank = shape.size(),
          k = scaleShape.size();
  SmallVector<int64_t> index(rank, 0);
  SmallVector<llvm::APFloat> floats;
  SmallVector<llvm::APInt> ints;
  bool floatResult = isa<FloatType>(resultElem);
  (floatResult ? (void)floats.reserve(n) : (void)ints.reserve(n));
  for (int64_t j = 0; j < n; ++j) {
    int64_t scaleIndex = 0;
    for (int64_t d = 0; d < k; ++d)
      scaleIndex += (blocks[d] == 0 ? 0 : index[rank - k + d] / blocks[d]) *
                    scaleStrides[d];
    Scalar r = evaluate(j, scaleIndex);
    if (floatResult)
      floats.push_back(r.f);
    else
      ints.push_back(r.i);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
  }
  if (floatResult)
    return DenseElementsAttr::get(shaped, floats);
  return DenseElementsAttr::get(shaped, ints);
}
