#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# On the GPU machine: runs the bundle that make.sh built and writes each
# program's output and exit status under RESULTS_DIR (default ./gpu-results).
#   bash run.sh [RESULTS_DIR] [ROUNDS]
set -uo pipefail
BUNDLE=$(cd "$(dirname "$0")" && pwd)
RESULTS=${1:-gpu-results}
ROUNDS=${2:-10}
mkdir -p "$RESULTS"
export LD_LIBRARY_PATH=$BUNDLE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L > "$RESULTS/device.txt" 2>&1
"$BUNDLE/quant-affine-cuda-probe" >> "$RESULTS/device.txt" 2>&1
echo "probe exit $?" >> "$RESULTS/device.txt"
for test in "$BUNDLE"/tests/*; do
  name=$(basename "$test")
  start=$(date +%s%N)
  timeout 45 "$test" > "$RESULTS/$name.out" 2> "$RESULTS/$name.err"
  status=$?
  echo "$name exit $status ms $((($(date +%s%N) - start) / 1000000))" | tee -a "$RESULTS/status.txt"
done
mkdir -p "$RESULTS/cpu-tests"
for test in "$BUNDLE"/cpu-tests/*; do
  name=$(basename "$test")
  timeout 60 "$test" > "$RESULTS/cpu-tests/$name.out" 2> "$RESULTS/cpu-tests/$name.err"
  echo "CPU/$name exit $?" | tee -a "$RESULTS/status.txt"
done
mkdir -p "$RESULTS/programs"
cp "$BUNDLE/programs/count" "$RESULTS/programs/" 2>/dev/null
for program in "$BUNDLE"/programs/m*; do
  name=$(basename "$program")
  timeout 45 "$program" > "$RESULTS/programs/$name.out" 2> "$RESULTS/programs/$name.err"
  status=$?
  [ "$status" = 0 ] || echo "program module $name exit $status" | tee -a "$RESULTS/status.txt"
done
echo "program modules run: $(ls "$BUNDLE"/programs/m* 2>/dev/null | wc -l)" | tee -a "$RESULTS/status.txt"
for harness in "$BUNDLE"/bench/*/harness; do
  size=$(basename "$(dirname "$harness")")
  timeout 150 "$harness" "$ROUNDS" > "$RESULTS/bench-$size.csv" 2> "$RESULTS/bench-$size.err"
  echo "bench $size exit $?" | tee -a "$RESULTS/status.txt"
  cat "$RESULTS/bench-$size.csv"
done
