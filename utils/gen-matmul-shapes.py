#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Write COUNT fused matmuls of random shapes (dequantize feeding a transposed
linalg.matmul, destination style), for compile tests of the pipelines:
M in {1, 2, 3, 16}, N in {1, 3, 4, 6, 8, 12, 64}, blocks of 32, 64 or 128 or a
scale per channel, K of 1 to 64 blocks, int4 or int8 codes, f32, f16 or bf16
activations.

usage: gen-matmul-shapes.py SEED COUNT > out.mlir
"""
import random
import sys


def matmul(name, rng):
    m = rng.choice([1, 2, 3, 16])
    n = rng.choice([1, 3, 4, 6, 8, 12, 64])
    block = rng.choice([32, 64, 128, 0])
    k = rng.choice([1, 2, 5, 32, 64]) * (block or 32)
    bits = rng.choice([4, 8])
    act = rng.choice(["f32", "f16", "bf16"])
    scales = "%dx%d" % (n, k // block) if block else "%dx1" % n
    encoding = " block [1, %d]" % block if block else ""
    x, q, w = "tensor<%dx%dx%s>" % (m, k, act), "tensor<%dx%dxi%d>" % (n, k, bits), "tensor<%dx%dx%s>" % (n, k, act)
    y, s = "tensor<%dx%dx%s>" % (m, n, act), "tensor<%sxf32>" % scales
    out = y.replace("tensor", "memref")
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return "\n".join([
        "func.func @%s(%%x: %s, %%q: %s, %%s: %s, %%out: %s) {" % (name, x, q, s, out),
        "  %%w = quant_affine.dequantize %%q, %%s range [%d, %d]%s : (%s, %s) -> %s" % (lo, hi, encoding, q, s, w),
        "  %%zero = arith.constant 0.0 : %s" % act,
        "  %%e = tensor.empty() : %s" % y,
        "  %%f = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s" % (act, y, y),
        "  %%y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
        "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] "
        "ins(%%x, %%w : %s, %s) outs(%%f : %s) -> %s" % (x, w, y, y),
        "  bufferization.materialize_in_destination %%y in restrict writable %%out : (%s, %s) -> ()" % (y, out),
        "  return",
        "}",
        ""])


def main():
    rng = random.Random(int(sys.argv[1]))
    print("\n".join(matmul("mm%d" % i, rng) for i in range(int(sys.argv[2]))))


if __name__ == "__main__":
    main()
