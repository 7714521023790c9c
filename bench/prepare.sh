# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sourced by bench/run.sh, bench/matmul/run.sh, bench/dynquant/run.sh and
# bench/floatqdq/run.sh, after they set ROOT, BUILD, OUT and OPT: installs
# libomp (the harnesses' OpenMP), builds quant-affine-opt when OPT is the
# build's own (NINJA_FLAGS, e.g. -j1, limits the build), and creates OUT.
if ! dpkg -s libomp-22-dev >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libomp-22-dev
fi
if [ "$OPT" = "$BUILD/bin/quant-affine-opt" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD" >/dev/null
  ninja -C "$BUILD" ${NINJA_FLAGS-} quant-affine-opt >/dev/null
fi
mkdir -p "$OUT"
