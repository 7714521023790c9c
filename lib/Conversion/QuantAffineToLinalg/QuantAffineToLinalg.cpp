//===- QuantAffineToLinalg.cpp - tensor ops to linalg.generic -------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each tensor op becomes one linalg.generic whose body holds the scalar form
// of the op, which QuantAffineToArith then expands (one copy of the formula).
// Scales reach the body through projected-permutation maps: broadcast dims map
// to 0, per-element dims to the input dim, and blocked dims split the input dim
// X into (X / B, B) with tensor.expand_shape. When both the block count and
// the block size are dynamic, the scale is read with tensor.extract at j / B
// instead (an expand_shape group with two dynamic sizes crashes upstream
// -expand-strided-metadata in MLIR 22.1).
//
// An expand_shape group must be static exactly when the dim it splits is. So
// each op first gets the sizes known statically, from its types, from
// producers (tensor.cast, earlier ops) and from what its encoding fixes (a
// dynamic input dim with a static block and scale size is their product);
// operands are cast to those, and the result back to the op's type. Known
// sizes that break a shape rule are a compile-time error at the op. What
// stays dynamic is checked at run time on request (RuntimeChecks.h).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/QuantAffineToLinalg.h"

#include "QuantAffine/Conversion/QuantAffineToArith/QuantAffineToArith.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/CalibrationToLinalg.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/RuntimeChecks.h"
#include "QuantAffine/Conversion/QuantAffineToLinalg/TensorShapes.h"
#include "QuantAffine/Dialect/QuantAffine/IR/PowerOfTwoScales.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"
#include "QuantAffine/Dialect/QuantAffine/IR/ShapeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace quant_affine {
#define GEN_PASS_DEF_CONVERTQUANTAFFINETOLINALGPASS
#include "QuantAffine/Conversion/Passes.h.inc"
} // namespace quant_affine
} // namespace mlir

using namespace mlir;
using namespace mlir::quant_affine;

namespace {

/// How one scale dim is laid over its input dim.
enum class DimLayout {
  Broadcast,  ///< scale size 1: every element uses index 0.
  PerElement, ///< block size 1: scale index = input index.
  Blocked,    ///< input dim split into (count, block), one of them static.
  Gathered,   ///< count and block both dynamic: index j / B in the body.
};

/// The layout of a scale over an input, with the values the lowering needs.
struct EncodingLayout {
  int64_t inputRank = 0, scaleRank = 0;
  SmallVector<DimLayout> dims;     // per scale dim
  SmallVector<int64_t> blockSizes; // resolved, kDynamic when unknown
  bool needsGather() const {
    return llvm::is_contained(dims, DimLayout::Gathered);
  }
  int64_t inputDimOf(int64_t d) const { return inputRank - scaleRank + d; }
};

EncodingLayout analyzeLayout(RankedTensorType input, RankedTensorType scale,
                             std::optional<ArrayRef<int64_t>> blockSize) {
  EncodingLayout layout;
  layout.inputRank = input.getRank();
  layout.scaleRank = scale.getRank();
  layout.blockSizes =
      resolveBlockSizes(input.getShape(), scale.getShape(), blockSize);
  for (int64_t d = 0; d < layout.scaleRank; ++d) {
    int64_t s = scale.getDimSize(d), b = layout.blockSizes[d];
    if (s == 1)
      layout.dims.push_back(DimLayout::Broadcast);
    else if (b == 1)
      layout.dims.push_back(DimLayout::PerElement);
    else if (!ShapedType::isDynamic(b) || !ShapedType::isDynamic(s))
      layout.dims.push_back(DimLayout::Blocked);
    else
      layout.dims.push_back(DimLayout::Gathered);
  }
  return layout;
}

/// X_d / max(S_d, 1): the block size of a dim whose size is not static.
Value blockSizeOf(ShapeBuilder &sb, Value input, Value scale,
                  const EncodingLayout &layout, int64_t d) {
  if (!ShapedType::isDynamic(layout.blockSizes[d]))
    return sb.index(layout.blockSizes[d]);
  Value s = arith::MaxUIOp::create(sb.b, sb.loc, sb.dim(scale, d), sb.index(1));
  return arith::DivUIOp::create(sb.b, sb.loc,
                                sb.dim(input, layout.inputDimOf(d)), s);
}

/// The operands of a tensor op and its block sizes.
struct EncodingOperands {
  Value input, scale, offset;
  std::optional<ArrayRef<int64_t>> blockSize;
};

EncodingOperands getEncodingOperands(QuantizerOpInterface op) {
  EncodingOperands operands{op.getInput(), op.getScale(), op.getOffset(),
                            std::nullopt};
  if (op.getBlockSizeAttr())
    operands.blockSize = op.getBlockSizeAttr().asArrayRef();
  return operands;
}

/// The operands of a tensor float_qdq with a maxval, which is laid out as a
/// scale.
EncodingOperands getEncodingOperands(FloatQDQOp op) {
  return {op.getInput(), op.getMaxval(), Value(), op.getBlockSizeArray()};
}

/// Checks at run time what the types leave open (ShapeChecks.h), through
/// `checks`.
LogicalResult emitRuntimeChecks(RuntimeCheckEmitter &checks, OpBuilder &b,
                                Location loc, Operation *op,
                                const EncodingOperands &v) {
  LogicalResult result = success();
  emitShapeChecks(b, loc, v.input, v.scale, v.offset, v.blockSize,
                  [&](Value ok, const CheckMessage &message) {
                    if (succeeded(result))
                      result = checks.emitCheck(b, loc, op, ok, message);
                  });
  return result;
}

/// The input and scale types the lowering computes with: where the encoding
/// fixes a dynamic size of a blocked dim, that size. An expand_shape group
/// must then be all static exactly when the input dim is: a dynamic input dim
/// with a static block and a static scale size becomes block x scale, and a
/// static one with a static block makes the scale size input / block. (The
/// run-time checks, emitted first, guard the casts.)
std::pair<RankedTensorType, RankedTensorType>
refineTypes(RankedTensorType input, RankedTensorType scale,
            std::optional<ArrayRef<int64_t>> blockSize) {
  SmallVector<int64_t> x(input.getShape()), s(scale.getShape());
  int64_t n = x.size(), k = s.size();
  for (int64_t d = 0; blockSize && d < k; ++d) {
    int64_t a = n - k + d, block = (*blockSize)[d];
    if (block == -1 || block == 1 || s[d] == 1)
      continue; // Wildcards resolve by division; other dims are not split.
    int64_t product;
    if (ShapedType::isDynamic(x[a]) && !ShapedType::isDynamic(s[d]) &&
        !llvm::MulOverflow(block, s[d], product))
      x[a] = product; // (An overflowing one fails the run-time check.)
    else if (!ShapedType::isDynamic(x[a]) && ShapedType::isDynamic(s[d]))
      s[d] = x[a] / block;
  }
  return {input.clone(x), scale.clone(s)};
}

/// What the lowering knows about the sizes of one tensor op: the types it
/// computes with (the scale type is also the offset's), or the shape rule
/// that the sizes known statically break.
struct ShapeFacts {
  RankedTensorType input, scale;
  std::optional<std::string> error;
};

/// The static sizes of tensor values whose types say `?`, from producers that
/// keep the shape: tensor.cast, and the tensor quant_affine ops, whose result
/// has their input's shape with what their encoding fixes. Memoized, so a
/// chain of ops is walked once.
class KnownShapes {
public:
  /// The shape of `v` with the static sizes its producers know.
  SmallVector<int64_t> of(Value v) {
    auto found = shapes.find(v);
    if (found != shapes.end())
      return found->second;
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    auto join = [&](ArrayRef<int64_t> other) {
      if (other.size() != shape.size())
        return;
      for (auto [dim, size] : llvm::zip(shape, other))
        if (ShapedType::isDynamic(dim))
          dim = size;
    };
    if (auto castOp = v.getDefiningOp<tensor::CastOp>()) {
      if (isa<RankedTensorType>(castOp.getSource().getType()))
        join(of(castOp.getSource()));
    } else if (Operation *producer = v.getDefiningOp();
               producer && isa<QuantizerOpInterface>(producer) &&
               isa<RankedTensorType>(producer->getOperand(0).getType())) {
      const ShapeFacts &producerFacts = facts(producer);
      if (!producerFacts.error)
        join(producerFacts.input.getShape());
    }
    shapes[v] = shape;
    return shape;
  }

  /// The facts of a tensor quantize, dequantize or qdq, or of a tensor
  /// float_qdq with a maxval.
  const ShapeFacts &facts(Operation *op) {
    auto found = opFacts.find(op);
    if (found != opFacts.end())
      return found->second;
    EncodingOperands operands =
        isa<FloatQDQOp>(op)
            ? getEncodingOperands(cast<FloatQDQOp>(op))
            : getEncodingOperands(cast<QuantizerOpInterface>(op));
    ShapeFacts result = compute(operands, this);
    return opFacts[op] = result;
  }

  /// The facts of `op` from its own types alone.
  static ShapeFacts fromTypes(QuantizerOpInterface op) {
    return compute(getEncodingOperands(op), nullptr);
  }
  static ShapeFacts fromOperands(const EncodingOperands &operands) {
    return compute(operands, nullptr);
  }

private:
  static ShapeFacts compute(const EncodingOperands &v, KnownShapes *known) {
    auto shapeOf = [&](Value value) -> SmallVector<int64_t> {
      if (known)
        return known->of(value);
      return llvm::to_vector(
          cast<RankedTensorType>(value.getType()).getShape());
    };
    auto inputType = cast<RankedTensorType>(v.input.getType());
    auto scaleType = cast<RankedTensorType>(v.scale.getType());
    SmallVector<int64_t> x = shapeOf(v.input), s = shapeOf(v.scale), o;
    if (v.offset)
      o = shapeOf(v.offset);
    ShapeFacts result;
    // The rules themselves are the verifier's (ShapeRules.h), on the sizes
    // known here; an offset can tell a scale size.
    for (auto [i, size] : llvm::enumerate(o))
      if (ShapedType::isDynamic(s[i]))
        s[i] = size;
    result.error = findBrokenShapeRule(x, s, o, v.blockSize);
    if (result.error) {
      result.input = inputType;
      result.scale = scaleType;
      return result;
    }
    std::tie(result.input, result.scale) =
        refineTypes(inputType.clone(x), scaleType.clone(s), v.blockSize);
    return result;
  }

  DenseMap<Value, SmallVector<int64_t>> shapes;
  DenseMap<Operation *, ShapeFacts> opFacts;
};

/// The element of a splat constant tensor, or null.
TypedAttr splatValueOf(Value v) {
  SplatElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return {};
  return attr.getSplatValue<TypedAttr>();
}

/// Builds the scalar computation of one element in a linalg body: the input
/// element, its scale (or maxval) and offset (null without).
using ScalarBody =
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value, Value)>;

/// Blocks through tensor.expand_shape, scales through indexing maps.
Value lowerWithMaps(const ScalarBody &body, Type resultElem, ShapeBuilder &sb,
                    Value input, Value scale, Value offset,
                    const EncodingLayout &layout) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t n = layout.inputRank;

  // The iteration space: each blocked input dim becomes (count, block).
  SmallVector<ReassociationIndices> groups;
  SmallVector<OpFoldResult> expandedSizes;
  SmallVector<int64_t> expandedShape;
  SmallVector<int64_t> loopDimOfScaleDim(layout.scaleRank, -1);
  for (int64_t a = 0; a < n; ++a) {
    int64_t d = a - (n - layout.scaleRank);
    ReassociationIndices group;
    if (d >= 0 && layout.dims[d] == DimLayout::Blocked) {
      int64_t block = layout.blockSizes[d];
      Value blockValue = blockSizeOf(sb, input, scale, layout, d);
      int64_t count = cast<RankedTensorType>(scale.getType()).getDimSize(d);
      OpFoldResult countOfr =
          ShapedType::isDynamic(count)
              ? OpFoldResult(
                    arith::DivUIOp::create(b, loc, sb.dim(input, a), blockValue)
                        .getResult())
              : OpFoldResult(b.getIndexAttr(count));
      loopDimOfScaleDim[d] = expandedShape.size();
      group = {static_cast<int64_t>(expandedShape.size()),
               static_cast<int64_t>(expandedShape.size()) + 1};
      expandedShape.append({count, block});
      expandedSizes.push_back(countOfr);
      expandedSizes.push_back(ShapedType::isDynamic(block)
                                  ? OpFoldResult(blockValue)
                                  : OpFoldResult(b.getIndexAttr(block)));
    } else {
      if (d >= 0)
        loopDimOfScaleDim[d] = expandedShape.size();
      group = {static_cast<int64_t>(expandedShape.size())};
      expandedShape.push_back(inputType.getDimSize(a));
      expandedSizes.push_back(tensor::getMixedSize(b, loc, input, a));
    }
    groups.push_back(group);
  }
  int64_t loops = expandedShape.size();
  bool expanded = loops != n;
  if (expanded)
    input = tensor::ExpandShapeOp::create(
        b, loc, inputType.clone(expandedShape), input, groups, expandedSizes);

  // Scale and offset maps: 0 for broadcast dims, the loop dim otherwise.
  SmallVector<AffineExpr> scaleExprs;
  for (int64_t d = 0; d < layout.scaleRank; ++d)
    scaleExprs.push_back(layout.dims[d] == DimLayout::Broadcast
                             ? b.getAffineConstantExpr(0)
                             : b.getAffineDimExpr(loopDimOfScaleDim[d]));
  MLIRContext *ctx = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, ctx);
  AffineMap scaleMap = AffineMap::get(loops, 0, scaleExprs, ctx);
  // Splat scales and offsets become constants in the body, where the
  // arith lowering can see them (a power-of-two scale then multiplies).
  TypedAttr scaleSplat = splatValueOf(scale),
            offsetSplat = splatValueOf(offset);
  SmallVector<Value> inputs = {input};
  SmallVector<AffineMap> maps = {identity};
  if (!scaleSplat) {
    inputs.push_back(scale);
    maps.push_back(scaleMap);
  }
  if (offset && !offsetSplat) {
    inputs.push_back(offset);
    maps.push_back(scaleMap);
  }
  maps.push_back(identity);

  Value init = tensor::EmptyOp::create(b, loc, expandedSizes, resultElem);
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  bool hasOffset = static_cast<bool>(offset);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        unsigned next = 1;
        auto operandOf = [&](TypedAttr splat) -> Value {
          if (splat)
            return arith::ConstantOp::create(nb, nloc, splat);
          return args[next++];
        };
        Value s = operandOf(scaleSplat);
        Value o = hasOffset ? operandOf(offsetSplat) : Value();
        Value r = body(nb, nloc, args[0], s, o);
        linalg::YieldOp::create(nb, nloc, r);
      });
  Value result = generic.getResult(0);
  if (expanded)
    result = tensor::CollapseShapeOp::create(
        b, loc, inputType.clone(resultElem), result, groups);
  return result;
}

/// Scales read with tensor.extract at floor(j / B): the general fallback
/// for dims whose block count and size are both dynamic.
Value lowerWithGather(const ScalarBody &body, Type resultElem, ShapeBuilder &sb,
                      Value input, Value scale, Value offset,
                      const EncodingLayout &layout) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  int64_t n = layout.inputRank;
  SmallVector<Value> blocks;
  for (int64_t d = 0; d < layout.scaleRank; ++d)
    blocks.push_back(layout.dims[d] == DimLayout::Broadcast
                         ? Value()
                         : blockSizeOf(sb, input, scale, layout, d));
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, input), resultElem);
  AffineMap identity = b.getMultiDimIdentityMap(n);
  SmallVector<utils::IteratorType> iterators(n, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{input}, ValueRange{init},
      SmallVector<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> index;
        for (int64_t d = 0; d < layout.scaleRank; ++d) {
          if (!blocks[d]) {
            index.push_back(arith::ConstantIndexOp::create(nb, nloc, 0));
            continue;
          }
          Value j = linalg::IndexOp::create(nb, nloc, layout.inputDimOf(d));
          index.push_back(arith::DivUIOp::create(nb, nloc, j, blocks[d]));
        }
        Value s = tensor::ExtractOp::create(nb, nloc, scale, index);
        Value o =
            offset
                ? tensor::ExtractOp::create(nb, nloc, offset, index).getResult()
                : Value();
        Value r = body(nb, nloc, args[0], s, o);
        linalg::YieldOp::create(nb, nloc, r);
      });
  return generic.getResult(0);
}

/// Lowers one tensor quantizer op to linalg.generic.
struct QuantizerToLinalg : OpInterfaceConversionPattern<QuantizerOpInterface> {
  QuantizerToLinalg(MLIRContext *ctx, RuntimeCheckEmitter *checks,
                    KnownShapes *known)
      : OpInterfaceConversionPattern<QuantizerOpInterface>(ctx), checks(checks),
        known(known) {}

  LogicalResult
  matchAndRewrite(QuantizerOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getInput().getType()))
      return rewriter.notifyMatchFailure(op, "scalar/vector form: use arith");
    Location loc = op.getLoc();
    ShapeFacts facts = known ? known->facts(op) : KnownShapes::fromTypes(op);
    if (facts.error)
      return rewriter.notifyMatchFailure(op, *facts.error);
    EncodingOperands v = getEncodingOperands(op);
    v.input = operands[0];
    v.scale = operands[1];
    v.offset = operands.size() > 2 ? operands[2] : Value();
    ShapeBuilder sb{rewriter, loc};
    if (checks && failed(emitRuntimeChecks(*checks, rewriter, loc, op, v)))
      return failure();

    RankedTensorType refinedInput = facts.input, refinedScale = facts.scale;
    Value input = castTo(rewriter, loc, v.input, refinedInput);
    Value scale = castTo(rewriter, loc, v.scale, refinedScale);
    // The offset has the scale's shape but its own element type.
    Value offset =
        v.offset ? castTo(rewriter, loc, v.offset,
                          refinedScale.clone(getElementTypeOrSelf(v.offset)))
                 : Value();
    Value result;
    if (llvm::is_contained(refinedInput.getShape(), 0)) {
      // No elements: nothing to compute (and no block to split).
      result = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, input),
          getElementTypeOrSelf(op.getResult().getType()));
    } else {
      EncodingLayout layout =
          analyzeLayout(refinedInput, refinedScale, v.blockSize);
      Type resultElem = getElementTypeOrSelf(op.getResult().getType());
      auto body = [&](OpBuilder &nb, Location, Value x, Value s, Value o) {
        return buildScalarOp(op, nb, x, s, o, resultElem);
      };
      result = layout.needsGather()
                   ? lowerWithGather(body, resultElem, sb, input, scale, offset,
                                     layout)
                   : lowerWithMaps(body, resultElem, sb, input, scale, offset,
                                   layout);
    }
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }

private:
  /// The scalar op the generic body computes: a copy with every property
  /// but the block sizes (which the indexing maps now express).
  static Value buildScalarOp(QuantizerOpInterface op, OpBuilder &b, Value x,
                             Value s, Value o, Type resultElem) {
    QuantizerOpInterface scalar = op.cloneWith(b, x, s, o, resultElem);
    scalar.setBlockSizeAttr(DenseI64ArrayAttr());
    return scalar.getResult();
  }

  RuntimeCheckEmitter *checks;
  KnownShapes *known;
};

/// Lowers one tensor float_qdq: without maxval one elementwise generic whose
/// body is the scalar op; with one, a generic computing the factor k of each
/// maxval element, then the data generic reading k as quantize reads scales.
struct FloatQDQToLinalg : OpConversionPattern<FloatQDQOp> {
  FloatQDQToLinalg(MLIRContext *ctx, RuntimeCheckEmitter *checks,
                   KnownShapes *known)
      : OpConversionPattern<FloatQDQOp>(ctx), checks(checks), known(known) {}

  LogicalResult
  matchAndRewrite(FloatQDQOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "scalar/vector form: use arith");
    Location loc = op.getLoc();
    FloatFormat format = op.getFormat();
    Type elem = inputType.getElementType();
    if (!op.getMaxval()) {
      Value result =
          elementwise(rewriter, loc, adaptor.getInput(), elem,
                      [&](OpBuilder &nb, Location nloc, Value x) -> Value {
                        // The scalar op, with every property of the tensor one.
                        Operation *scalar = nb.clone(*op.getOperation());
                        scalar->setOperands(x);
                        scalar->getResult(0).setType(elem);
                        return scalar->getResult(0);
                      });
      rewriter.replaceOp(op, result);
      return success();
    }

    ShapeFacts facts = known
                           ? known->facts(op)
                           : KnownShapes::fromOperands(getEncodingOperands(op));
    if (facts.error)
      return rewriter.notifyMatchFailure(op, *facts.error);
    EncodingOperands v = getEncodingOperands(op);
    v.input = adaptor.getInput();
    v.scale = adaptor.getMaxval();
    if (checks && failed(emitRuntimeChecks(*checks, rewriter, loc, op, v)))
      return failure();
    Value input = castTo(rewriter, loc, v.input, facts.input);
    Value maxval = castTo(rewriter, loc, v.scale, facts.scale);
    Value result;
    if (llvm::is_contained(facts.input.getShape(), 0)) {
      result = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, input), elem);
    } else {
      Value factor =
          elementwise(rewriter, loc, maxval, rewriter.getF32Type(),
                      [&](OpBuilder &nb, Location nloc, Value m) {
                        return emitFloatQDQFactor(nb, nloc, format, m);
                      });
      EncodingLayout layout = analyzeLayout(
          facts.input, cast<RankedTensorType>(factor.getType()), v.blockSize);
      ShapeBuilder sb{rewriter, loc};
      auto body = [&](OpBuilder &nb, Location nloc, Value x, Value k, Value) {
        return emitFloatQDQ(nb, nloc, format, x, k, /*maxvalIsFactor=*/true);
      };
      result =
          layout.needsGather()
              ? lowerWithGather(body, elem, sb, input, factor, Value(), layout)
              : lowerWithMaps(body, elem, sb, input, factor, Value(), layout);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, inputType));
    return success();
  }

private:
  /// An elementwise generic over `input` into a new tensor of `resultElem`.
  static Value
  elementwise(OpBuilder &b, Location loc, Value input, Type resultElem,
              llvm::function_ref<Value(OpBuilder &, Location, Value)> body) {
    auto type = cast<RankedTensorType>(input.getType());
    Value init = tensor::EmptyOp::create(
        b, loc, tensor::getMixedSizes(b, loc, input), resultElem);
    AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, init.getType(), ValueRange{input}, ValueRange{init},
        SmallVector<AffineMap>{identity, identity}, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          linalg::YieldOp::create(nb, nloc, body(nb, nloc, args[0]));
        });
    return generic.getResult(0);
  }

  RuntimeCheckEmitter *checks;
  KnownShapes *known;
};

struct ConvertQuantAffineToLinalgPass
    : quant_affine::impl::ConvertQuantAffineToLinalgPassBase<
          ConvertQuantAffineToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    // Sizes that cannot fit, even where the op's types leave them dynamic,
    // are errors now rather than at run time. (Producers come first in the
    // walk, so each op's facts build on its producers'.)
    KnownShapes known;
    bool wrongShapes = false;
    getOperation()->walk([&](Operation *op) {
      if (auto encoding = dyn_cast<ComputeEncodingOp>(op)) {
        std::string error;
        if (failed(encodingBlocks(encoding, error))) {
          encoding.emitOpError() << error;
          wrongShapes = true;
        }
        return;
      }
      auto floatQdq = dyn_cast<FloatQDQOp>(op);
      if ((!isa<QuantizerOpInterface>(op) &&
           !(floatQdq && floatQdq.getMaxval())) ||
          !isa<RankedTensorType>(op->getOperand(0).getType()))
        return;
      if (const std::optional<std::string> &error = known.facts(op).error) {
        op->emitOpError() << *error;
        wrongShapes = true;
      }
    });
    if (wrongShapes)
      return signalPassFailure();

    // Power-of-two scales (microscaling) multiply by their reciprocal: the
    // same bits without a division per element (PowerOfTwoScales.h).
    getOperation()->walk([&](QuantizerOpInterface op) {
      if (canMultiplyByReciprocal(op))
        op->setAttr("reciprocal", UnitAttr::get(&getContext()));
    });

    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, math::MathDialect,
                           linalg::LinalgDialect, tensor::TensorDialect,
                           cf::ControlFlowDialect, scf::SCFDialect,
                           LLVM::LLVMDialect, func::FuncDialect>();
    // Tensor ops become generics whose scalar bodies are lowered in the same
    // conversion, so no quant_affine op survives.
    target.addIllegalDialect<QuantAffineDialect>();
    std::optional<RuntimeCheckEmitter> checks;
    if (runtimeChecks)
      checks.emplace(getOperation());
    RewritePatternSet patterns(&getContext());
    patterns.add<QuantizerToLinalg>(&getContext(), checks ? &*checks : nullptr,
                                    &known);
    patterns.add<FloatQDQToLinalg>(&getContext(), checks ? &*checks : nullptr,
                                   &known);
    populateCalibrationToLinalgPatterns(patterns);
    populateQuantAffineToArithConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::quant_affine::populateQuantAffineToLinalgConversionPatterns(
    RewritePatternSet &patterns, RuntimeCheckEmitter *checks) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<QuantizerToLinalg>(ctx, checks, /*known=*/nullptr);
  patterns.add<FloatQDQToLinalg>(ctx, checks, /*known=*/nullptr);
  populateCalibrationToLinalgPatterns(patterns);
}
