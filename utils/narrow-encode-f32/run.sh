#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every f32 input through arith.truncf to each float8, float6 and float4
# type, expanded by quant-affine-expand-narrow-floats and compiled by the CPU
# pipeline, against a reference in double (harness.cpp) and, with OLD_OPT
# set, against the kernels compiled by that quant-affine-opt. Too long for
# the suite (21 x 2^32 elements: minutes); docs/Microscaling.md reports its
# result. usage: [OLD_OPT=path] bash utils/narrow-encode-f32/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
bin=/usr/lib/llvm-22/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compile() { # opt, mlir, object
  "$1" "$2" --quant-affine-cpu-pipeline |
    "$bin/mlir-translate" --mlir-to-llvmir -o "$work/k.ll"
  "$bin/clang" -O2 -Wno-override-module -c "$work/k.ll" -o "$3"
}
# The clamped kernels must take the folded encoding: once the expansion has
# run, their clamp's negative bound is gone (only the magnitude's limit is
# left).
"$build/bin/quant-affine-opt" "$here/kernels.mlir" --quant-affine-cpu-pipeline \
  --mlir-print-ir-after=quant-affine-expand-narrow-floats \
  --mlir-disable-threading -o /dev/null 2>"$work/expanded.mlir"
if grep -E 'constant (dense<)?-(4.48|5.7344|2.4|7.5|2.8|6.0)0*e\+0' \
    "$work/expanded.mlir"; then
  echo "a clamp was not folded into the encoding" >&2
  exit 1
fi
compile "$build/bin/quant-affine-opt" "$here/kernels.mlir" "$work/new.o"
objects=("$work/new.o")
flags=()
if [[ -n ${OLD_OPT:-} ]]; then
  sed 's/^func\.func @/func.func @old_/' "$here/kernels.mlir" >"$work/old.mlir"
  compile "$OLD_OPT" "$work/old.mlir" "$work/old.o"
  objects+=("$work/old.o")
  flags+=(-DWITH_OLD)
fi
"$bin/clang++" -O2 -march=native "${flags[@]}" "$here/harness.cpp" \
  "${objects[@]}" -o "$work/run"
time "$work/run"
