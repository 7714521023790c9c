#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential test of the quant interop passes on random !quant.uniform types.

Generates COUNT random types (storage widths 1 to 32, signed or unsigned, full
or narrow ranges; f16, bf16, f32 and f64 expressed types; per-tensor, per-axis
and sub-channel layouts on random shapes, some dims dynamic; scales exact in
the expressed type; zero points anywhere the type allows), each in a function
that quantizes with it and one that dequantizes with it. Then checks that

  --convert-quant-to-quant-affine --convert-quant-affine-to-quant

gives back the same program (after -canonicalize drops the dead constants on
both sides): every field of every type survives the trip through quant_affine's
operands and properties. (One normalization: a signed storage type with a range
of no negative values comes back unsigned, which holds the same bits.) A crash, a conversion error or a changed type is a
failure; the first few are printed.

usage: quant-interop-fuzz.py --opt OPT [--seed S] [--count N]
"""
import argparse
import random
import re
import subprocess
import sys

# Expressed types: (name, mantissa bits kept by a scale m * 2^e with m < 16,
# smallest and largest exponent e that keep the scale a normal value).
EXPRESSED = [("f16", -14, 11), ("bf16", -100, 100), ("f32", -100, 100),
             ("f64", -300, 300)]


def random_range(rng, width, signed):
    lo = -(1 << (width - 1)) if signed else 0
    hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
    if width > 1 and rng.random() < 0.3:
        a, b = sorted(rng.randint(lo, hi) for _ in range(2))
        if a < b:
            return lo, hi, (a, b)
    return lo, hi, None


def storage_text(width, signed, narrow):
    text = ("i" if signed else "u") + str(width)
    if narrow:
        text += "<%d:%d>" % narrow
    return text


def random_scale(rng, lo_exp, hi_exp):
    mantissa = rng.randint(1, 15)
    exponent = rng.randint(max(lo_exp, -60), min(hi_exp, 60) - 4)
    return repr(mantissa * 2.0 ** exponent)


def random_type(rng):
    """(tensor shape, quant type text, storage integer, expressed type)."""
    width = rng.randint(1, 32)
    signed = rng.random() < 0.6
    lo, hi, narrow = random_range(rng, width, signed)
    qmin, qmax = narrow or (lo, hi)
    expressed, lo_exp, hi_exp = rng.choice(EXPRESSED)
    rank = rng.randint(1, 3)
    layout = rng.choice(["tensor", "axis", "sub"])
    storage = storage_text(width, signed, narrow)
    if layout == "tensor":
        shape = [rng.choice([1, 2, 3, 8, -1]) for _ in range(rank)]
        zp = rng.randint(-(1 << 20), 1 << 20)
        body = "%s:%s, %s:%d" % (storage, expressed,
                                 random_scale(rng, lo_exp, hi_exp), zp)
        return shape, "!quant.uniform<%s>" % body, width, expressed
    if layout == "axis":
        dim = rng.randrange(rank)
        channels = rng.randint(2, 5)
        shape = [rng.choice([1, 2, 4, -1]) for _ in range(rank)]
        shape[dim] = rng.choice([channels, -1])
        params = ",".join("%s:%d" % (random_scale(rng, lo_exp, hi_exp),
                                     rng.randint(-(1 << 20), 1 << 20))
                          for _ in range(channels))
        return (shape, "!quant.uniform<%s:%s:%d, {%s}>" %
                (storage, expressed, dim, params), width, expressed)
    # Sub-channel: at least two varying dims, each listed with its block.
    rank = max(rank, 2)
    dims = sorted(rng.sample(range(rank), 2 if rank == 2 else rng.randint(2, rank)))
    counts, blocks, shape = [], [], []
    for d in range(rank):
        if d in dims:
            count, block = rng.randint(2, 3), rng.choice([1, 2, 4])
            shape.append(count * block)
            counts.append(count)
            blocks.append(block)
        else:
            shape.append(rng.choice([1, 3, -1]))
            counts.append(1)

    def nested(level, prefix):
        if level == rank:
            zp = rng.randint(qmin, qmax)
            return "%s:%d" % (random_scale(rng, lo_exp, hi_exp), zp)
        return "{" + ", ".join(nested(level + 1, prefix + [i])
                               for i in range(counts[level])) + "}"

    info = ", ".join("%d:%d" % (d, b) for d, b in zip(dims, blocks))
    return (shape, "!quant.uniform<%s:%s:{%s}, %s>" %
            (storage, expressed, info, nested(0, [])), width, expressed)


def module_for(index, shape, qtype, width, expressed):
    dims = "x".join("?" if d < 0 else str(d) for d in shape)
    storage = "i%d" % width
    tq = "tensor<%sx%s>" % (dims, qtype)
    tf = "tensor<%sx%s>" % (dims, expressed)
    ti = "tensor<%sx%s>" % (dims, storage)
    return ("func.func @q%d(%%x: %s) -> %s {\n"
            "  %%q = quant.qcast %%x : %s to %s\n"
            "  %%i = quant.scast %%q : %s to %s\n"
            "  return %%i : %s\n}\n"
            "func.func @d%d(%%i: %s) -> %s {\n"
            "  %%q = quant.scast %%i : %s to %s\n"
            "  %%y = quant.dcast %%q : %s to %s\n"
            "  return %%y : %s\n}\n") % (
        index, tf, ti, tf, tq, tq, ti, ti, index, ti, tf, ti, tq, tq, tf, tf)


def run(opt, text, *flags):
    done = subprocess.run([opt, "-", *flags], input=text.encode(),
                          capture_output=True)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures = refused = 0
    for index in range(args.count):
        shape, qtype, width, expressed = random_type(rng)
        source = module_for(index, shape, qtype, width, expressed)
        # quant_affine reads a grid as signed iff qmin < 0, so a signed storage
        # type whose range has no negative value comes back unsigned: the
        # same bits (docs/Interop.md).
        normalized = source
        if re.search(r"!quant.uniform<i\d+<\d+:", qtype):
            normalized = source.replace(qtype, "!quant.uniform<u" + qtype[len("!quant.uniform<i"):])
        code, expected, err = run(args.opt, normalized, "-canonicalize")
        if code != 0:
            # The quant dialect refused the type itself: not ours to test.
            if "Stack dump" in err:
                failures += 1
                print("crash parsing:\n" + source + err[:2000])
            refused += 1
            continue
        code, actual, err = run(args.opt, source, "--convert-quant-to-quant-affine",
                                "--convert-quant-affine-to-quant", "-canonicalize")
        if code != 0 or actual != expected or "remark" in err:
            failures += 1
            if failures <= 5:
                print("FAIL %d: %s\n%s--- expected\n%s--- got\n%s%s" %
                      (index, qtype, source, expected, actual, err[:2000]))
    print("%d types (%d refused by the quant dialect itself), %d failures" %
          (args.count, refused, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
