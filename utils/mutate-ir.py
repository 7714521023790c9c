#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Robustness check: mutated quant_affine IR must give diagnostics, not crashes.

Takes the op lines of the given .mlir files, applies random mutations,
wraps each mutant in a function, and feeds them all to
`quant-affine-opt -split-input-file` in batches. Any exit status other than
0 (valid) or 1 (diagnosed), a stack dump or a sanitizer report on stderr is a
failure; the script then finds the mutant that fails and prints it.

Two kinds of mutation, 1 to 3 per mutant:
- tokens: numbers to extremes, element types swapped, `?` dims to sizes,
  tokens dropped or replaced by attribute and type fragments;
- forms (4 mutants in 10): one type of the signature (input, scale, offset or
  result) changes form, keeping its element type and, where it can, its
  shape: scalar, vector, scalable vector, 0-d vector, ranked tensor, 0-d
  tensor, unranked tensor, dims made dynamic or static, one dim more or
  fewer, memref; or all of them change form alike; or all alike but one,
  which keeps its shape in the other container. So `(tensor<8xf32>,
  tensor<8xf32>) -> tensor<8xi8>` becomes, among others, `(vector<8xf32>,
  tensor<8xf32>) -> vector<8xi8>`.

usage: mutate-ir.py [--compile] TOOL SEED COUNT FILE...   (TOOL may carry flags: "opt --flag")
       mutate-ir.py --list SEED COUNT FILE...             (print the mutants' op lines)

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


FORMS = ["scalar", "vector", "scalable", "vector0d", "tensor", "tensor0d",
         "unranked", "dynamic", "static", "rank+", "rank-", "memref"]
SIGNATURE = re.compile(r"(:\s*\()(.*)(\)\s*->\s*)(.+?)(\s*)$")


def parse_type(t):
    """(container, dims, element) of a builtin type: container is "scalar",
    "vector", "tensor", "memref" or "unranked"; dims are strings ("4", "?",
    "[8]")."""
    m = re.fullmatch(r"(tensor|vector|memref)<(.*)>", t.strip())
    if not m:
        return "scalar", [], t.strip()
    kind, body = m.groups()
    if body.startswith("*x"):
        return "unranked", [], body[2:]
    dims = []
    while True:
        d = re.match(r"(\?|\d+|\[\d+\])x", body)
        if not d:
            break
        dims.append(d.group(1))
        body = body[d.end():]
    return kind, dims, body


def print_type(kind, dims, elem):
    if kind == "scalar":
        return elem
    if kind == "unranked":
        return "tensor<*x%s>" % elem
    return "%s<%s%s>" % (kind, "".join(d + "x" for d in dims), elem)


def random_dims(rng):
    return [rng.choice(["1", "4", "8"]) for _ in range(rng.randint(1, 2))]


def reform(t, form, rng, fill=None):
    """`t` in another form, with its element type and, where the form
    allows, its dims (`fill` where it has none)."""
    kind, dims, elem = parse_type(t)
    if not dims and form not in ("scalar", "unranked", "vector0d", "tensor0d"):
        dims = fill or random_dims(rng)
    static = [d.strip("[]") if d != "?" else rng.choice(["1", "4", "8"]) for d in dims]
    container = kind if kind in ("vector", "tensor", "memref") else "tensor"
    if form == "scalar":
        return elem
    if form == "vector":
        return print_type("vector", static, elem)
    if form == "scalable":
        i = rng.randrange(len(static))
        return print_type("vector", static[:i] + ["[%s]" % static[i]] + static[i + 1:], elem)
    if form == "vector0d":
        return print_type("vector", [], elem)
    if form == "tensor":
        return print_type("tensor", static, elem)
    if form == "tensor0d":
        return print_type("tensor", [], elem)
    if form == "unranked":
        return print_type("unranked", [], elem)
    if form == "dynamic":
        dyn = [d if rng.random() < 0.5 else "?" for d in static]
        if "?" not in dyn:
            dyn[rng.randrange(len(dyn))] = "?"
        return print_type("tensor", dyn, elem)
    if form == "static":
        return print_type(container, static, elem)
    if form == "rank+":
        i = rng.randint(0, len(dims))
        return print_type(container, dims[:i] + [rng.choice(["1", "2", "8", "?"])] + dims[i:], elem)
    if form == "rank-":
        i = rng.randrange(len(dims))
        return print_type(container, dims[:i] + dims[i + 1:], elem)
    return print_type("memref", dims, elem)


def swap_container(t, rng):
    """`t` with its shape in the other container: vector and tensor trade
    places, a scalar becomes a 0-d one."""
    kind, dims, elem = parse_type(t)
    if kind == "vector":
        return print_type("tensor", [d.strip("[]") for d in dims], elem)
    if kind == "scalar":
        return print_type(rng.choice(["vector", "tensor"]), [], elem)
    return reform(t, "vector", rng)


def mutate_forms(line, rng):
    """Change the form of one type of the signature, of all of them alike,
    or of all of them but one, whose shape then sits in the other container
    (the mix that reaches the encoding checks: a vector input with a tensor
    scale, a tensor scale with a vector offset, ...)."""
    m = SIGNATURE.search(line)
    if not m:
        return line
    types = split_top(m.group(2)) + [m.group(4)]
    form = rng.choice(FORMS)
    r = rng.random()
    i = rng.randrange(len(types))
    if r < 0.4:
        types[i] = reform(types[i], form, rng)
    else:
        form = rng.choice(["scalar", "vector", "scalable", "vector0d", "tensor",
                           "tensor0d"])
        fill = random_dims(rng)
        types = [reform(t, form, rng, fill) for t in types]
        if r >= 0.7:
            types[i] = swap_container(types[i], rng)
    return (line[:m.start()] + m.group(1) + ", ".join(types[:-1]) + m.group(3)
            + types[-1] + m.group(5))


def mutate(line, rng):
    count = rng.randint(1, 3)
    if rng.random() < 0.4:
        line = mutate_forms(line, rng)
        count -= 1
    tokens = re.split(r"(\s+|,|\[|\]|<|>|\(|\)|x(?=[0-9?a-z]))", line)
    for _ in range(count):
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


SANITIZER_REPORT = re.compile(r"ERROR: \w*Sanitizer|: runtime error: |SUMMARY: \w*Sanitizer")


def run_batch(tool, mutants):
    """None if the tool diagnosed or accepted every mutant, else its stderr."""
    text = "\n// -----\n".join(mutants)
    proc = subprocess.run(tool + ["-split-input-file", "-allow-unregistered-dialect",
                           "-o", "/dev/null", "-"],
                          input=text, capture_output=True, text=True)
    if (proc.returncode not in (0, 1) or "Stack dump" in proc.stderr
            or SANITIZER_REPORT.search(proc.stderr)):
        return "exit %d\n%s" % (proc.returncode, proc.stderr[-4000:])
    return None


def main():
    args = sys.argv[1:]
    compile_mutants = args[0] == "--compile"
    list_mutants = args[0] == "--list"
    if compile_mutants or list_mutants:
        args = args[1:]
    if list_mutants:
        args = ["-"] + args
    tool, seed, count, files = shlex.split(args[0]), int(args[1]), int(args[2]), args[3:]
    rng = random.Random(seed)
    ops = [l.strip() for f in files for l in open(f)
           if "quant_affine." in l and "=" in l and not l.lstrip().startswith("//")]
    mutants = []
    for _ in range(count):
        line = mutate(rng.choice(ops), rng)
        if list_mutants:
            print(line)
            continue
        function = as_function(line) if compile_mutants else None
        if function:
            mutants.append(function)
            continue
        # Operands come from an unregistered op with the types the mutant
        # names, so most mutants reach the verifier rather than the parser.
        defs = "".join("  %s = \"test.source\"() : () -> %s\n" % d
                       for d in operand_defs(line))
        mutants.append("func.func @m() {\n%s  %s\n  return\n}\n" % (defs, line))
    if list_mutants:
        return 0
    batch = 100
    for start in range(0, len(mutants), batch):
        failure = run_batch(tool, mutants[start:start + batch])
        if failure is None:
            continue
        # Name the mutant: the first that fails on its own.
        for i in range(start, min(start + batch, len(mutants))):
            alone = run_batch(tool, [mutants[i]])
            if alone is not None:
                failure = alone
                sys.stderr.write("failing mutant %d:\n%s\n" % (i, mutants[i]))
                break
        sys.stderr.write(failure + "\n")
        print("CRASH in batch starting at mutant %d" % start)
        return 1
    print("%d mutants, no crash" % len(mutants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
