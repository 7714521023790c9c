//===- RuntimeChecks.h - run-time checks that report and abort --*- C++ -*-===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place run-time checks are emitted. A failed check writes one line
// to stderr,
//
//   <file>:<line>:<col>: error: <op name> run-time check failed: <message>
//
// with the sizes it compared printed as run-time values, then calls abort().
// The line is written with dprintf(2, ...) (POSIX), so it shows whatever
// stdout is redirected to, and before abort() discards buffered output.
//
//===----------------------------------------------------------------------===//

#ifndef QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_RUNTIMECHECKS_H
#define QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_RUNTIMECHECKS_H

#include "QuantAffine/Dialect/QuantAffine/Utils/ShapeRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir {
namespace quant_affine {

/// `file:line:col` of the first file location in `loc`, or `unknown`.
std::string formatLocation(Location loc);

/// Emits checks for the ops nested in one root operation (the op a pass runs
/// on). Reporting needs `dprintf` and `abort` declared, and the format
/// strings as globals, in the nearest symbol table of the checked op; they
/// are added there when that symbol table is the root or nested in it. Where
/// it is not (a pass scheduled on each function), the check is a cf.assert
/// instead, whose message shows the run-time values as `?` and which the
/// upstream lowering prints to stdout.
class RuntimeCheckEmitter {
public:
  explicit RuntimeCheckEmitter(Operation *root) : root(root) {}

  /// Emits, at the builder's insertion point, code that reports `message`
  /// for `op` and aborts unless `ok` (an i1) holds.
  LogicalResult emitCheck(OpBuilder &b, Location loc, Operation *op, Value ok,
                          const CheckMessage &message);

private:
  struct Runtime {
    Operation *dprintf = nullptr, *abort = nullptr;
  };
  /// dprintf and abort in `symbolTable`, declared on first use; failure when
  /// another symbol of that name is in the way.
  FailureOr<Runtime> getRuntime(OpBuilder &b, Operation *symbolTable,
                                Operation *op);
  /// The address of a private constant global holding `text` and a NUL.
  Value getString(OpBuilder &b, Location loc, Operation *symbolTable,
                  StringRef text);

  Operation *root;
  SymbolTableCollection symbolTables;
  DenseMap<Operation *, Runtime> runtimes;
  DenseMap<Operation *, llvm::StringMap<StringAttr>> strings;
};

} // namespace quant_affine
} // namespace mlir

#endif // QUANT_AFFINE_CONVERSION_QUANTAFFINETOLINALG_RUNTIMECHECKS_H
