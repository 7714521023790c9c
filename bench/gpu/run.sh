#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The GPU benchmark, in one command from the repository root:
#
#   bash bench/gpu/run.sh          # 4096x4096 and 8192x8192, 10 rounds
#
# Builds quant-affine-opt, our CUDA runtime library and the device probe,
# compiles the kernels of each size (bench/gpu/gen_kernels.py) through
# --quant-affine-gpu-pipeline for the probed chip, links the harness against
# the runtime library and libcuda, and runs it where a GPU answers; prints
# GB/s and the ratio to the device's own copy bandwidth, and writes
# build/bench-gpu/results.csv. Then the same for the fused matmuls
# (gen_matmul.py, matmul_harness.cpp: build/bench-gpu/matmul.csv). Without a
# GPU it builds everything and says so.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$BUILD/bench-gpu}
ROUNDS=${ROUNDS:-10}
SIZES=${SIZES:-"4096x4096 8192x8192"}
CUDA=${CUDA:-/usr/local/cuda}
LLVM=/usr/lib/llvm-22/bin

cmake -G Ninja -S "$ROOT" -B "$BUILD" >/dev/null
ninja -C "$BUILD" quant-affine-opt quant_affine_cuda_runtime quant-affine-cuda-probe >/dev/null
if chip=$("$BUILD/bin/quant-affine-cuda-probe" 2>/dev/null); then
  have_gpu=1
else
  have_gpu=0
  chip=${CHIP:-sm_90}
fi
mkdir -p "$OUT"

# build_harness DIR NAME HARNESS: DIR/NAME.mlir through the GPU pipeline,
# linked with bench/gpu/HARNESS into DIR/harness.
build_harness() {
  "$BUILD/bin/quant-affine-opt" "$1/$2.mlir" \
      --quant-affine-gpu-pipeline="chip=$chip cuda-path=$CUDA" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$1/$2.ll"
  "$LLVM/clang" -O3 -Wno-override-module -c "$1/$2.ll" -o "$1/$2.o"
  "$LLVM/clang++" -O3 -std=c++17 -I "$1" -I "$ROOT/bench" -I "$ROOT/bench/gpu" \
    -I "$CUDA/include" "$ROOT/bench/gpu/$3" "$1/$2.o" -o "$1/harness" \
    -L "$BUILD/lib" -lquant_affine_cuda_runtime -Wl,-rpath,"$BUILD/lib" \
    -L "$CUDA/lib64/stubs" -lcuda
}

first=1
for size in $SIZES; do
  rows=${size%x*}
  cols=${size#*x}
  dir="$OUT/$size"
  echo "== $size: compiling for $chip"
  python3 "$ROOT/bench/gpu/gen_kernels.py" "$rows" "$cols" "$dir"
  build_harness "$dir" kernels harness.cpp
  if [ "$have_gpu" = 1 ]; then
    echo "== $size: running ($ROUNDS rounds)"
    if [ "$first" = 1 ]; then
      "$dir/harness" "$ROUNDS" > "$OUT/results.csv"
      first=0
    else
      "$dir/harness" "$ROUNDS" | tail -n +2 >> "$OUT/results.csv"
    fi
  fi
done
# The fused matmuls (bench/matmul's cases, device memory, weights from HBM).
dir="$OUT/matmul"
echo "== fused matmuls: compiling for $chip"
python3 "$ROOT/bench/gpu/gen_matmul.py" "$dir"
build_harness "$dir" matmul matmul_harness.cpp
if [ "$have_gpu" = 1 ]; then
  echo "== fused matmuls: running ($ROUNDS rounds)"
  "$dir/harness" "$ROUNDS" > "$OUT/matmul.csv"
fi
if [ "$have_gpu" = 1 ]; then
  column -s, -t "$OUT/results.csv"
  column -s, -t "$OUT/matmul.csv"
else
  echo "No GPU answered the probe: the kernels and harnesses are built in $OUT, not run."
fi
