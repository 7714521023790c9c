#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Here, after run.sh on the GPU machine: FileChecks each test's output
# against the test's CHECK lines, as its RUN line would.
#   bash utils/gpu-bundle/check.sh RESULTS_DIR
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=$1
passed=0
failed=0
for out in "$RESULTS"/*.out; do
  name=$(basename "$out" .out)
  if /usr/lib/llvm-22/bin/FileCheck "$ROOT/test/Integration/GPU/$name.mlir" --input-file "$out"; then
    echo "PASS: $name"
    passed=$((passed + 1))
  else
    echo "FAIL: $name"
    failed=$((failed + 1))
  fi
done
for out in "$RESULTS"/cpu-tests/*.out; do
  [ -e "$out" ] || continue
  name=$(basename "$out" .out)
  if /usr/lib/llvm-22/bin/FileCheck "$ROOT/test/Integration/CPU/$name.mlir" --input-file "$out"; then
    echo "PASS: CPU/$name"
    passed=$((passed + 1))
  else
    echo "FAIL: CPU/$name"
    failed=$((failed + 1))
  fi
done
# The random programs: every lane against utils/progtest.py's reference.
if [ -f "$RESULTS/programs/count" ]; then
  if python3 "$ROOT/utils/progtest.py" --seed 32 --count "$(cat "$RESULTS/programs/count")" \
      --batch 20 --check-outputs "$RESULTS/programs" | tail -20; then
    echo "PASS: programs"
    passed=$((passed + 1))
  else
    echo "FAIL: programs"
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
