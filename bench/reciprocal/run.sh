#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Division against reciprocal (issue 16), in one command from the
# repository root:
#
#   bash bench/reciprocal/run.sh         # 9 rounds
#
# Builds quant-affine-opt, compiles kernels.py's kernels with
# --quant-affine-cpu-pipeline="openmp=true", runs the harness (each kernel
# checked bit for bit, then the two variants interleaved on 1 and 2
# threads) and prints the table. Results: build/bench/reciprocal/results.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/reciprocal}
ROUNDS=${ROUNDS:-9}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== compiling"
python3 "$ROOT/bench/reciprocal/kernels.py" > "$OUT/kernels.mlir"
"$OPT" "$OUT/kernels.mlir" --quant-affine-cpu-pipeline="openmp=true" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$ROOT/bench" \
  "$ROOT/bench/reciprocal/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

echo "== running ($ROUNDS rounds)"
"$OUT/harness" "$ROUNDS" > "$OUT/results.csv"
python3 "$ROOT/bench/reciprocal/report.py" "$OUT/results.csv"
