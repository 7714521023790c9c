#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Write COUNT fused matmuls of random shapes (dequantize feeding a transposed
linalg.matmul, destination style), for compile tests of the pipelines:
M in {1, 2, 3, 16}, N in {1, 3, 4, 6, 8, 12, 64}, blocks of 32, 64 or 128 or a
scale per channel, K of 1 to 64 blocks, int4 or int8 codes, f32, f16 or bf16
activations.

usage: gen-matmul-shapes.py SEED COUNT > out.mlir
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from matmul_cases import fused_matmul  # noqa: E402


def matmul(name, rng):
    m = rng.choice([1, 2, 3, 16])
    n = rng.choice([1, 3, 4, 6, 8, 12, 64])
    block = rng.choice([32, 64, 128, 0])
    k = rng.choice([1, 2, 5, 32, 64]) * (block or 32)
    bits = rng.choice([4, 8])
    act = rng.choice(["f32", "f16", "bf16"])
    return fused_matmul(name, m, n, k, bits, block, act)


def main():
    rng = random.Random(int(sys.argv[1]))
    print("\n".join(matmul("mm%d" % i, rng) for i in range(int(sys.argv[2]))))


if __name__ == "__main__":
    main()
