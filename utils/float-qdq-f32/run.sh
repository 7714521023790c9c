#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every f32 input through float_qdq to f8E4M3FN and f8E5M2, compiled by the
# CPU pipeline, against an exact reference (harness.cpp). Too long for the
# suite (2 x 2^32 elements: about 4 minutes on 2 cores); docs/FloatQDQ.md
# reports its result. usage: bash utils/float-qdq-f32/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
bin=/usr/lib/llvm-22/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/quant-affine-opt" "$here/kernels.mlir" --quant-affine-cpu-pipeline |
  "$bin/mlir-translate" --mlir-to-llvmir -o "$work/k.ll"
"$bin/clang" -O2 -Wno-override-module -c "$work/k.ll" -o "$work/k.o"
"$bin/clang++" -O2 "$here/harness.cpp" "$work/k.o" -o "$work/run"
time "$work/run"
