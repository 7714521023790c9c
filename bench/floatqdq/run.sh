#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The float_qdq benchmark, in one command from the repository root:
#
#   bash bench/floatqdq/run.sh           # 9 rounds
#   ROUNDS=5 ORT=0 bash bench/floatqdq/run.sh
#
# Builds quant-affine-opt, compiles the kernels (kernels.py: fp8 E4M3 fake
# cast and fp8 E5M2 with a per-channel maxval of 4096 x 4096 and
# 11008 x 4096 f32 tensors) with --quant-affine-cpu-pipeline="$OPTIONS"
# (default: threads, streamed stores and 64 lanes, as the CPU benchmark's
# "ours-explicit" rows for large tensors; this machine's 480 MiB last-level
# cache would make the automatic choice keep plain stores at these sizes),
# runs the harness (ours, a plain C++ loop and the copy limit, interleaved,
# on 1 and 2 threads, after checking ours bit for bit), then ONNX Runtime's
# Cast to float8e4m3fn and back (saturate, onnxruntime-node; ORT=0 skips
# it), and prints the table. Results: build/bench/floatqdq/{results,ort}.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/floatqdq}
ROUNDS=${ROUNDS:-9}
ORT=${ORT:-1}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
OPTIONS=${OPTIONS-"openmp=true nontemporal-stores=true vector-width=64"}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== compiling"
python3 "$ROOT/bench/floatqdq/kernels.py" > "$OUT/kernels.mlir"
"$OPT" "$OUT/kernels.mlir" --quant-affine-cpu-pipeline="$OPTIONS" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$ROOT/bench" \
  "$ROOT/bench/floatqdq/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

echo "== running ours, the plain loop and the limit ($ROUNDS rounds)"
"$OUT/harness" "$ROUNDS" "$OUT" > "$OUT/results.csv"

: > "$OUT/ort.csv"
if [ "$ORT" != 0 ]; then
  echo "== running ONNX Runtime Cast to float8e4m3fn and back"
  bash "$ROOT/bench/matmul/ort/install.sh" "$BUILD/bench/matmul/ort-node"
  python3 "$ROOT/bench/floatqdq/ort/make_model.py" "$OUT"
  for rows in 4096 11008; do
    for threads in 1 2; do
      NODE_PATH="$BUILD/bench/matmul/ort-node/node_modules" \
        node "$ROOT/bench/floatqdq/ort/ort.js" "$OUT" "$ROUNDS" "$threads" "$rows" >> "$OUT/ort.csv"
    done
  done
fi
python3 "$ROOT/bench/floatqdq/report.py" "$OUT/results.csv" "$OUT/ort.csv"
