//===- ShapeRules.cpp - Messages and the static instance of the rules -----===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Dialect/QuantAffine/Utils/ShapeRules.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::quant_affine;

CheckMessage &CheckMessage::operator<<(StringRef text) {
  if (!parts.empty() && !parts.back().value)
    parts.back().text += text.str();
  else
    parts.push_back({text.str(), Value()});
  return *this;
}

CheckMessage &CheckMessage::operator<<(int64_t number) {
  // A size that types leave open reads as `?`, as in a tensor type.
  if (ShapedType::isDynamic(number))
    return *this << StringRef("?");
  return *this << StringRef(std::to_string(number));
}

CheckMessage &CheckMessage::operator<<(Value value) {
  parts.push_back({"", value});
  return *this;
}

std::string CheckMessage::str() const {
  std::string result;
  for (const Part &part : parts) {
    if (!part.value) {
      result += part.text;
      continue;
    }
    APInt constant;
    if (matchPattern(part.value, m_ConstantInt(&constant)))
      result += std::to_string(constant.getSExtValue());
    else
      result += "?";
  }
  return result;
}

std::optional<std::string> mlir::quant_affine::findBrokenShapeRule(
    ArrayRef<int64_t> x, ArrayRef<int64_t> s, ArrayRef<int64_t> o,
    std::optional<ArrayRef<int64_t>> blockSize) {
  StaticSizes sizes;
  std::optional<std::string> broken;
  forEachShapeRule(sizes, x, s, o, blockSize,
                   [&](std::optional<bool> holds, const CheckMessage &m) {
                     if (!broken && holds == false)
                       broken = m.str();
                   });
  return broken;
}
