//===- LookupTables.cpp - packed codes dequantized by table lookup --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An int4 code has 16 values, so whatever a kernel computes from it and from
// values equal in every lane (the block's scale and offset) has 16 results:
// computed once as a 16-lane table, each weight is one lookup instead of an
// unpack, a conversion and a multiply per lane. Upstream has no table
// lookup: `quant_affine_vector.lookup` is one, lowered late to the target's
// permute (`vpermps`) by quant-affine-lower-lookups.
//
// f4E2M1FN codes have 16 values too. Where a register holds only 8 f32
// (AVX2), the 16-entry table is kept as two halves, the codes without and
// with the sign bit: each code is looked up in both by its low 3 bits
// (`vpermps` ignores the others) and takes the half its sign bit names
// (`vblendvps` reads just that bit, once the code is at the top of its lane).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Codegen/Common/LookupTables.h"
#include "QuantAffine/Codegen/Common/UniformReads.h"
#include "QuantAffine/Codegen/Common/UnpackByShifts.h"
#include "QuantAffine/Dialect/QuantAffineVector/IR/QuantAffineVector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// Codes per table: one register of f32 (`vpermps` on 16 lanes).
constexpr int64_t kTableSize = 16;

/// Whether `value` is the same in every lane: a broadcast of a scalar, a
/// splat constant, or a broadcasting transfer read.
bool isLaneUniform(Value value) {
  if (quant_affine::broadcastScalar(value) ||
      quant_affine::isSplatConstant(value))
    return true;
  if (auto read = value.getDefiningOp<vector::TransferReadOp>())
    return quant_affine::readsOneElement(read);
  return false;
}

/// The value of `uniform` on `lanes` lanes, created at the builder.
Value narrowUniform(OpBuilder &b, Value uniform, int64_t lanes) {
  auto type = cast<VectorType>(uniform.getType());
  auto narrow = VectorType::get({lanes}, type.getElementType());
  Location loc = uniform.getLoc();
  auto read = uniform.getDefiningOp<vector::TransferReadOp>();
  if (!read)
    return quant_affine::oneValueAs(b, loc, uniform, narrow);
  return vector::TransferReadOp::create(
      b, loc, narrow, read.getBase(), read.getIndices(),
      read.getPermutationMapAttr(), read.getPadding(), /*mask=*/Value(),
      read.getInBoundsAttr());
}

bool isElementwiseOnLanes(Operation *op, VectorType lanes) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !OpTrait::hasElementwiseMappableTraits(op))
    return false;
  auto type = dyn_cast<VectorType>(op->getResult(0).getType());
  return type && type.getShape() == lanes.getShape();
}

/// The order of the looked-up weights of 16-byte chunks: per chunk, the low
/// nibbles of its bytes (codes 0, 2, 4, ...), then the high ones (1, 3, ...).
SmallVector<int64_t> chunkOrder(int64_t lanes, int64_t bytes) {
  SmallVector<int64_t> order;
  for (int64_t chunk = 0; chunk < lanes; chunk += 2 * bytes)
    for (int64_t high = 0; high < 2; ++high)
      for (int64_t i = 0; i < bytes; ++i)
        order.push_back(chunk + 2 * i + high);
  return order;
}

/// Looks the codes of `bitcast` (f4E2M1FN, 8 per 32-bit word) up in two
/// tables of 8, the chain (`tableOf`) on codes 0-7 and on 8-15, and
/// replaces the weight in `products` by the result, in the codes' order.
void lookUpInHalves(OpBuilder &b, Location loc, vector::BitCastOp bitcast,
                    function_ref<Value(ArrayRef<int64_t>)> tableOf,
                    Operation *weight, ArrayRef<arith::MulFOp> products) {
  constexpr int64_t kHalf = kTableSize / 2;
  Value positive = tableOf(llvm::to_vector(llvm::seq<int64_t>(0, kHalf)));
  Value negative =
      tableOf(llvm::to_vector(llvm::seq<int64_t>(kHalf, kTableSize)));
  Type i32 = b.getI32Type();
  auto lanesOf = [&](Type element) {
    return VectorType::get({kHalf}, element);
  };
  auto splat = [&](int64_t value) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanesOf(i32), APInt(32, value)));
  };
  Value zero = splat(0), down = splat(28), low3 = splat(kHalf - 1);
  SmallVector<Value> pieces;
  // Each code at the top of its lane: its sign bit the lane's.
  for (Value top : quant_affine::spreadCodesToLaneTops(b, loc, bitcast)) {
    Value index = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, top, down), low3);
    Value negativeCode =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, top, zero);
    Value ifClear =
        quant_affine_vector::LookupOp::create(b, loc, positive, index);
    Value ifSet =
        quant_affine_vector::LookupOp::create(b, loc, negative, index);
    pieces.push_back(
        arith::SelectOp::create(b, loc, negativeCode, ifSet, ifClear));
  }
  Value weights = quant_affine::joinSideBySide(b, loc, pieces);
  for (arith::MulFOp product : products)
    product->replaceUsesOfWith(weight->getResult(0), weights);
}

/// The constant vector of `codes` (4-bit patterns) in `type`'s element type
/// (i4 or f4E2M1FN).
Value codeConstant(OpBuilder &b, Location loc, Type element,
                   ArrayRef<int64_t> codes) {
  auto type = VectorType::get({static_cast<int64_t>(codes.size())}, element);
  if (auto format = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    for (int64_t code : codes)
      values.push_back(APFloat(format.getFloatSemantics(), APInt(4, code)));
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, values));
  }
  SmallVector<APInt> values;
  for (int64_t code : codes)
    values.push_back(APInt(4, code));
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

/// Rewrites the chain from `convert` (sitofp/uitofp of a bitcast of bytes to
/// int4, or extf of one to f4E2M1FN) if it qualifies; see
/// lookUpPackedCodesInTables. Collects the shuffles of the products' other
/// factors into `shuffles`.
void rewriteChain(Operation *convert, bool int4, int64_t float4TableLanes,
                  SmallVectorImpl<vector::ShuffleOp> &shuffles) {
  auto bitcast = convert->getOperand(0).getDefiningOp<vector::BitCastOp>();
  if (!bitcast)
    return;
  VectorType bytesType = bitcast.getSourceVectorType();
  VectorType codesType = bitcast.getResultVectorType();
  Type codeElement = codesType.getElementType();
  bool float4 = isa<arith::ExtFOp>(convert);
  if (float4 ? !isa<Float4E2M1FNType>(codeElement) || !float4TableLanes
             : !codeElement.isInteger(4) || !int4)
    return;
  // Two halves of 8 lanes, or one table of all 16 codes.
  bool halves = float4 && float4TableLanes == kTableSize / 2;
  int64_t lanesPerLookup = halves ? kTableSize / 2 : kTableSize;
  if (bytesType.getRank() != 1 || !bytesType.getElementType().isInteger(8) ||
      codesType.isScalable() || codesType.getNumElements() % lanesPerLookup)
    return;
  // Chunks of 16 bytes (two lookups, low and high nibbles, the activation
  // shuffled alike), or of 8 (one lookup of both, in order).
  int64_t byteCount = bytesType.getNumElements();
  int64_t chunkBytes =
      byteCount % kTableSize == 0 ? kTableSize : kTableSize / 2;
  auto lanes = cast<VectorType>(convert->getResult(0).getType());
  Block *block = convert->getBlock();

  // The chain: ops of this block on these lanes whose other operands are
  // uniform. Its end, the weight, must feed marked products only.
  llvm::SetVector<Operation *> chain;
  chain.insert(convert);
  for (size_t i = 0; i < chain.size(); ++i)
    for (Operation *user : chain[i]->getResult(0).getUsers()) {
      if (chain.contains(user) || user->getBlock() != block ||
          !isElementwiseOnLanes(user, lanes))
        continue;
      if (llvm::all_of(user->getOperands(), [&](Value operand) {
            Operation *def = operand.getDefiningOp();
            return (def && chain.contains(def)) || isLaneUniform(operand);
          }))
        chain.insert(user);
    }
  Operation *weight = nullptr;
  for (Operation *op : chain) {
    bool leaves = llvm::any_of(
        op->getUsers(), [&](Operation *user) { return !chain.contains(user); });
    if (!leaves)
      continue;
    if (weight)
      return; // more than one value leaves the chain
    weight = op;
  }
  if (!weight)
    return;
  SmallVector<arith::MulFOp> products;
  for (Operation *user : weight->getUsers()) {
    auto product = dyn_cast<arith::MulFOp>(user);
    if (chain.contains(user))
      continue;
    if (!product || !product->hasAttr(quant_affine::kLanesSummedAttrName) ||
        product->getBlock() != block || product.getLhs() == product.getRhs())
      return;
    products.push_back(product);
  }

  OpBuilder b(weight->getContext());
  b.setInsertionPointAfter(weight);
  Location loc = convert->getLoc();
  // A table: the chain on `codes`, by the same ops, one lane per code.
  auto tableOf = [&](ArrayRef<int64_t> codes) {
    int64_t size = codes.size();
    IRMapping mapping;
    mapping.map(convert->getOperand(0),
                codeConstant(b, loc, codeElement, codes));
    for (Operation &op : *block) {
      if (!chain.contains(&op))
        continue;
      for (Value operand : op.getOperands())
        if (!mapping.contains(operand))
          mapping.map(operand, narrowUniform(b, operand, size));
      Operation *copy = b.clone(op, mapping);
      auto type = cast<VectorType>(copy->getResult(0).getType());
      copy->getResult(0).setType(
          VectorType::get({size}, type.getElementType()));
      if (&op == weight)
        break;
    }
    return mapping.lookup(weight->getResult(0));
  };
  if (halves) {
    lookUpInHalves(b, loc, bitcast, tableOf, weight, products);
    return;
  }
  // The 16 codes in the order of their bits.
  Value table = tableOf(llvm::to_vector(llvm::seq<int64_t>(0, kTableSize)));

  // The codes as indices: low nibbles, then high nibbles, per chunk.
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t size, function_ref<int64_t(int64_t)> value) {
    SmallVector<APInt> values;
    for (int64_t i = 0; i < size; ++i)
      values.push_back(APInt(32, value(i)));
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(VectorType::get({size}, i32), values));
  };
  Value low, high;
  if (chunkBytes == kTableSize) {
    Value words = arith::ExtUIOp::create(
        b, loc, VectorType::get({byteCount}, i32), bitcast.getSource());
    low = arith::AndIOp::create(
        b, loc, words, constant(byteCount, [](int64_t) { return 15; }));
    high = arith::ShRUIOp::create(
        b, loc, words, constant(byteCount, [](int64_t) { return 4; }));
  } else {
    // Each byte twice, shifted by 0 then 4: the codes in their own order,
    // one vector of 16 indices per 8 bytes (no shuffle of the activation).
    SmallVector<int64_t> twice;
    for (int64_t i = 0; i < 2 * byteCount; ++i)
      twice.push_back(i / 2);
    int64_t size = twice.size();
    Value bytes = vector::ShuffleOp::create(b, loc, bitcast.getSource(),
                                            bitcast.getSource(), twice);
    Value words =
        arith::ExtUIOp::create(b, loc, VectorType::get({size}, i32), bytes);
    Value shifted = arith::ShRUIOp::create(
        b, loc, words, constant(size, [](int64_t i) { return i % 2 ? 4 : 0; }));
    low = arith::AndIOp::create(b, loc, shifted,
                                constant(size, [](int64_t) { return 15; }));
  }
  // The 16 indices from `first` on, looked up in one op.
  auto lookUp = [&](Value indices, int64_t first) -> Value {
    if (cast<VectorType>(indices.getType()).getNumElements() != kTableSize)
      indices = vector::ExtractStridedSliceOp::create(
          b, loc, indices, /*offsets=*/{first}, /*sizes=*/{kTableSize},
          /*strides=*/{1});
    return quant_affine_vector::LookupOp::create(b, loc, table, indices);
  };
  SmallVector<Value> pieces;
  if (chunkBytes == kTableSize) {
    for (int64_t first = 0; first < byteCount; first += kTableSize) {
      pieces.push_back(lookUp(low, first));
      pieces.push_back(lookUp(high, first));
    }
  } else {
    for (int64_t first = 0; first < 2 * byteCount; first += kTableSize)
      pieces.push_back(lookUp(low, first));
  }
  // Concatenated pairwise into the weight's type.
  while (pieces.size() > 1) {
    SmallVector<Value> joined;
    for (size_t i = 0; i + 1 < pieces.size(); i += 2) {
      int64_t size = cast<VectorType>(pieces[i].getType()).getNumElements();
      SmallVector<int64_t> all =
          llvm::to_vector(llvm::seq<int64_t>(0, 2 * size));
      joined.push_back(
          vector::ShuffleOp::create(b, loc, pieces[i], pieces[i + 1], all));
    }
    pieces = joined;
  }
  Value looked = pieces.front();
  if (chunkBytes != kTableSize) {
    // In the codes' own order already.
    for (arith::MulFOp product : products)
      product->replaceUsesOfWith(weight->getResult(0), looked);
    return;
  }
  SmallVector<int64_t> order = chunkOrder(lanes.getNumElements(), chunkBytes);
  for (arith::MulFOp product : products) {
    Value other = product.getLhs() == weight->getResult(0) ? product.getRhs()
                                                           : product.getLhs();
    b.setInsertionPoint(product);
    auto shuffled = vector::ShuffleOp::create(b, loc, other, other, order);
    shuffles.push_back(shuffled);
    product->setOperands({shuffled.getResult(), looked});
  }
}

/// The memref an access goes through, past views (subviews, reshapes).
Value rootMemRef(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// Whether an op inside `top` may write to the memory of `root`.
bool mayWriteTo(Operation *top, Value root) {
  WalkResult result = top->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> writes;
    effects.getEffects<MemoryEffects::Write>(writes);
    for (const MemoryEffects::EffectInstance &write : writes) {
      Value target = write.getValue();
      if (!target || rootMemRef(target) == root)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The activation's lane order is the same at every step: shuffled once,
/// into a copy made before the kernel's loops, rather than at every step of
/// every register tile. Applies where the shuffled vector is a whole
/// in-bounds row (last index 0, the row as long as the vector) of a static
/// memref that the loops do not write.
void shuffleActivationsOnce(ArrayRef<vector::ShuffleOp> shuffles) {
  llvm::DenseMap<Operation *, Value> preShuffled; // original read -> new
  llvm::DenseMap<Value, Value> copies;            // memref -> its copy
  for (vector::ShuffleOp shuffle : shuffles) {
    auto read = shuffle.getV1().getDefiningOp<vector::TransferReadOp>();
    if (!read || shuffle.getV2() != shuffle.getV1())
      continue;
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vectorType = read.getVectorType();
    std::optional<int64_t> lastIndex =
        getConstantIntValue(read.getIndices().back());
    if (!type || !type.hasStaticShape() || vectorType.getRank() != 1 ||
        read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        !read.getInBoundsValues()[0] || lastIndex != 0 ||
        type.getShape().back() != vectorType.getNumElements())
      continue;
    // The loop nest the read is in, directly in the function.
    Operation *top = read;
    while (top->getParentOp() && !isa<FunctionOpInterface>(top->getParentOp()))
      top = top->getParentOp();
    Value base = read.getBase();
    Operation *baseScope = isa<BlockArgument>(base)
                               ? base.getParentBlock()->getParentOp()
                               : base.getDefiningOp();
    if (top == read || !isa<LoopLikeOpInterface>(top) ||
        top->isAncestor(baseScope) || mayWriteTo(top, rootMemRef(base)))
      continue;

    Value &copy = copies[base];
    if (!copy) {
      // Before the loops: for every row, read, shuffle, store.
      OpBuilder b(top);
      Location loc = read.getLoc();
      auto copyType = MemRefType::get(type.getShape(), type.getElementType());
      copy = memref::AllocOp::create(b, loc, copyType);
      SmallVector<Value> indices;
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t size : type.getShape().drop_back()) {
        auto loop = scf::ForOp::create(
            b, loc, zero, arith::ConstantIndexOp::create(b, loc, size), one);
        indices.push_back(loop.getInductionVar());
        b.setInsertionPoint(loop.getBody()->getTerminator());
      }
      indices.push_back(zero);
      Value row = vector::TransferReadOp::create(
          b, loc, vectorType, base, indices, read.getPermutationMapAttr(),
          read.getPadding(), /*mask=*/Value(), read.getInBoundsAttr());
      Value permuted =
          vector::ShuffleOp::create(b, loc, row, row, shuffle.getMask());
      vector::StoreOp::create(b, loc, permuted, copy, indices);
    }
    Value &replacement = preShuffled[read];
    if (!replacement) {
      OpBuilder b(read);
      b.setInsertionPointAfter(read);
      replacement = vector::LoadOp::create(b, read.getLoc(), vectorType, copy,
                                           read.getIndices());
    }
    shuffle.getResult().replaceAllUsesWith(replacement);
    shuffle.erase();
  }
}

} // namespace

void mlir::quant_affine::lookUpPackedCodesInTables(Operation *root, bool int4,
                                                   int64_t float4TableLanes) {
  SmallVector<Operation *> converts;
  root->walk([&](Operation *op) {
    if (isa<arith::SIToFPOp, arith::UIToFPOp, arith::ExtFOp>(op) &&
        isa<VectorType>(op->getResult(0).getType()))
      converts.push_back(op);
  });
  SmallVector<vector::ShuffleOp> shuffles;
  for (Operation *convert : converts)
    rewriteChain(convert, int4, float4TableLanes, shuffles);
  shuffleActivationsOnce(shuffles);
}

bool mlir::quant_affine::dropLanesSummedMarks(Operation *root) {
  bool dropped = false;
  root->walk([&](Operation *op) {
    dropped |= static_cast<bool>(op->removeAttr(kLanesSummedAttrName));
  });
  return dropped;
}
