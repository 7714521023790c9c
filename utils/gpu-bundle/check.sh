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
# check_outputs OUTDIR TESTDIR LABEL: each OUTDIR/NAME.out against the CHECK
# lines of TESTDIR/NAME.mlir.
check_outputs() {
  local out name
  for out in "$1"/*.out; do
    [ -e "$out" ] || continue
    name=$(basename "$out" .out)
    if /usr/lib/llvm-22/bin/FileCheck "$2/$name.mlir" --input-file "$out"; then
      echo "PASS: $3$name"
      passed=$((passed + 1))
    else
      echo "FAIL: $3$name"
      failed=$((failed + 1))
    fi
  done
}
check_outputs "$RESULTS" "$ROOT/test/Integration/GPU" ""
check_outputs "$RESULTS/cpu-tests" "$ROOT/test/Integration/CPU" "CPU/"
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
