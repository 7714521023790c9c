#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The weight-only quantized matmul benchmark, in one command from the
# repository root:
#
#   bash bench/matmul/run.sh             # 15 rounds
#   ROUNDS=5 ORT=0 bash bench/matmul/run.sh
#
# Builds quant-affine-opt (NINJA_FLAGS, e.g. -j1, limits the build), generates
# the kernels (gen.py), compiles them with --quant-affine-cpu-pipeline and the
# harness with clang -O3 -march=native -fopenmp, runs the harness (ours, the
# plain C++ loop, the read bound and the FMA peak, interleaved round by
# round, after checking ours), then ONNX Runtime's MatMulNBits on the same
# weights through onnxruntime-node (installed into the build directory on
# first use; ORT=0 skips it), and prints the tables (report.py). Results:
# build/bench/matmul/{results,ort}.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/matmul}
ROUNDS=${ROUNDS:-15}
ORT=${ORT:-1}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== generating and compiling"
python3 "$ROOT/bench/matmul/gen.py" "$OUT"
"$OPT" "$OUT/kernels.mlir" --quant-affine-cpu-pipeline="openmp=true" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$OUT" -I "$ROOT/bench" \
  "$ROOT/bench/matmul/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

echo "== running ours, the plain loop and the bounds ($ROUNDS rounds)"
rm -rf "$OUT/ort-cases"
"$OUT/harness" "$ROUNDS" "$OUT/ort-cases" > "$OUT/results.csv"

: > "$OUT/ort.csv"
if [ "$ORT" != 0 ]; then
  echo "== running ONNX Runtime MatMulNBits"
  bash "$ROOT/bench/matmul/ort/install.sh" "$OUT/ort-node"
  for dir in "$OUT"/ort-cases/*/; do
    name=$(basename "$dir")
    python3 "$ROOT/bench/matmul/ort/make_model.py" "$dir"
    rounds=$ROUNDS
    case $name in mm_m1_*) ;; *) rounds=$(( ROUNDS / 3 > 3 ? ROUNDS / 3 : 3 )) ;; esac
    for threads in 1 2; do
      for mode in f32 int8; do
        if line=$(NODE_PATH="$OUT/ort-node/node_modules" node "$ROOT/bench/matmul/ort/ort.js" \
                    "$dir" "$rounds" "$threads" "$mode"); then
          echo "$name,$line" >> "$OUT/ort.csv"
        else
          echo "$name,ort-$mode,$threads,nan,nan,nan" >> "$OUT/ort.csv"
        fi
      done
    done
  done
fi

python3 "$ROOT/bench/matmul/report.py" "$OUT"
