#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles an execution test for AArch64 through --quant-affine-cpu-pipeline
# and runs it under qemu-user, printing what mlir-runner would print.
#
#   run-aarch64.sh OUT_PREFIX INPUT.mlir "PIPELINE_OPTIONS" [QEMU_CPU] [-- PASSES...]
#
# QEMU_CPU: qemu's -cpu (default max: NEON and SVE, 512-bit vectors);
# PASSES: quant-affine-opt flags before the pipeline (-inline, ...).
# Needs quant-affine-opt, mlir-translate, clang and llvm-objcopy on PATH,
# aarch64-linux-gnu-gcc and qemu-aarch64.
set -euo pipefail
out=$1 input=$2 options=$3
qemu_cpu=${4:-max}
shift $(($# < 4 ? $# : 4))
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
quant-affine-opt "$input" "$@" --quant-affine-cpu-pipeline="$options" -o "$out.mlir"
mlir-translate --mlir-to-llvmir "$out.mlir" -o "$out.ll"
clang --target=aarch64-linux-gnu -O2 -Wno-override-module -c "$out.ll" -o "$out.o"
# The module's @main returns nothing: the harness's main calls it.
llvm-objcopy --redefine-sym main=mlir_main "$out.o"
clang --target=aarch64-linux-gnu -O2 -c "$here/runner-utils.c" -o "$out.rt.o"
aarch64-linux-gnu-gcc "$out.o" "$out.rt.o" -o "$out.exe" -lm
qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu "$qemu_cpu" "$out.exe"
