#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Every static/dynamic combination of input, scale and offset sizes with
every kind of block, compiled and run, compared bit for bit with the Python
reference (utils/qatest_common.py).

The input is L x X0 x X1 (2 x 6 x 8) with a rank-2 scale and offset. Per
encoded dim the encoding is one of

  without block_size:  S = X (per element), S = 1 (broadcast)
  with block_size:     (1, X), (b, X / b), (-1, X / b), (X, 1), (-1, 1)

and each of X and S is static or dynamic (scale and offset share a type), so
there are (2 x 4)^2 + (5 x 4)^2 = 464 kernels; L is dynamic in every other
one. Even kernels are qdq with an offset, odd ones quantize to i8 without.
Each kernel is its own function with the dynamic types in its signature, so
the dynamic path runs; @main passes static constants through tensor.cast.

  shape_matrix.py --opt OPT --runner RUNNER --libdir DIR [--openmp] -- PASS_ARGS...
      compiles with `OPT - PASS_ARGS`, runs @main (with libomp), compares
  shape_matrix.py --opt OPT --compile-only -- PASS_ARGS...
      only checks that every kernel compiles (the GPU pipeline without a GPU)
  shape_matrix.py --emit
      prints the module

--sample K keeps one kernel in K (K dividing 16: 16 / K of the 16 size
patterns of every encoding pair, rotating from pair to pair), and --offset R
the R-th such subset, for the test suite.
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "..", "utils"))
import qatest_common as qc  # noqa: E402

L, X = 2, (6, 8)
BLOCK = (2, 4)  # the b of (b, X / b) per encoded dim
QMIN, QMAX = -128, 127


def dim_encodings(x, b, blocked):
    """(block or None, scale size) options for one encoded dim."""
    if not blocked:
        return [(None, x), (None, 1)]
    return [(1, x), (b, x // b), (-1, x // b), (x, 1), (-1, 1)]


def cases():
    out = []
    for blocked in (False, True):
        e0 = dim_encodings(X[0], BLOCK[0], blocked)
        e1 = dim_encodings(X[1], BLOCK[1], blocked)
        for enc0 in e0:
            for enc1 in e1:
                for dyn in range(16):  # X0, S0, X1, S1 dynamic bits
                    out.append((enc0, enc1, [bool(dyn & (1 << i)) for i in range(4)]))
    return out


def tstr(shape, dyn, elem):
    return "tensor<%sx%s>" % ("x".join("?" if d else str(s) for s, d in zip(shape, dyn)),
                              elem)


def data(rng, n, kind):
    if kind == "x":
        # Multiples of 1/8 in [-50, 50]: ties, clamping and exact zeros.
        return [rng.randint(-400, 400) / 8.0 for _ in range(n)]
    if kind == "s":
        return [rng.choice([0.25, 0.5, 0.75, 1.5, 0.1, 3.0]) for _ in range(n)]
    return [float(rng.randint(-3, 3)) for _ in range(n)]


def build(seed=1, sample=1, offset=0):
    rng = random.Random(seed)
    kernels, calls, expected = [], [], []
    n = L * X[0] * X[1]
    lines = ["func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})"]
    for i, (enc0, enc1, dyn) in enumerate(cases()):
        if (i + i // 16 + offset) % sample:
            continue
        qdq = i % 2 == 0
        s_shape = (enc0[1], enc1[1])
        blocks = None if enc0[0] is None else (enc0[0], enc1[0])
        x_dyn = (i % 4 < 2, dyn[0], dyn[2])
        s_dyn = (dyn[1], dyn[3])
        xt = tstr((L,) + X, x_dyn, "f32")
        st = tstr(s_shape, s_dyn, "f32")
        rt = tstr((L,) + X, x_dyn, "f32" if qdq else "i8")
        block = "" if blocks is None else " block [%d, %d]" % blocks
        name = "k%d" % i
        if qdq:
            lines.append(
                "func.func @%s(%%x: %s, %%s: %s, %%o: %s) -> %s {\n"
                "  %%y = quant_affine.qdq %%x, %%s, %%o range [%d, %d]%s : (%s, %s, %s) -> %s\n"
                "  return %%y : %s\n}" % (name, xt, st, st, rt, QMIN, QMAX, block, xt, st, st,
                                          rt, rt))
        else:
            lines.append(
                "func.func @%s(%%x: %s, %%s: %s) -> %s {\n"
                "  %%y = quant_affine.quantize %%x, %%s range [%d, %d]%s : (%s, %s) -> %s\n"
                "  return %%y : %s\n}" % (name, xt, st, rt, QMIN, QMAX, block, xt, st, rt, rt))
        xs = data(rng, n, "x")
        ss = data(rng, s_shape[0] * s_shape[1], "s")
        os_ = data(rng, s_shape[0] * s_shape[1], "o") if qdq else None
        # Reference: element (l, j0, j1) uses scale (j0 / B0, j1 / B1).
        b0 = X[0] // s_shape[0]
        b1 = X[1] // s_shape[1]
        ref = []
        for l in range(L):
            for j0 in range(X[0]):
                for j1 in range(X[1]):
                    x = xs[(l * X[0] + j0) * X[1] + j1]
                    k = (j0 // b0) * s_shape[1] + j1 // b1
                    if qdq:
                        ref.append(qc.to_bits(qc.ref_qdq(x, ss[k], os_[k], QMIN, QMAX, "f32",
                                                         "f32"), "f32"))
                    else:
                        ref.append(qc.ref_quantize(x, ss[k], None, QMIN, QMAX, "f32", "i8"))
        expected.append((name, ref, (enc0, enc1, dyn)))
        full_x = tstr((L,) + X, (False,) * 3, "f32")
        full_s = tstr(s_shape, (False, False), "f32")
        full_r = tstr((L,) + X, (False,) * 3, "f32" if qdq else "i8")
        def lit2(vals):
            rows = ["[%s]" % ", ".join(qc.float_literal(v, "f32")
                                       for v in vals[r * s_shape[1]:(r + 1) * s_shape[1]])
                    for r in range(s_shape[0])]
            return "dense<[%s]> : %s" % (", ".join(rows), full_s)

        c = ["  // %s" % name,
             "  %%x%d = arith.constant dense<[%s]> : tensor<%dxf32>" % (
                 i, ", ".join(qc.float_literal(v, "f32") for v in xs), n),
             "  %%xr%d = tensor.expand_shape %%x%d [[0, 1, 2]] output_shape [%d, %d, %d]"
             " : tensor<%dxf32> into %s" % (i, i, L, X[0], X[1], n, full_x),
             "  %%xc%d = tensor.cast %%xr%d : %s to %s" % (i, i, full_x, xt),
             "  %%s%d = arith.constant %s" % (i, lit2(ss))]
        c.append("  %%sc%d = tensor.cast %%s%d : %s to %s" % (i, i, full_s, st))
        if qdq:
            c.append("  %%o%d = arith.constant %s" % (i, lit2(os_)))
            c.append("  %%oc%d = tensor.cast %%o%d : %s to %s" % (i, i, full_s, st))
            c.append("  %%y%d = call @%s(%%xc%d, %%sc%d, %%oc%d) : (%s, %s, %s) -> %s" % (
                i, name, i, i, i, xt, st, st, rt))
        else:
            c.append("  %%y%d = call @%s(%%xc%d, %%sc%d) : (%s, %s) -> %s" % (
                i, name, i, i, xt, st, rt))
        c.append("  %%ys%d = tensor.cast %%y%d : %s to %s" % (i, i, rt, full_r))
        flat_r = "tensor<%dx%s>" % (n, "f32" if qdq else "i8")
        c.append("  %%yf%d = tensor.collapse_shape %%ys%d [[0, 1, 2]] : %s into %s" % (
            i, i, full_r, flat_r))
        if qdq:
            c.append("  %%yb%d = arith.bitcast %%yf%d : %s to tensor<%dxi32>" % (i, i, flat_r, n))
            c.append("  %%yw%d = arith.extui %%yb%d : tensor<%dxi32> to tensor<%dxi64>" % (
                i, i, n, n))
        else:
            c.append("  %%yw%d = arith.extui %%yf%d : %s to tensor<%dxi64>" % (i, i, flat_r, n))
        c.append("  %%yu%d = tensor.cast %%yw%d : tensor<%dxi64> to tensor<*xi64>" % (i, i, n))
        c.append("  vector.print str \"%s\\n\"" % name)
        c.append("  call @printMemrefI64(%%yu%d) : (tensor<*xi64>) -> ()" % i)
        # One function per kernel: one-shot bufferization and empty-tensor
        # elimination take time quadratic in the size of a function.
        lines.append("func.func @run_%s() {\n%s\n  return\n}" % (name, "\n".join(c[1:])))
        calls.append("  call @run_%s() : () -> ()" % name)
    lines.append("func.func @main() {\n%s\n  return\n}" % "\n".join(calls))
    return "\n".join(lines) + "\n", expected


def parse_output(text):
    results, name = {}, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("k") and line[1:].isdigit():
            name = line
        elif line.startswith("[") and name:
            results[name] = [int(v) for v in line.strip("[]").split(",")]
            name = None
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt")
    ap.add_argument("--runner")
    ap.add_argument("--libdir")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--openmp", action="store_true", help="load libomp")
    ap.add_argument("--emit", action="store_true")
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("pass_args", nargs="*")
    args = ap.parse_args()
    module, expected = build(sample=args.sample, offset=args.offset)
    if args.emit:
        sys.stdout.write(module)
        return 0
    compiled = subprocess.run([args.opt, "-"] + args.pass_args, input=module,
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        sys.stderr.write(compiled.stderr[-4000:])
        print("FAIL: %d kernels do not compile" % len(expected))
        return 1
    if args.compile_only:
        print("%d kernels compiled" % len(expected))
        return 0
    run = subprocess.run(qc.runner_command(args.runner, args.libdir, args.openmp), input=compiled.stdout,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-4000:])
        print("FAIL: the program exited with %d" % run.returncode)
        return 1
    got = parse_output(run.stdout)
    bad = 0
    for name, ref, case in expected:
        if got.get(name) != ref:
            bad += 1
            if bad <= 10:
                print("mismatch in %s %s: got %s, expected %s" % (
                    name, case, (got.get(name) or [])[:8], ref[:8]))
    print("%d kernels, %d mismatches" % (len(expected), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
