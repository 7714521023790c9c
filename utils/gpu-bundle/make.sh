#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the GPU execution tests ahead of time, for a GPU machine that has the
# driver but no LLVM (mlir-runner needs libMLIR and libLLVM):
#
#   bash utils/gpu-bundle/make.sh [BUNDLE]      # default build/gpu-bundle
#   (on the GPU machine)  bash BUNDLE/run.sh RESULTS_DIR
#   bash utils/gpu-bundle/check.sh RESULTS_DIR  # FileCheck, here
#
# Each test of test/Integration/GPU that REQUIRES cuda-gpu is compiled as its
# RUN line compiles it (--quant-affine-gpu-pipeline, fatbin for CHIP) and
# linked with our runtime library and print_memref.cpp in place of
# mlir-runner and its runner-utils libraries. The GPU benchmark's harnesses
# (bench/gpu/run.sh, built without running) go in too.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
BUNDLE=${1:-$BUILD/gpu-bundle}
CHIP=${CHIP:-sm_90}
CUDA=${CUDA:-/usr/local/cuda}
LLVM=/usr/lib/llvm-22/bin

ninja -C "$BUILD" quant-affine-opt quant_affine_cuda_runtime quant-affine-cuda-probe >/dev/null
rm -rf "$BUNDLE"
mkdir -p "$BUNDLE/tests"
cp "$BUILD/lib/libquant_affine_cuda_runtime.so" "$BUILD/bin/quant-affine-cuda-probe" "$BUNDLE/"
"$LLVM/clang++" -O2 -c "$ROOT/utils/gpu-bundle/print_memref.cpp" -o "$BUNDLE/print_memref.o"
# build_program SOURCE DIR: SOURCE through the GPU pipeline into the program
# DIR/<name>, linked with our runtime library and print_memref.cpp.
build_program() {
  local name
  name=$(basename "$1" .mlir)
  "$BUILD/bin/quant-affine-opt" "$1" --quant-affine-gpu-pipeline="chip=$CHIP format=fatbin cuda-path=$CUDA from-quant=true" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir \
    | sed 's/^define void @main()/define void @quant_affine_test_main()/' > "$BUNDLE/$name.ll"
  "$LLVM/clang" -O1 -Wno-override-module -c "$BUNDLE/$name.ll" -o "$BUNDLE/$name.o"
  "$LLVM/clang++" "$BUNDLE/$name.o" "$BUNDLE/print_memref.o" -o "$2/$name" \
    -L "$BUNDLE" -lquant_affine_cuda_runtime -Wl,-rpath,'$ORIGIN/..' -Wl,--allow-shlib-undefined
  rm "$BUNDLE/$name.ll" "$BUNDLE/$name.o"
}
for test in "$ROOT"/test/Integration/GPU/*.mlir; do
  grep -q "REQUIRES: cuda-gpu" "$test" || continue
  echo "== $(basename "$test" .mlir)"
  build_program "$test" "$BUNDLE/tests"
done
# Every conformance vector through a called function with constant
# arguments: the CPU execution tests, checked with their own CHECK lines.
mkdir -p "$BUNDLE/cpu-tests"
for name in conformance-quantize conformance-dequantize conformance-qdq \
    conformance-compute-encoding conformance-float-qdq conformance-torchao \
    seeds variants quant-programs; do
  echo "== CPU/$name"
  build_program "$ROOT/test/Integration/CPU/$name.mlir" "$BUNDLE/cpu-tests"
done
# Random whole programs (utils/progtest.py, every feature), 20 to a module,
# compiled the same way; check.sh compares their output with the reference.
PROGRAMS=${PROGRAMS:-1000}
python3 "$ROOT/utils/progtest.py" --seed 32 --count "$PROGRAMS" --batch 20 \
  --emit-modules "$BUNDLE/programs-mlir" >/dev/null
mkdir -p "$BUNDLE/programs"
for module in "$BUNDLE"/programs-mlir/*.mlir; do
  build_program "$module" "$BUNDLE/programs"
done
rm -r "$BUNDLE/programs-mlir"
echo "$PROGRAMS" > "$BUNDLE/programs/count"
rm "$BUNDLE/print_memref.o"

CHIP=$CHIP OUT="$BUNDLE/bench" bash "$ROOT/bench/gpu/run.sh" >/dev/null
# Only the harnesses travel; run.sh finds the runtime library by LD_LIBRARY_PATH.
find "$BUNDLE/bench" -type f ! -name harness -delete
cp "$ROOT/utils/gpu-bundle/run.sh" "$BUNDLE/"
du -sh "$BUNDLE"
