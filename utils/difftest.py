#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential tester for quant_affine rewrites.

usage: utils/difftest.py [--seed S] [--count N] [--opt TOOL] [--runner RUNNER]
                         [--libdir DIR] [--batch B] [--keep DIR]

Generates N random cases. A case is a chain of one to three quant_affine ops
sharing one encoding (the shapes the folds look for: qdq of qdq, dequantize of
quantize, quantize of dequantize, single ops), with random input types
(f16/bf16/f32/f64), storage (i1..i16, f16/f32), grids, granularities
(per-tensor, per-channel, blocks), constant scales and offsets drawn from edge
sets (subnormal, zero, negative, huge, 0.1, powers of two; offsets integer,
0.5, +-0.0) and inputs with NaN, +-Inf, ties, huge and subnormal values,
and torchao's `float_zero_point` (whole chains) or `reciprocal`
(quantizing ops). A quarter of the cases are float_qdq instead, alone or
applied twice (the chain the canonicalizer folds): the six real formats and
random AIMET grids ([1..10, 0..52]), with or without a maxval (per tensor,
per channel, blocks; 0, negative, NaN and inf among them), on inputs at,
near and between grid values of every binade, the clamp and the specials.

Each batch of cases is compiled and run three ways and the printed bits are
compared:
  A  --quant-affine-cpu-pipeline                      (generated code)
  B  -canonicalize, then the pipeline                 (the rewrites)
  C  -inline -canonicalize, then the pipeline         (reference: every op
                                                       folded by the evaluator)
A lane whose value may go through NaN-to-integer (poison: a NaN input, or a
zero or infinite scale on an integer path) is not compared.
Prints `N cases, M mismatches` and exits 1 on any mismatch.
"""
import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile

from qatest_common import (FLOAT_FORMATS, FLOATS, WIDTH, aimet_grid, bf16_exact, hex_dense,
                           is_nan_bits, runner_command, ttype)


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def value(self, scale):
        r = self.rng.random()
        if r < 0.06:
            return self.rng.choice([float("nan"), float("inf"), float("-inf")])
        if r < 0.14:  # zeros, and values that round to -0.0
            return self.rng.choice([-0.0, 0.0, -0.2 * scale, 0.3 * scale])
        if r < 0.22:  # far out of range: the clamp decides
            return self.rng.choice([1e30, -1e30, 1e4 * scale, -1e4 * scale, 65504.0, 70000.0])
        if r < 0.25:
            return self.rng.choice([1e-40, -3e-39])
        if r < 0.32:  # large grid values, where k * s / s may miss k
            return (self.rng.randint(-2 ** 23, 2 ** 23) + self.rng.random()) * scale
        if r < 0.35:  # exact ties of x / s for power-of-two scales
            return (self.rng.randint(-300, 300) + 0.5) * scale
        return self.rng.gauss(0, 40) * scale

    def scale(self, c):
        r = self.rng.random()
        if r < 0.05:
            return self.rng.choice([0.0, -0.25, 1e-40, 1e-30, 3e38])
        if r < 0.45:
            return 2.0 ** self.rng.randint(-8, 3)
        return self.rng.choice([0.1, 1 / 15, 0.0173, 0.3, 7.0])

    def offset(self):
        r = self.rng.random()
        if r < 0.25:
            return self.rng.choice([0.5, -0.0, 0.0, -1.5, 0.7, -0.3])
        return float(self.rng.randint(-5, 5))

    # The smallest and largest binary exponents of each input type's values.
    EXPONENTS = {"f16": (-24, 15), "bf16": (-133, 127), "f32": (-149, 127),
                 "f64": (-1074, 1023)}

    def grid_value(self, m, emin, emax, fmt_max, xdt):
        """A value at, near or between grid values of a random binade (and a
        few below the smallest quantum or above fmt_max), or a special."""
        rng = self.rng
        if rng.random() < 0.1:
            return rng.choice([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, fmt_max,
                               -fmt_max, fmt_max * (1 + 2.0 ** -9), 1e300, -5e-324])
        lo, hi = self.EXPONENTS[xdt]
        e = rng.randint(max(emin - m - 2, lo), min(emax + 1, hi))
        qe = max(e, emin) - m
        n = math.floor(2.0 ** (e - qe) * (1 + rng.random())) if e >= qe else 0
        frac = rng.choice([0.0, 0.5, 0.5, 0.25, 0.75, rng.random()])
        v = math.ldexp(n + frac, qe)
        if rng.random() < 0.3:  # an ulp or so off the tie
            v *= 1 + rng.choice([-1, 1]) * 2.0 ** -rng.choice([8, 11, 24, 53])
        return -v if rng.random() < 0.5 else v

    def float_case(self, name):
        rng = self.rng
        xdt = rng.choice(FLOATS)
        if rng.random() < 0.5:
            (e, m), flags, emin, emax, fmt_max = rng.choice(FLOAT_FORMATS)
        else:
            e, m, flags = rng.randint(1, 10), rng.choice([0, 1, 2, 3, 7, 10, 20, 21, 22, 23, 50, 51, 52]), ""
            emin, emax, fmt_max = aimet_grid(e, m)
        rank = rng.choice([1, 2, 2, 3])
        shape = [rng.choice([2, 3, 4]) for _ in range(rank - 1)] + [rng.choice([8, 16, 32])]
        nx = 1
        for d in shape:
            nx *= d
        maxvals, sshape, block = None, [], None
        if rng.random() < 0.4:
            gran = rng.choice(["tensor", "channel", "block", "last"])
            if gran == "channel":
                sshape = [shape[0]] + [1] * (rank - 1)
            elif gran == "last":
                sshape = [shape[-1]]
            elif gran == "block":
                b = rng.choice([2, 4, 8])
                sshape, block = [shape[-1] // b], [rng.choice([b, -1])]
            nm = 1
            for d in sshape:
                nm *= d
            maxvals = [rng.choice([2.5, 1000.0, 1.0, 448.0, 57344.0, 1e-3, 3e-5, 123.456, 7.0])
                       if rng.random() < 0.95 else
                       rng.choice([0.0, -2.5, float("inf"), float("nan")]) for _ in range(nm)]
        xs = [self.grid_value(m, emin, emax, fmt_max, xdt) for _ in range(nx)]
        if maxvals:  # the grid of x / k
            k = [2.0 ** (math.log2(abs(v)) - math.log2(fmt_max))
                 if v != 0 and math.isfinite(v) else 1.0 for v in maxvals]
            c = dict(shape=shape, sshape=sshape, block=block, scales=k)
            xs = [x * scale_of_lane(c, i) for i, x in enumerate(xs)]
        if xdt == "bf16":
            xs = [bf16_exact(v) if math.isfinite(v) else v for v in xs]
        kind = rng.choice(["fqdq", "fqdq-fqdq"])
        return dict(name=name, xdt=xdt, kind=kind, shape=shape, sshape=sshape, block=block,
                    scales=maxvals, offsets=None, xs=xs, sdt=xdt, qmin=0, compute=None,
                    format="[%d, %d]%s" % (e, m, flags))

    def case(self, name):
        rng = self.rng
        if rng.random() < 0.25:
            return self.float_case(name)
        xdt = rng.choice(FLOATS + ["f32", "f64"])
        kind = rng.choice(["qdq-qdq", "qdq-qdq", "deq-q", "deq-q", "q-deq", "q-deq", "qdq", "q", "deq"])
        bits = rng.choice([1, 4, 8, 8, 8, 12, 16, 21, 22])
        signed = rng.random() < 0.5
        n = 2 ** bits - 1
        qmin, qmax = (-((n + 1) // 2), n // 2) if signed else (0, n)
        rank = rng.choice([1, 2, 2, 3])
        shape = [rng.choice([2, 3, 4]) for _ in range(rank - 1)] + [rng.choice([8, 16, 32])]
        gran = rng.choice(["tensor", "channel", "block", "last"])
        if gran == "tensor":
            sshape, block = [], None
        elif gran == "channel":
            sshape, block = [shape[0]] + [1] * (rank - 1), None
        elif gran == "last":
            sshape, block = [shape[-1]], None
        else:
            b = rng.choice([2, 4, 8])
            sshape, block = [shape[-1] // b], [rng.choice([b, -1])]
        nscale = 1
        for d in sshape:
            nscale *= d
        base = self.scale("f32")
        scales = [base if rng.random() < 0.7 else self.scale("f32") for _ in range(nscale)]
        has_offset = rng.random() < 0.7
        offsets = [self.offset() for _ in range(nscale)] if has_offset else None
        nx = 1
        for d in shape:
            nx *= d
        xs = [self.value(abs(base) if base not in (0.0,) else 1.0) for _ in range(nx)]
        if xdt == "bf16":
            xs = [bf16_exact(v) if not math.isnan(v) and not math.isinf(v) else v for v in xs]
        storage = rng.choice(["int", "int", "float", xdt])
        if storage == "int":
            w = max(bits, 1)
            sdt = "i%d" % w
        elif storage == "float":
            sdt = rng.choice(["f16", "f32"])
        else:
            sdt = xdt
        compute = rng.choice([None, None, None, "f32", "f32", "f64"])
        if rng.random() < 0.5:
            # Fold stress: shapes where every chain fold may fire, with the
            # values that decide whether it may (non-integer and zero
            # offsets, grids near 2^(p-3), clamped inputs).
            xdt = rng.choice(["f32", "f64"])
            kind = rng.choice(["qdq-qdq", "deq-q", "q-deq"])
            compute = rng.choice([None, xdt])
            if xdt == "f32" and rng.random() < 0.3:
                qmin, qmax, compute = 0, rng.choice([2 ** 21, 2 ** 21 + 1, 2 ** 23 - 1]), "f32"
            scales = [rng.choice([0.1, 1 / 15, 0.3, 0.0173, 2.0 ** -4])] * nscale
            if has_offset or rng.random() < 0.5:
                o = rng.choice([0.7, -0.3, 0.5, -1.5, 3.0, -0.0, 0.0])
                offsets = [o] * nscale
            xs = [self.value(scales[0]) for _ in range(nx)]
            if qmax > 2 ** 22:  # the band where k * s / s misses k in f32
                xs = [rng.randint(2 ** 22, 2 ** 23 - 1) * scales[0] if rng.random() < 0.7 else v
                      for v in xs]
            storage = rng.choice(["int", "float", xdt])
            sdt = ("i%d" % max(1, (qmax - qmin).bit_length() + (1 if qmin < 0 else 0))
                   if storage == "int" else "f64" if storage == "float" else xdt)
        # torchao's conventions: a FLOAT zero-point domain on every op of the
        # chain, or the reciprocal on its quantizing ops.
        fzp = rng.random() < 0.2
        reciprocal = not fzp and rng.random() < 0.3
        return dict(name=name, xdt=xdt, kind=kind, qmin=qmin, qmax=qmax, shape=shape, sshape=sshape,
                    block=block, scales=scales, offsets=offsets, xs=xs, sdt=sdt, compute=compute,
                    fzp=fzp, reciprocal=reciprocal)


def attrs(c, op):
    a = " range [%d, %d]" % (c["qmin"], c["qmax"])
    if c.get("reciprocal") and op != "dequantize":
        a += " reciprocal"
    if c.get("fzp"):
        a += " float_zero_point"
    if c["block"]:
        a += " block [%s]" % ", ".join(map(str, c["block"]))
    if c["compute"]:
        a += " compute %s" % c["compute"]
    return a


def float_qdq_lines(c):
    """The float_qdq case's ops: one, or two in a chain."""
    X, S = ttype(c["shape"], c["xdt"]), ttype(c["sshape"], "f32")
    lines, operand, types = [], "", X
    if c["scales"] is not None:
        lines.append("  %%m = arith.constant dense<\"%s\"> : %s" % (hex_dense(c["scales"], "f32"), S))
        operand, types = ", %m", "%s, %s" % (X, S)
    block = " block [%s]" % ", ".join(map(str, c["block"])) if c["block"] else ""
    prev = "%x"
    for i in range(2 if c["kind"] == "fqdq-fqdq" else 1):
        lines.append("  %%y%d = quant_affine.float_qdq %s%s format %s%s : (%s) -> %s"
                     % (i, prev, operand, c["format"], block, types, X))
        prev = "%%y%d" % i
    lines.append("  %%y = tensor.cast %s : %s to %s" % (prev, X, X))
    return lines


def emit_case(c):
    """The case function: input as an argument, encoding as constants."""
    X, S = ttype(c["shape"], c["xdt"]), ttype(c["sshape"], "f32")
    if c["kind"].startswith("fqdq"):
        return finish_case(c, ["func.func @%s(%%x: %s) -> tensor<?xi64> {" % (c["name"], X)]
                           + float_qdq_lines(c), c["xdt"])
    Q = ttype(c["shape"], c["sdt"])
    lines = ["func.func @%s(%%x: %s) -> tensor<?xi64> {" % (c["name"], X),
             "  %%s = arith.constant dense<\"%s\"> : %s" % (hex_dense(c["scales"], "f32"), S)]
    enc, types = "%x, %s", [S]
    if c["offsets"] is not None:
        lines.append("  %%o = arith.constant dense<\"%s\"> : %s" % (hex_dense(c["offsets"], "f32"), S))
        types.append(S)
    operands = ", %s" + (", %o" if c["offsets"] is not None else "")
    enc_types = ", ".join(types)

    def op(name, inp, it, rt):
        return "quant_affine.%s %s%s%s : (%s, %s) -> %s" % (name, inp, operands, attrs(c, name), it,
                                                           enc_types, rt)

    k = c["kind"]
    if k == "qdq-qdq":
        lines.append("  %%a = %s" % op("qdq", "%x", X, X))
        lines.append("  %%y = %s" % op("qdq", "%a", X, X))
        rt = c["xdt"]
    elif k == "deq-q":
        lines.append("  %%q = %s" % op("quantize", "%x", X, Q))
        lines.append("  %%y = %s" % op("dequantize", "%q", Q, X))
        rt = c["xdt"]
    elif k == "q-deq":
        lines.append("  %%q = %s" % op("quantize", "%x", X, Q))
        lines.append("  %%d = %s" % op("dequantize", "%q", Q, X))
        lines.append("  %%y = %s" % op("quantize", "%d", X, Q))
        rt = c["sdt"]
    elif k == "qdq":
        lines.append("  %%y = %s" % op("qdq", "%x", X, X))
        rt = c["xdt"]
    elif k == "q":
        lines.append("  %%y = %s" % op("quantize", "%x", X, Q))
        rt = c["sdt"]
    else:
        lines.append("  %%q = %s" % op("quantize", "%x", X, Q))
        lines.append("  %%y = %s" % op("dequantize", "%q", Q, X))
        rt = c["xdt"]
    return finish_case(c, lines, rt)


def finish_case(c, lines, rt):
    """The result %y of type `rt` as bits in a tensor<?xi64>."""
    n = 1
    for d in c["shape"]:
        n *= d
    R = ttype(c["shape"], rt)
    groups = "[[%s]]" % ", ".join(str(i) for i in range(len(c["shape"])))
    lines.append("  %%f = tensor.collapse_shape %%y %s : %s into %s" % (groups, R, ttype([n], rt)))
    if rt in WIDTH:
        w = WIDTH[rt]
        lines.append("  %%b = arith.bitcast %%f : %s to %s" % (ttype([n], rt), ttype([n], "i%d" % w)))
        src, sw, ext = "%b", w, "extui"
    else:
        src, sw, ext = "%f", int(rt[1:]), "extsi" if c["qmin"] < 0 else "extui"
    if sw < 64:
        lines.append("  %%w = arith.%s %s : %s to %s" % (ext, src, ttype([n], "i%d" % sw), ttype([n], "i64")))
        src = "%w"
    lines.append("  %%r = tensor.cast %s : %s to tensor<?xi64>" % (src, ttype([n], "i64")))
    lines.append("  return %r : tensor<?xi64>")
    lines.append("}")
    c["rt"] = rt
    c["n"] = n
    return "\n".join(lines)


def emit_module(cases):
    out = ["func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})"]
    main = ["func.func @main() {"]
    for c in cases:
        out.append(emit_case(c))
        X = ttype(c["shape"], c["xdt"])
        main.append("  %%x_%s = arith.constant dense<\"%s\"> : %s" % (c["name"], hex_dense(c["xs"], c["xdt"]), X))
        main.append("  %%r_%s = call @%s(%%x_%s) : (%s) -> tensor<?xi64>" % (c["name"], c["name"], c["name"], X))
        main.append("  %%u_%s = tensor.cast %%r_%s : tensor<?xi64> to tensor<*xi64>" % (c["name"], c["name"]))
        main.append("  vector.print str \"%s\\n\"" % c["name"])
        main.append("  call @printMemrefI64(%%u_%s) : (tensor<*xi64>) -> ()" % c["name"])
    main += ["  return", "}"]
    return "\n".join(out + main) + "\n"


def run(args, path, pre):
    opt = subprocess.run([args.opt, path] + pre + ["--quant-affine-cpu-pipeline"],
                         capture_output=True, text=True)
    if opt.returncode:
        return None, opt.stderr
    r = subprocess.run(runner_command(args.runner, args.libdir),
                       input=opt.stdout, capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr[-2000:]
    results, name = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("case"):
            name = line.strip()
        elif line.startswith("[") and name:
            results[name] = [int(v) for v in re.findall(r"-?\d+", line)]
    return results, None


def scale_of_lane(c, lane):
    """The scale element lane `lane` (row-major) uses."""
    shape, sshape = c["shape"], c["sshape"]
    if not sshape:
        return c["scales"][0]
    last = lane % shape[-1]
    if c["block"]:
        return c["scales"][last // (shape[-1] // sshape[-1])]
    if len(sshape) == 1:
        return c["scales"][last]
    inner = 1
    for d in shape[1:]:
        inner *= d
    return c["scales"][lane // inner]


def may_be_poison(c, lane):
    """Whether an integer on the lane's path may come from NaN: a NaN input,
    or a division or product that gives NaN (scales that are zero or infinite,
    also after conversion to f16: 0/0, inf/inf, 0 * inf; reciprocals that
    overflow: 0 * inf)."""
    integer_path = c["sdt"].startswith("i") and c["kind"] not in ("qdq", "qdq-qdq")
    if not integer_path:
        return False
    s = scale_of_lane(c, lane)
    if "f16" in (c["xdt"], c["sdt"], c["compute"]) and (abs(s) > 65504 or abs(s) < 2 ** -24):
        return True  # the scale is infinite or zero once converted to f16
    # A dequantize feeding a quantize computes in its f16 result type: with a
    # float zero point, q - mid is inf - inf (NaN) once both pass 65504.
    if (c.get("fzp") and c["xdt"] == "f16" and c["compute"] in (None, "f16")
            and c["kind"] in ("q-deq", "deq-q")
            and max(abs(c["qmin"]), abs(c["qmax"])) > 65504):
        return True
    # `reciprocal` multiplies by 1/s in the compute type: where 1/s
    # overflows f32 (a subnormal scale), 0 * inf is NaN.
    compute = c["compute"] or ("f64" if c["xdt"] == "f64" else "f32")
    if c.get("reciprocal") and compute != "f64" and abs(s) < 2.0 ** -126:
        return True
    return math.isnan(c["xs"][lane]) or s == 0.0 or math.isinf(s)


def compare(c, a, b):
    """Lane-wise equality; NaN equals NaN; lanes that may be poison (NaN
    into an integer) are skipped."""
    bad = []
    for i, (u, v) in enumerate(zip(a, b)):
        if may_be_poison(c, i):
            continue
        if u == v or (is_nan_bits(u, c["rt"]) and is_nan_bits(v, c["rt"])):
            continue
        bad.append(i)
    if len(a) != len(b):
        bad.append(-1)
    return bad


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--batch", type=int, default=50)
    p.add_argument("--opt", default="build/bin/quant-affine-opt")
    p.add_argument("--runner", default="/usr/lib/llvm-22/bin/mlir-runner")
    p.add_argument("--libdir", default="/usr/lib/llvm-22/lib")
    p.add_argument("--keep", help="write failing modules here")
    args = p.parse_args()
    gen = Gen(random.Random(args.seed))
    total, mismatches = 0, 0
    for start in range(0, args.count, args.batch):
        cases = [gen.case("case%d" % i) for i in range(start, min(args.count, start + args.batch))]
        text = emit_module(cases)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
            path = f.name
        try:
            outs = {}
            for tag, pre in (("A", []), ("B", ["-canonicalize"]), ("C", ["-inline", "-canonicalize"])):
                outs[tag], err = run(args, path, pre)
                if outs[tag] is None:
                    print("run %s failed for batch at case %d:\n%s" % (tag, start, err))
                    mismatches += len(cases)
                    break
            else:
                for c in cases:
                    total += 1
                    name = c["name"]
                    if any(name not in outs[t] for t in "ABC"):
                        print("%s: missing output" % name)
                        mismatches += 1
                        continue
                    for t in "BC":
                        bad = compare(c, outs["A"][name], outs[t][name])
                        if bad:
                            mismatches += 1
                            print("%s: A and %s differ at lanes %s (kind %s, x %s, storage %s)"
                                  % (name, t, bad[:8], c["kind"], c["xdt"], c["sdt"]))
                            break
            if args.keep and mismatches:
                os.makedirs(args.keep, exist_ok=True)
                with open(os.path.join(args.keep, "batch%d.mlir" % start), "w") as f:
                    f.write(text)
        finally:
            os.unlink(path)
    print("%d cases, %d mismatches" % (total, mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
