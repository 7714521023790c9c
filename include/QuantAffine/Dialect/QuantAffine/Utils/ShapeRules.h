//===- ShapeRules.h - How scale dims fit input dims, written once -*- C++
//-*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules that tie each trailing input dim to its scale (and offset) dim,
// as one template over the arithmetic on sizes, like Utils/Formula.h for the
// numbers. The verifier instantiates it with StaticSizes (sizes known from
// types); the runtime checks instantiate it with sizes as IR values (the
// pipelines' `runtime-checks` option and RuntimeVerifiableOpInterface), so a
// rule and its message exist once.
//
// A `Sizes` provides:
//   using Size = ...; using Bool = ...;
//   Size constant(int64_t v);
//   Bool eq(Size a, Size b), isMultipleOf(Size x, int64_t m);
//   Bool divisibleBy(Size x, Size m);          // m == 0 ? x == 0 : x % m == 0
//   Size quotient(Size x, int64_t m);          // x / m, m > 0
//   Size product(Size s, int64_t m);           // s * m, for messages only
//   Bool both(Bool a, Bool b), either(Bool a, Bool b);
// and CheckMessage takes a Size with <<.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_SHAPERULES_H
#define QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_SHAPERULES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace quant_affine {

/// The message of a shape check: text, and sizes that are either numbers or
/// index values (printed when a run-time check fails).
class CheckMessage {
public:
  struct Part {
    std::string text; ///< Used when `value` is null.
    Value value;
  };

  CheckMessage &operator<<(llvm::StringRef text);
  CheckMessage &operator<<(int64_t number);
  /// An index or signless integer value (printed as signed).
  CheckMessage &operator<<(Value value);

  llvm::ArrayRef<Part> getParts() const { return parts; }
  /// The message with every value that is not a constant shown as `?`.
  std::string str() const;

private:
  llvm::SmallVector<Part> parts;
};

/// Calls `check(holds, message)` for every shape rule between input sizes
/// `x`, scale sizes `s` and (unless empty) offset sizes `o`, with block
/// sizes `blockSize` when given: per trailing input dim,
/// - a block B: the input size is a multiple of B, and B times the scale
///   size;
/// - the wildcard -1: the input size is a multiple of the scale size (0 only
///   for an empty input);
/// - no block_size: the scale size is 1 or the input size;
/// and the offset's size equals the scale's. Requires rank(s) <= rank(x),
/// rank(o) == rank(s), one block per scale dim, each positive or -1.
template <typename Sizes, typename Check>
void forEachShapeRule(Sizes &z, llvm::ArrayRef<typename Sizes::Size> x,
                      llvm::ArrayRef<typename Sizes::Size> s,
                      llvm::ArrayRef<typename Sizes::Size> o,
                      std::optional<llvm::ArrayRef<int64_t>> blockSize,
                      Check check) {
  int64_t n = x.size(), k = s.size();
  for (int64_t d = 0; d < k; ++d) {
    int64_t a = n - k + d;
    if (!blockSize) {
      CheckMessage m;
      m << "scale dim " << d << " has " << s[d]
        << " elements but needs 1 or input dim " << a << " size " << x[a];
      check(z.either(z.eq(s[d], z.constant(1)), z.eq(s[d], x[a])), m);
    } else if (int64_t b = (*blockSize)[d]; b == -1) {
      CheckMessage m;
      m << "input dim " << a << " has " << x[a]
        << " elements but block_size -1 needs a multiple of scale dim " << d
        << " size " << s[d];
      check(z.divisibleBy(x[a], s[d]), m);
    } else {
      // x == b * s, without overflow: b divides x, then x / b == s.
      CheckMessage whole;
      whole << "input dim " << a << " has " << x[a]
            << " elements, not a multiple of block_size " << b;
      check(z.isMultipleOf(x[a], b), whole);
      CheckMessage m;
      m << "input dim " << a << " has " << x[a] << " elements but block_size "
        << b << " x scale dim " << d << " size " << s[d] << " needs "
        << z.product(s[d], b);
      check(z.eq(z.quotient(x[a], b), s[d]), m);
    }
    if (!o.empty()) {
      CheckMessage m;
      m << "offset dim " << d << " has " << o[d]
        << " elements but needs scale dim " << d << " size " << s[d];
      check(z.eq(o[d], s[d]), m);
    }
  }
}

/// Sizes known from types: a static size or ShapedType::kDynamic; a rule
/// holds (true), is broken (false) or is unknown until run time (nullopt).
struct StaticSizes {
  using Size = int64_t;
  using Bool = std::optional<bool>;

  static bool known(Size v) { return !ShapedType::isDynamic(v); }
  Size constant(int64_t v) const { return v; }
  Bool eq(Size a, Size b) const {
    if (!known(a) || !known(b))
      return std::nullopt;
    return a == b;
  }
  Bool isMultipleOf(Size x, int64_t m) const {
    if (!known(x))
      return std::nullopt;
    return x % m == 0;
  }
  Bool divisibleBy(Size x, Size m) const {
    if (!known(x) || !known(m))
      return std::nullopt;
    return m == 0 ? x == 0 : x % m == 0;
  }
  Size quotient(Size x, int64_t m) const { return known(x) ? x / m : x; }
  Size product(Size s, int64_t m) const {
    int64_t result;
    if (!known(s) || llvm::MulOverflow(s, m, result))
      return ShapedType::kDynamic;
    return result;
  }
  Bool both(Bool a, Bool b) const {
    if ((a && !*a) || (b && !*b))
      return false;
    if (a && b)
      return true;
    return std::nullopt;
  }
  Bool either(Bool a, Bool b) const {
    if ((a && *a) || (b && *b))
      return true;
    if (a && b)
      return false;
    return std::nullopt;
  }
};

/// The first shape rule that sizes known from types break, with its message,
/// or std::nullopt (see forEachShapeRule).
std::optional<std::string>
findBrokenShapeRule(llvm::ArrayRef<int64_t> x, llvm::ArrayRef<int64_t> s,
                    llvm::ArrayRef<int64_t> o,
                    std::optional<llvm::ArrayRef<int64_t>> blockSize);

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_DIALECT_QUANTAFFINE_UTILS_SHAPERULES_H
