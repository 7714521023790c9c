#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The CPU benchmark, in one command from the repository root:
#
#   bash bench/run.sh            # all sizes, 10 rounds
#   ROUNDS=20 SIZES="4096x4096" bash bench/run.sh
#   OPT=/path/to/quant-affine-opt bash bench/run.sh   # that binary, no build
#
# Installs what it needs (libomp, matplotlib), builds quant-affine-opt, and for
# each size generates the kernels (bench/gen_kernels.py), compiles ours through
# --quant-affine-cpu-pipeline twice (with its defaults, OURS_DEFAULT: the
# "ours" rows; and with explicit options, OURS_LARGE or OURS_SMALL: the
# "ours-explicit" rows) and upstream's through --lower-quant-ops and the
# explicit options, builds the harness with clang -O3 -march=native -fopenmp
# and runs it in a process of its own. Then bench/report.py prints the table
# and writes build/bench/results.csv and build/bench/results.png. Compile
# times go to build/bench/compile-times.csv (bench/compile_times.sh).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench}
ROUNDS=${ROUNDS:-10}
SIZES=${SIZES:-"256x1024 4096x4096 11008x4096"}
LLVM=/usr/lib/llvm-22/bin
# The defaults choose tiles and stores by the size of each op (and the host's
# last-level cache); openmp is what runs rows on threads.
OURS_DEFAULT=${OURS_DEFAULT-"openmp=true"}
# Explicitly: large outputs stream past the caches, in whole 64-byte lines
# (64 lanes, so that i8 results fill a line too); the cache-resident size
# keeps plain stores and 16 lanes.
OURS_LARGE=${OURS_LARGE-"openmp=true nontemporal-stores=true vector-width=64"}
OURS_SMALL=${OURS_SMALL-"openmp=true nontemporal-stores=false vector-width=16"}

missing=""
for pkg in libomp-22-dev python3-matplotlib; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi

# Builds quant-affine-opt unless OPT names another binary (NINJA_FLAGS, e.g.
# -j1, limits the build on a shared machine), and creates OUT.
OPT=${OPT:-$BUILD/bin/quant-affine-opt}
# shellcheck source=prepare.sh
source "$ROOT/bench/prepare.sh"

for size in $SIZES; do
  rows=${size%x*}
  cols=${size#*x}
  dir="$OUT/$size"
  echo "== $size: generating and compiling"
  python3 "$ROOT/bench/gen_kernels.py" "$rows" "$cols" "$dir"
  opts=$OURS_LARGE
  [ $((rows * cols)) -le $((1 << 20)) ] && opts=$OURS_SMALL
  "$OPT" "$dir/ours.mlir" --quant-affine-cpu-pipeline="$OURS_DEFAULT" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$dir/ours.ll"
  "$OPT" "$dir/ours-explicit.mlir" --quant-affine-cpu-pipeline="$opts" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$dir/ours-explicit.ll"
  "$LLVM/mlir-opt" "$dir/upstream.mlir" --lower-quant-ops --canonicalize \
    | "$OPT" --quant-affine-cpu-pipeline="$opts" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$dir/upstream.ll"
  for k in ours ours-explicit upstream; do
    "$LLVM/clang" -O3 -march=native -Wno-override-module -c "$dir/$k.ll" -o "$dir/$k.o"
  done
  "$LLVM/clang++" -O3 -march=native -fopenmp -std=c++17 -I "$dir" -I "$ROOT/bench" \
    "$ROOT/bench/harness.cpp" "$dir/ours.o" "$dir/ours-explicit.o" "$dir/upstream.o" \
    -o "$dir/harness" -Wl,-rpath,/usr/lib/llvm-22/lib
  echo "== $size: running ($ROUNDS rounds)"
  "$dir/harness" "$ROUNDS" > "$dir/results.csv"
done

bash "$ROOT/bench/compile_times.sh" "$OPT" "$OUT"
/usr/bin/python3 "$ROOT/bench/report.py" "$OUT" $SIZES
