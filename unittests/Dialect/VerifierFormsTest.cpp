//===- VerifierFormsTest.cpp - every mix of forms verifies cleanly --------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds quantize, dequantize and qdq with every combination of forms for
// input, scale, offset and result (scalars, fixed and scalable vectors of
// several shapes, ranked tensors of several shapes, unranked tensors and
// memrefs), verifies each and checks that the verifier accepts exactly the
// valid ones and rejects the others with a diagnostic, never crashing (a
// vector input with a tensor scale used to crash it).
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/IR/QuantAffine.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;

/// One form: what it is, and its shape where it has one.
struct Form {
  enum Kind { Scalar, Vector, Tensor, Unranked, MemRef } kind;
  SmallVector<int64_t> shape = {};
  SmallVector<bool> scalable = {};

  Type get(Type elem) const {
    switch (kind) {
    case Scalar:
      return elem;
    case Vector:
      return VectorType::get(shape, elem, scalable);
    case Tensor:
      return RankedTensorType::get(shape, elem);
    case Unranked:
      return UnrankedTensorType::get(elem);
    case MemRef:
      return MemRefType::get(shape, elem);
    }
    return {};
  }
};

const Form kForms[] = {
    {Form::Scalar},
    {Form::Vector, {8}, {false}},
    {Form::Vector, {4}, {false}},
    {Form::Vector, {8}, {true}},
    {Form::Vector, {2, 4}, {false, false}},
    {Form::Tensor, {8}},
    {Form::Tensor, {}},
    {Form::Tensor, {1}},
    {Form::Tensor, {4}},
    {Form::Tensor, {kDyn}},
    {Form::Tensor, {2, 4}},
    {Form::Unranked},
    {Form::MemRef, {8}},
};

/// The model of the verifier's rules on forms (DESIGN section 2 and 3).
bool isValid(const Form &input, const Form &scale, const Form *offset,
             const Form &result) {
  auto sameForm = [](const Form &a, const Form &b) {
    return a.kind == b.kind && a.shape == b.shape && a.scalable == b.scalable;
  };
  for (const Form *f : {&input, &scale, offset, &result})
    if (f && (f->kind == Form::Unranked || f->kind == Form::MemRef))
      return false; // excluded by the ODS type constraints
  if (!sameForm(input, result))
    return false;
  if (offset && !sameForm(*offset, scale))
    return false;
  if (input.kind != Form::Tensor)
    return sameForm(input, scale);
  return scale.kind == Form::Tensor &&
         !checkEncodingShapes(input.shape, scale.shape, std::nullopt);
}

class VerifierFormsTest : public ::testing::Test {
protected:
  VerifierFormsTest() : builder(&ctx) {
    ctx.loadDialect<QuantAffineDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A value of type `type` with no defining computation.
  Value valueOf(Type type) {
    return UnrealizedConversionCastOp::create(builder, builder.getUnknownLoc(),
                                              TypeRange{type}, ValueRange{})
        .getResult(0);
  }

  /// Builds `OpT` on every combination of forms, verifies each op and checks
  /// the outcome against the model.
  template <typename OpT>
  void check(Type inputElem, Type resultElem, bool sameTypes) {
    int checked = 0, valid = 0;
    for (const Form &input : kForms)
      for (const Form &scale : kForms)
        for (int o = -1; o < static_cast<int>(std::size(kForms)); ++o)
          for (const Form &result : kForms) {
            const Form *offset = o < 0 ? nullptr : &kForms[o];
            Type inputType = input.get(inputElem);
            Type resultType = result.get(resultElem);
            bool expected = isValid(input, scale, offset, result) &&
                            (!sameTypes || inputType == resultType);
            SmallVector<Value> operands = {valueOf(inputType),
                                           valueOf(scale.get(f32))};
            if (offset)
              operands.push_back(valueOf(offset->get(f32)));
            SmallVector<NamedAttribute> attrs = {
                builder.getNamedAttr("qmin", builder.getI64IntegerAttr(-8)),
                builder.getNamedAttr("qmax", builder.getI64IntegerAttr(7))};
            auto op = OpT::create(builder, builder.getUnknownLoc(),
                                  TypeRange{resultType}, operands, attrs);
            int errors = 0;
            std::string last;
            LogicalResult verified = success();
            {
              ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
                if (diag.getSeverity() == DiagnosticSeverity::Error) {
                  ++errors;
                  last = diag.str();
                }
                return success();
              });
              verified = verify(op);
            }
            std::string what = "input " + str(inputType) + ", scale " +
                               str(scale.get(f32)) + ", offset " +
                               (offset ? str(offset->get(f32)) : "none") +
                               ", result " + str(resultType);
            EXPECT_EQ(succeeded(verified), expected) << what << ": " << last;
            if (failed(verified)) {
              EXPECT_GE(errors, 1) << what;
              EXPECT_FALSE(last.empty()) << what;
            }
            ++checked;
            valid += expected;
            op->erase();
            for (Value v : operands)
              v.getDefiningOp()->erase();
          }
    EXPECT_GT(valid, 0);
    EXPECT_GT(checked - valid, 0);
  }

  static std::string str(Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  }

  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  Type f32 = Float32Type::get(&ctx);
  Type i8 = IntegerType::get(&ctx, 8);
};
} // namespace

TEST_F(VerifierFormsTest, Quantize) { check<QuantizeOp>(f32, i8, false); }
TEST_F(VerifierFormsTest, QuantizeToFloat) {
  check<QuantizeOp>(f32, f32, false);
}
TEST_F(VerifierFormsTest, Dequantize) { check<DequantizeOp>(i8, f32, false); }
TEST_F(VerifierFormsTest, QDQ) { check<QDQOp>(f32, f32, true); }
