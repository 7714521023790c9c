#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The weight-only quantized matmul benchmark, in one command from the
# repository root:
#
#   bash bench/matmul/run.sh             # 15 rounds
#   ROUNDS=5 ORT=0 bash bench/matmul/run.sh
#   PIPELINE="openmp=true cpu=znver3" ONLY=mxfp4 ORT=0 bash bench/matmul/run.sh
#
# PIPELINE: the CPU pipeline's options (another target's code: its functions
# carry the target, so clang -march=native keeps to it); ONLY: run the cases
# whose names contain it.
#
# Builds quant-affine-opt (NINJA_FLAGS, e.g. -j1, limits the build), generates
# the kernels (gen.py), compiles them with --quant-affine-cpu-pipeline and the
# harness with clang -O3 -march=native -fopenmp, runs the harness (ours, the
# plain C++ loop, the read bound and the FMA peak, interleaved round by
# round, after checking ours; its rounds in 3 blocks per case, and after each
# block ONNX Runtime's MatMulNBits on the same weights through
# onnxruntime-node, installed into the build directory on first use, ORT=0
# skips it), and prints the tables (report.py). Results:
# build/bench/matmul/{results,ort}.csv.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench/matmul}
ROUNDS=${ROUNDS:-15}
ORT=${ORT:-1}
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
PIPELINE=${PIPELINE:-openmp=true}
ONLY=${ONLY:-}
LLVM=/usr/lib/llvm-22/bin

# shellcheck source=../prepare.sh
source "$ROOT/bench/prepare.sh"

echo "== generating and compiling"
python3 "$ROOT/bench/matmul/gen.py" "$OUT"
"$OPT" "$OUT/kernels.mlir" --quant-affine-cpu-pipeline="$PIPELINE" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels.ll"
"$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels.ll" -o "$OUT/kernels.o"
"$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$OUT" -I "$ROOT/bench" \
  "$ROOT/bench/matmul/harness.cpp" "$OUT/kernels.o" -o "$OUT/harness" \
  -Wl,-rpath,/usr/lib/llvm-22/lib

: > "$OUT/ort.csv"
PEER_CMD=
if [ "$ORT" != 0 ]; then
  bash "$ROOT/bench/matmul/ort/install.sh" "$OUT/ort-node"
  # ONNX Runtime on each case after each of the harness's 3 blocks of rounds:
  # decode a third of the rounds per block, prefill a sixth (at least 2).
  PEER_CMD="bash '$ROOT/bench/matmul/ort/case.sh' '$OUT/ort-node' '$OUT/ort.csv' \
$(( ROUNDS / 3 > 1 ? ROUNDS / 3 : 1 )) $(( ROUNDS / 6 > 2 ? ROUNDS / 6 : 2 ))"
  echo "== running ours, the plain loop, the bounds and ONNX Runtime ($ROUNDS rounds)"
else
  echo "== running ours, the plain loop and the bounds ($ROUNDS rounds)"
fi
rm -rf "$OUT/ort-cases"
PEER_CMD=$PEER_CMD "$OUT/harness" "$ROUNDS" "$OUT/ort-cases" "$ONLY" \
  > "$OUT/results.csv"

python3 "$ROOT/bench/matmul/report.py" "$OUT"
