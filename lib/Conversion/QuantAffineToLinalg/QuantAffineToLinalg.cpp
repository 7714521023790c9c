//===- QuantAffineToLinalg.cpp - tensor ops to linalg.generic -------------===//
//
// Part of the quant-affine project.
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
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/QuantAffineToLinalg.h"

#include "QuantAffine/Conversion/QuantAffineToArith/QuantAffineToArith.h"
#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
  Broadcast, ///< scale size 1: every element uses index 0.
  PerElement, ///< block size 1: scale index = input index.
  Blocked,   ///< input dim split into (count, block), one of them static.
  Gathered,  ///< count and block both dynamic: index j / B in the body.
};

/// The layout of a scale over an input, with the values the lowering needs.
struct EncodingLayout {
  int64_t inputRank = 0, scaleRank = 0;
  SmallVector<DimLayout> dims;      // per scale dim
  SmallVector<int64_t> blockSizes;  // resolved, kDynamic when unknown
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

/// Index-typed values and constants for the shape computations.
struct ShapeBuilder {
  OpBuilder &b;
  Location loc;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value dim(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return index(type.getDimSize(d));
    return tensor::DimOp::create(b, loc, tensor, d);
  }
  OpFoldResult dimOfr(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return b.getIndexAttr(type.getDimSize(d));
    return tensor::DimOp::create(b, loc, tensor, d).getResult();
  }
  /// X_d / max(S_d, 1): the block size of a dim whose size is not static.
  Value blockSize(Value input, Value scale, const EncodingLayout &layout,
                  int64_t d) {
    if (!ShapedType::isDynamic(layout.blockSizes[d]))
      return index(layout.blockSizes[d]);
    Value s = arith::MaxUIOp::create(b, loc, dim(scale, d), index(1));
    return arith::DivUIOp::create(b, loc, dim(input, layout.inputDimOf(d)), s);
  }
  Value eq(Value a, Value c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, c);
  }
};

/// Asserts at run time what the verifier could not check statically.
void emitRuntimeChecks(ShapeBuilder &sb, Operation *op, Value input,
                       Value scale, Value offset,
                       std::optional<ArrayRef<int64_t>> blockSize,
                       const EncodingLayout &layout) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto scaleType = cast<RankedTensorType>(scale.getType());
  std::string opName = op->getName().getStringRef().str();
  auto check = [&](Value cond, const std::string &what) {
    cf::AssertOp::create(sb.b, sb.loc, cond, opName + ": " + what);
  };
  for (int64_t d = 0; d < layout.scaleRank; ++d) {
    int64_t a = layout.inputDimOf(d);
    if (!inputType.isDynamicDim(a) && !scaleType.isDynamicDim(d))
      continue;
    Value x = sb.dim(input, a), s = sb.dim(scale, d);
    std::string dims = "scale dim " + std::to_string(d) + " and input dim " +
                       std::to_string(a);
    int64_t b = blockSize ? (*blockSize)[d] : 0;
    if (blockSize && b != -1) {
      Value covered = arith::MulIOp::create(sb.b, sb.loc, s, sb.index(b));
      check(sb.eq(covered, x),
            dims + ": block_size times the scale size must equal the input "
                   "size");
    } else if (blockSize) {
      Value nonZero =
          arith::CmpIOp::create(sb.b, sb.loc, arith::CmpIPredicate::ne, s,
                                sb.index(0));
      Value safe = arith::MaxUIOp::create(sb.b, sb.loc, s, sb.index(1));
      Value rem = arith::RemUIOp::create(sb.b, sb.loc, x, safe);
      Value ok = arith::AndIOp::create(sb.b, sb.loc, nonZero,
                                       sb.eq(rem, sb.index(0)));
      check(ok, dims + ": the input size must be a multiple of the scale size "
                       "for a -1 block");
    } else {
      Value ok = arith::OrIOp::create(sb.b, sb.loc, sb.eq(s, sb.index(1)),
                                      sb.eq(s, x));
      check(ok, dims + ": the scale size must be 1 or the input size");
    }
    if (offset && scaleType.isDynamicDim(d))
      check(sb.eq(sb.dim(offset, d), s),
            "offset dim " + std::to_string(d) + " must equal the scale dim");
  }
}

/// The element of a splat constant tensor, or null.
TypedAttr splatValueOf(Value v) {
  SplatElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return {};
  return attr.getSplatValue<TypedAttr>();
}

/// Lowers one tensor op to linalg.generic.
template <typename OpT>
struct EncodingOpToLinalg : OpConversionPattern<OpT> {
  EncodingOpToLinalg(MLIRContext *ctx, bool runtimeChecks)
      : OpConversionPattern<OpT>(ctx), runtimeChecks(runtimeChecks) {}

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "scalar/vector form: use arith");
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), scale = adaptor.getScale(),
          offset = adaptor.getOffset();
    auto scaleType = cast<RankedTensorType>(scale.getType());
    std::optional<ArrayRef<int64_t>> blockSize;
    if (op.getBlockSizeAttr())
      blockSize = op.getBlockSizeAttr().asArrayRef();
    EncodingLayout layout = analyzeLayout(inputType, scaleType, blockSize);
    ShapeBuilder sb{rewriter, loc};
    if (runtimeChecks)
      emitRuntimeChecks(sb, op, input, scale, offset, blockSize, layout);

    Value result = layout.needsGather()
                       ? lowerWithGather(op, sb, input, scale, offset, layout)
                       : lowerWithMaps(op, sb, input, scale, offset, layout);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The scalar op the generic body computes, with the same properties.
  static Value buildScalarOp(OpT op, OpBuilder &b, Location loc, Value x,
                             Value s, Value o, Type resultElem) {
    return OpT::create(b, loc, resultElem, x, s, o, op.getQminAttr(),
                       op.getQmaxAttr(), DenseI64ArrayAttr(),
                       op.getComputeTypeAttr());
  }

  /// Blocks through tensor.expand_shape, scales through indexing maps.
  Value lowerWithMaps(OpT op, ShapeBuilder &sb, Value input, Value scale,
                      Value offset, const EncodingLayout &layout) const {
    OpBuilder &b = sb.b;
    Location loc = sb.loc;
    auto inputType = cast<RankedTensorType>(input.getType());
    Type resultElem = getElementTypeOrSelf(op.getResult().getType());
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
        Value blockValue = sb.blockSize(input, scale, layout, d);
        int64_t count = cast<RankedTensorType>(scale.getType()).getDimSize(d);
        OpFoldResult countOfr =
            ShapedType::isDynamic(count)
                ? OpFoldResult(arith::DivUIOp::create(
                                   b, loc, sb.dim(input, a), blockValue)
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
        expandedSizes.push_back(sb.dimOfr(input, a));
      }
      groups.push_back(group);
    }
    int64_t loops = expandedShape.size();
    bool expanded = loops != n;
    if (expanded)
      input = tensor::ExpandShapeOp::create(
          b, loc, inputType.clone(expandedShape), input, groups,
          expandedSizes);

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
    TypedAttr scaleSplat = splatValueOf(scale), offsetSplat = splatValueOf(offset);
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
          Value r = buildScalarOp(op, nb, nloc, args[0], s, o, resultElem);
          linalg::YieldOp::create(nb, nloc, r);
        });
    Value result = generic.getResult(0);
    if (expanded)
      result = tensor::CollapseShapeOp::create(b, loc, op.getResult().getType(),
                                               result, groups);
    return result;
  }

  /// Scales read with tensor.extract at floor(j / B): the general fallback
  /// for dims whose block count and size are both dynamic.
  Value lowerWithGather(OpT op, ShapeBuilder &sb, Value input, Value scale,
                        Value offset, const EncodingLayout &layout) const {
    OpBuilder &b = sb.b;
    Location loc = sb.loc;
    int64_t n = layout.inputRank;
    Type resultElem = getElementTypeOrSelf(op.getResult().getType());
    SmallVector<Value> blocks;
    for (int64_t d = 0; d < layout.scaleRank; ++d)
      blocks.push_back(layout.dims[d] == DimLayout::Broadcast
                           ? Value()
                           : sb.blockSize(input, scale, layout, d));
    SmallVector<OpFoldResult> sizes;
    for (int64_t a = 0; a < n; ++a)
      sizes.push_back(sb.dimOfr(input, a));
    Value init = tensor::EmptyOp::create(b, loc, sizes, resultElem);
    AffineMap identity = b.getMultiDimIdentityMap(n);
    SmallVector<utils::IteratorType> iterators(n,
                                               utils::IteratorType::parallel);
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
          Value o = offset ? tensor::ExtractOp::create(nb, nloc, offset, index)
                                 .getResult()
                           : Value();
          Value r = buildScalarOp(op, nb, nloc, args[0], s, o, resultElem);
          linalg::YieldOp::create(nb, nloc, r);
        });
    return generic.getResult(0);
  }

  bool runtimeChecks;
};

struct ConvertQuantAffineToLinalgPass
    : quant_affine::impl::ConvertQuantAffineToLinalgPassBase<
          ConvertQuantAffineToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, math::MathDialect,
                           linalg::LinalgDialect, tensor::TensorDialect,
                           cf::ControlFlowDialect>();
    // Tensor ops become generics whose scalar bodies are lowered in the same
    // conversion, so no quant_affine op survives.
    target.addIllegalDialect<QuantAffineDialect>();
    RewritePatternSet patterns(&getContext());
    populateQuantAffineToLinalgConversionPatterns(patterns, runtimeChecks);
    populateQuantAffineToArithConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::quant_affine::populateQuantAffineToLinalgConversionPatterns(
    RewritePatternSet &patterns, bool runtimeChecks) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<EncodingOpToLinalg<QuantizeOp>, EncodingOpToLinalg<DequantizeOp>,
               EncodingOpToLinalg<QDQOp>>(ctx, runtimeChecks);
}
