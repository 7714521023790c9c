# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Shared by utils/difftest.py and utils/progtest.py: element types, bit
patterns, MLIR literals, and a pure-Python model of the float arithmetic and
of the quant_affine formula (no NumPy: the lit suite's Python need not have
it).

The reference model follows ../shared/conformance/ref.py (the normative NumPy
reference), restricted to what the testers generate:

- a value of type T is a Python float holding exactly a T value;
- one operation in f16, bf16 or f32 is the double operation rounded once to T
  (exact: 53 >= 2p + 2 for p = 11, 8, 24, so double rounding is innocuous);
- cast(v, T) is torch's `.to(T)`: f64 -> f16/bf16 goes through f32;
- bf16 rounding is round-to-nearest-even on the f32 bits, subnormals kept;
- the compute type is AIMET's rule (threshold 0.25, DESIGN.md section 1), as
  getEffectiveComputeType implements it.
"""
import math
import struct

FLOATS = ["f16", "bf16", "f32", "f64"]
WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
MAX = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38,
       "f64": 1.7976931348623157e308}
INF = float("inf")
NAN = float("nan")


# --------------------------------------------------------------- bit patterns
def f32_bits(v):
    try:
        return struct.unpack("<I", struct.pack("<f", v))[0]
    except OverflowError:  # beyond f32: the data holds an infinity
        return 0x7F800000 if v > 0 else 0xFF800000


def to_bits(v, dt):
    """Bits of v rounded to dt (bf16 by truncation of an exactly-bf16 value)."""
    if dt == "f16":
        try:
            return struct.unpack("<H", struct.pack("<e", v))[0]
        except OverflowError:
            return 0x7C00 if v > 0 else 0xFC00
    if dt == "bf16":
        return f32_bits(v) >> 16
    if dt == "f32":
        return f32_bits(v)
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def from_bits(b, dt):
    if dt == "f16":
        return struct.unpack("<e", struct.pack("<H", b & 0xFFFF))[0]
    if dt == "bf16":
        return struct.unpack("<f", struct.pack("<I", (b & 0xFFFF) << 16))[0]
    if dt == "f32":
        return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]
    return struct.unpack("<d", struct.pack("<Q", b & 0xFFFFFFFFFFFFFFFF))[0]


def bf16_exact(v):
    """v rounded down to a bf16 value (clearing low bits keeps it exact)."""
    b = f32_bits(v) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", b))[0]


def is_nan_bits(v, dt):
    if dt not in WIDTH:
        return False
    v &= (1 << WIDTH[dt]) - 1
    m, e = {"f16": (10, 5), "bf16": (7, 8), "f32": (23, 8), "f64": (52, 11)}[dt]
    return (v >> m) & ((1 << e) - 1) == (1 << e) - 1 and v & ((1 << m) - 1) != 0


# --------------------------------------------------------------- MLIR literals
def hex_dense(values, dt):
    w = WIDTH[dt] // 8
    return "0x" + "".join(to_bits(v, dt).to_bytes(w, "little").hex().upper() for v in values)


def float_literal(v, dt):
    """A scalar float attribute with exact bits (hex form)."""
    return "0x%0*X" % (WIDTH[dt] // 4, to_bits(v, dt))


def ttype(shape, elem):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elem)


# ------------------------------------------------------------ rounding model
def rnd32(v):
    if v != v or v in (INF, -INF):
        return v
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return INF if v > 0 else -INF


def rnd16(v):
    if v != v or v in (INF, -INF):
        return v
    try:
        return struct.unpack("<e", struct.pack("<e", v))[0]
    except OverflowError:
        return INF if v > 0 else -INF


def bf16_of_f32(v):
    """Round an f32 value to bf16, nearest even, subnormals kept, NaN kept."""
    if v != v:
        return v
    u = f32_bits(v)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", u & 0xFFFFFFFF))[0]


def cast(v, dt):
    """torch .to(dt) of an exactly-held float (f64 -> f16/bf16 via f32)."""
    if dt == "f64":
        return v
    if dt == "f32":
        return rnd32(v)
    if dt == "f16":
        return rnd16(rnd32(v))
    if dt == "bf16":
        return bf16_of_f32(rnd32(v))
    raise ValueError(dt)


def int_to_float(i, dt):
    """sitofp/uitofp of an integer value: one rounding (|i| < 2^53)."""
    v = float(i)
    if dt == "f16":
        return rnd16(v)
    if dt == "bf16":  # callers keep |i| < 2^24, where f32 holds i exactly
        return bf16_of_f32(rnd32(v))
    return cast(v, dt)


def div(a, b):
    """IEEE division in double."""
    if b == 0.0:
        if a != a or a == 0.0:
            return NAN
        return math.copysign(INF, a) * math.copysign(1.0, b)
    try:
        return a / b
    except OverflowError:
        return math.copysign(INF, a) * math.copysign(1.0, b)


def add(a, b, dt):
    return cast(a + b, dt)


def sub(a, b, dt):
    return cast(a - b, dt)


def mul(a, b, dt):
    return cast(a * b, dt)


def fdiv(a, b, dt):
    return cast(div(a, b), dt)


def keep_zero_sign(r, v):
    return math.copysign(0.0, v) if r == 0 else r


def rint(v):
    """roundeven, sign of zero kept."""
    if v != v or v in (INF, -INF):
        return v
    return keep_zero_sign(float(round(v)), v)


def clamp(v, lo, hi):
    """min(max(v, lo), hi) as compare and select: NaN and -0.0 kept."""
    if v < lo:
        v = lo
    if hi < v:
        v = hi
    return v


def int_representable(v, dt):
    """Whether the integer v is exactly representable in dt."""
    if abs(v) > MAX[dt]:
        return False
    if v == 0:
        return True
    a = abs(v)
    msb = a.bit_length() - 1
    lsb = (a & -a).bit_length() - 1
    return msb - lsb < PRECISION[dt]


def numerically_stable(dt, qmin, qmax):
    for v in (qmax, qmax - 1, qmin + 1, qmin):
        if not int_representable(v, dt):
            return False
    if qmin >= qmax:
        return True
    return qmax - qmin <= 2 ** (PRECISION[dt] - 3)


def compute_type(kind, float_type, qmin, qmax, explicit=None):
    """kind: quantize, dequantize or qdq; float_type: input (quantize, qdq) or
    result (dequantize) float type."""
    if explicit:
        return explicit
    if kind == "dequantize" or numerically_stable(float_type, qmin, qmax):
        return float_type
    return "f32" if numerically_stable("f32", qmin, qmax) else "f64"


def to_signed(u, width):
    u &= (1 << width) - 1
    return u - (1 << width) if u >> (width - 1) else u


def fzp_mid(qmin, qmax, C):
    """torchao's FLOAT-domain midpoint (qmin + qmax + 1) / 2, in C."""
    return cast((qmin + qmax + 1) / 2.0, C)


def quant_core(x, s, o, qmin, qmax, C, r=None, fzp=False):
    """clamp(rne(x / s) - o, qmin, qmax) in C; x, s, o already in C. An
    absent offset (None) subtracts nothing (as the lowering does; for
    -0.0 this differs from subtracting +0.0 only in dequantize and qdq).
    torchao (DESIGN.md section 8): with `r` (1 / s rounded in the scale's
    type, in C) x * r replaces x / s; with `fzp` o is the zero point z (+0.0
    when absent) and rne((x - (z - s * mid)) / s) is clamped."""
    if fzp:
        z = o if o is not None else 0.0
        min_val = sub(z, mul(s, fzp_mid(qmin, qmax, C), C), C)
        q = rint(fdiv(sub(x, min_val, C), s, C))
    else:
        q = rint(mul(x, r, C) if r is not None else fdiv(x, s, C))
        if o is not None:
            q = sub(q, o, C)
    return clamp(q, cast(float(qmin), C), cast(float(qmax), C))


def dequant_core(q, s, o, C, fzp=False, qmin=0, qmax=0):
    """(q + o) * s in C; an absent offset adds nothing, so -0.0 stays. With
    `fzp`: ((q - mid) * s) + z, z = +0.0 when absent."""
    if fzp:
        z = o if o is not None else 0.0
        return add(mul(sub(q, fzp_mid(qmin, qmax, C), C), s, C), z, C)
    if o is not None:
        q = add(q, o, C)
    return mul(q, s, C)


def reciprocal_in(s, stype, C):
    """1 / s rounded in the scale's type, then read in C."""
    return cast(fdiv(1.0, s, stype), C)


def ref_quantize(x, s, o, qmin, qmax, C, rtype, reciprocal=False, fzp=False, stype="f32"):
    """One element: x in its type, s and o in theirs (o may be None).
    Integer results come back as unsigned bit patterns, None for poison."""
    oc = None if o is None else cast(o, C)
    r = reciprocal_in(s, stype, C) if reciprocal else None
    q = quant_core(cast(x, C), cast(s, C), oc, qmin, qmax, C, r, fzp)
    if rtype in WIDTH:
        return cast(q, rtype)
    if q != q:
        return None
    w = int(rtype[1:])
    return int(q) & ((1 << w) - 1)  # fptosi/fptoui: toward zero


def ref_dequantize(q, s, o, qmin, qtype, C, rtype, fzp=False, qmax=0):
    """q: a float in qtype, or an unsigned bit pattern of an integer qtype."""
    if qtype in WIDTH:
        qc = cast(q, C)
    else:
        w = int(qtype[1:])
        qc = int_to_float(to_signed(q, w) if qmin < 0 else q, C)
    oc = None if o is None else cast(o, C)
    return cast(dequant_core(qc, cast(s, C), oc, C, fzp, qmin, qmax), rtype)


def ref_qdq(x, s, o, qmin, qmax, C, xtype, reciprocal=False, fzp=False, stype="f32"):
    sc = cast(s, C)
    oc = None if o is None else cast(o, C)
    r = reciprocal_in(s, stype, C) if reciprocal else None
    q = quant_core(cast(x, C), sc, oc, qmin, qmax, C, r, fzp)
    return cast(dequant_core(q, sc, oc, C, fzp, qmin, qmax), xtype)


# --------------------------------------------------------------- running
# ------------------------------------------------------------ float_qdq
# float_qdq's real formats: (E, M), flags, emin, emax, fmt_max.
FLOAT_FORMATS = [((4, 3), " finite", -6, 8, 448.0),
                 ((4, 3), " finite unsigned_zero", -7, 7, 240.0),
                 ((5, 2), "", -14, 15, 57344.0),
                 ((5, 2), " finite unsigned_zero", -15, 15, 57344.0),
                 ((5, 10), "", -14, 15, 65504.0),
                 ((8, 7), "", -126, 127, 3.3895313892515355e38)]


def aimet_grid(e, m):
    """emin, emax and fmt_max of AIMET's IEEE-like [e, m] grid."""
    bias = 2 ** (e - 1) - 1
    return -bias, bias, math.ldexp(2.0 - 2.0 ** -m, bias)


def fake_cast(x, m, emin, fmt_max, unsigned_zero=False):
    """x clamped to +-fmt_max and rounded to nearest even on the grid with
    m mantissa bits and smallest normal exponent emin, exactly (double)."""
    if x != x:
        return x
    c = min(max(x, -fmt_max), fmt_max)
    if c != 0:
        qe = max(math.frexp(c)[1] - 1, emin) - m
        c = keep_zero_sign(math.ldexp(float(round(math.ldexp(c, -qe))), qe), c)
    return 0.0 if unsigned_zero and c == 0 else c


def maxval_factor(maxval, fmt_max):
    """AIMET's k = 2^(log2|maxval| - log2 fmt_max): log2 and exp2 in double
    (the C library's, as the generated code calls them), steps in f32."""
    a = abs(rnd32(maxval))
    log2 = -INF if a == 0 else a if a != a or a == INF else math.log2(a)
    shift = rnd32(rnd32(log2) - rnd32(math.log2(fmt_max)))
    return rnd32(math.exp2(shift))


def ref_float_qdq(x, xtype, m, emin, fmt_max, unsigned_zero=False, k=None):
    """float_qdq of x (a value of xtype), with the factor k of a maxval."""
    if k is None:
        return cast(fake_cast(x, m, emin, fmt_max, unsigned_zero), xtype)
    P = "f64" if xtype == "f64" else "f32"
    on_grid = cast(fake_cast(fdiv(x, k, P), m, emin, fmt_max, unsigned_zero), P)
    return cast(mul(on_grid, k, P), xtype)


def runner_command(runner, libdir, openmp=False):
    cmd = [runner, "-e", "main", "-entry-point-result=void",
           "-shared-libs=%s/libmlir_runner_utils.so" % libdir,
           "-shared-libs=%s/libmlir_c_runner_utils.so" % libdir]
    if openmp:
        cmd.append("-shared-libs=%s/libomp.so" % libdir)
    return cmd
