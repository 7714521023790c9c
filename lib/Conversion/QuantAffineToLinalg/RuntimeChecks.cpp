//===- RuntimeChecks.cpp - run-time checks that report and abort ----------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A failed check runs
//
//   scf.if %failed {
//     llvm.call @dprintf(%c2_i32, @fmt, sizes...) vararg(...)
//     llvm.call @abort()
//   }
//
// dprintf writes straight to file descriptor 2, so the line is out before
// abort() (which flushes nothing) and does not depend on where stdout goes;
// mlir-runner resolves both functions from the process, an ahead-of-time
// program from libc. The LLVM ops pass through both pipelines unchanged.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Conversion/QuantAffineToLinalg/RuntimeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::quant_affine;

std::string mlir::quant_affine::formatLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().strref() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "unknown";
}

/// `text` as a printf format that prints it literally.
static std::string escapeFormat(StringRef text) {
  std::string result;
  for (char c : text) {
    result += c;
    if (c == '%')
      result += '%';
  }
  return result;
}

/// `value` (index or integer) as the i64 that `%lld` reads.
static Value toI64(OpBuilder &b, Location loc, Value value) {
  Type i64 = b.getI64Type();
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, value);
  unsigned width = value.getType().getIntOrFloatBitWidth();
  if (width < 64)
    return arith::ExtSIOp::create(b, loc, i64, value);
  if (width > 64)
    return arith::TruncIOp::create(b, loc, i64, value);
  return value;
}

FailureOr<RuntimeCheckEmitter::Runtime>
RuntimeCheckEmitter::getRuntime(OpBuilder &b, Operation *symbolTable,
                                Operation *op) {
  auto found = runtimes.find(symbolTable);
  if (found != runtimes.end())
    return found->second;
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto dprintfType = LLVM::LLVMFunctionType::get(
      b.getI32Type(), {b.getI32Type(), ptr}, /*isVarArg=*/true);
  auto abortType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {},
                                               /*isVarArg=*/false);
  SymbolTable &table = symbolTables.getSymbolTable(symbolTable);
  auto declare = [&](StringRef name,
                     LLVM::LLVMFunctionType type) -> FailureOr<Operation *> {
    if (Operation *existing = table.lookup(name)) {
      if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
          fn && fn.getFunctionType() == type)
        return existing;
      // A user's func.func declaration of abort() is as good.
      if (auto fn = dyn_cast<func::FuncOp>(existing);
          fn && name == "abort" && fn.getFunctionType().getNumInputs() == 0 &&
          fn.getFunctionType().getNumResults() == 0)
        return existing;
      return op->emitOpError("run-time checks call the C function '")
             << name << "', but the module defines another '" << name << "'";
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&symbolTable->getRegion(0).front());
    auto fn = LLVM::LLVMFuncOp::create(b, symbolTable->getLoc(), name, type);
    table.insert(fn);
    return fn.getOperation();
  };
  FailureOr<Operation *> dprintfFn = declare("dprintf", dprintfType);
  if (failed(dprintfFn))
    return failure();
  FailureOr<Operation *> abortFn = declare("abort", abortType);
  if (failed(abortFn))
    return failure();
  Runtime runtime{*dprintfFn, *abortFn};
  runtimes[symbolTable] = runtime;
  return runtime;
}

Value RuntimeCheckEmitter::getString(OpBuilder &b, Location loc,
                                     Operation *symbolTable, StringRef text) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  StringAttr &name = strings[symbolTable][text];
  if (!name) {
    SymbolTable &table = symbolTables.getSymbolTable(symbolTable);
    std::string candidate;
    for (unsigned i = 0;; ++i) {
      candidate = "__quant_affine_check_msg_" + std::to_string(i);
      if (!table.lookup(candidate))
        break;
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&symbolTable->getRegion(0).front());
    std::string value = text.str();
    value.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                         LLVM::Linkage::Private, candidate,
                                         b.getStringAttr(value));
    name = table.insert(global);
  }
  return LLVM::AddressOfOp::create(b, loc, ptr, name.getValue());
}

LogicalResult RuntimeCheckEmitter::emitCheck(OpBuilder &b, Location loc,
                                             Operation *op, Value ok,
                                             const CheckMessage &message) {
  std::string prefix = formatLocation(op->getLoc()) +
                       ": error: " + op->getName().getStringRef().str() +
                       " run-time check failed: ";
  Operation *symbolTable = SymbolTable::getNearestSymbolTable(op);
  if (symbolTable == op)
    symbolTable = SymbolTable::getNearestSymbolTable(op->getParentOp());
  bool canDeclare = symbolTable && (symbolTable == root ||
                                    root->isProperAncestor(symbolTable));
  if (!canDeclare) {
    cf::AssertOp::create(b, loc, ok, prefix + message.str());
    return success();
  }
  FailureOr<Runtime> runtime = getRuntime(b, symbolTable, op);
  if (failed(runtime))
    return failure();

  std::string format = escapeFormat(prefix);
  SmallVector<Value> values;
  for (const CheckMessage::Part &part : message.getParts()) {
    if (!part.value) {
      format += escapeFormat(part.text);
      continue;
    }
    format += "%lld";
    values.push_back(part.value);
  }
  format += "\n";

  Value isTrue = arith::ConstantIntOp::create(b, loc, 1, /*width=*/1);
  Value failedCheck = arith::XOrIOp::create(b, loc, ok, isTrue);
  scf::IfOp::create(b, loc, failedCheck, [&](OpBuilder &nb, Location nloc) {
    SmallVector<Value> args = {
        LLVM::ConstantOp::create(nb, nloc, nb.getI32Type(), 2),
        getString(nb, nloc, symbolTable, format)};
    for (Value v : values)
      args.push_back(toI64(nb, nloc, v));
    LLVM::CallOp::create(nb, nloc, cast<LLVM::LLVMFuncOp>(runtime->dprintf),
                         args);
    if (auto abortFn = dyn_cast<LLVM::LLVMFuncOp>(runtime->abort))
      LLVM::CallOp::create(nb, nloc, abortFn, ValueRange());
    else
      func::CallOp::create(nb, nloc, cast<func::FuncOp>(runtime->abort));
    scf::YieldOp::create(nb, nloc);
  });
  return success();
}
