#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Times ONNX Runtime's MatMulNBits on one case of bench/matmul, between the
# harness's blocks of rounds (its PEER_CMD):
#
#   case.sh NODE_DIR CSV DECODE_ROUNDS PREFILL_ROUNDS CASE_DIR
#
# Writes CASE_DIR's models once (make_model.py), then appends ort.js's lines
# (1 and 2 threads, f32 and int8 modes), each prefixed by the case's name,
# to CSV. NODE_DIR holds onnxruntime-node (install.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
NODE_DIR=$1 CSV=$2 DECODE_ROUNDS=$3 PREFILL_ROUNDS=$4 DIR=$5
name=$(basename "$DIR")
[ -f "$DIR/model-int8.onnx" ] || python3 "$HERE/make_model.py" "$DIR"
rounds=$PREFILL_ROUNDS
case $name in mm_m1_*) rounds=$DECODE_ROUNDS ;; esac
NODE_PATH="$NODE_DIR/node_modules" node "$HERE/ort.js" "$DIR" "$rounds" \
  | sed "s/^/$name,/" >> "$CSV"
