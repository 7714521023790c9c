#!/usr/bin/env python3
"""Robustness check: mutated quant_affine IR must give diagnostics, not crashes.

Takes the op lines of the given .mlir files, applies random token-level
mutations (numbers to extremes, types swapped, ranks changed, block sizes
mangled, tokens dropped), wraps each mutant in a function, and feeds them all
to `quant-affine-opt -split-input-file` in batches. Any exit status other than
0 (valid) or 1 (diagnosed), or a stack dump on stderr, is a failure.

usage: mutate-ir.py [--compile] TOOL SEED COUNT FILE...   (TOOL may carry flags: "opt --flag")

With --compile, each mutant is a function whose operands are its arguments
and whose result it returns, so that a pipeline given in TOOL compiles what
verifies instead of erasing it as dead.
"""
import random
import shlex
import re
import subprocess
import sys

NUMBERS = ["0", "1", "-1", "-2", "7", "32", "64", "255", "4294967295",
           "9223372036854775807", "-9223372036854775808", "4611686018427387904"]
ELEMS = ["f16", "bf16", "f32", "f64", "i1", "i4", "i8", "i32", "i64", "ui8",
         "f8E4M3FN", "index", "complex<f32>"]
DIMS = ["?", "0", "1", "2", "4", "8", "16", "32", "64"]


def mutate(line, rng):
    tokens = re.split(r"(\s+|,|\[|\]|<|>|\(|\)|x(?=[0-9?a-z]))", line)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        t = tokens[i]
        r = rng.random()
        if re.fullmatch(r"-?\d+", t):
            tokens[i] = rng.choice(NUMBERS)
        elif t in ELEMS or re.fullmatch(r"[fi]\d+|bf16", t):
            tokens[i] = rng.choice(ELEMS)
        elif t == "?":
            tokens[i] = rng.choice(DIMS)
        elif r < 0.2:
            tokens[i] = ""
        elif r < 0.3:
            tokens[i] = rng.choice(["block [1, -1]", "compute f32", "range [0, 1]",
                                    "tensor<*xf32>", "vector<4xf32>", "f32"])
    return "".join(tokens)


def split_top(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c in "<(["
        depth -= c in ">)]"
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    return parts + [cur.strip()] if cur.strip() else parts


def operand_defs(line):
    """(name, type) for each operand of the op on `line`."""
    rhs = line.split("=", 1)[-1]
    names = re.findall(r"%[A-Za-z0-9_]+", rhs.split(":")[0])
    m = re.search(r":\s*\((.*)\)\s*->", rhs)
    types = split_top(m.group(1)) if m else []
    return [(n, types[i] if i < len(types) and types[i] else "none")
            for i, n in enumerate(dict.fromkeys(names))]


def as_function(line):
    """The mutant as a function of its operands returning its result, or
    None when the line does not show one result and its type."""
    lhs = re.match(r"\s*(%[A-Za-z0-9_]+)\s*=", line)
    result = re.search(r"->\s*(.+?)\s*$", line)
    if not lhs or not result:
        return None
    args = ", ".join("%s: %s" % d for d in operand_defs(line))
    return "func.func @m(%s) -> %s {\n  %s\n  return %s : %s\n}\n" % (
        args, result.group(1), line, lhs.group(1), result.group(1))


def main():
    args = sys.argv[1:]
    compile_mutants = args[0] == "--compile"
    if compile_mutants:
        args = args[1:]
    tool, seed, count, files = shlex.split(args[0]), int(args[1]), int(args[2]), args[3:]
    rng = random.Random(seed)
    ops = [l.strip() for f in files for l in open(f)
           if "quant_affine." in l and "=" in l and not l.lstrip().startswith("//")]
    mutants = []
    for _ in range(count):
        line = mutate(rng.choice(ops), rng)
        function = as_function(line) if compile_mutants else None
        if function:
            mutants.append(function)
            continue
        # Operands come from an unregistered op with the types the mutant
        # names, so most mutants reach the verifier rather than the parser.
        defs = "".join("  %s = \"test.source\"() : () -> %s\n" % d
                       for d in operand_defs(line))
        mutants.append("func.func @m() {\n%s  %s\n  return\n}\n" % (defs, line))
    batch = 100
    for start in range(0, len(mutants), batch):
        text = "\n// -----\n".join(mutants[start:start + batch])
        proc = subprocess.run(tool + ["-split-input-file", "-allow-unregistered-dialect",
                               "-o", "/dev/null", "-"],
                              input=text, capture_output=True, text=True)
        if proc.returncode not in (0, 1) or "Stack dump" in proc.stderr:
            sys.stderr.write(proc.stderr[-4000:])
            print("CRASH in batch starting at mutant %d (exit %d)" % (start, proc.returncode))
            return 1
    print("%d mutants, no crash" % len(mutants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
