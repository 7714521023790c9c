#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what quant-affine needs on Debian 12 (bookworm), as root: LLVM/MLIR
# 22 from bookworm-security, the build tools, and GoogleTest for the unit
# tests. Safe to run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  clang-format-22        # utils/check-format.sh (a test in the suite)
  libzstd-dev            # LLVMConfig.cmake needs zstd's CMake package
  ninja-build cmake g++ python3
  libgtest-dev
  libomp-22-dev          # the OpenMP runtime of the CPU pipeline's openmp option
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross  # AArch64 runs under qemu
  libonnx-dev libprotobuf-dev  # quant-affine-translate --import-onnx
  libonnx-testdata python3-onnx  # ONNX's node tests; building test models
  libjemalloc-dev        # the drivers' allocator (compile time, issue 38)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime (onnxruntime-node, the version bench/ uses), the peer that the
# ONNX importer's whole-model tests compare with.
if ! command -v npm >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm
fi
# (From npm's registry: where it cannot be reached, the comparison is
# reported unsupported by lit rather than stopping the install.)
bash "$(dirname "$0")/../bench/matmul/ort/install.sh" /opt/quant-affine/onnxruntime-node \
  || echo "install-deps: onnxruntime-node not installed; test/Target/ONNX/ort-models.test will be unsupported" >&2
