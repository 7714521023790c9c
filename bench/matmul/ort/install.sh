#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs onnxruntime-node (package.json beside this script) into DIR
# (default build/bench/matmul/ort-node), once.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/../../../build/bench/matmul/ort-node}
if [ ! -d "$DIR/node_modules/onnxruntime-node" ]; then
  mkdir -p "$DIR"
  cp "$HERE/package.json" "$DIR/"
  # The package carries the CPU runtime; its install script would also fetch
  # the CUDA provider from nuget.org.
  (cd "$DIR" && ONNXRUNTIME_NODE_INSTALL_CUDA=skip ONNXRUNTIME_NODE_INSTALL=skip \
    npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
