#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whole-program differential tester for quant-affine.

usage: utils/progtest.py [--seed S] [--count N] [--jobs J] [--batch B]
                         [--features LIST] [--option-sets cover|all]
                         [--keep-failures DIR] [--opt TOOL] [--runner RUNNER]
                         [--libdir DIR] [--verbose]

Generates N random programs. A program is a public kernel function, sometimes
with helper functions it calls, and a part of @main that makes the kernel's
arguments, calls it and prints every result as bits. Kernels mix the three
quant_affine quantizer ops (tensor forms with every granularity, static and
dynamic dims, static and `-1` blocks, scales and offsets as constants or
arguments; scalar forms in linalg.generic bodies; vector forms on vector
values) and float_qdq (real formats and AIMET grids, maxvals laid out as
scales) with
constants, arith and math on tensors, linalg matmul/reduce/generic/softmax,
scf.if, scf.for, cf branches and calls, in f16/bf16/f32/f64; results are
returned, written into tensor arguments, or written into memref arguments.

Each program is compiled and run under a list of option sets of
--quant-affine-cpu-pipeline, some after -canonicalize,
--quant-affine-fold-constants or -inline first (`--option-sets cover`: every
option value and every pre-pass at least once; `all`: the whole product), and
its printed bits are compared with a pure-Python reference of every op, lane
by lane. Where the reference is not exact by construction the lane is
handled as follows (see docs/Testing.md):
  - integer results from NaN (poison) are skipped;
  - reductions (matmul, linalg.reduce addf, softmax sums) are compared only
    where every partial sum is exact, so that any association and FMA
    contraction give the same bits; other lanes are skipped;
  - math functions without a correctly rounded definition (exp, tanh, ...)
    are "opaque": compared across option sets that share pre-passes.

Programs are compiled B to a module (one mlir-runner start for B programs);
a module that fails is split and each program rerun alone.

A compile failure is a non-zero exit of the driver or of mlir-runner, output
that is not fully lowered (ops outside the llvm and omp dialects), or missing
output. Prints one line per failure and
  `N programs, M compile failures, K mismatches`
(programs with at least one failure of that kind) and exits 1 if M + K > 0.
--keep-failures DIR reduces one program per failure signature (dropping
steps while the same failure remains) and writes it as DIR/<class>.mlir with
the command line that shows the failure.

--features takes a comma list: a list of names turns on exactly those
features; `-name` entries (alone or after `all`) turn one off from all.
Features: see FEATURES below (and --help).
"""
import argparse
import fractions
import math
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile

from qatest_common import (FLOAT_FORMATS, INF, MAX, NAN, PRECISION, WIDTH, add,  # noqa: E402
                           aimet_grid, cast, compute_type, fdiv, float_literal, hex_dense,
                           int_representable, int_to_float, is_nan_bits, keep_zero_sign,
                           maxval_factor, mul, ref_dequantize, ref_float_qdq, ref_qdq,
                           ref_quantize, rint, runner_command, sub, to_bits, to_signed)

OPQ = "opaque"  # a lane the reference does not model (compared across option sets)

FEATURES = {
    "dynamic": "dynamic dims in inputs, scales and results",
    "blocks": "block encodings, static and -1",
    "scale-args": "scales, offsets and scalar scales as function arguments",
    "const": "inputs as constants in the kernel (foldable)",
    "dest": "tensor arguments as destinations (outs, materialize_in_destination)",
    "memref": "memref arguments: inputs via to_tensor restrict, results written into them",
    "arith": "arith on tensors (binary, negf, cmpf/select, extf/truncf, sitofp)",
    "math": "exact math on tensors (absf, sqrt, floor, ceil, roundeven, trunc, round)",
    "opaque-math": "math.exp/tanh/log/sin (compared across option sets only)",
    "matmul": "linalg.matmul (fill or destination accumulator)",
    "reduce": "linalg.reduce (addf, maximumf, minimumf)",
    "generic": "linalg.generic with scalar quant_affine ops in the body",
    "softmax": "linalg.softmax",
    "scf-if": "scf.if with tensor results",
    "scf-for": "scf.for with loop-carried tensors",
    "cf": "cf.cond_br/cf.br with tensor block arguments",
    "call": "func.call of generated helper functions",
    "vector": "quant_affine ops on vector values (transfer_read/write)",
    "scalar": "quant_affine ops on scalars (tensor.extract, tensor.insert)",
    "f16": "f16 element types", "bf16": "bf16 element types", "f64": "f64 element types",
    "int-subbyte": "integer storage narrower than 8 bits (i1..i7) and odd widths",
    "edge-values": "NaN, infinities, huge, subnormal and zero scales and inputs",
    "compute-type": "explicit compute types",
    "unit-dims": "dims of size 1 (1x1x1 tensors, 1-row matmuls)",
    "torchao": "torchao's reciprocal and float_zero_point on tensor quantizer ops",
    "float-qdq": "float_qdq: real formats and AIMET grids, with or without a maxval",
}

# Each entry: (pre-passes, pipeline options). `cover` has every option value
# and every pre-pass at least once.
COVER = [
    ([], {}),
    ([], {"vector-width": 4, "runtime-checks": "true"}),
    ([], {"vector-width": 64, "nontemporal-stores": "true"}),
    ([], {"vector-width": 1, "reciprocal-division": "true"}),
    ([], {"openmp": "true", "runtime-checks": "true", "vector-width": 8}),
    (["-canonicalize"], {}),
    (["-canonicalize"], {"openmp": "true", "nontemporal-stores": "true",
                         "reciprocal-division": "true", "vector-width": 32}),
    (["--quant-affine-fold-constants"], {"runtime-checks": "true", "vector-width": 2}),
    (["-inline", "-canonicalize"], {"reciprocal-division": "true", "vector-width": 4}),
    (["-inline", "--quant-affine-fold-constants", "-canonicalize"],
     {"openmp": "true", "vector-width": 64, "nontemporal-stores": "true"}),
    # Every op "large" (above llc-bytes): the automatic choices for ops
    # larger than the cache (64-lane tiles, whole-block tiles for
    # block-scaled ops, streamed stores, prefetches), which the small
    # programs here would otherwise never take.
    ([], {"llc-bytes": 1024}),
    # Through upstream's quant dialect and back (docs/Interop.md): the ops a
    # quant type describes become quant casts, the pipeline converts them.
    (["--convert-quant-affine-to-quant"], {"from-quant": "true"}),
]


def host_cpu_flags():
    """The host's CPU flags as Linux lists them (empty where it does not)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


# Other x86-64 targets than the host's (the pipeline's `cpu` option): their
# code paths differ (SSE: 4 lanes and upstream's packing; AVX2: per-lane
# shift unpacking and register-wide packing; AVX-512: the int4 table), and
# the host runs every target whose instructions it has.
X86_TARGETS = [
    ("x86-64", {"sse2"}),
    ("x86-64-v3", {"avx2", "fma", "bmi2", "f16c", "movbe"}),
    ("x86-64-v4", {"avx2", "fma", "bmi2", "avx512f", "avx512bw", "avx512dq",
                   "avx512vl", "avx512cd"}),
]


def target_option_sets():
    flags = host_cpu_flags()
    sets = []
    for index, (cpu, needs) in enumerate(X86_TARGETS):
        if needs <= flags:
            options = {"cpu": cpu}
            # Every other one with threads and a width of its own.
            if index % 2:
                options.update({"openmp": "true", "vector-width": 16})
            sets.append(([], options))
    return sets


COVER += target_option_sets()


# The GPU pipeline's mapping run on the CPU (--pipeline gpu-on-cpu): every
# option value and pre-pass at least once. Widths that do and do not divide
# the innermost sizes, blocks of one warp to 1024 threads, warp sums and a
# thread per sum.
GPU_COVER = [
    ([], {}),
    ([], {"vector-width": 1, "block-size": 32}),
    ([], {"vector-width": 8, "block-size": 64, "runtime-checks": "true"}),
    ([], {"vector-width": 2, "reduction-threads": 0}),
    ([], {"block-size": 1024, "reduction-width": 1, "reduction-rows": 1}),
    (["-canonicalize"], {"vector-width": 16, "reduction-width": 4, "reduction-rows": 2}),
    (["--quant-affine-fold-constants"], {"block-size": 128, "runtime-checks": "true"}),
    (["-inline", "-canonicalize"], {"vector-width": 4, "block-size": 96, "reduction-threads": 0}),
    (["--convert-quant-affine-to-quant"], {"from-quant": "true", "vector-width": 4}),
]

PIPELINE = "--quant-affine-cpu-pipeline"


def all_option_sets():
    out = []
    for pre in ([], ["-canonicalize"], ["--quant-affine-fold-constants"], ["-inline", "-canonicalize"]):
        for vw in (1, 4, 16, 64):
            for bits in range(16):
                o = {"vector-width": vw}
                for i, k in enumerate(("nontemporal-stores", "runtime-checks",
                                       "reciprocal-division", "openmp")):
                    if bits >> i & 1:
                        o[k] = "true"
                out.append((pre, o))
    return out


def pipeline_arg(opts):
    if not opts:
        return PIPELINE
    return "%s=%s" % (PIPELINE, " ".join("%s=%s" % kv for kv in sorted(opts.items())))


def config_name(cfg):
    pre, opts = cfg
    return " ".join(pre + [pipeline_arg(opts)])


# ====================================================================== values
def prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def is_float(elem):
    return elem in WIDTH


# Stored 8 / N values a byte; the logical sizes of dynamic dims cross
# function boundaries as index arguments (DESIGN.md section 9).
PACKED = ("i1", "i2", "i4")


def int_width(elem):
    return int(elem[1:])


class Val:
    """An SSA value with its runtime shape and reference data (row-major;
    floats exactly held, integers as unsigned bit patterns; None = skip,
    OPQ = not modelled)."""

    def __init__(self, name, shape, dyn, elem, data, signed=False, kind="tensor", grid=None):
        self.name, self.shape, self.dyn, self.elem = name, list(shape), list(dyn), elem
        self.data, self.signed, self.kind, self.grid = data, signed, kind, grid
        self.home = None  # a memref argument this value may be written back into

    @property
    def type(self):
        if self.kind == "scalar":
            return self.elem
        dims = "".join("%sx" % ("?" if d else s) for s, d in zip(self.shape, self.dyn))
        if self.kind == "vector":
            return "vector<%s%s>" % (dims, self.elem)
        return "tensor<%s%s>" % (dims, self.elem)

    def with_name(self, name, dyn=None):
        v = Val(name, self.shape, self.dyn if dyn is None else dyn, self.elem, self.data,
                self.signed, self.kind, self.grid)
        return v

    @property
    def numel(self):
        return prod(self.shape)


def ttype_dyn(shape, dyn, elem, kind="tensor"):
    return Val("", shape, dyn, elem, None, kind=kind).type


def static_type(shape, elem):
    return ttype_dyn(shape, [False] * len(shape), elem)


def memref_type(shape, dyn, elem):
    return ttype_dyn(shape, dyn, elem).replace("tensor<", "memref<", 1)


def nested(vals, shape):
    if not shape:
        return str(vals[0])
    if len(shape) == 1:
        return "[" + ", ".join(str(v) for v in vals) + "]"
    step = prod(shape[1:])
    return "[" + ", ".join(nested(vals[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def dense(shape, elem, data):
    """dense<...> literal of concrete data."""
    if is_float(elem):
        return 'dense<"%s">' % hex_dense(data, elem)
    w = int_width(elem)
    if w == 1:
        vals = ["true" if v & 1 else "false" for v in data]
    else:
        vals = [to_signed(v, w) for v in data]
    return "dense<%s>" % nested(vals, shape)


def unravel(j, shape):
    idx = []
    for d in reversed(shape):
        idx.append(j % d)
        j //= d
    return idx[::-1]


def ravel(idx, shape):
    j = 0
    for i, d in zip(idx, shape):
        j = j * d + i
    return j


# ---------------------------------------------------------- lane propagation
def lift1(f, a):
    if a is None:
        return None
    if a is OPQ:
        return OPQ
    return f(a)


def lift2(f, a, b):
    if a is None or b is None:
        return None
    if a is OPQ or b is OPQ:
        return OPQ
    return f(a, b)


def to_int_lane(v):
    """An integer lane computed from a possibly opaque float: opaque may be
    NaN, so poison: skipped."""
    return None if v is OPQ else v


def maximumf(a, b):
    if a != a or b != b:
        return NAN
    if a == b == 0.0:
        return 0.0 if (math.copysign(1, a) > 0 or math.copysign(1, b) > 0) else -0.0
    return a if a > b else b


def minimumf(a, b):
    if a != a or b != b:
        return NAN
    if a == b == 0.0:
        return -0.0 if (math.copysign(1, a) < 0 or math.copysign(1, b) < 0) else 0.0
    return a if a < b else b


def representable(fr, dt):
    """Whether the Fraction fr is exactly a dt value."""
    try:
        f = float(fr)
    except OverflowError:
        return False
    if f in (INF, -INF) or fractions.Fraction(f) != fr:
        return False
    return cast(f, dt) == f


def exact_sum(terms, dt):
    """The sum of dt values `terms` if every association gives the same bits
    (each partial sum exact), else None."""
    if any(t is None or t is OPQ for t in terms):
        return None
    if any(t != t for t in terms):
        return NAN
    infs = {t for t in terms if t in (INF, -INF)}
    fin = [t for t in terms if t not in (INF, -INF)]
    bound = sum(abs(fractions.Fraction(t)) for t in fin)
    if infs:
        if len(infs) == 2:
            return NAN
        return infs.pop() if bound <= fractions.Fraction(MAX[dt]) else None
    nz = [fractions.Fraction(t) for t in fin if t != 0.0]
    if not nz:  # only zeros: -0.0 only when every term is -0.0
        return -0.0 if all(math.copysign(1, t) < 0 for t in fin) else 0.0
    g = min(fractions.Fraction(1, t.denominator) if t.denominator > 1 else
            fractions.Fraction(2 ** ((t.numerator & -t.numerator).bit_length() - 1)) for t in nz)
    if bound / g >= 2 ** PRECISION[dt] or bound > fractions.Fraction(MAX[dt]):
        return None
    s = sum(nz)
    return float(s) if s != 0 else 0.0


def exact_product(a, b, dt):
    """a * b in dt when exact (so that FMA contraction cannot change it)."""
    if a is None or b is None or a is OPQ or b is OPQ:
        return None
    p = a * b
    if p != p or p in (INF, -INF) or a in (INF, -INF) or b in (INF, -INF):
        return mul(a, b, dt)
    if representable(fractions.Fraction(a) * fractions.Fraction(b), dt):
        return p
    return None


# =================================================================== emitter
class Fn:
    """One function being emitted."""

    def __init__(self, prog, name, kernel, private=False):
        self.prog, self.name, self.kernel, self.private = prog, name, kernel, private
        self.args = []  # (ssa, type, spec)
        self.lines = []
        self.depth = 1
        self.n = 0
        self.nblocks = 0
        self.region = 0  # > 0 inside an scf region or generic body
        self.results = []  # (name, type)

    def fresh(self, base="v"):
        self.n += 1
        return "%%%s%d" % (base, self.n)

    def emit(self, s):
        self.lines.append("  " * self.depth + s)

    def index(self, i):
        c = self.fresh("c")
        self.emit("%s = arith.constant %d : index" % (c, i))
        return c

    def add_arg(self, typ, spec):
        name = "%%arg%d" % len(self.args)
        self.args.append((name, typ, spec))
        return name

    def dyn_sizes(self, v, dyn=None):
        """SSA index values of v's dynamic dims (or of `dyn`'s positions)."""
        dyn = v.dyn if dyn is None else dyn
        out = []
        for d, isdyn in enumerate(dyn):
            if isdyn:
                if v.dyn[d]:
                    c = self.index(d)
                    s = self.fresh("d")
                    self.emit("%s = tensor.dim %s, %s : %s" % (s, v.name, c, v.type))
                else:
                    s = self.index(v.shape[d])
                out.append(s)
        return out

    def empty(self, shape, dyn, elem, like):
        """tensor.empty of a runtime shape, dynamic sizes taken from `like`
        (a Val whose dims are the first len(shape) of a permutation, given
        as a list of dim indices, or None for constants)."""
        sizes = []
        for d, isdyn in enumerate(dyn):
            if isdyn:
                src = like[d] if like is not None else None
                if src is None:
                    sizes.append(self.index(shape[d]))
                else:
                    v, k = src
                    if v.dyn[k]:
                        c = self.index(k)
                        s = self.fresh("d")
                        self.emit("%s = tensor.dim %s, %s : %s" % (s, v.name, c, v.type))
                        sizes.append(s)
                    else:
                        sizes.append(self.index(v.shape[k]))
        e = self.fresh("e")
        self.emit("%s = tensor.empty(%s) : %s" % (e, ", ".join(sizes), ttype_dyn(shape, dyn, elem)))
        return e

    def cast(self, v, dyn):
        """v as a tensor of the same shape with dims `dyn` dynamic."""
        if list(dyn) == v.dyn:
            return v
        w = v.with_name(self.fresh("t"), dyn)
        self.emit("%s = tensor.cast %s : %s to %s" % (w.name, v.name, v.type, w.type))
        return w

    def text(self):
        vis = "private " if self.private else ""
        args = ", ".join("%s: %s" % (n, t) for n, t, _ in self.args)
        res = ", ".join(t for _, t in self.results)
        if len(self.results) > 1:
            res = "(%s)" % res
        head = "func.func %s@%s(%s)%s {" % (vis, self.name, args, (" -> " + res) if res else "")
        ret = "  return"
        if self.results:
            ret += " %s : %s" % (", ".join(n for n, _ in self.results),
                                 ", ".join(t for _, t in self.results))
        return "\n".join([head] + self.lines + [ret, "}"])


# ================================================================ encodings
class Enc:
    """An encoding: grid, scale/offset layout and values, compute type."""

    def __init__(self, qmin, qmax, S, sdyn, block, B, stype, scales, offsets, compute, src):
        self.qmin, self.qmax, self.S, self.sdyn, self.block, self.B = qmin, qmax, S, sdyn, block, B
        self.stype, self.scales, self.offsets, self.compute, self.src = (
            stype, scales, offsets, compute, src)
        self.torchao = ()  # torchao properties of the tensor ops (flags_for)

    def flags_for(self, op):
        """The torchao properties an `op` with this encoding carries: no
        reciprocal on dequantize."""
        return tuple(f for f in self.torchao if not (f == "reciprocal" and op == "dequantize"))

    def scale_index(self, idx):
        n, k = len(idx), len(self.S)
        si = 0
        for d in range(k):
            si = si * self.S[d] + idx[n - k + d] // self.B[d]
        return si

    def attrs(self, flags=()):
        a = " range [%d, %d]" % (self.qmin, self.qmax)
        for f in flags:
            a += " " + f
        if self.block is not None:
            a += " block [%s]" % ", ".join(map(str, self.block))
        if self.compute:
            a += " compute %s" % self.compute
        return a


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


# =============================================================== generator
class Program:
    """One generated program: kernel, helpers, main part, expected outputs."""

    def __init__(self, gen_seed, pid, feats, drop=frozenset()):
        self.seed, self.pid, self.feats, self.drop = gen_seed, pid, feats, drop
        self.prefix = "p%d" % pid
        self.helpers = []
        self.outputs = []  # (label, Val-like expected, source)
        self.nhelp = 0
        self.kinds = []
        self.nsteps = 0

    def rng(self, step):
        return random.Random("%d:%d:%s" % (self.seed, self.pid, step))

    def has(self, f):
        return f in self.feats

    # ------------------------------------------------------------ data
    def floats(self):
        return ["f32"] + [t for t in ("f16", "bf16", "f64") if self.has(t)]

    def value(self, rng, dt, h=1.0):
        edge = self.has("edge-values")
        r = rng.random()
        if edge and r < 0.04:
            v = rng.choice([NAN, INF, -INF])
        elif r < 0.09:
            v = rng.choice([0.0, -0.0, -0.2 * h, 0.3 * h])
        elif edge and r < 0.13:
            v = rng.choice([1e30, -1e30, 1e4 * h, -1e4 * h, 65504.0, 70000.0])
        elif edge and r < 0.15:
            v = rng.choice([1e-40, -3e-39, 2.0 ** -130, 6e-8])
        elif r < 0.35:
            v = (rng.randint(-40, 40) + 0.5) * h
        elif r < 0.6:
            v = rng.randint(-60, 60) * h
        else:
            v = rng.gauss(0, 30) * h
        return cast(v, dt)

    def scale_value(self, rng):
        r = rng.random()
        if self.has("edge-values") and r < 0.04:
            return rng.choice([0.0, -0.25, 1e-40, 3e38, 1e-30])
        if r < 0.5:
            return 2.0 ** rng.randint(-6, 3)
        return rng.choice([0.1, 1 / 15, 0.0173, 0.3, 7.0, 0.75])

    def offset_value(self, rng):
        if rng.random() < 0.2:
            return rng.choice([0.5, -0.0, 0.0, -1.5, 0.7])
        return float(rng.randint(-5, 5))

    def dim(self, rng, choices):
        if not self.has("unit-dims"):
            choices = [c for c in choices if c != 1]
        return rng.choice(choices)

    def shape(self, rng, rank=None):
        rank = rank or rng.choice([1, 2, 2, 2, 3])
        dims = [self.dim(rng, [1, 2, 3, 4]) for _ in range(rank - 1)] + [self.dim(rng, [1, 4, 6, 8, 12, 16])]
        while prod(dims) > 96:
            dims[0] = max(2, dims[0] // 2)
            if prod(dims) > 96:
                dims[-1] //= 2
        return dims

    def dyn_flags(self, rng, rank):
        if not self.has("dynamic"):
            return [False] * rank
        r = rng.random()
        if r < 0.4:
            return [False] * rank
        if r < 0.6:
            return [True] * rank
        return [rng.random() < 0.5 for _ in range(rank)]

    # ------------------------------------------------------------ inputs
    def new_tensor(self, fn, rng, shape, dyn, elem, data, signed=False, grid=None, mode=None):
        """A tensor input: a kernel argument (tensor or memref) or a
        constant in the function."""
        if mode is None:
            modes = ["const"]
            if fn.kernel:
                modes = ["arg", "arg"]
                if self.has("const"):
                    modes.append("const")
                if self.has("memref") and fn.region == 0:
                    modes.append("memref")
            mode = rng.choice(modes)
        st = static_type(shape, elem)
        v = Val(None, shape, dyn, elem, data, signed, grid=grid)
        if mode == "const":
            c = fn.fresh("cst")
            fn.emit("%s = arith.constant %s : %s" % (c, dense(shape, elem, data), st))
            v.name = c
            v.dyn = [False] * len(shape)
            return fn.cast(v, dyn)
        if mode == "memref":
            a = fn.add_arg(memref_type(shape, dyn, elem), ("memref", shape, dyn, elem, data))
            v.name = fn.fresh("t")
            fn.emit("%s = bufferization.to_tensor %s restrict : %s to %s"
                    % (v.name, a, memref_type(shape, dyn, elem), v.type))
            return v
        v.name = fn.add_arg(v.type, ("tensor", shape, dyn, elem, data))
        return v

    def fresh_float(self, fn, rng, shape=None, elem=None, dyn=None):
        shape = shape or self.shape(rng)
        elem = elem or rng.choice(self.floats())
        dyn = self.dyn_flags(rng, len(shape)) if dyn is None else dyn
        h = 2.0 ** rng.randint(-4, 2) if rng.random() < 0.6 else rng.choice([0.1, 0.3, 1 / 15])
        data = [self.value(rng, elem, h) for _ in range(prod(shape))]
        return self.new_tensor(fn, rng, shape, dyn, elem, data)

    def scalar_input(self, fn, rng, elem, value):
        """A scalar: a kernel argument or a constant."""
        if fn.kernel and self.has("scale-args") and fn.region == 0 and rng.random() < 0.5:
            return fn.add_arg(elem, ("scalar", elem, value))
        c = fn.fresh("cs")
        if elem == "i1":
            fn.emit("%s = arith.constant %s" % (c, "true" if value else "false"))
        elif elem == "index":
            fn.emit("%s = arith.constant %d : index" % (c, value))
        else:
            fn.emit("%s = arith.constant %s : %s" % (c, float_literal(value, elem), elem))
        return c

    def init_tensor(self, fn, rng, shape, dyn, elem, like, data_fn=None):
        """A destination for a linalg op: tensor.empty (+ fill), a tensor
        argument, or a memref argument through to_tensor restrict writable.
        Returns (name, init data or None, home memref or None)."""
        modes = ["empty"]
        if fn.kernel and fn.region == 0:
            if self.has("dest"):
                modes.append("arg")
            if self.has("memref"):
                modes.append("memref")
        mode = rng.choice(modes)
        if elem in PACKED and any(dyn):
            # A packed argument keeps no shape (docs/Packing.md).
            mode = "empty"
        n = prod(shape)
        data = data_fn(rng, n) if data_fn else None
        if mode == "empty":
            e = fn.empty(shape, dyn, elem, like)
            if data is None:
                return e, None, None
            # fill with one value
            val = data[0]
            data = [val] * n
            c = fn.fresh("cf")
            fn.emit("%s = arith.constant %s : %s" % (c, float_literal(val, elem), elem))
            f = fn.fresh("fill")
            fn.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                    % (f, c, elem, e, ttype_dyn(shape, dyn, elem), ttype_dyn(shape, dyn, elem)))
            return f, data, None
        if data is None:
            data = [0.0 if is_float(elem) else 0] * n
            garbage = True
        else:
            garbage = False
        if mode == "arg":
            spec = ("empty", shape, dyn, elem) if garbage else ("tensor", shape, dyn, elem, data)
            return fn.add_arg(ttype_dyn(shape, dyn, elem), spec), (None if garbage else data), None
        a = fn.add_arg(memref_type(shape, dyn, elem), ("memref", shape, dyn, elem, data))
        t = fn.fresh("t")
        fn.emit("%s = bufferization.to_tensor %s restrict writable : %s to %s"
                % (t, a, memref_type(shape, dyn, elem), ttype_dyn(shape, dyn, elem)))
        return t, (None if garbage else data), a

    # ------------------------------------------------------------ encodings
    def pick_grid(self, rng):
        """(qmin, qmax): AIMET's bitwidth grids, signed or not, and some
        narrow ranges."""
        if self.has("int-subbyte"):
            bits = rng.choice([1, 2, 3, 4, 4, 8, 8, 8, 8, 12, 16, 16, 24, 32])
        else:
            bits = rng.choice([8, 8, 8, 16, 16, 32])
        signed = rng.random() < 0.5
        n = 2 ** bits - 1
        if rng.random() < 0.15 and bits >= 4:
            lo = rng.randint(-(n + 1) // 2, 0) if signed else rng.randint(0, 3)
            return lo, lo + rng.randint(1, min(n, 20))
        return (-((n + 1) // 2), n // 2) if signed else (0, n)

    def int_storage(self, rng, qmin, qmax):
        need = 1
        while not fits(qmin, qmax, need):
            need += 1
        choices = [w for w in (need, 8, 16, 32) if w >= need and fits(qmin, qmax, w)]
        if not self.has("int-subbyte"):
            choices = [w for w in choices if w % 8 == 0] or [need]
        return "i%d" % rng.choice(choices)

    def encoding(self, fn, rng, shape, kind, float_type, rtype=None, qmin=None, qmax=None):
        """An encoding for an input of shape `shape` (kind: quantize,
        dequantize or qdq; float_type: the input float type, or the result
        type for dequantize)."""
        if qmin is None:
            qmin, qmax = self.pick_grid(rng)
        n = len(shape)
        g = rng.choice(["tensor", "channel", "last"] + (["block", "block"] if self.has("blocks") else []))
        block = None
        if g == "tensor":
            S = [] if rng.random() < 0.6 else [1] * rng.randint(1, n)
            B = list(shape[n - len(S):])
        elif g == "channel":
            a = rng.randrange(n)
            S = [shape[a]] + [1] * (n - 1 - a)
            B = [1] + list(shape[a + 1:])
        elif g == "last":
            S = [shape[-1]]
            B = [1]
        else:
            k = rng.randint(1, n)
            S, B, block = [], [], []
            for d in range(n - k, n):
                b = rng.choice(divisors(shape[d]))
                S.append(shape[d] // b)
                B.append(b)
                block.append(-1 if rng.random() < 0.3 else b)
        sdyn = self.dyn_flags(rng, len(S))
        stype = "f32" if rng.random() < 0.75 else rng.choice(self.floats())
        ns = prod(S)
        base = self.scale_value(rng)
        scales = [cast(base if rng.random() < 0.6 else self.scale_value(rng), stype) for _ in range(ns)]
        offsets = None
        if rng.random() < 0.6:
            offsets = [cast(self.offset_value(rng), stype) for _ in range(ns)]
        compute = None
        if self.has("compute-type") and rng.random() < 0.2:
            cands = [t for t in ("f32", "f64") + (("f16", "bf16") if qmax - qmin <= 255 else ())
                     if t in self.floats() and int_representable(qmin, t) and int_representable(qmax, t)]
            if cands:
                compute = rng.choice(cands)
        src = "arg" if (self.has("scale-args") and fn.kernel and rng.random() < 0.4) else "const"
        enc = Enc(qmin, qmax, S, sdyn, block, B, stype, scales, offsets, compute, src)
        if self.has("torchao"):
            # torchao's conventions (DESIGN.md section 8), for the tensor ops
            # that quant_op emits with this encoding.
            t = random.Random(rng.random()).random()
            enc.torchao = ("float_zero_point",) if t < 0.2 else ("reciprocal",) if t < 0.45 else ()
        return enc

    def emit_enc_operands(self, fn, rng, enc):
        mode = "arg" if enc.src == "arg" and fn.kernel else "const"
        s = self.new_tensor(fn, rng, enc.S, enc.sdyn, enc.stype, enc.scales, mode=mode)
        ops, types = [s.name], [s.type]
        if enc.offsets is not None:
            o = self.new_tensor(fn, rng, enc.S, enc.sdyn, enc.stype, enc.offsets, mode=mode)
            ops.append(o.name)
            types.append(o.type)
        return ops, types

    def quant_op(self, fn, rng, op, x, enc, relem):
        """Emits a tensor quant_affine op; returns the result Val."""
        ops, types = self.emit_enc_operands(fn, rng, enc)
        r = Val(fn.fresh("q"), x.shape, x.dyn, relem, None, signed=enc.qmin < 0,
                grid=(enc.qmin, enc.qmax))
        flags = enc.flags_for(op)
        fn.emit("%s = quant_affine.%s %s, %s%s : (%s, %s) -> %s"
                % (r.name, op, x.name, ", ".join(ops), enc.attrs(flags), x.type, ", ".join(types),
                   r.type))
        r.data = self.ref_quant(op, x, enc, relem, flags)
        return r

    def ref_quant(self, op, x, enc, relem, flags=None):
        out = []
        flags = enc.flags_for(op) if flags is None else flags
        recip, fzp = "reciprocal" in flags, "float_zero_point" in flags
        if op == "dequantize":
            C = compute_type("dequantize", relem, enc.qmin, enc.qmax, enc.compute)
        else:
            C = compute_type(op, x.elem, enc.qmin, enc.qmax, enc.compute)
        for j, xv in enumerate(x.data):
            si = enc.scale_index(unravel(j, x.shape))
            s = enc.scales[si]
            o = enc.offsets[si] if enc.offsets is not None else None
            if xv is None:
                out.append(None)
            elif xv is OPQ:
                out.append(OPQ if op != "quantize" or is_float(relem) else None)
            elif op == "quantize":
                out.append(ref_quantize(xv, s, o, enc.qmin, enc.qmax, C, relem, recip, fzp, enc.stype))
            elif op == "dequantize":
                out.append(ref_dequantize(xv, s, o, enc.qmin, x.elem, C, relem, fzp, enc.qmax))
            else:
                out.append(ref_qdq(xv, s, o, enc.qmin, enc.qmax, C, relem, recip, fzp, enc.stype))
        return out

    # ------------------------------------------------------------ pool helpers
    def pick(self, rng, pool, pred):
        c = [v for v in pool if pred(v)]
        if not c:
            return None
        if rng.random() < 0.6:
            return c[-1]
        return rng.choice(c)

    # ================================================================ steps
    def step_qdq(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        enc = self.encoding(fn, rng, x.shape, "qdq", x.elem)
        return self.quant_op(fn, rng, "qdq", x, enc, x.elem)

    def step_float_qdq(self, fn, pool, rng):
        """float_qdq of a float value: a real format or an AIMET grid, with a
        maxval (the layouts and sources of a qdq's scales) or without."""
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        if rng.random() < 0.5:
            (e, m), flags, emin, _, fmt_max = rng.choice(FLOAT_FORMATS)
        else:
            e, m, flags = rng.randint(1, 8), rng.choice([0, 1, 2, 3, 5, 7, 10, 21, 22, 23, 52]), ""
            emin, _, fmt_max = aimet_grid(e, m)
        unsigned_zero = "unsigned_zero" in flags
        attrs, operands, types, factors = "", "", x.type, None
        if rng.random() < 0.4:
            enc = self.encoding(fn, rng, x.shape, "qdq", x.elem)
            enc.scales = [cast(rng.choice([2.5, 1000.0, 1.0, 448.0, 0.01, 7.0, 123.456])
                               if rng.random() < 0.95 or not self.has("edge-values") else
                               rng.choice([0.0, -2.5, INF, NAN]), enc.stype)
                          for _ in enc.scales]
            enc.offsets = None
            ops, mtypes = self.emit_enc_operands(fn, rng, enc)
            operands, types = ", " + ops[0], "%s, %s" % (x.type, mtypes[0])
            if enc.block:
                attrs = " block [%s]" % ", ".join(map(str, enc.block))
            factors = [maxval_factor(v, fmt_max) for v in enc.scales]
        r = Val(fn.fresh("f"), x.shape, x.dyn, x.elem, None)
        fn.emit("%s = quant_affine.float_qdq %s%s format [%d, %d]%s%s : (%s) -> %s"
                % (r.name, x.name, operands, e, m, flags, attrs, types, r.type))
        out = []
        for j, xv in enumerate(x.data):
            if xv is None or xv is OPQ:
                out.append(xv)
                continue
            k = factors[enc.scale_index(unravel(j, x.shape))] if factors else None
            out.append(ref_float_qdq(xv, x.elem, m, emin, fmt_max, unsigned_zero, k))
        r.data = out
        return r

    def step_quantize(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        enc = self.encoding(fn, rng, x.shape, "quantize", x.elem)
        if rng.random() < 0.75:
            relem = self.int_storage(rng, enc.qmin, enc.qmax)
            if enc.compute and not (int_representable(enc.qmin, enc.compute)
                                    and int_representable(enc.qmax, enc.compute)):
                enc.compute = None
        else:
            relem = rng.choice(self.floats())
        return self.quant_op(fn, rng, "quantize", x, enc, relem)

    def step_dequantize(self, fn, pool, rng):
        q = self.pick(rng, pool, lambda v: not is_float(v.elem))
        if q is None:
            # a fresh integer input
            qmin, qmax = self.pick_grid(rng)
            elem = self.int_storage(rng, qmin, qmax)
            shape = self.shape(rng)
            w = int_width(elem)
            data = [rng.randint(qmin, qmax) & ((1 << w) - 1) for _ in range(prod(shape))]
            q = self.new_tensor(fn, rng, shape, self.dyn_flags(rng, len(shape)), elem, data,
                                signed=qmin < 0, grid=(qmin, qmax))
        qmin, qmax = q.grid if q.grid else (0, 1)
        relem = rng.choice(self.floats())
        if relem == "bf16" and max(abs(qmin), abs(qmax)) >= 2 ** 24:
            relem = "f32"
        enc = self.encoding(fn, rng, q.shape, "dequantize", relem, qmin=qmin, qmax=qmax)
        if enc.compute == "bf16" and max(abs(qmin), abs(qmax)) >= 2 ** 24:
            enc.compute = None
        return self.quant_op(fn, rng, "dequantize", q, enc, relem)

    def step_arith(self, fn, pool, rng):
        r = rng.random()
        if r < 0.1:  # integer to float
            q = self.pick(rng, pool, lambda v: not is_float(v.elem) and int_width(v.elem) <= 24)
            if q is not None:
                relem = rng.choice(self.floats())
                w = int_width(q.elem)
                op = "sitofp" if q.signed else "uitofp"
                if w == 1 and q.signed:
                    op = "sitofp"
                res = Val(fn.fresh("a"), q.shape, q.dyn, relem, None)
                fn.emit("%s = arith.%s %s : %s to %s" % (res.name, op, q.name, q.type, res.type))
                res.data = [None if v is None else
                            int_to_float(to_signed(v, w) if op == "sitofp" else v, relem) for v in q.data]
                return res
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        if r < 0.2:  # conversions
            conv = {"f16": [("extf", "f32")], "bf16": [("extf", "f32")],
                    "f32": [("extf", "f64"), ("truncf", "f16"), ("truncf", "bf16")],
                    "f64": [("truncf", "f32")]}[x.elem]
            conv = [c for c in conv if c[1] in self.floats()]
            if conv:
                op, relem = rng.choice(conv)
                res = Val(fn.fresh("a"), x.shape, x.dyn, relem, None)
                fn.emit("%s = arith.%s %s : %s to %s" % (res.name, op, x.name, x.type, res.type))
                res.data = [lift1(lambda v: cast(v, relem), v) for v in x.data]
                return res
        if r < 0.3:  # cmpf + select against another operand
            y = self.operand_like(fn, rng, pool, x)
            pred = rng.choice(["olt", "ogt", "oeq", "une", "ole"])
            c = fn.fresh("cmp")
            fn.emit("%s = arith.cmpf %s, %s, %s : %s" % (c, pred, x.name, y.name, x.type))
            res = Val(fn.fresh("a"), x.shape, x.dyn, x.elem, None)
            ctype = ttype_dyn(x.shape, x.dyn, "i1")
            fn.emit("%s = arith.select %s, %s, %s : %s, %s" % (res.name, c, x.name, y.name, ctype, x.type))
            f = {"olt": lambda a, b: a < b, "ogt": lambda a, b: a > b, "oeq": lambda a, b: a == b,
                 "une": lambda a, b: not (a == b), "ole": lambda a, b: a <= b}[pred]
            res.data = [lift2(lambda a, b: a if f(a, b) else b, a, b) for a, b in zip(x.data, y.data)]
            return res
        u = self.unary(fn, rng, x, kinds=("arith",))
        return u.emit(fn, x)

    def operand_like(self, fn, rng, pool, x):
        """Another tensor of x's shape, type and dims: a pool value (cast) or
        a new input."""
        cands = [v for v in pool if v.elem == x.elem and v.shape == x.shape and v is not x]
        if cands and rng.random() < 0.5:
            return fn.cast(rng.choice(cands), x.dyn)
        data = [self.value(rng, x.elem, rng.choice([0.25, 1.0, 4.0])) for _ in range(x.numel)]
        return self.new_tensor(fn, rng, x.shape, x.dyn, x.elem, data)

    def unary(self, fn, rng, x, kinds=None):
        kinds = kinds or ["qdq", "arith"] + (["math"] if self.has("math") else [])
        k = rng.choice(kinds)
        if k == "qdq":
            return QdqU(self, fn, rng, x)
        if k == "math":
            return MathU(self, rng, x)
        return ArithU(self, rng, x)

    def step_math(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        return MathU(self, rng, x).emit(fn, x)

    def snap(self, fn, rng, x, lo=-128, hi=127):
        """qdq onto a power-of-two grid, so that reductions of the result
        are exact in any order."""
        e = rng.randint(0, 4)
        enc = Enc(lo, hi, [], [], None, [], "f32", [2.0 ** -e], None, None, "const")
        return self.quant_op(fn, rng, "qdq", x, enc, x.elem), e

    def step_matmul(self, fn, pool, rng):
        a = self.pick(rng, pool, lambda v: is_float(v.elem) and len(v.shape) == 2)
        if a is None:
            a = self.fresh_float(fn, rng, shape=[self.dim(rng, [1, 2, 3, 4]), self.dim(rng, [1, 2, 3, 4, 5, 6])])
        if rng.random() < 0.7:
            a, _ = self.snap(fn, rng, a, -16, 15)
        M, K = a.shape
        N = self.dim(rng, [1, 2, 3, 4, 5, 6])
        bdyn = [a.dyn[1], rng.random() < 0.5] if self.has("dynamic") else [False, False]
        bdata = [cast(rng.choice([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, -0.0]), a.elem) for _ in range(K * N)]
        b = self.new_tensor(fn, rng, [K, N], bdyn, a.elem, bdata)
        b = fn.cast(b, [a.dyn[1], b.dyn[1]])
        celem = a.elem
        if a.elem in ("f16", "bf16") and rng.random() < 0.5:
            celem = "f32"
        cdyn = [a.dyn[0], b.dyn[1]]
        init, idata, home = self.init_tensor(
            fn, rng, [M, N], cdyn, celem, [(a, 0), (b, 1)],
            lambda r, n: [cast(r.choice([0.0, -0.0, 1.0, -2.5, 0.25]), celem) for _ in range(n)])
        res = Val(fn.fresh("mm"), [M, N], cdyn, celem, None)
        fn.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                % (res.name, a.name, b.name, a.type, b.type, init, res.type, res.type))
        res.home = home
        out = []
        for i in range(M):
            for j in range(N):
                terms = [idata[i * N + j]]
                for k in range(K):
                    terms.append(exact_product(a.data[i * K + k], bdata[k * N + j], celem))
                out.append(exact_sum(terms, celem))
        res.data = out
        return res

    def step_reduce(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem) and len(v.shape) >= 2)
        if x is None:
            x = self.fresh_float(fn, rng, shape=self.shape(rng, rank=rng.choice([2, 3])))
        kind = rng.choice(["addf", "addf", "maximumf", "minimumf"])
        if kind == "addf" and rng.random() < 0.7:
            x, _ = self.snap(fn, rng, x)
        d = rng.randrange(len(x.shape))
        oshape = x.shape[:d] + x.shape[d + 1:]
        odyn = x.dyn[:d] + x.dyn[d + 1:]
        like = [(x, k) for k in range(len(x.shape)) if k != d]
        neutral = {"addf": [0.0, -0.0, 1.5], "maximumf": [-INF, 0.0], "minimumf": [INF, 2.0]}[kind]
        init, idata, home = self.init_tensor(
            fn, rng, oshape, odyn, x.elem, like,
            lambda r, n: [cast(r.choice(neutral), x.elem) for _ in range(n)])
        res = Val(fn.fresh("red"), oshape, odyn, x.elem, None)
        fn.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                % (res.name, x.name, x.type, init, res.type, d))
        a, b, s = fn.fresh("in"), fn.fresh("acc"), fn.fresh("r")
        fn.emit("  (%s: %s, %s: %s) {" % (a, x.elem, b, x.elem))
        fn.emit("    %s = arith.%s %s, %s : %s" % (s, kind, a, b, x.elem))
        fn.emit("    linalg.yield %s : %s" % (s, x.elem))
        fn.emit("  }")
        res.home = home
        out = []
        for oj in range(prod(oshape)):
            oidx = unravel(oj, oshape)
            vals = []
            for t in range(x.shape[d]):
                idx = oidx[:d] + [t] + oidx[d:]
                vals.append(x.data[ravel(idx, x.shape)])
            acc = idata[oj]
            if kind == "addf":
                out.append(exact_sum([acc] + vals, x.elem))
            else:
                f = maximumf if kind == "maximumf" else minimumf
                if any(v is None for v in vals):
                    out.append(None)
                elif any(v is OPQ for v in vals):
                    out.append(OPQ)
                else:
                    for v in vals:
                        acc = f(v, acc)
                    out.append(acc)
        res.data = out
        return res

    def step_softmax(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        e = None
        if rng.random() < 0.8:
            # values on a grid of 2^-e, then scaled so that distinct values
            # differ by at least 1024: exp is exactly 1 or 0.
            x, e = self.snap(fn, rng, x, -8, 7)
            big = 2.0 ** (e + 10)
            c = self.new_tensor(fn, rng, x.shape, x.dyn, x.elem, [big] * x.numel, mode="const")
            y = Val(fn.fresh("a"), x.shape, x.dyn, x.elem, None)
            fn.emit("%s = arith.mulf %s, %s : %s" % (y.name, x.name, c.name, x.type))
            y.data = [lift1(lambda v: mul(v, big, x.elem), v) for v in x.data]
            x = y
        d = rng.randrange(len(x.shape))
        init = fn.empty(x.shape, x.dyn, x.elem, [(x, k) for k in range(len(x.shape))])
        res = Val(fn.fresh("sm"), x.shape, x.dyn, x.elem, None)
        fn.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                % (res.name, d, x.name, x.type, init, x.type, x.type))
        out = [None] * x.numel
        rest = x.shape[:d] + x.shape[d + 1:]
        for rj in range(prod(rest)):
            ridx = unravel(rj, rest)
            js = [ravel(ridx[:d] + [t] + ridx[d:], x.shape) for t in range(x.shape[d])]
            vals = [x.data[j] for j in js]
            if any(v is None or v is OPQ or v != v or v in (INF, -INF) for v in vals):
                continue
            m = max(vals)
            if any(v != m and v > m - 1000 for v in vals):
                continue
            cnt = sum(1 for v in vals if v == m)
            for j, v in zip(js, vals):
                out[j] = fdiv(1.0, float(cnt), x.elem) if v == m else 0.0
        res.data = out
        return res

    def step_generic(self, fn, pool, rng):
        """linalg.generic whose body holds scalar quant_affine ops."""
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        n = len(x.shape)
        qmin, qmax = self.pick_grid(rng)
        stype = "f32" if rng.random() < 0.7 else x.elem
        form = rng.choice(["qdq", "quantize", "q-deq", "qdq-mul"])
        # scale: per dim through an indexing map, or one scalar
        ins, itypes, maps = [x.name], [x.type], ["affine_map<(%s) -> (%s)>" % (
            ", ".join("d%d" % i for i in range(n)), ", ".join("d%d" % i for i in range(n)))]
        dims = "(%s)" % ", ".join("d%d" % i for i in range(n))
        has_off = rng.random() < 0.5
        per = rng.random() < 0.6
        if per:
            a = rng.randrange(n)
            svals = [cast(self.scale_value(rng), stype) for _ in range(x.shape[a])]
            ovals = [cast(self.offset_value(rng), stype) for _ in range(x.shape[a])]
            sdyn = [x.dyn[a] and rng.random() < 0.7]
            s = self.new_tensor(fn, rng, [x.shape[a]], sdyn, stype, svals,
                                mode="arg" if fn.kernel and self.has("scale-args") and rng.random() < 0.5
                                else "const")
            ins.append(s.name)
            itypes.append(s.type)
            maps.append("affine_map<%s -> (d%d)>" % (dims, a))
            if has_off:
                o = self.new_tensor(fn, rng, [x.shape[a]], sdyn, stype, ovals, mode="const")
                ins.append(o.name)
                itypes.append(o.type)
                maps.append("affine_map<%s -> (d%d)>" % (dims, a))

            def enc_of(j):
                i = unravel(j, x.shape)[a]
                return svals[i], (ovals[i] if has_off else None)
        else:
            sv = cast(self.scale_value(rng), stype)
            ov = cast(self.offset_value(rng), stype)
            s_name = self.scalar_input(fn, rng, stype, sv)
            o_name = self.scalar_input(fn, rng, stype, ov) if has_off else None

            def enc_of(j):
                return sv, (ov if has_off else None)
        relem = x.elem
        if form == "quantize":
            relem = self.int_storage(rng, qmin, qmax) if rng.random() < 0.7 else rng.choice(self.floats())
        elif form == "q-deq":
            relem = rng.choice(self.floats())
            if relem == "bf16" and max(abs(qmin), abs(qmax)) >= 2 ** 24:
                relem = "f32"
        qelem = self.int_storage(rng, qmin, qmax)
        init, _, home = self.init_tensor(fn, rng, x.shape, x.dyn, relem, [(x, k) for k in range(n)])
        maps.append(maps[0])
        res = Val(fn.fresh("g"), x.shape, x.dyn, relem, None, signed=qmin < 0, grid=(qmin, qmax))
        fn.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) "
                "outs(%s : %s) {" % (res.name, ", ".join(maps), ", ".join(['"parallel"'] * n),
                                     ", ".join(ins), ", ".join(itypes), init, res.type))
        bx, bo = fn.fresh("bx"), fn.fresh("bout")
        bargs = ["%s: %s" % (bx, x.elem)]
        if per:
            bs = fn.fresh("bs")
            bargs.append("%s: %s" % (bs, stype))
            s_name = bs
            if has_off:
                bof = fn.fresh("bo")
                bargs.append("%s: %s" % (bof, stype))
                o_name = bof
        bargs.append("%s: %s" % (bo, relem))
        fn.lines.append("  " * fn.depth + "^bb0(%s):" % ", ".join(bargs))
        fn.depth += 1
        fn.region += 1
        enc_ops = s_name + (", " + o_name if has_off else "")
        enc_types = stype + (", " + stype if has_off else "")
        rngtxt = " range [%d, %d]" % (qmin, qmax)
        t = fn.fresh("b")
        if form in ("qdq", "qdq-mul"):
            fn.emit("%s = quant_affine.qdq %s, %s%s : (%s, %s) -> %s"
                    % (t, bx, enc_ops, rngtxt, x.elem, enc_types, x.elem))
            if form == "qdq-mul":
                c, t2 = fn.fresh("b"), fn.fresh("b")
                fn.emit("%s = arith.constant %s : %s" % (c, float_literal(-2.0, x.elem), x.elem))
                fn.emit("%s = arith.mulf %s, %s : %s" % (t2, t, c, x.elem))
                t = t2
        elif form == "quantize":
            fn.emit("%s = quant_affine.quantize %s, %s%s : (%s, %s) -> %s"
                    % (t, bx, enc_ops, rngtxt, x.elem, enc_types, relem))
        else:
            fn.emit("%s = quant_affine.quantize %s, %s%s : (%s, %s) -> %s"
                    % (t, bx, enc_ops, rngtxt, x.elem, enc_types, qelem))
            t2 = fn.fresh("b")
            fn.emit("%s = quant_affine.dequantize %s, %s%s : (%s, %s) -> %s"
                    % (t2, t, enc_ops, rngtxt, qelem, enc_types, relem))
            t = t2
        fn.emit("linalg.yield %s : %s" % (t, relem))
        fn.depth -= 1
        fn.region -= 1
        fn.emit("} -> %s" % res.type)
        res.home = home
        out = []
        for j, xv in enumerate(x.data):
            s, o = enc_of(j)
            if xv is None:
                out.append(None)
                continue
            if form in ("qdq", "qdq-mul"):
                C = compute_type("qdq", x.elem, qmin, qmax)
                v = lift1(lambda z: ref_qdq(z, s, o, qmin, qmax, C, x.elem), xv)
                if form == "qdq-mul":
                    v = lift1(lambda z: mul(z, -2.0, x.elem), v)
            elif form == "quantize":
                C = compute_type("quantize", x.elem, qmin, qmax)
                v = lift1(lambda z: ref_quantize(z, s, o, qmin, qmax, C, relem), xv)
                if not is_float(relem):
                    v = to_int_lane(v)
            else:
                C = compute_type("quantize", x.elem, qmin, qmax)
                q = to_int_lane(lift1(lambda z: ref_quantize(z, s, o, qmin, qmax, C, qelem), xv))
                C2 = compute_type("dequantize", relem, qmin, qmax)
                v = lift1(lambda z: ref_dequantize(z, s, o, qmin, qelem, C2, relem), q)
            out.append(v)
        res.data = out
        return res

    def step_vector(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem) and v.numel <= 64)
        if x is None:
            x = self.fresh_float(fn, rng, shape=[self.dim(rng, [1, 2, 3]), rng.choice([4, 8, 16])])
        n = len(x.shape)
        vt = ttype_dyn(x.shape, [False] * n, x.elem, kind="vector")
        zeros = ", ".join([fn.index(0)] * n) if n else ""
        pad = fn.fresh("pad")
        fn.emit("%s = arith.constant %s : %s" % (pad, float_literal(0.0, x.elem), x.elem))
        v = fn.fresh("vec")
        inb = "[%s]" % ", ".join(["true"] * n)
        fn.emit("%s = vector.transfer_read %s[%s], %s {in_bounds = %s} : %s, %s"
                % (v, x.name, zeros, pad, inb, x.type, vt))
        qmin, qmax = self.pick_grid(rng)
        stype = "f32" if rng.random() < 0.6 else x.elem
        base = self.scale_value(rng)
        svals = [cast(base if rng.random() < 0.7 else self.scale_value(rng), stype) for _ in range(x.numel)]
        has_off = rng.random() < 0.5
        ovals = [cast(self.offset_value(rng), stype) for _ in range(x.numel)]
        st = ttype_dyn(x.shape, [False] * n, stype, kind="vector")
        sc = fn.fresh("vs")
        fn.emit("%s = arith.constant %s : %s" % (sc, dense(x.shape, stype, svals), st))
        enc_ops, enc_types = sc, st
        if has_off:
            oc = fn.fresh("vo")
            fn.emit("%s = arith.constant %s : %s" % (oc, dense(x.shape, stype, ovals), st))
            enc_ops += ", " + oc
            enc_types += ", " + st
        form = rng.choice(["qdq", "quantize", "q-deq"])
        rngtxt = " range [%d, %d]" % (qmin, qmax)
        qelem = self.int_storage(rng, qmin, qmax)
        r = fn.fresh("vq")
        out = []
        if form == "qdq":
            relem = x.elem
            fn.emit("%s = quant_affine.qdq %s, %s%s : (%s, %s) -> %s" % (r, v, enc_ops, rngtxt, vt, enc_types, vt))
            C = compute_type("qdq", x.elem, qmin, qmax)
            for j, xv in enumerate(x.data):
                o = ovals[j] if has_off else None
                out.append(lift1(lambda z: ref_qdq(z, svals[j], o, qmin, qmax, C, x.elem), xv))
        else:
            qt = ttype_dyn(x.shape, [False] * n, qelem, kind="vector")
            fn.emit("%s = quant_affine.quantize %s, %s%s : (%s, %s) -> %s" % (r, v, enc_ops, rngtxt, vt, enc_types, qt))
            C = compute_type("quantize", x.elem, qmin, qmax)
            qs = []
            for j, xv in enumerate(x.data):
                o = ovals[j] if has_off else None
                qs.append(to_int_lane(lift1(lambda z: ref_quantize(z, svals[j], o, qmin, qmax, C, qelem), xv)))
            if form == "quantize":
                relem, out = qelem, qs
            else:
                relem = rng.choice(self.floats())
                if relem == "bf16" and max(abs(qmin), abs(qmax)) >= 2 ** 24:
                    relem = "f32"
                rt = ttype_dyn(x.shape, [False] * n, relem, kind="vector")
                r2 = fn.fresh("vd")
                fn.emit("%s = quant_affine.dequantize %s, %s%s : (%s, %s) -> %s"
                        % (r2, r, enc_ops, rngtxt, qt, enc_types, rt))
                r = r2
                C2 = compute_type("dequantize", relem, qmin, qmax)
                for j, q in enumerate(qs):
                    o = ovals[j] if has_off else None
                    out.append(lift1(lambda z: ref_dequantize(z, svals[j], o, qmin, qelem, C2, relem), q))
        e = fn.empty(x.shape, [False] * n, relem, None)
        w = Val(fn.fresh("w"), x.shape, [False] * n, relem, out, signed=qmin < 0, grid=(qmin, qmax))
        fn.emit("%s = vector.transfer_write %s, %s[%s] {in_bounds = %s} : %s, %s"
                % (w.name, r, e, zeros, inb, ttype_dyn(x.shape, [False] * n, relem, kind="vector"), w.type))
        return fn.cast(w, x.dyn)

    def step_scalar(self, fn, pool, rng):
        """One element through the scalar forms, inserted back."""
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        idx = [rng.randrange(d) for d in x.shape]
        names = []
        for i in idx:
            if fn.kernel and fn.region == 0 and rng.random() < 0.3:
                names.append(fn.add_arg("index", ("scalar", "index", i)))
            else:
                names.append(fn.index(i))
        at = "[%s]" % ", ".join(names)
        e = fn.fresh("x")
        fn.emit("%s = tensor.extract %s%s : %s" % (e, x.name, at, x.type))
        qmin, qmax = self.pick_grid(rng)
        stype = "f32" if rng.random() < 0.6 else x.elem
        sv = cast(self.scale_value(rng), stype)
        ov = cast(self.offset_value(rng), stype) if rng.random() < 0.5 else None
        s_name = self.scalar_input(fn, rng, stype, sv)
        enc_ops, enc_types = s_name, stype
        if ov is not None:
            enc_ops += ", " + self.scalar_input(fn, rng, stype, ov)
            enc_types += ", " + stype
        rngtxt = " range [%d, %d]" % (qmin, qmax)
        j = ravel(idx, x.shape)
        xv = x.data[j]
        y = fn.fresh("y")
        if rng.random() < 0.5:
            fn.emit("%s = quant_affine.qdq %s, %s%s : (%s, %s) -> %s" % (y, e, enc_ops, rngtxt, x.elem, enc_types, x.elem))
            C = compute_type("qdq", x.elem, qmin, qmax)
            val = lift1(lambda z: ref_qdq(z, sv, ov, qmin, qmax, C, x.elem), xv)
        else:
            qelem = self.int_storage(rng, qmin, qmax)
            q = fn.fresh("q")
            fn.emit("%s = quant_affine.quantize %s, %s%s : (%s, %s) -> %s" % (q, e, enc_ops, rngtxt, x.elem, enc_types, qelem))
            fn.emit("%s = quant_affine.dequantize %s, %s%s : (%s, %s) -> %s" % (y, q, enc_ops, rngtxt, qelem, enc_types, x.elem))
            C = compute_type("quantize", x.elem, qmin, qmax)
            qv = to_int_lane(lift1(lambda z: ref_quantize(z, sv, ov, qmin, qmax, C, qelem), xv))
            C2 = compute_type("dequantize", x.elem, qmin, qmax)
            val = lift1(lambda z: ref_dequantize(z, sv, ov, qmin, qelem, C2, x.elem), qv)
        res = Val(fn.fresh("ins"), x.shape, x.dyn, x.elem, list(x.data))
        fn.emit("%s = tensor.insert %s into %s%s : %s" % (res.name, y, x.name, at, x.type))
        res.data[j] = val
        return res

    # ------------------------------------------------------------ control flow
    def cond_value(self, fn, rng, taken):
        """An i1 that is `taken` at run time."""
        if fn.kernel and fn.region == 0 and rng.random() < 0.7:
            if rng.random() < 0.5:
                return fn.add_arg("i1", ("scalar", "i1", taken))
            n = rng.randint(0, 5)
            a = fn.add_arg("index", ("scalar", "index", n))
            lim = n + 1 if taken else n
            c = fn.index(lim)
            r = fn.fresh("cond")
            fn.emit("%s = arith.cmpi ult, %s, %s : index" % (r, a, c))
            return r
        c = fn.fresh("cond")
        fn.emit("%s = arith.constant %s" % (c, "true" if taken else "false"))
        return c

    def step_scf_if(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        taken = rng.random() < 0.5
        cond = self.cond_value(fn, rng, taken)
        res = Val(fn.fresh("if"), x.shape, x.dyn, x.elem, None)
        fn.emit("%s = scf.if %s -> (%s) {" % (res.name, cond, x.type))
        datas = []
        for branch in (0, 1):
            if branch:
                fn.emit("} else {")
            fn.depth += 1
            fn.region += 1
            cur = x
            for _ in range(rng.choice([0, 1, 1, 2])):
                cur = self.unary(fn, rng, cur).emit(fn, cur)
            fn.emit("scf.yield %s : %s" % (cur.name, x.type))
            datas.append(cur.data)
            fn.depth -= 1
            fn.region -= 1
        fn.emit("}")
        res.data = datas[0] if taken else datas[1]
        return res

    def step_scf_for(self, fn, pool, rng):
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        n = rng.choice([0, 1, 2, 3])
        if fn.kernel and fn.region == 0 and rng.random() < 0.5:
            ub = fn.add_arg("index", ("scalar", "index", n))
        else:
            ub = fn.index(n)
        lb, st = fn.index(0), fn.index(1)
        iv, acc = fn.fresh("i"), fn.fresh("acc")
        res = Val(fn.fresh("for"), x.shape, x.dyn, x.elem, None)
        fn.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {"
                % (res.name, iv, lb, ub, st, acc, x.name, x.type))
        fn.depth += 1
        fn.region += 1
        cur = x.with_name(acc)
        ops = [self.unary(fn, rng, cur) for _ in range(rng.choice([1, 1, 2]))]
        for u in ops:
            cur = u.emit(fn, cur)
        fn.emit("scf.yield %s : %s" % (cur.name, x.type))
        fn.depth -= 1
        fn.region -= 1
        fn.emit("}")
        data = x.data
        for _ in range(n):
            for u in ops:
                data = u.apply(data)
        res.data = data
        return res

    def step_cf(self, fn, pool, rng):
        if fn.region:
            return None
        x = self.pick(rng, pool, lambda v: is_float(v.elem))
        if x is None:
            return None
        taken = rng.random() < 0.5
        cond = self.cond_value(fn, rng, taken)
        fn.nblocks += 3
        b1, b2, b3 = ("^bb%d" % (fn.nblocks - 2), "^bb%d" % (fn.nblocks - 1), "^bb%d" % fn.nblocks)
        a1, a2 = fn.fresh("ba"), fn.fresh("ba")
        fn.emit("cf.cond_br %s, %s(%s : %s), %s(%s : %s)" % (cond, b1, x.name, x.type, b2, x.name, x.type))
        datas = []
        for blk, arg in ((b1, a1), (b2, a2)):
            fn.lines.append("%s(%s: %s):" % (blk, arg, x.type))
            cur = x.with_name(arg)
            for _ in range(rng.choice([0, 1, 1, 2])):
                cur = self.unary(fn, rng, cur).emit(fn, cur)
            fn.emit("cf.br %s(%s : %s)" % (b3, cur.name, x.type))
            datas.append(cur.data)
        m = fn.fresh("m")
        fn.lines.append("%s(%s: %s):" % (b3, m, x.type))
        # values defined in the branch blocks do not dominate the merge block
        return Val(m, x.shape, x.dyn, x.elem, datas[0] if taken else datas[1])

    def step_call(self, fn, pool, rng):
        if not pool:
            return None
        sub = rng.choice([k for k in ("qdq", "quantize", "dequantize", "arith", "math", "generic",
                                      "vector", "scalar", "scf-if", "cf", "identity", "float-qdq")
                          if k in ("qdq", "quantize", "dequantize", "identity") or self.has(k)])
        args = [self.pick(rng, pool, lambda v: True)]
        if rng.random() < 0.3:
            other = rng.choice(pool)
            if other is not args[0]:
                args.append(other)
        self.nhelp += 1
        h = Fn(self, "%s_h%d" % (self.prefix, self.nhelp), kernel=False, private=rng.random() < 0.5)
        params = []
        for a in args:
            name = h.add_arg(a.type, None)
            params.append(a.with_name(name))
        if sub == "identity":
            r = params[0]
        else:
            r = STEPS[sub](self, h, list(params), rng)
        if r is None:
            self.nhelp -= 1
            return None
        h.results = [(r.name, r.type)]
        self.helpers.append(h)
        res = Val(fn.fresh("call"), r.shape, r.dyn, r.elem, r.data, r.signed, grid=r.grid)
        fn.emit("%s = func.call @%s(%s) : (%s) -> %s" % (res.name, h.name, ", ".join(a.name for a in args),
                                                        ", ".join(a.type for a in args), r.type))
        return res

    # ============================================================ program
    def generate(self):
        K = Fn(self, "%s_kernel" % self.prefix, kernel=True)
        self.kernel = K
        rng0 = self.rng("init")
        pool = []
        for i in range(rng0.choice([1, 1, 2])):
            if ("in", i) not in self.drop:
                pool.append(self.fresh_float(K, self.rng("in%d" % i)))
        if not pool:
            pool.append(self.fresh_float(K, self.rng("in0")))
        weights = dict(qdq=4, quantize=3, dequantize=3, arith=2, math=1, matmul=1, reduce=1,
                       generic=2, softmax=1, vector=1, call=1, cf=1, scalar=1)
        weights["float-qdq"] = 2
        weights["scf-if"] = 1
        weights["scf-for"] = 1
        kinds = [k for k in weights if k in ("qdq", "quantize", "dequantize") or self.has(k)]
        self.nsteps = rng0.randint(1, 5)
        for st in range(self.nsteps):
            if st in self.drop:
                continue
            srng = self.rng("s%d" % st)
            kind = srng.choices(kinds, [weights[k] for k in kinds])[0]
            if st == 0:  # every program has at least one quant_affine op
                kind = srng.choice([k for k in ("qdq", "quantize", "dequantize", "generic", "vector", "scalar")
                                    if k in kinds])
            v = STEPS[kind](self, K, pool, srng)
            if v is not None:
                pool.append(v)
                self.kinds.append(kind)
        # outputs: the last value, and sometimes another one
        orng = self.rng("out")
        outs = [pool[-1]]
        if len(pool) > 1 and orng.random() < 0.4:
            o = orng.choice(pool[:-1])
            outs.append(o)
        outs = [o for i, o in enumerate(outs) if ("out", i) not in self.drop] or [pool[-1]]
        for i, v in enumerate(outs):
            self.add_output(K, orng, v, i)
        return self

    def add_output(self, K, rng, v, i):
        label = "%s o%d" % (self.prefix, i)
        modes = ["ret"]
        if self.has("dest"):
            modes.append("dest")
        if self.has("memref"):
            modes.append("memref")
        if v.home and v.home not in [s[2] for s in self.outputs if s[1] == "memref"]:
            modes += ["home", "home"]
        mode = rng.choice(modes)
        if mode == "ret":
            K.results.append((v.name, v.type))
            self.outputs.append((label, v, "ret", len(K.results) - 1))
        elif mode == "dest":
            a = K.add_arg(v.type, ("empty", v.shape, v.dyn, v.elem))
            r = K.fresh("md")
            K.emit("%s = bufferization.materialize_in_destination %s in %s : (%s, %s) -> %s"
                   % (r, v.name, a, v.type, v.type, v.type))
            K.results.append((r, v.type))
            self.outputs.append((label, v, "ret", len(K.results) - 1))
        else:
            if mode == "home":
                a = v.home
            else:
                a = K.add_arg(memref_type(v.shape, v.dyn, v.elem), ("memref_out", v.shape, v.dyn, v.elem))
            K.emit("bufferization.materialize_in_destination %s in restrict writable %s : (%s, %s) -> ()"
                   % (v.name, a, v.type, memref_type(v.shape, v.dyn, v.elem)))
            self.outputs.append((label, v, "memref", a))

    # ------------------------------------------------------------ main part
    def main_lines(self):
        K, p = self.kernel, self.prefix
        L = []
        argnames, memrefs = [], {}
        for i, (name, typ, spec) in enumerate(K.args):
            m = "%%%s_a%d" % (p, i)
            kind = spec[0]
            if kind == "scalar":
                _, elem, value = spec
                if elem == "i1":
                    L.append("%s = arith.constant %s" % (m, "true" if value else "false"))
                elif elem == "index":
                    L.append("%s = arith.constant %d : index" % (m, value))
                else:
                    L.append("%s = arith.constant %s : %s" % (m, float_literal(value, elem), elem))
                argnames.append(m)
                continue
            shape, dyn, elem = spec[1], spec[2], spec[3]
            st = static_type(shape, elem)
            if kind == "tensor":
                L.append("%s_s = arith.constant %s : %s" % (m, dense(shape, elem, spec[4]), st))
                src = m + "_s"
            elif kind == "empty":
                L.append("%s_s = tensor.empty() : %s" % (m, st))
                src = m + "_s"
            else:
                mt = memref_type(shape, [False] * len(shape), elem)
                L.append("%s_s = memref.alloc() : %s" % (m, mt))
                if kind == "memref":
                    L.append("%s_c = arith.constant %s : %s" % (m, dense(shape, elem, spec[4]), st))
                    L.append("bufferization.materialize_in_destination %s_c in restrict writable %s_s : (%s, %s) -> ()"
                             % (m, m, st, mt))
                memrefs[name] = (m + "_s", mt, st)
                if any(dyn):
                    L.append("%s = memref.cast %s_s : %s to %s" % (m, m, mt, typ))
                    argnames.append(m)
                else:
                    argnames.append(m + "_s")
                continue
            if any(dyn):
                L.append("%s = tensor.cast %s : %s to %s" % (m, src, st, typ))
                argnames.append(m)
            else:
                argnames.append(src)
        res = "%%%s_r" % p
        rtypes = [t for _, t in K.results]
        call = "func.call @%s(%s) : (%s) -> (%s)" % (K.name, ", ".join(argnames),
                                                    ", ".join(t for _, t, _ in K.args), ", ".join(rtypes))
        if rtypes:
            L.append("%s:%d = %s" % (res, len(rtypes), call))
        else:
            L.append(call)
        for label, v, how, where in self.outputs:
            tag = "%%%s_%s" % (p, label.split()[1])
            st = static_type(v.shape, v.elem)
            if how == "ret":
                src, styp = "%s#%d" % (res, where), v.type
            else:
                mname, mt, _ = memrefs[where]
                src = tag + "_m"
                L.append("%s = bufferization.to_tensor %s restrict : %s to %s" % (src, mname, mt, st))
                styp = st
            L += print_chain(tag, src, styp, v, label)
        return L

    def module_parts(self):
        return [h.text() for h in self.helpers] + [self.kernel.text()]

    def expected(self):
        return [(label, v.elem, v.signed, v.data) for label, v, _, _ in self.outputs]


def fits(qmin, qmax, w):
    if qmin < 0:
        return -(1 << (w - 1)) <= qmin and qmax <= (1 << (w - 1)) - 1
    return qmax <= (1 << w) - 1


def print_chain(tag, src, styp, v, label):
    """Lines that print v (held in `src` of type `styp`) as i64 bits."""
    L = []
    st = static_type(v.shape, v.elem)
    cur = src
    if styp != st:
        L.append("%s_st = tensor.cast %s : %s to %s" % (tag, cur, styp, st))
        cur = tag + "_st"
    n = v.numel
    ft = static_type([n], v.elem)
    if len(v.shape) != 1:
        L.append("%s_f = tensor.collapse_shape %s [[%s]] : %s into %s"
                 % (tag, cur, ", ".join(map(str, range(len(v.shape)))), st, ft))
        cur = tag + "_f"
    if is_float(v.elem):
        w = WIDTH[v.elem]
        it = static_type([n], "i%d" % w)
        L.append("%s_b = arith.bitcast %s : %s to %s" % (tag, cur, ft, it))
        cur, ext = tag + "_b", "extui"
    else:
        w = int_width(v.elem)
        it = ft
        ext = "extsi" if v.signed else "extui"
    if w < 64:
        L.append("%s_w = arith.%s %s : %s to %s" % (tag, ext, cur, it, static_type([n], "i64")))
        cur = tag + "_w"
    L.append("%s_u = tensor.cast %s : %s to tensor<*xi64>" % (tag, cur, static_type([n], "i64")))
    L.append('vector.print str "%s\\n"' % label)
    L.append("func.call @printMemrefI64(%s_u) : (tensor<*xi64>) -> ()" % tag)
    return L


# ----------------------------------------------------------- unary ops
class QdqU:
    def __init__(self, gen, fn, rng, x):
        self.gen, self.rng = gen, random.Random(rng.random())
        self.enc = gen.encoding(fn, self.rng, x.shape, "qdq", x.elem)
        self.elem, self.shape = x.elem, x.shape

    def emit(self, fn, x):
        return self.gen.quant_op(fn, self.rng, "qdq", x, self.enc, x.elem)

    def apply(self, data):
        x = Val("", self.shape, [False] * len(self.shape), self.elem, data)
        return self.gen.ref_quant("qdq", x, self.enc, self.elem)


class ArithU:
    OPS = ["addf", "subf", "mulf", "divf", "maximumf", "minimumf", "negf"]

    def __init__(self, gen, rng, x):
        self.gen = gen
        self.op = rng.choice(self.OPS)
        self.elem, self.shape = x.elem, x.shape
        if rng.random() < 0.6:
            c = cast(rng.choice([0.5, 2.0, -1.0, 3.0, 0.1, -0.0, 1e-3, 0.25]), x.elem)
            self.cdata = [c] * x.numel
        else:
            self.cdata = [gen.value(rng, x.elem, 1.0) for _ in range(x.numel)]
        self.swap = rng.random() < 0.3

    def emit(self, fn, x):
        res = Val(fn.fresh("a"), x.shape, x.dyn, x.elem, None)
        if self.op == "negf":
            fn.emit("%s = arith.negf %s : %s" % (res.name, x.name, x.type))
        else:
            c = fn.fresh("cst")
            fn.emit("%s = arith.constant %s : %s" % (c, dense(x.shape, x.elem, self.cdata),
                                                    static_type(x.shape, x.elem)))
            cv = fn.cast(Val(c, x.shape, [False] * len(x.shape), x.elem, self.cdata), x.dyn)
            a, b = (cv.name, x.name) if self.swap else (x.name, cv.name)
            fn.emit("%s = arith.%s %s, %s : %s" % (res.name, self.op, a, b, x.type))
        res.data = self.apply(x.data)
        return res

    def apply(self, data):
        T = self.elem
        if self.op == "negf":
            return [lift1(lambda v: -v, v) for v in data]
        f = {"addf": lambda a, b: add(a, b, T), "subf": lambda a, b: sub(a, b, T),
             "mulf": lambda a, b: mul(a, b, T), "divf": lambda a, b: fdiv(a, b, T),
             "maximumf": maximumf, "minimumf": minimumf}[self.op]
        if self.swap:
            return [lift2(f, c, v) for v, c in zip(data, self.cdata)]
        return [lift2(f, v, c) for v, c in zip(data, self.cdata)]


class MathU:
    EXACT = ["absf", "sqrt", "floor", "ceil", "roundeven", "trunc", "round"]
    OPAQUE = ["exp", "tanh", "log", "sin"]

    def __init__(self, gen, rng, x):
        ops = list(self.EXACT) + (self.OPAQUE if gen.has("opaque-math") else [])
        self.op = rng.choice(ops)
        self.elem = x.elem

    def emit(self, fn, x):
        res = Val(fn.fresh("m"), x.shape, x.dyn, x.elem, None)
        fn.emit("%s = math.%s %s : %s" % (res.name, self.op, x.name, x.type))
        res.data = self.apply(x.data)
        return res

    def apply(self, data):
        T = self.elem
        if self.op in self.OPAQUE:
            return [None if v is None else OPQ for v in data]

        def f(v):
            if self.op == "absf":
                return abs(v)
            if v != v or v in (INF, -INF):
                if self.op == "sqrt" and v == -INF:
                    return NAN
                return v
            if self.op == "sqrt":
                return NAN if v < 0 else cast(math.sqrt(v), T)
            if self.op == "floor":
                return keep_zero_sign(float(math.floor(v)), v)
            if self.op == "ceil":
                return keep_zero_sign(float(math.ceil(v)), v)
            if self.op == "trunc":
                return keep_zero_sign(float(math.trunc(v)), v)
            if self.op == "roundeven":
                return rint(v)
            t = math.trunc(abs(v))  # round: half away from zero
            r = float(t + 1) if abs(v) - t >= 0.5 else float(t)
            return math.copysign(r, v)
        return [lift1(f, v) for v in data]


STEPS = {
    "qdq": Program.step_qdq, "quantize": Program.step_quantize, "dequantize": Program.step_dequantize,
    "arith": Program.step_arith, "math": Program.step_math, "matmul": Program.step_matmul,
    "reduce": Program.step_reduce, "softmax": Program.step_softmax, "generic": Program.step_generic,
    "vector": Program.step_vector, "scf-if": Program.step_scf_if, "scf-for": Program.step_scf_for,
    "cf": Program.step_cf, "call": Program.step_call, "scalar": Program.step_scalar,
    "float-qdq": Program.step_float_qdq,
}


def module_text(progs):
    out = ["func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})"]
    main = ["func.func @main() {"]
    for p in progs:
        out += p.module_parts()
        main += ["  " + line for line in p.main_lines()]
    main += ["  return", "}"]
    return "\n".join(out + main) + "\n"


# ==================================================================== running
LOWERED = ("llvm", "omp")
OP_RE = re.compile(r'^\s*(?:%[\w#:, ]+=\s*)?"?([A-Za-z_][\w$]*)\.([\w.$]+)')


def unlowered_ops(text):
    ops = set()
    for line in text.splitlines():
        m = OP_RE.match(line)
        if m and m.group(1) not in LOWERED and m.group(1) != "builtin":
            ops.add("%s.%s" % (m.group(1), m.group(2)))
    return sorted(ops)


def normalize(msg):
    msg = re.sub(r"loc\([^)]*\)", "", msg)
    msg = re.sub(r"^[^:]*\.mlir:\d+:\d+:\s*", "", msg)
    msg = re.sub(r"%[\w#]+", "%v", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg.strip()[:160]


def crash_signature(err):
    m = re.search(r"Assertion `(.*?)' failed", err)
    if m:
        return "crash: assertion " + normalize(m.group(1))
    frames = re.findall(r"^\s*#\d+ 0x[0-9a-f]+ (.*?)(?: \(|\s+\S+:\d+:\d+$| \S+\.cpp:)", err, re.M)
    names = []
    for f in frames:
        name = re.sub(r"\(.*", "", f.replace("(anonymous namespace)::", "")).strip()
        if not name or name.startswith(("llvm::sys::", "SignalHandler", "__", "0x")) or "::" not in name:
            continue
        names.append(name)
    if names:
        where = names[0]
        passes = [n for n in names if "Pass::runOnOperation" in n or n.endswith("Pass::runOnOperation")]
        if passes:
            where += " in " + passes[0].replace("::runOnOperation", "")
        return "crash: " + where[:160]
    for line in err.splitlines():
        if "error:" in line:
            return "crash: " + normalize(line.split("error:", 1)[1])
    return "crash"


def run_config(args, path, cfg):
    """Compile and run one module under one option set. Returns
    (status, signature, detail, stdout)."""
    pre, opts = cfg
    cmd = ["nice", args.opt, path] + pre + [pipeline_arg(opts)]
    try:
        opt = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "compile", "driver timeout", "", ""
    if opt.returncode:
        err = opt.stderr
        if opt.returncode < 0 or "Stack dump" in err or "PLEASE submit" in err:
            return "compile", crash_signature(err), err[:6000], ""
        lines = [ln for ln in err.splitlines() if "error:" in ln]
        sig = normalize(lines[0].split("error:", 1)[1]) if lines else "driver exit %d" % opt.returncode
        return "compile", "driver: " + sig, err[:6000], ""
    bad = unlowered_ops(opt.stdout)
    if bad:
        return "compile", "not lowered: " + ", ".join(bad), "", ""
    rcmd = ["nice"] + runner_command(args.runner, args.libdir, openmp=opts.get("openmp") == "true")
    try:
        r = subprocess.run(rcmd, input=opt.stdout, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "compile", "mlir-runner timeout", "", ""
    if r.returncode:
        err = r.stderr
        lines = [ln for ln in err.splitlines() if "error" in ln.lower() or "failed" in ln.lower()]
        first = lines[0] if lines else (err.strip().splitlines() or ["exit %d" % r.returncode])[0]
        return "compile", "mlir-runner: " + normalize(first), err[:6000], r.stdout
    return "ok", None, None, r.stdout


def parse_output(text):
    results, label = {}, None
    for line in text.splitlines():
        if re.match(r"^p\d+ o\d+$", line.strip()):
            label = line.strip()
        elif line.startswith("[") and label:
            results[label] = [int(v) for v in re.findall(r"-?\d+", line)]
            label = None
    return results


def lane_ok(exp, got, elem, signed):
    if is_float(elem):
        bits = got & ((1 << WIDTH[elem]) - 1)
        if exp != exp:
            return is_nan_bits(bits, elem)
        return bits == to_bits(exp, elem)
    w = int_width(elem)
    want = to_signed(exp, w) if signed else exp
    return got == want


def same_bits(a, b, elem):
    if is_float(elem):
        m = (1 << WIDTH[elem]) - 1
        a, b = a & m, b & m
        return a == b or (is_nan_bits(a, elem) and is_nan_bits(b, elem))
    return a == b


def check_program(prog, outs_by_cfg, cfgs):
    """Compares every config's output of one program with the reference and
    (opaque lanes) across configs with the same pre-passes. Returns a list of
    (config, signature, detail)."""
    problems = []
    for label, elem, signed, data in prog.expected():
        first_by_pre = {}
        for ci, cfg in enumerate(cfgs):
            outs = outs_by_cfg.get(ci)
            if outs is None:
                continue
            got = outs.get(label)
            if got is None or len(got) != len(data):
                problems.append((ci, "missing output",
                                 "%s: %s lanes, expected %d" % (label, None if got is None else len(got), len(data))))
                continue
            bad = []
            key = tuple(cfg[0])
            ref = first_by_pre.setdefault(key, (ci, got))
            for i, (e, g) in enumerate(zip(data, got)):
                if e is None:
                    continue
                if e is OPQ:
                    if not same_bits(g, ref[1][i], elem):
                        bad.append((i, "config %d gave %d" % (ref[0], ref[1][i]), g))
                    continue
                if not lane_ok(e, g, elem, signed):
                    bad.append((i, e, g))
            if bad:
                detail = "%s (%s%s): %d lanes differ, first: %s" % (
                    label, elem, " signed" if signed and not is_float(elem) else "", len(bad),
                    "; ".join("lane %d expected %s got %d" % (
                        i, ("bits %d (%r)" % (to_bits(e, elem), e)) if isinstance(e, float) else e, g)
                        for i, e, g in bad[:4]))
                problems.append((ci, "mismatch %s" % elem, detail))
    # a mismatch in every option set that ran is one class (the reference
    # or an early stage); one in some option sets is another
    ran = [ci for ci in range(len(cfgs)) if outs_by_cfg.get(ci) is not None]
    out = []
    for ci, sig, detail in problems:
        if sig.startswith("mismatch"):
            n = len({c for c, s, _ in problems if s == sig})
            sig += " in every option set" if n == len(ran) and len(ran) > 1 else " in some option sets"
        out.append((ci, sig, detail))
    return out


def evaluate(args, progs, cfgs):
    """Runs a list of programs as one module under every config; splits on
    failure. Returns {pid: [(kind, config index, signature, detail)]}."""
    text = module_text(progs)
    fd, path = tempfile.mkstemp(suffix=".mlir", prefix="progtest-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        v = subprocess.run([args.opt, path, "-o", os.devnull], capture_output=True, text=True)
        if v.returncode:  # the generator's fault, or a verifier crash
            sig = crash_signature(v.stderr) if "Stack dump" in v.stderr else "invalid program: " + normalize(
                ([ln.split("error:", 1)[1] for ln in v.stderr.splitlines() if "error:" in ln] or ["?"])[0])
            if len(progs) == 1:
                return {progs[0].pid: [("compile", 0, sig, v.stderr[-3000:])]}
            report = {}
            for p in progs:
                report.update(evaluate(args, [p], cfgs))
            return report
        outs, failed = {}, []
        for ci, cfg in enumerate(cfgs):
            status, sig, detail, stdout = run_config(args, path, cfg)
            if status == "ok":
                outs[ci] = parse_output(stdout)
            else:
                failed.append((ci, sig, detail))
    finally:
        os.unlink(path)
    report = {}
    if failed and len(progs) > 1:
        # each program alone, in the failing configs
        sub_cfgs = [ci for ci, _, _ in failed]
        for p in progs:
            single = {}
            text1 = module_text([p])
            fd, path = tempfile.mkstemp(suffix=".mlir", prefix="progtest-")
            with os.fdopen(fd, "w") as f:
                f.write(text1)
            try:
                for ci in sub_cfgs:
                    status, sig, detail, stdout = run_config(args, path, cfgs[ci])
                    if status == "ok":
                        single[ci] = parse_output(stdout)
                    else:
                        report.setdefault(p.pid, []).append(("compile", ci, sig, detail))
            finally:
                os.unlink(path)
            merged = dict(outs)
            merged.update(single)
            for ci, sig, detail in check_program(p, merged, cfgs):
                report.setdefault(p.pid, []).append(("mismatch", ci, sig, detail))
        return report
    for ci, sig, detail in failed:
        report.setdefault(progs[0].pid, []).append(("compile", ci, sig, detail))
    for p in progs:
        for ci, sig, detail in check_program(p, outs, cfgs):
            report.setdefault(p.pid, []).append(("mismatch", ci, sig, detail))
    return report


def make_program(seed, pid, feats, drop=frozenset()):
    return Program(seed, pid, feats, drop).generate()


def work_batch(job):
    """Runs a batch under the option sets `chosen` (indices into cfgs);
    reports them by their index in cfgs."""
    args, pids, cfgs, chosen = job
    progs = [make_program(args.seed, pid, args.feats) for pid in pids]
    report = evaluate(args, progs, [cfgs[i] for i in chosen])
    return {pid: [(kind, chosen[ci], sig, detail) for kind, ci, sig, detail in rows]
            for pid, rows in report.items()}


# ================================================================ reduction
def reduce_failure(job):
    """Drops steps, inputs, outputs and features while the failure (same
    signature, same config) remains; writes the reduced program. Returns its
    path."""
    args, pid, kind, ci, sig, cfgs = job
    cfg = cfgs[ci]

    def still_fails(drop, feats):
        try:
            p = make_program(args.seed, pid, feats, drop)
        except Exception:  # noqa: BLE001  (a drop that leaves nothing)
            return None
        rep = evaluate(args, [p], [cfg])
        for k, _, s, d in rep.get(pid, []):
            if k == kind and (s == sig or (k == "mismatch" and s.split(" in ")[0] == sig.split(" in ")[0])):
                return p, d
        return None

    drop, feats = frozenset(), args.feats
    base = make_program(args.seed, pid, feats)
    found = still_fails(drop, feats)
    if found is None:
        return None
    cands = [st for st in range(base.nsteps)] + [("in", 0), ("in", 1), ("out", 0), ("out", 1)]
    for _ in range(3):
        changed = False
        for c in cands:
            if c not in drop:
                r = still_fails(drop | {c}, feats)
                if r is not None:
                    drop, found, changed = drop | {c}, r, True
        for f in sorted(feats):
            r = still_fails(drop, feats - {f})
            if r is not None:
                feats, found, changed = feats - {f}, r, True
        if not changed:
            break
    prog, detail = found
    slug = re.sub(r"[^A-Za-z0-9]+", "-", sig).strip("-")[:70] + "-%d" % pid
    os.makedirs(args.keep_failures, exist_ok=True)
    path = os.path.join(args.keep_failures, "%s.mlir" % slug)
    pre, opts = cfg
    head = ["// progtest reproducer: --seed %d, program %d, dropped %s" % (args.seed, pid, sorted(map(str, drop))),
            "// features: %s" % ",".join(sorted(feats)),
            "// %s: %s" % (kind, sig),
            "// quant-affine-opt %s %s '%s' | mlir-runner -e main -entry-point-result=void \\"
            % (os.path.basename(path), " ".join(pre), pipeline_arg(opts)),
            "//   -shared-libs=%s/libmlir_runner_utils.so -shared-libs=%s/libmlir_c_runner_utils.so%s"
            % (args.libdir, args.libdir, (" -shared-libs=%s/libomp.so" % args.libdir)
               if opts.get("openmp") == "true" else "")]
    lines = (detail or "").strip().splitlines()
    first = [i for i, ln in enumerate(lines) if "error" in ln or "Assertion" in ln or "#0 " in ln or " #" in ln[:4]]
    start = first[0] if first else 0
    for line in lines[start:start + 14]:
        head.append("// | " + line[:200])
    if kind == "mismatch":
        for label, elem, signed, data in prog.expected():
            shown = ["-" if v is None else "?" if v is OPQ else
                     str(to_bits(v, elem)) if is_float(elem) else str(to_signed(v, int_width(elem)) if signed else v)
                     for v in data]
            head.append("// expected %s (%s, bits; - skipped, ? opaque): [%s]" % (label, elem, ", ".join(shown)))
    with open(path, "w") as f:
        f.write("\n".join(head) + "\n" + module_text([prog]))
    return path


# ===================================================================== main
def parse_features(spec):
    allf = set(FEATURES)
    if spec in (None, "", "all"):
        return allf
    items = [s.strip() for s in spec.split(",") if s.strip()]
    adds = [s for s in items if not s.startswith("-") and s != "all"]
    feats = set() if adds else set(allf)
    if "all" in items:
        feats = set(allf)
    for s in items:
        name = s.lstrip("-")
        if name != "all" and name not in allf:
            sys.exit("unknown feature %r (known: %s)" % (name, ", ".join(sorted(allf))))
        if s.startswith("-"):
            feats.discard(name)
        elif s != "all":
            feats.add(name)
    return feats


def modules_elsewhere(args):
    """--emit-modules and --check-outputs: the same batches of programs,
    written as modules, or their outputs (from a run elsewhere) checked.
    Opaque lanes (libm against libdevice) are not compared."""
    batches = [list(range(i, min(i + args.batch, args.count)))
               for i in range(0, args.count, args.batch)]
    if args.emit_modules:
        os.makedirs(args.emit_modules, exist_ok=True)
        for b, pids in enumerate(batches):
            progs = [make_program(args.seed, pid, args.feats) for pid in pids]
            with open(os.path.join(args.emit_modules, "m%d.mlir" % b), "w") as f:
                f.write(module_text(progs))
        print("%d modules, %d programs" % (len(batches), args.count))
        return 0
    missing, mismatched = set(), set()
    for b, pids in enumerate(batches):
        path = os.path.join(args.check_outputs, "m%d.out" % b)
        outs = parse_output(open(path).read()) if os.path.exists(path) else {}
        for pid in pids:
            prog = make_program(args.seed, pid, args.feats)
            for ci, sig, detail in check_program(prog, {0: outs}, [([], {})]):
                (missing if sig == "missing output" else mismatched).add(pid)
                print("program %d (m%d): %s: %s" % (pid, b, sig, detail))
    mismatched -= missing
    print("%d programs, %d missing outputs, %d mismatches" % (args.count, len(missing), len(mismatched)))
    return 1 if missing or mismatched else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--batch", type=int, default=8, help="programs per module")
    p.add_argument("--features", default="all",
                   help="comma list; `-x` removes x from all. Known: " + ", ".join(sorted(FEATURES)))
    p.add_argument("--pipeline", choices=["cpu", "gpu-on-cpu"], default="cpu",
                   help="cpu: --quant-affine-cpu-pipeline; gpu-on-cpu: the GPU pipeline's "
                   "mapped kernels run as loops on the CPU (--quant-affine-test-gpu-on-cpu-pipeline)")
    p.add_argument("--option-sets", choices=["cover", "all"], default="cover")
    p.add_argument("--sets-per-batch", type=int, default=0, metavar="K",
                   help="run each batch under K of the option sets, rotating from batch to "
                   "batch (0: all of them)")
    p.add_argument("--exclude-option-sets", metavar="REGEX",
                   help="leave out option sets whose command line matches")
    p.add_argument("--keep-failures", metavar="DIR")
    p.add_argument("--max-reduce", type=int, default=20, help="signatures reduced with --keep-failures")
    p.add_argument("--opt", default="build/bin/quant-affine-opt")
    p.add_argument("--runner", default="/usr/lib/llvm-22/bin/mlir-runner")
    p.add_argument("--libdir", default="/usr/lib/llvm-22/lib")
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--print", type=int, metavar="PID", help="print program PID's module and exit")
    p.add_argument("--only", metavar="PIDS", help="comma list of program numbers to run")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--emit-modules", metavar="DIR",
                   help="write the programs' modules (--batch a module) as DIR/mN.mlir and "
                   "exit: for running elsewhere (utils/gpu-bundle)")
    p.add_argument("--check-outputs", metavar="DIR",
                   help="compare DIR/mN.out, the printed output of module N run elsewhere, "
                   "with the reference (the same --seed, --count, --batch and --features)")
    args = p.parse_args()
    args.feats = frozenset(parse_features(args.features))
    global PIPELINE
    if args.pipeline == "gpu-on-cpu":
        PIPELINE = "--quant-affine-test-gpu-on-cpu-pipeline"
        cfgs = GPU_COVER
    else:
        cfgs = COVER if args.option_sets == "cover" else all_option_sets()
    if args.exclude_option_sets:
        cfgs = [c for c in cfgs if not re.search(args.exclude_option_sets, config_name(c))]
    if not os.path.exists(os.path.join(args.libdir, "libomp.so")):
        cfgs = [c for c in cfgs if c[1].get("openmp") != "true"]
        print("note: no libomp.so in %s: openmp option sets skipped" % args.libdir)
    if args.print is not None:
        sys.stdout.write(module_text([make_program(args.seed, args.print, args.feats)]))
        return 0
    if args.emit_modules or args.check_outputs:
        return modules_elsewhere(args)
    pids = list(range(args.count))
    if args.only:
        pids = [int(x) for x in args.only.split(",")]
        args.count = len(pids)
    per_batch = args.sets_per_batch if 0 < args.sets_per_batch < len(cfgs) else len(cfgs)
    jobs = [(args, pids[i:i + args.batch], cfgs,
             [(b * per_batch + k) % len(cfgs) for k in range(per_batch)])
            for b, i in enumerate(range(0, len(pids), args.batch))]
    failures = {}
    n_compile, n_mismatch = set(), set()
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for rep in pool.imap(work_batch, jobs):
            for pid in sorted(rep):
                for kind, ci, sig, detail in rep[pid]:
                    (n_compile if kind == "compile" else n_mismatch).add(pid)
                    failures.setdefault((kind, sig), []).append((pid, ci, detail))
                    print("program %d: %s [%s]: %s" % (pid, kind, config_name(cfgs[ci]), sig))
                    if args.verbose and detail:
                        print("  " + "\n  ".join(detail.strip().splitlines()[-8:]))
            sys.stdout.flush()
        if failures:
            print("failure classes:")
            for (kind, sig), occ in sorted(failures.items(), key=lambda kv: -len({o[0] for o in kv[1]})):
                progs = sorted({o[0] for o in occ})
                print("  %d programs, %s: %s (%s)" % (len(progs), kind, sig,
                                                      ", ".join(str(p) for p in progs[:8])))
        if args.keep_failures and failures:
            to_reduce = []
            for (kind, sig), occ in list(failures.items())[:args.max_reduce]:
                pid, ci, _ = min(occ, key=lambda o: (o[0], o[1]))
                to_reduce.append((args, pid, kind, ci, sig, cfgs))
            for path in pool.imap(reduce_failure, to_reduce):
                if path:
                    print("reproducer: %s" % path)
    n_mismatch -= n_compile
    print("%d programs, %d compile failures, %d mismatches" % (args.count, len(n_compile), len(n_mismatch)))
    return 1 if (n_compile or n_mismatch) else 0


if __name__ == "__main__":
    sys.exit(main())
