#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Write a self-checking program of COUNT fused matmuls of random shapes
(`dequantize` feeding `x @ W^T` into an f32 destination), for execution
tests of the CPU pipeline (test/Integration/CPU/fused-matmul-shapes.test):
decode and prefill rows (M of 1 to 64), N from 3 to 96 (multiples of 4
mostly, whose decode tiles spread their rows over the matrix), blocks of
32, 64 or 128 or a scale per channel, int4 or int8 codes, f32, f16 or bf16
activations, a zero or a given initial value.

Every activation is a multiple of 1/2 in [-2, 2], every scale a power of
two in [1/4, 2] and every initial value an integer, so every product and
every partial sum in any order is exact in f32: the result must equal the
reference bit for bit whatever order the kernel sums in. @main runs each
matmul and prints `NAME mismatches COUNT`.

usage: gen-matmul-exec.py SEED COUNT > out.mlir
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from matmul_cases import fused_matmul  # noqa: E402


def literal(values, shape, element):
    """`dense<...>` of `values` (row-major) in `shape`."""
    rows = values
    for size in reversed(shape[1:]):
        rows = [rows[i:i + size] for i in range(0, len(rows), size)]

    def text(v):
        if isinstance(v, list):
            return "[" + ", ".join(text(x) for x in v) + "]"
        # Every value is a small dyadic rational: its shortest decimal is
        # exact in every float type here.
        return str(v) if element.startswith("i") else repr(float(v))
    return "dense<%s>" % text(rows)


def dense(values, shape, element):
    """An arith.constant of `values` and its type."""
    ttype = "tensor<%sx%s>" % ("x".join(map(str, shape)), element)
    return "arith.constant %s : %s" % (literal(values, shape, element),
                                       ttype), ttype


def case(name, rng):
    m = rng.choice([1, 1, 1, 2, 3, 8, 16, 64])
    n = rng.choice([3, 4, 6, 8, 12, 20, 32, 40, 64, 96])
    if m >= 64:
        n = rng.choice([32, 64])
    block = rng.choice([32, 64, 128, 0])
    count = rng.choice([1, 2, 3, 4, 8])
    # At most 8192 codes and activations (the program's size).
    while max(m, n) * count * (block or 32) > 8192:
        if count > 1:
            count -= 1
        else:
            block = block and block // 2
    k = count * (block or 32)
    bits = rng.choice([4, 8])
    act = rng.choice(["f32", "f32", "bf16", "f16"])
    with_init = rng.random() < 0.3
    groups = k // block if block else 1

    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    xs = [rng.randint(-4, 4) / 2 for _ in range(m * k)]
    qs = [rng.randint(lo, hi) for _ in range(n * k)]
    ss = [rng.choice([0.25, 0.5, 1.0, 2.0]) for _ in range(n * groups)]
    inits = [float(rng.randint(-8, 8)) if with_init else 0.0
             for _ in range(m * n)]
    expected = []
    for i in range(m):
        for j in range(n):
            total = inits[i * n + j]
            for c in range(k):
                scale = ss[j * groups + (c // block if block else 0)]
                total += xs[i * k + c] * qs[j * k + c] * scale
            expected.append(total)

    x_const, x_type = dense(xs, [m, k], act)
    q_const, q_type = dense(qs, [n, k], "i%d" % bits)
    s_const, s_type = dense(ss, [n, groups], "f32")
    i_const, y_type = dense(inits, [m, n], "f32")
    out_type = y_type.replace("tensor", "memref")
    kernel = fused_matmul(name, m, n, k, bits, block, act, result="f32",
                          init=with_init).splitlines()
    kernel += [
        "memref.global \"private\" constant @%s_expected : %s = %s"
        % (name, out_type, literal(expected, [m, n], "f32")),
        "func.func @%s_mismatches(%%got: %s) -> index {" % (name, out_type),
        "  %%want = memref.get_global @%s_expected : %s" % (name, out_type),
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %%m = arith.constant %d : index" % m,
        "  %%n = arith.constant %d : index" % n,
        "  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%a = %c0) -> index {",
        "    %row = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> index {",
        "      %%g = memref.load %%got[%%i, %%j] : %s" % out_type,
        "      %%v = memref.load %%want[%%i, %%j] : %s" % out_type,
        "      %gi = arith.bitcast %g : f32 to i32",
        "      %vi = arith.bitcast %v : f32 to i32",
        "      %ne = arith.cmpi ne, %gi, %vi : i32",
        "      %one = arith.select %ne, %c1, %c0 : index",
        "      %next = arith.addi %b, %one : index",
        "      scf.yield %next : index",
        "    }",
        "    scf.yield %row : index",
        "  }",
        "  return %bad : index",
        "}",
    ]
    call = [
        "  %%%s_x = %s" % (name, x_const),
        "  %%%s_q = %s" % (name, q_const),
        "  %%%s_s = %s" % (name, s_const),
    ]
    args = "%%%s_x, %%%s_q, %%%s_s" % (name, name, name)
    types = "%s, %s, %s" % (x_type, q_type, s_type)
    if with_init:
        call.append("  %%%s_i = %s" % (name, i_const))
        args += ", %%%s_i" % name
        types += ", %s" % y_type
    call += [
        "  %%%s_out = memref.alloc() : %s" % (name, out_type),
        "  call @%s(%s, %%%s_out) : (%s, %s) -> ()"
        % (name, args, name, types, out_type),
        "  %%%s_bad = call @%s_mismatches(%%%s_out) : (%s) -> index"
        % (name, name, name, out_type),
        "  vector.print str \"%s (M %d, N %d, K %d, i%d, block %d, %s) mismatches \""
        % (name, m, n, k, bits, block, act),
        "  vector.print %%%s_bad : index" % name,
    ]
    return kernel, call


def main():
    rng = random.Random(int(sys.argv[1]))
    kernels, calls = [], []
    for i in range(int(sys.argv[2])):
        kernel, call = case("mm%d" % i, rng)
        kernels += kernel
        calls += call
    print("\n".join(kernels))
    print("func.func @main() {")
    print("\n".join(calls))
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
