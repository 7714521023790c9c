//===- quant-affine-capi.c - Test of the quant-affine C API ---------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

// RUN: %quant_affine_tools_dir/quant-affine-capi-test 2>&1 | FileCheck %s

// Builds a function with each quant_affine op through the C API, verifies and
// prints it, checks that a bad op fails verification, runs the CPU pipeline
// on the function through the C pass manager, and converts upstream quant
// casts to quant_affine and back.

#include "quant-affine-c/Dialect/QuantAffine.h"
#include "quant-affine-c/Passes.h"
#include "quant-affine-c/RegisterEverything.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

/// What the builders take for "no offset" and "the default compute type".
static const MlirValue noOffset = {NULL};
static const MlirType noComputeType = {NULL};

static MlirStringRef str(const char *text) {
  return mlirStringRefCreateFromCString(text);
}

/// Runs the pass pipeline `text` on `op` and prints whether it succeeded
/// (as `label: success`) and the op.
static void runNamedPipeline(MlirContext ctx, MlirOperation op,
                             const char *text, const char *label) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm), str(text), printToStderr, NULL);
  int ok = mlirLogicalResultIsSuccess(parsed) &&
           mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  printf("%s: %s\n", label, ok ? "success" : "failure");
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
}

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), attr);
}

/// func.func @quantizers(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>,
///                       %o: tensor<4x2xf32>)
///     -> (tensor<4x64xi8>, tensor<4x64xf32>, tensor<4x64xf32>)
/// with a quantize, a dequantize of its result and a qdq, built through
/// the generic operation API and the quant_affine builders.
static MlirOperation buildFunction(MlirContext ctx, MlirLocation loc) {
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType i8 = mlirIntegerTypeGet(ctx, 8);
  MlirAttribute noEncoding = mlirAttributeGetNull();
  int64_t dataShape[] = {4, 64};
  int64_t scaleShape[] = {4, 2};
  MlirType xType = mlirRankedTensorTypeGet(2, dataShape, f32, noEncoding);
  MlirType qType = mlirRankedTensorTypeGet(2, dataShape, i8, noEncoding);
  MlirType sType = mlirRankedTensorTypeGet(2, scaleShape, f32, noEncoding);

  MlirType argTypes[] = {xType, sType, sType};
  MlirType resultTypes[] = {qType, xType, xType, xType};
  MlirLocation argLocs[] = {loc, loc, loc};
  MlirType funcType = mlirFunctionTypeGet(ctx, 3, argTypes, 4, resultTypes);

  MlirRegion bodyRegion = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(3, argTypes, argLocs);
  mlirRegionAppendOwnedBlock(bodyRegion, body);
  MlirValue x = mlirBlockGetArgument(body, 0);
  MlirValue s = mlirBlockGetArgument(body, 1);
  MlirValue o = mlirBlockGetArgument(body, 2);

  // Signed 8-bit, block [1, 32], with an offset, default compute type.
  int64_t blocks[] = {1, 32};
  MlirOperation quantize = mlirQuantAffineQuantizeOpCreate(
      loc, qType, x, s, o, -128, 127, 2, blocks, noComputeType);
  // torchao's convention: multiply by 1 / s.
  mlirQuantAffineQuantizerOpSetReciprocal(quantize, true);
  mlirBlockAppendOwnedOperation(body, quantize);
  MlirOperation dequantize = mlirQuantAffineDequantizeOpCreate(
      loc, xType, mlirOperationGetResult(quantize, 0), s, o, -128, 127, 2,
      blocks, noComputeType);
  mlirBlockAppendOwnedOperation(body, dequantize);
  // Unsigned 4-bit, no offset, a wildcard block size, computed in f64.
  int64_t wildcardBlocks[] = {1, -1};
  MlirOperation qdq = mlirQuantAffineQDQOpCreate(
      loc, x, s, noOffset, 0, 15, 2, wildcardBlocks, mlirF64TypeGet(ctx));
  mlirBlockAppendOwnedOperation(body, qdq);
  // An fp8 E4M3 fake cast with a maxval per block of 32.
  MlirOperation floatQdq = mlirQuantAffineFloatQDQOpCreate(
      loc, x, s, 4, 3, /*finite=*/true, /*unsignedZero=*/false, 2, blocks);
  mlirBlockAppendOwnedOperation(body, floatQdq);

  MlirValue results[] = {mlirOperationGetResult(quantize, 0),
                         mlirOperationGetResult(dequantize, 0),
                         mlirOperationGetResult(qdq, 0),
                         mlirOperationGetResult(floatQdq, 0)};
  MlirOperationState returnState =
      mlirOperationStateGet(str("func.return"), loc);
  mlirOperationStateAddOperands(&returnState, 4, results);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&returnState));

  printf("isa quantize: %d %d, dequantize: %d, qdq: %d, float_qdq: %d\n",
         mlirOperationIsAQuantAffineQuantizeOp(quantize),
         mlirOperationIsAQuantAffineQuantizeOp(qdq),
         mlirOperationIsAQuantAffineDequantizeOp(dequantize),
         mlirOperationIsAQuantAffineQDQOp(qdq),
         mlirOperationIsAQuantAffineFloatQDQOp(floatQdq));

  MlirNamedAttribute funcAttrs[] = {
      namedAttr(ctx, "sym_name", mlirStringAttrGet(ctx, str("quantizers"))),
      namedAttr(ctx, "function_type", mlirTypeAttrGet(funcType))};
  MlirOperationState funcState = mlirOperationStateGet(str("func.func"), loc);
  mlirOperationStateAddAttributes(&funcState, 2, funcAttrs);
  mlirOperationStateAddOwnedRegions(&funcState, 1, &bodyRegion);
  return mlirOperationCreate(&funcState);
}

int main(void) {
  MlirContext ctx = mlirContextCreateWithThreading(false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__quant_affine__(),
                                 registry);
  mlirQuantAffineRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  MlirDialect dialect =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__quant_affine__(), ctx);
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  // CHECK: dialect: quant_affine
  // Ops built by name (func.func) need their dialect loaded, not only
  // registered.
  mlirContextGetOrLoadDialect(ctx, str("func"));

  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module),
                                buildFunction(ctx, loc));
  // CHECK: isa quantize: 1 0, dequantize: 1, qdq: 1, float_qdq: 1

  printf("verified: %d\n", mlirOperationVerify(moduleOp));
  mlirOperationPrint(moduleOp, printToStdout, NULL);
  printf("\n");
  fflush(stdout);
  // CHECK: verified: 1
  // CHECK-LABEL: func.func @quantizers(
  // CHECK-SAME: %[[X:.*]]: tensor<4x64xf32>, %[[S:.*]]: tensor<4x2xf32>,
  // CHECK-SAME: %[[O:.*]]: tensor<4x2xf32>)
  // CHECK: %[[Q:.*]] = quant_affine.quantize %[[X]], %[[S]], %[[O]]
  // CHECK-SAME: range [-128, 127] reciprocal block [1, 32]
  // CHECK-SAME: -> tensor<4x64xi8>
  // CHECK: %[[D:.*]] = quant_affine.dequantize %[[Q]], %[[S]], %[[O]]
  // CHECK-SAME: range [-128, 127] block [1, 32]
  // CHECK-SAME: -> tensor<4x64xf32>
  // CHECK: %[[Y:.*]] = quant_affine.qdq %[[X]], %[[S]]
  // CHECK-SAME: range [0, 15] block [1, -1] compute f64
  // CHECK-SAME: : (tensor<4x64xf32>, tensor<4x2xf32>) -> tensor<4x64xf32>
  // CHECK: %[[F:.*]] = quant_affine.float_qdq %[[X]], %[[S]]
  // CHECK-SAME: format [4, 3] finite block [1, 32]
  // CHECK: return %[[Q]], %[[D]], %[[Y]], %[[F]]

  // The builders do not verify: an empty grid is reported by
  // mlirOperationVerify (through the context's diagnostics, on stderr).
  {
    MlirType f32 = mlirF32TypeGet(ctx);
    MlirType argTypes[] = {f32, f32};
    MlirLocation argLocs[] = {loc, loc};
    MlirBlock block = mlirBlockCreate(2, argTypes, argLocs);
    MlirOperation bad = mlirQuantAffineQDQOpCreate(
        loc, mlirBlockGetArgument(block, 0), mlirBlockGetArgument(block, 1),
        noOffset, 7, 3, 0, NULL, noComputeType);
    mlirBlockAppendOwnedOperation(block, bad);
    fflush(stdout);
    int verified = mlirOperationVerify(bad);
    fflush(stderr);
    printf("bad qdq verified: %d\n", verified);
    mlirBlockDestroy(block);
  }
  // CHECK: error: {{.*}}qmin <= qmax
  // CHECK: bad qdq verified: 0

  // The CPU pipeline, by name, through the C pass manager.
  mlirRegisterQuantAffinePasses();
  mlirRegisterQuantAffinePipelines();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      str("builtin.module(quant-affine-cpu-pipeline{vector-width=8})"),
      printToStderr, NULL);
  if (mlirLogicalResultIsFailure(parsed)) {
    fprintf(stderr, "\ncould not parse the pipeline\n");
    return EXIT_FAILURE;
  }
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, moduleOp);
  printf("pipeline: %s\n",
         mlirLogicalResultIsSuccess(ran) ? "success" : "failure");
  mlirOperationPrint(moduleOp, printToStdout, NULL);
  printf("\n");
  // CHECK: pipeline: success
  // CHECK-NOT: quant_affine.
  // CHECK: llvm.func @quantizers(
  // The quantize's reciprocal, once per block of 32.
  // CHECK: llvm.fdiv {{.*}} : vector<1xf32>
  // CHECK: llvm.fptosi {{.*}} : vector<8xf32> to vector<8xi8>
  // CHECK: llvm.fdiv {{.*}} : vector<8xf64>
  // CHECK: llvm.return

  // Upstream quant casts, converted both ways by the passes registered above.
  MlirModule quantModule = mlirModuleCreateParse(
      ctx, str("func.func @casts(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
               "  %q = quant.qcast %x : tensor<4xf32> to "
               "tensor<4x!quant.uniform<i8:f32, 0.5:3>>\n"
               "  %d = quant.dcast %q : tensor<4x!quant.uniform<i8:f32, "
               "0.5:3>> to tensor<4xf32>\n"
               "  return %d : tensor<4xf32>\n"
               "}\n"));
  MlirOperation quantOp = mlirModuleGetOperation(quantModule);
  runNamedPipeline(ctx, quantOp,
                   "builtin.module(convert-quant-to-quant-affine)",
                   "from quant");
  // CHECK: from quant: success
  // CHECK: quant_affine.quantize %{{.*}} range [-128, 127]
  // CHECK: quant_affine.dequantize %{{.*}} range [-128, 127]
  runNamedPipeline(ctx, quantOp,
                   "builtin.module(convert-quant-affine-to-quant)", "to quant");
  // CHECK: to quant: success
  // CHECK: quant.qcast %{{.*}} : tensor<4xf32> to
  // tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>> CHECK: quant.dcast
  mlirModuleDestroy(quantModule);

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  printf("done\n");
  // CHECK: done
  return EXIT_SUCCESS;
}
