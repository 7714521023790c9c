#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The dynamic microscaling benchmark, in one command from the repository
# root:
#
#   bash bench/mxquant/run.sh           # 9 rounds
#   ROUNDS=5 bash bench/mxquant/run.sh
#
# Builds quant-affine-opt, compiles kernels.mlir (MXFP8 and two-level NVFP4
# quantization of 4096 x 4096 and 11008 x 4096 f32 activations: block scales
# and elements in one program) with --quant-affine-cpu-pipeline="openmp=true",
# runs the harness (ours, a plain C++ loop and the access pattern's limit,
# interleaved, on 1 and 2 threads, after checking ours bit for bit) and
# prints the table. No peer: ONNX Runtime 1.30 has no operator that computes
# MX or NVFP4 block scales (its QuantizeLinear takes given scales), and
# PyTorch from Debian has no MX/NVFP4 kernels (torchao's are Triton/CUDA).
# Results: build/bench/mxquant/results.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/mxquant}
ROUNDS=${ROUNDS:-9}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
PIPELINE=${PIPELINE:-openmp=true}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== compiling"
"$OPT" "$ROOT/bench/mxquant/kernels.mlir" --quant-affine-cpu-pipeline="$PIPELINE" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$ROOT/bench" \
  "$ROOT/bench/mxquant/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

echo "== running ours, the plain loop and the limit ($ROUNDS rounds)"
"$OUT/harness" "$ROUNDS" > "$OUT/results.csv" || { cat "$OUT/results.csv"; exit 1; }
python3 "$ROOT/bench/mxquant/report.py" "$OUT/results.csv"
