//===- FloatFormat.cpp - float_qdq's formats ------------------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/FloatFormula.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::quant_affine;

namespace {
/// A real format: its flags, smallest normal exponent and largest value.
struct NamedFormat {
  llvm::StringLiteral name;
  int64_t exponentBits, mantissaBits;
  bool finite, unsignedZero;
  int64_t minExponent, maxExponent;
  double maxValue;
};

constexpr NamedFormat kNamedFormats[] = {
    {"f16", 5, 10, false, false, -14, 15, 65504.0},
    {"bf16", 8, 7, false, false, -126, 127, 3.3895313892515355e38},
    {"f8E4M3FN", 4, 3, true, false, -6, 8, 448.0},
    {"f8E4M3FNUZ", 4, 3, true, true, -7, 7, 240.0},
    {"f8E5M2", 5, 2, false, false, -14, 15, 57344.0},
    {"f8E5M2FNUZ", 5, 2, true, true, -15, 15, 57344.0},
};

const NamedFormat *lookup(const FloatFormat &f) {
  for (const NamedFormat &n : kNamedFormats)
    if (n.exponentBits == f.exponentBits && n.mantissaBits == f.mantissaBits &&
        n.finite == f.finite && n.unsignedZero == f.unsignedZero)
      return &n;
  return nullptr;
}

/// AIMET's exponent bias 2^(E-1) - 1.
int64_t aimetBias(const FloatFormat &f) {
  return (int64_t{1} << (f.exponentBits - 1)) - 1;
}

/// IEEE parameters of the types float_qdq takes.
struct TypeLimits {
  int64_t bias, mantissa;
};
TypeLimits limitsOf(FloatType t) {
  int64_t exponentWidth = t.isF16() ? 5 : t.isF64() ? 11 : 8;
  return {(int64_t{1} << (exponentWidth - 1)) - 1,
          static_cast<int64_t>(t.getFPMantissaWidth()) - 1};
}

/// Whether a type of `limits` holds every quantum of `f` (2^(emin - M) to
/// 2^(emax - M)), their inverses and fmt_max as normal numbers.
bool holdsQuanta(const FloatFormat &f, TypeLimits limits) {
  int64_t m = f.mantissaBits;
  return f.minExponent() - m >= 1 - limits.bias &&
         m - f.minExponent() <= limits.bias && f.maxExponent() <= limits.bias;
}
} // namespace

llvm::StringRef FloatFormat::name() const {
  const NamedFormat *n = lookup(*this);
  return n ? llvm::StringRef(n->name) : llvm::StringRef();
}

int64_t FloatFormat::minExponent() const {
  if (const NamedFormat *n = lookup(*this))
    return n->minExponent;
  return -aimetBias(*this);
}

int64_t FloatFormat::maxExponent() const {
  if (const NamedFormat *n = lookup(*this))
    return n->maxExponent;
  return aimetBias(*this);
}

double FloatFormat::maxValue() const {
  if (const NamedFormat *n = lookup(*this))
    return n->maxValue;
  return std::ldexp(2.0 - std::ldexp(1.0, -mantissaBits), aimetBias(*this));
}

FloatType FloatFormat::fakeCastType(FloatType input) const {
  MLIRContext *ctx = input.getContext();
  if (!input.isF64()) {
    if (conversionType(ctx) || holdsQuanta(*this, {127, 23}))
      return Float32Type::get(ctx);
  }
  if (holdsQuanta(*this, {1023, 52}))
    return Float64Type::get(ctx);
  return {};
}

std::optional<std::string> FloatFormat::checkInput(FloatType input) const {
  if (fakeCastType(input))
    return std::nullopt;
  return "its quanta 2^" + std::to_string(minExponent() - mantissaBits) +
         " to 2^" + std::to_string(maxExponent() - mantissaBits) +
         " and its largest value 2^" + std::to_string(maxExponent()) +
         " do not all fit f64 as normal numbers, so the rounding could not "
         "be exact";
}

bool FloatFormat::holdsEveryFiniteValueOf(FloatType type) const {
  TypeLimits t = limitsOf(type);
  // Precision, the smallest subnormal's exponent, and the range.
  return mantissaBits >= t.mantissa &&
         minExponent() - mantissaBits <= 1 - t.bias - t.mantissa &&
         maxValue() >= std::ldexp(2.0 - std::ldexp(1.0, -t.mantissa), t.bias);
}

FloatType FloatFormat::conversionType(MLIRContext *ctx) const {
  llvm::StringRef n = name();
  if (n == "f16")
    return Float16Type::get(ctx);
  if (n == "bf16")
    return BFloat16Type::get(ctx);
  return {};
}
