#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Time --quant-affine-fold-constants on a 4096x4096 block-32 int4 weight.

usage: utils/time-fold-constants.py [build/bin/quant-affine-opt] [--calibrate]

Writes a module with a random 4096x4096 f32 weight and per-block (32) scales
as hex constants, then runs the pass with --mlir-timing and prints the pass's
wall time. With --calibrate, the scales are not given: a symmetric
compute_encoding per block of 32 computes them, and both ops fold. Needs no
NumPy.
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

ROWS, COLS, BLOCK = 4096, 4096, 32


def main():
    args = [a for a in sys.argv[1:] if a != "--calibrate"]
    calibrate = "--calibrate" in sys.argv[1:]
    tool = args[0] if args else "build/bin/quant-affine-opt"
    rng = random.Random(0)
    weights = [rng.gauss(0.0, 0.05) for _ in range(ROWS * COLS)]
    scales = []
    for r in range(ROWS):
        row = weights[r * COLS:(r + 1) * COLS]
        scales += [max(abs(v) for v in row[b:b + BLOCK]) / 7 for b in range(0, COLS, BLOCK)]
    hexw = struct.pack("<%df" % len(weights), *weights).hex().upper()
    hexs = struct.pack("<%df" % len(scales), *scales).hex().upper()
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write('func.func @weight() -> tensor<%dx%dxi4> {\n' % (ROWS, COLS))
        f.write('  %%w = arith.constant dense<"0x%s"> : tensor<%dx%dxf32>\n' % (hexw, ROWS, COLS))
        if calibrate:
            f.write('  %%s, %%o = quant_affine.compute_encoding %%w range [-8, 7] symmetric block [1, %d]'
                    ' : tensor<%dx%dxf32> -> (tensor<%dx%dxf32>, tensor<%dx%dxf32>)\n'
                    % (BLOCK, ROWS, COLS, ROWS, COLS // BLOCK, ROWS, COLS // BLOCK))
        else:
            f.write('  %%s = arith.constant dense<"0x%s"> : tensor<%dx%dxf32>\n' % (hexs, ROWS, COLS // BLOCK))
        f.write('  %%q = quant_affine.quantize %%w, %%s range [-8, 7] block [1, %d]'
                ' : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxi4>\n'
                % (BLOCK, ROWS, COLS, ROWS, COLS // BLOCK, ROWS, COLS))
        f.write('  return %q : tensor<4096x4096xi4>\n}\n')
        path = f.name
    try:
        out = subprocess.run([tool, path, "--quant-affine-fold-constants", "--mlir-timing",
                              "-o", os.devnull], capture_output=True, text=True, check=True).stderr
    finally:
        os.unlink(path)
    seconds = float(re.search(r"([0-9.]+) \(.*\)\s+QuantAffineFoldConstantsPass", out).group(1))
    print("fold-constants: %s%dx%d block-%d int4 weight (%d elements) in %.2f s (%.0f M elements/s)"
          % ("compute_encoding + quantize of a " if calibrate else "", ROWS, COLS, BLOCK, ROWS * COLS,
             seconds, ROWS * COLS / seconds / 1e6))


if __name__ == "__main__":
    main()
