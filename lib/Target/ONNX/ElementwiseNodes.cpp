//===- ElementwiseNodes.cpp - ONNX's elementwise operators ----------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each operator is one linalg.generic (numpy broadcasting) whose body is the
// arith or math op of the element type, plus Cast, CastLike and Constant.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantAffine/Dialect/QuantAffine/Utils/CalibrationFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::quant_affine::onnx_import;

namespace {

using ScalarBody = Value (*)(OpBuilder &, Location, ValueRange, bool isFloat,
                             bool isUnsigned);

/// Reads the inputs of an n-ary elementwise node, all of one ONNX type.
FailureOr<SmallVector<GraphValue>>
readInputs(GraphImporter &importer, const OnnxNode &node, size_t count) {
  if (node.inputs.size() != count || node.outputs.empty())
    return importer.emitError(node) << "needs " << count << " inputs";
  SmallVector<GraphValue> inputs;
  for (const std::string &name : node.inputs) {
    FailureOr<GraphValue> value = importer.get(node, name);
    if (failed(value))
      return failure();
    if (!isa<RankedTensorType>(value->value.getType()))
      return importer.emitError(node) << "needs ranked tensors";
    if (!inputs.empty() && value->type != inputs.front().type)
      return importer.emitError(node) << "inputs of different types: "
                                      << onnxTypeName(inputs.front().type)
                                      << " and " << onnxTypeName(value->type);
    inputs.push_back(*value);
  }
  return inputs;
}

template <size_t Arity, bool FloatOnly>
LogicalResult importElementwise(GraphImporter &importer, const OnnxNode &node,
                                ScalarBody body) {
  FailureOr<SmallVector<GraphValue>> inputs = readInputs(importer, node, Arity);
  if (failed(inputs))
    return failure();
  OnnxType type = inputs->front().type;
  bool isFloat = isFloatType(type);
  if ((FloatOnly && !isFloat) ||
      (!isFloat && !integerRange(type) && type != OnnxType::Int64))
    return importer.emitError(node)
           << "input type " << onnxTypeName(type) << " is not supported";
  SmallVector<Value> operands;
  for (const GraphValue &input : *inputs)
    operands.push_back(input.value);
  Type element =
      cast<RankedTensorType>(operands.front().getType()).getElementType();
  bool isUnsigned = isUnsignedInteger(type);
  FailureOr<Value> result = importer.broadcastElementwise(
      node, operands, element,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        return body(b, loc, args, isFloat, isUnsigned);
      });
  if (failed(result))
    return failure();
  importer.set(node.outputs[0], GraphValue{*result, type});
  return success();
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

// Bodies. IEEE add, sub, mul and div are what ONNX specifies; the others
// (exp, tanh, erf) are math ops within ONNX's tolerance.
Value addBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat, bool) {
  return isFloat ? Value(arith::AddFOp::create(b, loc, x[0], x[1]))
                 : Value(arith::AddIOp::create(b, loc, x[0], x[1]));
}
Value subBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat, bool) {
  return isFloat ? Value(arith::SubFOp::create(b, loc, x[0], x[1]))
                 : Value(arith::SubIOp::create(b, loc, x[0], x[1]));
}
Value mulBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat, bool) {
  return isFloat ? Value(arith::MulFOp::create(b, loc, x[0], x[1]))
                 : Value(arith::MulIOp::create(b, loc, x[0], x[1]));
}
Value divBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return arith::DivFOp::create(b, loc, x[0], x[1]);
}
/// max(x, 0) as numpy's maximum: NaN stays, -0.0 stays.
Value reluBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat, bool) {
  Type type = x[0].getType();
  if (!isFloat) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
    return arith::MaxSIOp::create(b, loc, x[0], zero);
  }
  Value zero = floatConstant(b, loc, type, 0.0);
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x[0], zero);
  return arith::SelectOp::create(b, loc, negative, zero, x[0]);
}
Value sigmoidBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  Type type = x[0].getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x[0]));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}
Value tanhBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::TanhOp::create(b, loc, x[0]);
}
Value erfBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::ErfOp::create(b, loc, x[0]);
}
Value negBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat, bool) {
  if (isFloat)
    return arith::NegFOp::create(b, loc, x[0]);
  Value zero =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(x[0].getType(), 0));
  return arith::SubIOp::create(b, loc, zero, x[0]);
}
Value absBody(OpBuilder &b, Location loc, ValueRange x, bool isFloat,
              bool isUnsigned) {
  if (isFloat)
    return math::AbsFOp::create(b, loc, x[0]);
  if (isUnsigned)
    return x[0];
  return math::AbsIOp::create(b, loc, x[0]);
}
Value expBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::ExpOp::create(b, loc, x[0]);
}
Value logBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::LogOp::create(b, loc, x[0]);
}
Value sqrtBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::SqrtOp::create(b, loc, x[0]);
}
Value reciprocalBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return arith::DivFOp::create(b, loc, floatConstant(b, loc, x[0].getType(), 1),
                               x[0]);
}
Value floorBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::FloorOp::create(b, loc, x[0]);
}
Value ceilBody(OpBuilder &b, Location loc, ValueRange x, bool, bool) {
  return math::CeilOp::create(b, loc, x[0]);
}
Value identityBody(OpBuilder &, Location, ValueRange x, bool, bool) {
  return x[0];
}

/// Gelu (opset 20): x * 0.5 * (1 + erf(x / sqrt(2))), or with approximate =
/// "tanh": x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))).
LogicalResult importGelu(GraphImporter &importer, const OnnxNode &node) {
  FailureOr<SmallVector<GraphValue>> inputs = readInputs(importer, node, 1);
  if (failed(inputs))
    return failure();
  if (!isFloatType(inputs->front().type))
    return importer.emitError(node)
           << "input type " << onnxTypeName(inputs->front().type)
           << " is not supported";
  const OnnxAttribute *approximate = node.attribute("approximate");
  bool useTanh = approximate && approximate->s == "tanh";
  if (approximate && !useTanh && approximate->s != "none")
    return importer.emitError(node)
           << "approximate = '" << approximate->s << "' is not supported";
  Value x = inputs->front().value;
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  FailureOr<Value> result = importer.broadcastElementwise(
      node, {x}, element, [&](OpBuilder &b, Location loc, ValueRange v) {
        auto c = [&](double value) {
          return floatConstant(b, loc, element, value);
        };
        Value inner;
        if (useTanh) {
          Value cube = arith::MulFOp::create(
              b, loc, v[0], arith::MulFOp::create(b, loc, v[0], v[0]));
          Value sum = arith::AddFOp::create(
              b, loc, v[0], arith::MulFOp::create(b, loc, c(0.044715), cube));
          inner = math::TanhOp::create(
              b, loc,
              arith::MulFOp::create(b, loc, c(0.7978845608028654), sum));
        } else {
          inner = math::ErfOp::create(
              b, loc,
              arith::DivFOp::create(b, loc, v[0], c(1.4142135623730951)));
        }
        Value half = arith::MulFOp::create(b, loc, v[0], c(0.5));
        return Value(arith::MulFOp::create(
            b, loc, half, arith::AddFOp::create(b, loc, c(1.0), inner)));
      });
  if (failed(result))
    return failure();
  importer.set(node.outputs[0], GraphValue{*result, inputs->front().type});
  return success();
}

/// `input` cast to `to`: float widening/narrowing, integer to float and back
/// (truncating toward zero, as C and numpy's astype), integer widths. To
/// float8 with `saturate` (ONNX's default) and to float4e2m1 (always, as
/// ml_dtypes casts) values past the largest finite one, infinities included,
/// clamp to it; without, arith.truncf's overflow to inf or NaN is ONNX's.
/// A float `v` as float8e8m0 (opset 24's Cast), by the bits of its f32
/// value: the exponent field, raised by one for `round_mode` "up" when any
/// mantissa bit is set and for "nearest" when the mantissa's top bit is set
/// and any bit below it (or the exponent field's lowest) is; with
/// `saturate`, never from 254 to 255 (NaN). NaN and infinities give 0xFF;
/// the sign is dropped.
Value castToE8M0(OpBuilder &b, Location loc, Value v, llvm::StringRef mode,
                 bool saturate) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  if (v.getType() != f32)
    v = v.getType().getIntOrFloatBitWidth() < 32
            ? Value(arith::ExtFOp::create(b, loc, f32, v))
            : Value(arith::TruncFOp::create(b, loc, f32, v));
  auto c = [&](int64_t x) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(x));
  };
  auto bit = [&](Value x, int64_t mask) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                 arith::AndIOp::create(b, loc, x, c(mask)),
                                 c(0));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, v);
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, c(23)), c(0xFF));
  Value up = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  if (mode == "up") {
    up = bit(bits, 0x7FFFFF);
  } else if (mode == "nearest") {
    Value below = arith::OrIOp::create(
        b, loc, bit(bits, 0x3FFFFF),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, exponent,
                              c(0)));
    up = arith::AndIOp::create(b, loc, bit(bits, 0x400000), below);
  }
  if (saturate)
    up = arith::AndIOp::create(b, loc, up,
                               arith::CmpIOp::create(b, loc,
                                                     arith::CmpIPredicate::ne,
                                                     exponent, c(0xFE)));
  Value code = arith::AddIOp::create(b, loc, exponent,
                                     arith::ExtUIOp::create(b, loc, i32, up));
  Value special = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        exponent, c(0xFF));
  code = arith::SelectOp::create(b, loc, special, c(0xFF), code);
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), code);
  return arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(), byte);
}

LogicalResult importCastTo(GraphImporter &importer, const OnnxNode &node,
                           const GraphValue &input, OnnxType to) {
  OnnxType from = input.type;
  if (to == OnnxType::Float8E8M0 || from == OnnxType::Float8E8M0) {
    OnnxType other = to == OnnxType::Float8E8M0 ? from : to;
    if (!isFloatType(other) || other == OnnxType::Float4E2M1 ||
        elementTypeOf(other, importer.context()).getIntOrFloatBitWidth() < 16)
      return importer.emitError(node)
             << "cast from " << onnxTypeName(from) << " to " << onnxTypeName(to)
             << " is not supported (float8e8m0 to and from float16, "
                "bfloat16, float and double)";
    const OnnxAttribute *roundMode = node.attribute("round_mode");
    std::string mode = roundMode ? roundMode->s : "up";
    if (mode != "up" && mode != "down" && mode != "nearest")
      return importer.emitError(node)
             << "round_mode '" << mode << "' is not up, down or nearest";
    bool saturate = importer.intAttr(node, "saturate", 1) != 0;
    Type target = elementTypeOf(to, importer.context());
    FailureOr<Value> result = importer.broadcastElementwise(
        node, {input.value}, target,
        [&](OpBuilder &b, Location loc, ValueRange x) {
          return to == OnnxType::Float8E8M0
                     ? castToE8M0(b, loc, x[0], mode, saturate)
                     : Value(arith::ExtFOp::create(b, loc, target, x[0]));
        });
    if (failed(result))
      return failure();
    importer.set(node.outputs[0], GraphValue{*result, to});
    return success();
  }
  Type target = elementTypeOf(to, importer.context());
  if (!target || to == OnnxType::Bool || from == OnnxType::Bool)
    return importer.emitError(node)
           << "cast from " << onnxTypeName(from) << " to " << onnxTypeName(to)
           << " is not supported";
  Type source = cast<RankedTensorType>(input.value.getType()).getElementType();
  bool fromFloat = isFloatType(from), toFloat = isFloatType(to);
  bool toFloat4 = to == OnnxType::Float4E2M1;
  // saturate is an opset 19 attribute; before it no cast reaches float8.
  bool saturate = toFloat4 || importer.intAttr(node, "saturate", 1) != 0;
  FailureOr<Value> result = importer.broadcastElementwise(
      node, {input.value}, target,
      [&](OpBuilder &b, Location loc, ValueRange x) {
        Value v = x[0];
        if (fromFloat && toFloat) {
          if (source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
            return Value(arith::ExtFOp::create(b, loc, target, v));
          if (source == target)
            return v;
          if (target.getIntOrFloatBitWidth() <= 8 && saturate) {
            // maximumf and minimumf keep NaN (and -0).
            double largest =
                quant_affine::largestFinite(cast<FloatType>(target));
            v = arith::MaximumFOp::create(
                b, loc, v, floatConstant(b, loc, source, -largest));
            v = arith::MinimumFOp::create(
                b, loc, v, floatConstant(b, loc, source, largest));
          }
          if (toFloat4) {
            // float4e2m1 has no NaN: ml_dtypes (ONNX's reference) gives -0.
            Value isNaN =
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
            v = arith::SelectOp::create(b, loc, isNaN,
                                        floatConstant(b, loc, source, -0.0), v);
          }
          // Rounded to nearest even by the pipeline's expansion of truncf to
          // float8 and float4 (ExpandNarrowFloats).
          return Value(arith::TruncFOp::create(b, loc, target, v));
        }
        if (!fromFloat && toFloat)
          return isUnsignedInteger(from)
                     ? Value(arith::UIToFPOp::create(b, loc, target, v))
                     : Value(arith::SIToFPOp::create(b, loc, target, v));
        // (ONNX leaves a value out of the integer type's range undefined;
        // its reference wraps int4/uint4 modulo 16, -9 to uint4 gives 7.
        // fptoui/fptosi to i4 make such values poison, whose bits differ
        // by target, so sub-byte results go through i32 and wrap.)
        if (fromFloat && target.getIntOrFloatBitWidth() < 8) {
          Value wide = arith::FPToSIOp::create(b, loc, b.getI32Type(), v);
          return Value(arith::TruncIOp::create(b, loc, target, wide));
        }
        if (fromFloat)
          return isUnsignedInteger(to)
                     ? Value(arith::FPToUIOp::create(b, loc, target, v))
                     : Value(arith::FPToSIOp::create(b, loc, target, v));
        unsigned fromWidth = source.getIntOrFloatBitWidth();
        unsigned toWidth = target.getIntOrFloatBitWidth();
        if (fromWidth == toWidth)
          return v;
        if (fromWidth > toWidth)
          return Value(arith::TruncIOp::create(b, loc, target, v));
        return isUnsignedInteger(from)
                   ? Value(arith::ExtUIOp::create(b, loc, target, v))
                   : Value(arith::ExtSIOp::create(b, loc, target, v));
      });
  if (failed(result))
    return failure();
  importer.set(node.outputs[0], GraphValue{*result, to});
  return success();
}

/// Cast: to the type `to` names.
LogicalResult importCast(GraphImporter &importer, const OnnxNode &node) {
  FailureOr<SmallVector<GraphValue>> inputs = readInputs(importer, node, 1);
  if (failed(inputs))
    return failure();
  auto to = static_cast<OnnxType>(importer.intAttr(node, "to", 0));
  return importCastTo(importer, node, inputs->front(), to);
}

/// CastLike: Cast to the element type of its second input, whose values are
/// not read.
LogicalResult importCastLike(GraphImporter &importer, const OnnxNode &node) {
  if (node.inputs.size() != 2 || node.outputs.empty())
    return importer.emitError(node) << "needs 2 inputs";
  FailureOr<GraphValue> input = importer.get(node, node.inputs[0]);
  FailureOr<GraphValue> like = importer.get(node, node.inputs[1]);
  if (failed(input) || failed(like))
    return failure();
  if (!isa<RankedTensorType>(input->value.getType()))
    return importer.emitError(node) << "needs ranked tensors";
  return importCastTo(importer, node, *input, like->type);
}

/// Constant: its `value` tensor, or a scalar/list attribute.
LogicalResult importConstant(GraphImporter &importer, const OnnxNode &node) {
  Location loc = importer.locationOf(node);
  OpBuilder &b = importer.builder();
  if (const OnnxAttribute *value = node.attribute("value")) {
    FailureOr<GraphValue> constant = importer.constantOf(value->t, loc);
    if (failed(constant))
      return failure();
    importer.set(node.outputs[0], *constant);
    return success();
  }
  if (const OnnxAttribute *value = node.attribute("value_float")) {
    auto type = RankedTensorType::get({}, b.getF32Type());
    Value c = arith::ConstantOp::create(b, loc,
                                        DenseElementsAttr::get(type, value->f));
    importer.set(node.outputs[0], GraphValue{c, OnnxType::Float});
    return success();
  }
  if (const OnnxAttribute *value = node.attribute("value_floats")) {
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(value->floats.size())}, b.getF32Type());
    Value c = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<float>(value->floats)));
    importer.set(node.outputs[0], GraphValue{c, OnnxType::Float});
    return success();
  }
  if (const OnnxAttribute *value = node.attribute("value_int")) {
    auto type = RankedTensorType::get({}, b.getI64Type());
    Value c = arith::ConstantOp::create(b, loc,
                                        DenseElementsAttr::get(type, value->i));
    importer.set(node.outputs[0], GraphValue{c, OnnxType::Int64});
    return success();
  }
  if (const OnnxAttribute *value = node.attribute("value_ints")) {
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(value->ints.size())}, b.getI64Type());
    Value c = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<int64_t>(value->ints)));
    importer.set(node.outputs[0], GraphValue{c, OnnxType::Int64});
    return success();
  }
  return importer.emitError(node)
         << "only value, value_float(s) and value_int(s) are supported";
}

template <size_t Arity, bool FloatOnly, ScalarBody Body>
LogicalResult importWith(GraphImporter &importer, const OnnxNode &node) {
  return importElementwise<Arity, FloatOnly>(importer, node, Body);
}

} // namespace

void mlir::quant_affine::onnx_import::addElementwiseNodeImporters(
    NodeImporterTable &table) {
  table["Add"] = importWith<2, false, addBody>;
  table["Sub"] = importWith<2, false, subBody>;
  table["Mul"] = importWith<2, false, mulBody>;
  table["Div"] = importWith<2, true, divBody>;
  table["Relu"] = importWith<1, false, reluBody>;
  table["Sigmoid"] = importWith<1, true, sigmoidBody>;
  table["Tanh"] = importWith<1, true, tanhBody>;
  table["Erf"] = importWith<1, true, erfBody>;
  table["Neg"] = importWith<1, false, negBody>;
  table["Abs"] = importWith<1, false, absBody>;
  table["Exp"] = importWith<1, true, expBody>;
  table["Log"] = importWith<1, true, logBody>;
  table["Sqrt"] = importWith<1, true, sqrtBody>;
  table["Reciprocal"] = importWith<1, true, reciprocalBody>;
  table["Floor"] = importWith<1, true, floorBody>;
  table["Ceil"] = importWith<1, true, ceilBody>;
  table["Identity"] = importWith<1, false, identityBody>;
  table["Gelu"] = importGelu;
  table["Cast"] = importCast;
  table["CastLike"] = importCastLike;
  table["Constant"] = importConstant;
}
