#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compares the bench/matmul kernels as two quant-affine-opt binaries compile
# them (a change against its base), calls alternating:
#
#   bash bench/matmul/ab.sh OPT_A OPT_B [RUNS] [CASES]
#
# CASES (a grep pattern over gen.py's case names, default the 128-row ones)
# each run on 1 and 2 threads, A then B or B then A in turn, RUNS times
# (default 4); prints each case's GFLOP/s per run and B's total over A's.
# Build outputs in build/bench/matmul-ab.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=$1 B=$2 RUNS=${3:-4} CASES=${4:-m128_}
OUT=${OUT:-$ROOT/build/bench/matmul-ab}
LLVM=/usr/lib/llvm-22/bin
mkdir -p "$OUT"
python3 "$ROOT/bench/matmul/gen.py" "$OUT"
for side in A B; do
  opt=${!side}
  "$opt" "$OUT/kernels.mlir" --quant-affine-cpu-pipeline="openmp=true" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/kernels-$side.ll"
  "$LLVM/clang" -O3 -march=native -Wno-override-module -c "$OUT/kernels-$side.ll" \
    -o "$OUT/kernels-$side.o"
  "$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$OUT" \
    "$ROOT/bench/matmul/ab_driver.cpp" "$OUT/kernels-$side.o" -o "$OUT/driver-$side" \
    -Wl,-rpath,/usr/lib/llvm-22/lib
done
cases=$(grep -o '"mm_[^"]*"' "$OUT/kernels.h" | tr -d '"' | grep -- "$CASES")
: > "$OUT/ab.csv"
for run in $(seq "$RUNS"); do
  for name in $cases; do
    for threads in 1 2; do
      order="A B"; [ $((run % 2)) = 0 ] || order="B A"
      for side in $order; do
        echo "$side,$(OMP_NUM_THREADS=$threads "$OUT/driver-$side" "$name" 6)" >> "$OUT/ab.csv"
      done
    done
  done
done
python3 - "$OUT/ab.csv" <<'PY'
import collections, sys
runs = collections.defaultdict(lambda: {"A": [], "B": []})
for line in open(sys.argv[1]):
    side, name, threads, gflops = line.strip().split(",")
    runs[(name, threads)][side].append(float(gflops))
print("case,threads,A GFLOP/s,B GFLOP/s,B/A")
for (name, threads), v in runs.items():
    print("%s,%s,%s,%s,%.3f" % (name, threads, " ".join("%.1f" % g for g in v["A"]),
                                " ".join("%.1f" % g for g in v["B"]),
                                sum(v["B"]) / sum(v["A"])))
PY
