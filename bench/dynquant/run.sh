#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The dynamic-quantization benchmark, in one command from the repository
# root:
#
#   bash bench/dynquant/run.sh           # 9 rounds
#   ROUNDS=5 ORT=0 bash bench/dynquant/run.sh
#
# Builds quant-affine-opt, compiles kernels.mlir (compute_encoding +
# quantize of 4096 x 4096 f32 activations: per token, per tensor, per block
# of 32) with --quant-affine-cpu-pipeline="openmp=true", runs the harness
# (ours, a plain C++ loop and the access pattern's limit, interleaved, on 1
# and 2 threads, after checking ours bit for bit), then ONNX Runtime's
# DynamicQuantizeLinear (onnxruntime-node, installed into the build
# directory on first use; ORT=0 skips it), and prints the table.
# Results: build/bench/dynquant/{results,ort}.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/dynquant}
ROUNDS=${ROUNDS:-9}
ORT=${ORT:-1}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== compiling"
"$OPT" "$ROOT/bench/dynquant/kernels.mlir" --quant-affine-cpu-pipeline="openmp=true" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$ROOT/bench" \
  "$ROOT/bench/dynquant/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

echo "== running ours, the plain loop and the limit ($ROUNDS rounds)"
"$OUT/harness" "$ROUNDS" "$OUT" > "$OUT/results.csv"

: > "$OUT/ort.csv"
if [ "$ORT" != 0 ]; then
  echo "== running ONNX Runtime DynamicQuantizeLinear"
  bash "$ROOT/bench/matmul/ort/install.sh" "$BUILD/bench/matmul/ort-node"
  python3 "$ROOT/bench/dynquant/ort/make_model.py" "$OUT"
  for threads in 1 2; do
    NODE_PATH="$BUILD/bench/matmul/ort-node/node_modules" \
      node "$ROOT/bench/dynquant/ort/ort.js" "$OUT" "$ROUNDS" "$threads" >> "$OUT/ort.csv"
  done
fi
python3 "$ROOT/bench/dynquant/report.py" "$OUT/results.csv" "$OUT/ort.csv"
