#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compile-time figures for the benchmark report:
#  - lowering (--quant-affine-cpu-pipeline) and code generation
#    (mlir-translate, clang -O3 -c) of a module with 1,000 quant_affine ops
#    (bench/gen_many_ops.py);
#  - constant folding of a 4096x4096 weight (block-32 int4 quantize);
#  - how time and peak memory grow with the program
#    (bench/compile_scaling.py): the CPU and GPU pipelines, one thread, on
#    programs of N = 1,000, 5,000 and 20,000 of three shapes
#    (bench/gen_scaling.py says what N counts: an elementwise chain of N
#    qdq + addf pairs, an MLP of N/2 dequantize -> matmul layers, N/5
#    independent functions of 5 pairs), with the exponent of time ~ N^k
#    fitted per shape. SCALING_SIZES, SCALING_SHAPES, SCALING_PIPELINES (comma lists)
#    and SCALING_LIMIT (seconds past which a shape's larger N are skipped)
#    narrow it; SCALING_SHAPES=none skips it.
# usage: compile_times.sh QUANT_AFFINE_OPT OUT_DIR
#   (writes OUT_DIR/compile-times.csv and OUT_DIR/compile-scaling.csv)
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
fold=$(python3 "$ROOT/utils/time-fold-constants.py" "$OPT" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p' | head -1)

{
  echo "what,seconds"
  printf "1000 ops: --quant-affine-cpu-pipeline,%.3f\n" "$lower"
  printf "1000 ops: mlir-translate --mlir-to-llvmir,%.3f\n" "$translate"
  printf "1000 ops: clang -O3 -c,%.3f\n" "$codegen"
  printf "fold 4096x4096 block-32 int4 weight (quant-affine-fold-constants),%s\n" "${fold:-n/a}"
} > "$OUT/compile-times.csv"
cat "$OUT/compile-times.csv"

if [ "${SCALING_SHAPES:-}" != none ]; then
  rm -f "$OUT/compile-scaling.csv"
  python3 "$ROOT/bench/compile_scaling.py" "$OPT" "$OUT" \
    --sizes "${SCALING_SIZES:-1000,5000,20000}" \
    --shapes "${SCALING_SHAPES:-chain,mlp,funcs}" \
    --pipelines "${SCALING_PIPELINES:-cpu,gpu}" \
    --limit "${SCALING_LIMIT:-600}"
fi
