#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compile-time figures for the benchmark report:
#  - lowering (--quant-affine-cpu-pipeline) and code generation
#    (mlir-translate, clang -O3 -c) of a module with 1,000 quant_affine ops;
#  - lowering of 5,000 ops, as 500 functions of 10 and as one chain of
#    5,000 (compile time is linear in the number of ops);
#  - constant folding of a 4096x4096 weight (block-32 int4 quantize).
# usage: compile_times.sh QUANT_AFFINE_OPT OUT_DIR   (writes OUT_DIR/compile-times.csv)
set -euo pipefail
OPT=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LLVM=/usr/lib/llvm-22/bin
mkdir -p "$OUT/compile"
dir="$OUT/compile"

seconds() { # command... -> its wall seconds on stdout
  python3 -c 'import subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(time.monotonic() - start)' "$@"
}

python3 "$ROOT/bench/gen_many_ops.py" "$dir/many.mlir" 1000 >/dev/null
lower=$(seconds "$OPT" "$dir/many.mlir" --quant-affine-cpu-pipeline -o "$dir/many.llvm.mlir")
translate=$(seconds "$LLVM/mlir-translate" --mlir-to-llvmir "$dir/many.llvm.mlir" -o "$dir/many.ll")
codegen=$(seconds "$LLVM/clang" -O3 -march=native -Wno-override-module -c "$dir/many.ll" -o "$dir/many.o")
python3 "$ROOT/bench/gen_many_ops.py" "$dir/module5000.mlir" 5000 >/dev/null
module5000=$(seconds "$OPT" "$dir/module5000.mlir" --quant-affine-cpu-pipeline -o /dev/null)
python3 "$ROOT/bench/gen_many_ops.py" "$dir/chain5000.mlir" 5000 5000 >/dev/null
chain5000=$(seconds "$OPT" "$dir/chain5000.mlir" --quant-affine-cpu-pipeline -o /dev/null)
fold=$(python3 "$ROOT/utils/time-fold-constants.py" "$OPT" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p' | head -1)

{
  echo "what,seconds"
  printf "1000 ops: --quant-affine-cpu-pipeline,%.3f\n" "$lower"
  printf "1000 ops: mlir-translate --mlir-to-llvmir,%.3f\n" "$translate"
  printf "1000 ops: clang -O3 -c,%.3f\n" "$codegen"
  printf "5000 ops in 500 functions: --quant-affine-cpu-pipeline,%.3f\n" "$module5000"
  printf "5000 ops in one chain: --quant-affine-cpu-pipeline,%.3f\n" "$chain5000"
  printf "fold 4096x4096 block-32 int4 weight (quant-affine-fold-constants),%s\n" "${fold:-n/a}"
} > "$OUT/compile-times.csv"
cat "$OUT/compile-times.csv"
