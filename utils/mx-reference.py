#!/usr/bin/env python3
"""Independent exact reference for microscaling block quantization (MX, NVFP4, FP8 blocks).

Written from the published formulas and the public sources listed below, not from quant-affine's
code. All arithmetic is done on fractions.Fraction; values are turned into bit patterns only at the
end. Python's float is used only to *generate* random inputs (which are then fixed as f32 bit
patterns) and for printing.

Usage:
  python3 utils/mx-reference.py selftest
  python3 utils/mx-reference.py vectors OUTDIR      # writes the JSON vector files
  python3 utils/mx-reference.py stats [NBLOCKS]     # 20,000-block MXFP4 scale-rule statistics

Sources (pinned; "repo@commit:path:line")
-----------------------------------------
  TAO  = pytorch/ao@36027d82d1ad9949597ea16002ff4940374b1b94
  MXS  = microsoft/microxcaling@7bc41952de394f5cc5e782baf132e7c7542eb4e4  (OCP's reference emulator)
  OCP  = OCP Microscaling Formats (MX) v1.0 specification, sec. 5 (formats, E8M0, MXINT8) and
         sec. 6.3 (conversion); not stored in the search corpus, the rules below are cited through
         TAO and MXS, which quote it.
  CUDNN= https://docs.nvidia.com/deeplearning/cudnn/frontend/latest/operations/BlockScaling.html
         ("scale = quantize_round_up(amax(vals) / vmax_otype); output = quantize_round_to_even(vals / scale)")
  DSV3 = deepseek-ai/DeepSeek-V3 inference/kernel.py act_quant, as copied in
         TAO:torchao/prototype/blockwise_fp8_inference/kernels.py:40-65
  MLIR = LLVM/MLIR 22 (/usr/lib/llvm-22): mlir/lib/Dialect/Arith/Transforms/ExpandOps.cpp,
         F8E8M0TruncFOpConverter and F4E2M1TruncFOpConverter ("Step 5: Round up if necessary",
         man22Bits >= 0x200000); behaviour re-checked by running mlir-opt/mlir-runner 22.

Notation
--------
amax      = max |x| over the block, taken on the f32 inputs (NaN if any element is NaN, as
            torch.amax does, TAO mx_tensor.py:260-261).
max_elem  = largest finite element value; emax_elem = exponent of its binade (OCP table; TAO
            constants.py:32-39,52-62; MXS formats.py:83-119):
              f4E2M1FN  max 6      emax 2     f6E2M3FN max 7.5  emax 2   f6E3M2FN max 28 emax 4
              f8E4M3FN  max 448    emax 8     f8E5M2   max 57344 emax 15
              MXINT8    max 127/64 emax 0     (8-bit two's complement, value = code * 2^-6;
                                               MXS formats.py:83-85,117: max_norm = 127/64)
E8M0      = unsigned 8-bit exponent, bias 127: byte b means 2^(b-127) for b in 0..254, b = 0xFF is
            NaN, there is no zero and no Inf (OCP 5.4.1, quoted at TAO mx_tensor.py:12-17).
            A rule computes an unbiased exponent k; k is clamped to [-127, 127] (TAO
            mx_tensor.py:341-345; MXS mx_ops.py:281-283 clamps underflow to -127).

1. Block-scale rules for E8M0 (X = 2^k)
---------------------------------------
Let E(a) be the f32 exponent *field* of amax minus 127 (so E = floor(log2 amax) for a normal amax,
and E = -127 for amax = 0 or an f32-denormal amax) and M(a) its 23-bit mantissa field.

  floor   k = E - emax_elem.  OCP 6.3: X = 2^(floor(log2 amax) - emax_elem).
          TAO mx_tensor.py:323-331; MXS mx_ops.py:76-80 then 277-279 (MXS takes float log2,
          we take the exact exponent, as TAO does).
  ceil    k = E + (M != 0) - emax_elem, i.e. 2^(ceil(log2 amax) - emax_elem) for normal amax.
          Exactly TAO ScaleCalculationMode.CEIL, mx_tensor.py:332-337 (config.py:53-54).
  even    TAO ScaleCalculationMode.EVEN, mx_tensor.py:311-320 then 330-331: add
          2^(23 - mbits - 1) to the f32 bits of amax and clear the 23 mantissa bits (mbits = the
          element's mantissa width: 1, 3, 2, 3, 2; for MXINT8, not in TAO, we use 6, the number of
          fraction bits of 127/64 = 1.111111b). That is amax rounded half-up to one significant bit
          at the element's precision (the significand moves to the next binade iff it is
          >= 2 - 2^-(mbits+1)); then k = E(rounded) - emax_elem. As in TAO (which tests isfinite
          on the *rounded* amax, mx_tensor.py:352-356) an amax that rounds up to 2^128 gives 0xFF.
  rceil   k = ceil(log2(amax / max_elem)), computed exactly; amax = 0 -> k = -127.
          CUDNN ("quantize_round_up(amax / vmax)"), TAO _to_mx_rceil mx_tensor.py:161-225 and
          _f32_to_e8m0_rceil mx_tensor.py:111-129 (cvt.rp.ue8m0x2.f32 on Blackwell). TAO and
          TransformerEngine compute amax * f32(1/max_elem) in f32 first; `selftest` checks (+-300
          ulps around max_elem * 2^k, five binades) that for the five float formats this equals
          the exact quotient's ceil for normal amax. It differs when amax / max_elem is an f32
          denormal (k = -127/-126: the product can round down onto 2^-127), and for MXINT8 (not
          in TAO) at amax = 127/64 * 2^k + 1 ulp, where fl(64/127) makes the product round down
          onto 2^k. The vectors use the exact quotient.
  nearest k = round(log2(amax / max_elem)) = the integer nearest to log2 of the exact quotient.
          Source: TAO torchao/quantization/quant_primitives.py:2192-2211 (_choose_scale_float8
          with scale_dtype float8_e8m0fnu: exp2(_Round(log2(max_abs / quant_max))), _Round =
          torch.round, :215-222, round-half-to-even). TAO's mx_formats has no such mode; this is
          the issue's "torchao round(log2(amax / max))". A tie would need amax/max_elem = 2^(j+1/2),
          irrational, so the tie rule never applies: k = j + 1 iff q^2 >= 2^(2j+1), q = amax/max_elem,
          j = floor(log2 q). (TAO computes q and log2 in f32; it can differ for q within a few
          f32 ulps of 2^(j+1/2); the vectors use the exact rule.) amax = 0 -> k = -127.

  Special amax for every E8M0 rule: NaN or +Inf amax (any NaN or +-Inf in the block) -> 0xFF,
  as TAO does (mx_tensor.py:351-356, _f32_to_e8m0_rceil :127) and OCP requires. amax = 0 ->
  0x00 (2^-127): TAO's bit rules give E = -127 -> clamp -> 0x00, _f32_to_e8m0_rceil(0) = 0x00.
  (MXS instead uses log2(amax + 2^-126) for a zero block, mx_ops.py:76-80, i.e. -126 - emax; only
  visible for MXINT8 where emax = 0; the elements are all zero either way.) Denormal amax: all
  rules above clamp to 0x00 for the float elements; for MXINT8 ceil/even follow TAO's bit formula
  (ceil gives 2^-126 for any nonzero f32-denormal amax).
  The exact rceil of a huge MXINT8 amax can exceed 127; it is clamped to 127 (elements saturate).

  Not a rule, for statistics only ("truncf route"): X = truncf(amax / max_elem) to f8E8M0FNU as
  MLIR 22 lowers it: arith.divf (f32, RNE), then F8E8M0TruncFOpConverter (arith-expand
  include-f8e8m0=true) which bitcasts to i32, shifts right by 23 and truncates to i8: the f32
  exponent field, i.e. 2^floor(log2(RN32(amax/max))) (round toward zero; Inf/NaN -> 0xFF; f32
  denormal or zero -> 0x00; the sign bit falls off). arith.truncf is not constant-folded for an
  inexact value (checked with mlir-opt 22 --canonicalize), so this is what runs.

2. Scale types
--------------
  f8E8M0FNU (MX, block 32): as above. Element quantization uses q = x / X, exact.
  NVFP4, block 16, f4E2M1FN elements, f8E4M3FN block scale. TAO nvfp4_tensor.py:772-854:
    bs  = RN32(amax / 6)                                   (:809-811)
    one-level:  s8 = e4m3_RNE(clamp(bs, 2^-6, 448))        (:816-818; E4M3_EPS = finfo.tiny =
                                                           2^-6, :39); X = s8.
    two-level:  pts = RN32(tensor_amax / 2688)             (per_tensor_amax_to_scale, :756-769;
                                                           2688 = 448 * 6)
                s8  = e4m3_RNE(clamp(RN32(bs / pts), 2^-6, 448))  (:828-840)
                X   = RN32(pts * s8)                       (the f32 block scale, get_hp_scales
                                                           :253-257, used by dequantize :225)
    clamp keeps NaN (torch.clamp), so a NaN amax gives s8 = 0x7F (NaN); +Inf amax gives
    bs = Inf -> 448 (0x7E) and the Inf elements saturate to +-6. amax = 0 gives s8 = 2^-6 (0x08).
    DECISION: elements are RNE(x / X) with the exact quotient. TAO multiplies by an f32
    reciprocal ((1/pts)/s8, :844-845, or 1/s8, :822), which can move a value across a rounding
    midpoint when X is not a power of two; the vectors follow the exact division, the rule the
    project uses everywhere (DESIGN.md sec. 1: "never replace it by multiplication with 1/s").
    `stats` reports how often TAO's reciprocal route would change a code.
  f32 block scales (FP8 blocks, 1x128): s = RN32(amax / max_elem), max_elem = 448 for f8E4M3FN
    (DSV3 act_quant: s = max(|x|) / 448, TAO blockwise_fp8_inference/kernels.py:61) and 57344
    for f8E5M2 (TAO quant_primitives.py:2192,2200: max_abs / finfo(float8_dtype).max). One rule.
    Elements RNE(x / s) exact, saturated. DECISIONS for what DSV3 leaves undefined: s = 0 (amax = 0,
    or amax so small that amax/max rounds to 0 in f32) -> every element encodes as a signed zero
    (DSV3 would compute 0/0 = NaN); s = NaN or Inf (NaN or Inf in the block) -> element codes are
    "don't care" and every dequantized value is NaN (x/Inf = 0 then 0 * Inf = NaN).

3. Elements
-----------
  Floats (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2): q = x / X exactly, rounded to the
  element grid with round-to-nearest-even, subnormals included; |q| beyond max_elem saturates to
  +-max_elem (OCP 6.3 / MXS elemwise_ops.py:93-95,152-154 "saturate_normals ... Must be True for
  correct MX conversion"; TAO clamps or uses saturating casts, mx_tensor.py:361-373,
  custom_fp_utils.py:37-39,93,128). This applies to f8E5M2 too: MX conversion saturates to max
  normal (MXS passes saturate_normals=True for every element type, mx_ops.py:287-290), so finite
  inputs never become Inf. The sign of zero is kept (x = -0.0 or a negative value rounding to 0
  gives the negative-zero code), as TAO's bit conversion does (custom_fp_utils.py:78-85,132-140).
  MXINT8: code = clamp(RNE(q * 64), -127, 127), two's complement (MXS: symmetric clamp to
  +-max_norm, elemwise_ops.py:153-154; we round half-to-even where MXS's default "nearest" rounds
  half away from zero; -128 is never produced; -0 -> 0).
  NaN / Inf elements: a block containing them has a non-finite amax, hence a NaN scale (E8M0,
  NVFP4-NaN) or a non-finite f32 scale; OCP: when X is NaN every value of the block is NaN,
  whatever the element codes. Such cases carry "codes_defined": false and the codes TAO would
  write: f8E4M3FN/f8E5M2 -> 0x7F (the NaN code), f4/f6 -> TAO's bit conversion of the f32 NaN
  0x7FC00000 (f4E2M1FN 3, f6E2M3FN 12, f6E3M2FN 14; f4/f6 have no NaN, OCP leaves this
  implementation-defined), MXINT8 -> 0.
  The single exception is NVFP4 with an Inf: the scale is 448, finite, so the codes are defined.

4. Dequantization: value(code) * X exactly, then rounded once to f32 (RNE; overflow -> Inf).
  For a NaN scale every output is NaN (written as 0x7FC00000; compare NaN-ness only).
"""

import json
import math
import os
import random
import struct
import sys
from fractions import Fraction as F

# --------------------------------------------------------------------------------------------
# Exact helpers
# --------------------------------------------------------------------------------------------

TWO = F(2)


def p2(e):
    return TWO ** e


def floor_log2(x):
    """floor(log2 x) for a positive Fraction, exactly."""
    assert x > 0
    n, d = x.numerator, x.denominator
    e = n.bit_length() - d.bit_length()
    # want 2^e <= n/d < 2^(e+1)
    if e >= 0:
        if n < (d << e):
            e -= 1
    else:
        if (n << -e) < d:
            e -= 1
    return e


def ceil_log2(x):
    e = floor_log2(x)
    return e if x == p2(e) else e + 1


def rne_int(q):
    """Round a Fraction to the nearest integer, ties to even."""
    fl = q.numerator // q.denominator
    r = q - fl
    if r > F(1, 2):
        return fl + 1
    if r < F(1, 2):
        return fl
    return fl + (fl & 1)


def rne_grid(mag, mbits, emin):
    """Round mag >= 0 to the binary grid with mbits fraction bits and minimum exponent emin
    (subnormals below 2^emin), ties to even; no upper bound."""
    if mag == 0:
        return F(0)
    e = max(floor_log2(mag), emin)
    ulp = p2(e - mbits)
    return rne_int(mag / ulp) * ulp


# --------------------------------------------------------------------------------------------
# f32
# --------------------------------------------------------------------------------------------

F32_NAN = 0x7FC00000
F32_MAX = (2 - p2(-23)) * p2(127)


class Val:
    """An IEEE value: kind in {'fin', 'inf', 'nan'}, sign bit s, magnitude mag (Fraction)."""
    __slots__ = ("kind", "s", "mag")

    def __init__(self, kind, s=0, mag=F(0)):
        self.kind, self.s, self.mag = kind, s, mag

    def isfinite(self):
        return self.kind == "fin"

    def frac(self):
        assert self.kind == "fin"
        return -self.mag if self.s else self.mag

    def __repr__(self):
        if self.kind != "fin":
            return ("-" if self.s else "") + self.kind
        return ("-" if self.s else "") + str(self.mag)


def fin(v):
    """Val from a signed Fraction (zero is +0)."""
    return Val("fin", 1 if v < 0 else 0, abs(F(v)))


def f32_decode(bits):
    s = (bits >> 31) & 1
    e = (bits >> 23) & 0xFF
    m = bits & 0x7FFFFF
    if e == 0xFF:
        return Val("nan" if m else "inf", s)
    if e == 0:
        return Val("fin", s, F(m) * p2(-149))
    return Val("fin", s, F(m | (1 << 23)) * p2(e - 150))


def f32_encode(v):
    """Round a Val to f32 (RNE, overflow to Inf) and return the bits."""
    if v.kind == "nan":
        return F32_NAN
    if v.kind == "inf":
        return (v.s << 31) | 0x7F800000
    r = rne_grid(v.mag, 23, -126)
    if r >= p2(128):
        return (v.s << 31) | 0x7F800000
    if r == 0:
        return v.s << 31
    e = floor_log2(r)
    if e < -126:
        return (v.s << 31) | int(r / p2(-149))
    return (v.s << 31) | ((e + 127) << 23) | (int(r / p2(e - 23)) - (1 << 23))


def rn32(v):
    return f32_decode(f32_encode(v))


def f32_bits_of_float(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def vmul(a, b):
    if a.kind == "nan" or b.kind == "nan":
        return Val("nan")
    s = a.s ^ b.s
    if a.kind == "inf" or b.kind == "inf":
        if (a.kind == "fin" and a.mag == 0) or (b.kind == "fin" and b.mag == 0):
            return Val("nan")
        return Val("inf", s)
    return Val("fin", s, a.mag * b.mag)


def vdiv(a, b):
    if a.kind == "nan" or b.kind == "nan":
        return Val("nan")
    s = a.s ^ b.s
    if a.kind == "inf":
        return Val("nan") if b.kind == "inf" else Val("inf", s)
    if b.kind == "inf":
        return Val("fin", s, F(0))
    if b.mag == 0:
        return Val("nan") if a.mag == 0 else Val("inf", s)
    return Val("fin", s, a.mag / b.mag)


def vclamp(v, lo, hi):
    """torch.clamp on a non-negative Val: NaN propagates."""
    if v.kind == "nan":
        return v
    if v.kind == "inf":
        return fin(hi) if v.s == 0 else fin(lo)
    x = v.frac()
    return fin(min(max(x, lo), hi))


def amax_of(vals):
    """max |x|; NaN if any NaN (torch.amax)."""
    if any(v.kind == "nan" for v in vals):
        return Val("nan")
    if any(v.kind == "inf" for v in vals):
        return Val("inf")
    return Val("fin", 0, max(v.mag for v in vals))


# --------------------------------------------------------------------------------------------
# Element formats
# --------------------------------------------------------------------------------------------


class Fmt:
    def __init__(self, name, width, ebits, mbits, bias, max_elem, emax_elem, nan_code,
                 even_mbits, kind="float"):
        self.name, self.width, self.ebits, self.mbits, self.bias = name, width, ebits, mbits, bias
        self.max_elem, self.emax_elem, self.nan_code = F(max_elem), emax_elem, nan_code
        self.even_mbits, self.kind = even_mbits, kind
        self.emin = 1 - bias

    def quantize(self, q):
        """q: Val (the exact x / X). Returns the code (unsigned int of self.width bits)."""
        if self.kind == "int":
            if q.kind == "nan":
                return 0
            if q.kind == "inf":
                n = 127 if q.s == 0 else -127
            else:
                n = rne_int(q.frac() * 64)
                n = max(-127, min(127, n))
            return n & 0xFF
        sbit = q.s << (self.width - 1)
        if q.kind == "nan":
            return self.nan_code if self.nan_code is not None else torchao_floatx_nan_code(self)
        if q.kind == "inf":
            mag = self.max_elem
        else:
            mag = rne_grid(q.mag, self.mbits, self.emin)
            if mag > self.max_elem:
                mag = self.max_elem
        return sbit | self.encode_mag(mag)

    def encode_mag(self, mag):
        if mag == 0:
            return 0
        if mag < p2(self.emin):
            n = mag / p2(self.emin - self.mbits)
            assert n.denominator == 1
            return int(n)
        e = floor_log2(mag)
        n = mag / p2(e - self.mbits)
        assert n.denominator == 1 and (1 << self.mbits) <= n < (2 << self.mbits)
        return ((e + self.bias) << self.mbits) | (int(n) - (1 << self.mbits))

    def decode(self, code):
        """Val of a code."""
        if self.kind == "int":
            n = code - 256 if code >= 128 else code
            return fin(F(n, 64))
        s = (code >> (self.width - 1)) & 1
        c = code & ((1 << (self.width - 1)) - 1)
        if self.name == "f8E4M3FN" and c == 0x7F:
            return Val("nan", s)
        if self.name == "f8E5M2" and c >= 0x7C:
            return Val("inf", s) if c == 0x7C else Val("nan", s)
        be = c >> self.mbits
        m = c & ((1 << self.mbits) - 1)
        if be == 0:
            mag = F(m) * p2(self.emin - self.mbits)
        else:
            mag = F(m + (1 << self.mbits)) * p2(be - self.bias - self.mbits)
        return Val("fin", s, mag)

    def grid(self):
        """All non-negative finite values, ascending."""
        vals = set()
        for c in range(1 << (self.width - 1)) if self.kind == "float" else range(128):
            v = self.decode(c)
            if v.kind == "fin":
                vals.add(v.mag)
        return sorted(vals)


def torchao_floatx_nan_code(fmt):
    """What TAO's _f32_to_floatx_unpacked (custom_fp_utils.py:27-142) writes for the f32 NaN
    0x7FC00000: it takes the 'normal' branch and the uint8 cast wraps."""
    x = 0x7FC00000
    mant_odd = (x >> (23 - fmt.mbits)) & 1
    val_to_add = ((fmt.bias - 127) << 23) + ((1 << (23 - fmt.mbits - 1)) - 1)
    nx = ((x + val_to_add + mant_odd) >> (23 - fmt.mbits)) & 0xFF
    return nx


ELEMS = {
    "f4E2M1FN": Fmt("f4E2M1FN", 4, 2, 1, 1, 6, 2, None, 1),
    "f6E2M3FN": Fmt("f6E2M3FN", 6, 2, 3, 1, F(15, 2), 2, None, 3),
    "f6E3M2FN": Fmt("f6E3M2FN", 6, 3, 2, 3, 28, 4, None, 2),
    "f8E4M3FN": Fmt("f8E4M3FN", 8, 4, 3, 7, 448, 8, 0x7F, 3),
    "f8E5M2": Fmt("f8E5M2", 8, 5, 2, 15, 57344, 15, 0x7F, 2),
    "mxint8": Fmt("mxint8", 8, 0, 6, 0, F(127, 64), 0, None, 6, kind="int"),
}
E4M3 = ELEMS["f8E4M3FN"]

# --------------------------------------------------------------------------------------------
# E8M0 scale rules
# --------------------------------------------------------------------------------------------

RULES = ["floor", "rceil", "ceil", "even", "nearest"]


def clamp_k(k):
    return max(-127, min(127, k))


def e8m0_scale(rule, amax_bits, fmt):
    """E8M0 byte for a block with |amax| bits amax_bits (sign bit clear)."""
    a = f32_decode(amax_bits)
    if a.kind != "fin":
        return 0xFF
    field = (amax_bits >> 23) & 0xFF
    mant = amax_bits & 0x7FFFFF
    if rule == "floor":
        return clamp_k(field - 127 - fmt.emax_elem) + 127
    if rule == "ceil":
        return clamp_k(field - 127 + (1 if mant else 0) - fmt.emax_elem) + 127
    if rule == "even":
        rb = (amax_bits + (1 << (23 - fmt.even_mbits - 1))) & 0xFF800000
        if ((rb >> 23) & 0xFF) == 0xFF:
            return 0xFF  # TAO: isfinite() of the rounded amax is false
        return clamp_k(((rb >> 23) & 0xFF) - 127 - fmt.emax_elem) + 127
    if a.mag == 0:
        return 0x00
    q = a.mag / fmt.max_elem
    if rule == "rceil":
        return clamp_k(ceil_log2(q)) + 127
    if rule == "nearest":
        j = floor_log2(q)
        k = j + 1 if q * q >= p2(2 * j + 1) else j
        return clamp_k(k) + 127
    if rule == "truncf":  # statistics only: MLIR 22 arith.truncf(amax / max) to f8E8M0FNU
        r = f32_encode(fin(q))
        return (r >> 23) & 0xFF
    if rule == "truncf_rne":  # statistics only: nearest power of two in linear scale, ties up
        r = f32_decode(f32_encode(fin(q))).mag
        if r == 0:
            return 0
        j = floor_log2(r)
        k = j + 1 if r >= F(3, 2) * p2(j) else j
        return clamp_k(k) + 127
    raise ValueError(rule)


def e8m0_value(b):
    return Val("nan") if b == 0xFF else fin(p2(b - 127))


# --------------------------------------------------------------------------------------------
# Block quantizers
# --------------------------------------------------------------------------------------------


def nan_codes(fmt, n):
    return [fmt.quantize(Val("nan"))] * n


def quantize_block_e8m0(rule, fmt, bits):
    vals = [f32_decode(b) for b in bits]
    am = amax_of(vals)
    am_bits = f32_encode(am) & 0x7FFFFFFF if am.kind != "nan" else 0x7FC00000
    sb = e8m0_scale(rule, am_bits, fmt)
    if sb == 0xFF:
        return dict(scale="0x%02x" % sb, codes=nan_codes(fmt, len(bits)),
                    dequantized=[F32_NAN] * len(bits), codes_defined=False)
    X = e8m0_value(sb)
    codes = [fmt.quantize(vdiv(v, X)) for v in vals]
    deq = [f32_encode(vmul(fmt.decode(c), X)) for c in codes]
    return dict(scale="0x%02x" % sb, codes=codes, dequantized=deq, codes_defined=True)


E4M3_TINY = p2(-6)


def e4m3_rne(v):
    """f32 Val (already clamped to [2^-6, 448] or NaN) -> e4m3 code."""
    if v.kind == "nan":
        return 0x7F
    return E4M3.quantize(v)


def quantize_block_nvfp4(bits, tensor_amax_bits=None):
    fmt = ELEMS["f4E2M1FN"]
    vals = [f32_decode(b) for b in bits]
    am = amax_of(vals)
    bs = rn32(vdiv(am, fin(6)))
    out = {}
    if tensor_amax_bits is None:
        s8 = e4m3_rne(vclamp(bs, E4M3_TINY, F(448)))
        X = E4M3.decode(s8)
    else:
        pts = rn32(vdiv(f32_decode(tensor_amax_bits), fin(2688)))
        sbs = rn32(vdiv(bs, pts))
        s8 = e4m3_rne(vclamp(sbs, E4M3_TINY, F(448)))
        X = rn32(vmul(pts, E4M3.decode(s8)))
        out["tensor_amax"] = "0x%08x" % tensor_amax_bits
        out["per_tensor_scale"] = "0x%08x" % f32_encode(pts)
        assert X.kind != "fin" or X.mag > 0, "two-level X must not underflow"
    out["scale"] = "0x%02x" % s8
    out["block_scale_f32"] = "0x%08x" % f32_encode(X)
    if X.kind != "fin":
        out.update(codes=nan_codes(fmt, len(bits)), dequantized=[F32_NAN] * len(bits),
                   codes_defined=False)
        return out
    codes = [fmt.quantize(vdiv(v, X)) for v in vals]
    deq = [f32_encode(vmul(fmt.decode(c), X)) for c in codes]
    out.update(codes=codes, dequantized=deq, codes_defined=True)
    return out


def torchao_nvfp4_codes(bits, tensor_amax_bits=None):
    """Codes via TAO's f32 reciprocal multiply (for the statistics only)."""
    fmt = ELEMS["f4E2M1FN"]
    vals = [f32_decode(b) for b in bits]
    am = amax_of(vals)
    bs = rn32(vdiv(am, fin(6)))
    if tensor_amax_bits is None:
        s8 = E4M3.decode(e4m3_rne(vclamp(bs, E4M3_TINY, F(448))))
        rcp = rn32(vdiv(fin(1), s8))
    else:
        pts = rn32(vdiv(f32_decode(tensor_amax_bits), fin(2688)))
        s8 = E4M3.decode(e4m3_rne(vclamp(rn32(vdiv(bs, pts)), E4M3_TINY, F(448))))
        rcp = rn32(vdiv(rn32(vdiv(fin(1), pts)), s8))
    return [fmt.quantize(rn32(vmul(v, rcp))) for v in vals]


def quantize_block_f32(fmt, bits):
    vals = [f32_decode(b) for b in bits]
    am = amax_of(vals)
    s = rn32(vdiv(am, fin(fmt.max_elem)))
    out = {"scale": "0x%08x" % f32_encode(s)}
    if s.kind != "fin":
        out.update(codes=nan_codes(fmt, len(bits)), dequantized=[F32_NAN] * len(bits),
                   codes_defined=False)
        return out
    if s.mag == 0:
        codes = [(v.s << (fmt.width - 1)) for v in vals]
    else:
        codes = [fmt.quantize(vdiv(v, s)) for v in vals]
    deq = [f32_encode(vmul(fmt.decode(c), s)) for c in codes]
    out.update(codes=codes, dequantized=deq, codes_defined=True)
    return out


# --------------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------------


def b32(x):
    return f32_bits_of_float(x)


def selftest(verbose=True):
    fp4 = ELEMS["f4E2M1FN"]
    assert [float(v) for v in fp4.grid()] == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    # RNE ties on the E2M1 grid
    for x, y in [(0.25, 0), (0.75, 1), (1.25, 1), (1.75, 2), (2.5, 2), (3.5, 4), (5, 4),
                 (-2.5, -2), (6.5, 6), (7, 6), (100, 6), (0.2, 0), (0.26, 0.5)]:
        c = fp4.quantize(fin(F(x)))
        assert fp4.decode(c).frac() == F(y), (x, y, c)
    assert fp4.quantize(f32_decode(0x80000000)) == 0x8  # -0 keeps its sign
    assert fp4.quantize(fin(F(-1, 10))) == 0x8          # rounds to -0
    # scale rules
    def X(rule, a, fmt=fp4):
        return float(p2(e8m0_scale(rule, b32(a), fmt) - 127))
    assert X("floor", 6.0) == 1 and X("rceil", 6.0) == 1
    assert X("floor", 6.1) == 1 and X("rceil", 6.1) == 2
    assert X("floor", 4.0) == 1 and X("rceil", 4.0) == 1 and X("ceil", 4.0) == 1
    assert X("ceil", 4.5) == 2 and X("floor", 7.99) == 1 and X("rceil", 7.99) == 2
    assert X("even", 7.0) == 2 and X("even", 6.99) == 1          # fp4: bump at 1.75 * 2^e
    assert X("nearest", 6.0) == 1 and X("nearest", 6 * 1.41) == 1 and X("nearest", 6 * 1.42) == 2
    assert e8m0_scale("floor", 0, fp4) == 0 and e8m0_scale("rceil", 0, fp4) == 0
    for r in RULES:
        assert e8m0_scale(r, 0x7F800000, fp4) == 0xFF and e8m0_scale(r, 0x7FC00000, fp4) == 0xFF
        assert e8m0_scale(r, 0, fp4) == 0x00
    assert e8m0_scale("even", 0x7F7FFFFF, fp4) == 0xFF     # TAO quirk, see docstring
    assert e8m0_scale("floor", 0x7F7FFFFF, fp4) == 125 + 127
    # a worked MX block: floor, fp4, amax 6.1 -> X = 1, 6.1 saturates to 6
    r = quantize_block_e8m0("floor", fp4, [b32(6.1), b32(-2.5), b32(1.25)] + [0] * 29)
    assert r["scale"] == "0x7f" and r["codes"][:3] == [0x7, 0xC, 0x2]
    r = quantize_block_e8m0("rceil", fp4, [b32(6.1), b32(-2.5), b32(1.25)] + [0] * 29)
    assert r["scale"] == "0x80" and r["codes"][:3] == [0x5, 0xA, 0x1]   # 3.05->3, -1.25->-1, .625->.5
    # element formats
    e4 = ELEMS["f8E4M3FN"]
    assert e4.quantize(fin(448)) == 0x7E and e4.quantize(fin(464)) == 0x7E
    assert e4.quantize(fin(F(1, 512))) == 0x01 and e4.quantize(fin(F(1, 1024))) == 0x00
    assert e4.quantize(fin(F(3, 1024))) == 0x02                    # tie 1.5 ulp -> 2 (even)
    e5 = ELEMS["f8E5M2"]
    assert e5.quantize(fin(1e9)) == 0x7B and e5.quantize(fin(61440)) == 0x7B
    assert ELEMS["f6E2M3FN"].max_elem == max(ELEMS["f6E2M3FN"].grid())
    assert ELEMS["f6E3M2FN"].max_elem == max(ELEMS["f6E3M2FN"].grid())
    i8 = ELEMS["mxint8"]
    assert i8.quantize(fin(F(1, 128))) == 0 and i8.quantize(fin(F(3, 128))) == 2
    assert i8.quantize(fin(5)) == 127 and i8.quantize(fin(-5)) == 0x81
    assert [torchao_floatx_nan_code(ELEMS[n]) for n in ("f4E2M1FN", "f6E2M3FN", "f6E3M2FN")] == \
        [3, 12, 14]
    # f32 rounding
    for x in [1.0, -2.5, 1e-45, 3.4028234663852886e38, 1e-40, 0.1]:
        assert f32_encode(f32_decode(b32(x))) == b32(x)
    assert f32_encode(fin(F32_MAX + p2(103))) == 0x7F800000       # halfway to 2^128 -> Inf
    assert f32_encode(fin(F32_MAX + p2(103) - p2(80))) == 0x7F7FFFFF
    # NVFP4
    r = quantize_block_nvfp4([b32(6.0)] + [0] * 15)
    assert r["scale"] == "0x38" and r["codes"][0] == 7              # s8 = 1.0
    r = quantize_block_nvfp4([0] * 16)
    assert r["scale"] == "0x08"                                      # clamp to 2^-6
    r = quantize_block_nvfp4([0x7F800000] + [b32(448.0)] + [0] * 14)
    assert r["scale"] == "0x7e" and r["codes"][:2] == [7, 2]        # Inf -> 448 scale, +6 code
    # rceil: TAO's f32 product amax * f32(1/max) agrees with the exact ceil for normal quotients
    # (TAO/TransformerEngine route); MXINT8, which neither implements, is the exception.
    rceil_route_diff = {}
    for fmt in ELEMS.values():
        rcp = rn32(fin(1 / fmt.max_elem))
        for k in (-100, -3, 0, 7, 90):
            centre = b32(float(fmt.max_elem * p2(k)))
            for d in range(-300, 301):
                ab = centre + d
                a = f32_decode(ab)
                t = f32_encode(vmul(a, rcp))
                tk = ((t >> 23) & 0xFF) + (1 if t & 0x7FFFFF else 0)
                if clamp_k(tk - 127) + 127 != e8m0_scale("rceil", ab, fmt):
                    rceil_route_diff.setdefault(fmt.name, []).append((k, d))
    assert set(rceil_route_diff) <= {"mxint8"}, rceil_route_diff
    if verbose:
        for n, l in rceil_route_diff.items():
            print("rceil: f32 route amax*f32(1/max) differs from the exact quotient for %s at "
                  "(k, ulps from max*2^k): %s" % (n, l[:8]))
        print("selftest: ok")


# --------------------------------------------------------------------------------------------
# Vector generation
# --------------------------------------------------------------------------------------------

MX_BLOCK, NV_BLOCK, FP8_BLOCK = 32, 16, 128


def gauss_block(rng, n, sigma):
    return [b32(rng.gauss(0.0, 1.0) * sigma) for _ in range(n)]


def fill(rng, head, n, amax):
    """head elements, then random values with |x| < amax (as f32) up to n."""
    out = list(head)
    while len(out) < n:
        v = rng.uniform(-1, 1) * amax * 0.999
        out.append(b32(v))
    return out[:n]


def neighbours(x):
    b = b32(x)
    return [b - 1, b, b + 1]


def midpoints(fmt):
    g = fmt.grid()
    return [(g[i] + g[i + 1]) / 2 for i in range(len(g) - 1)]


def e8m0_cases(rng):
    """The same input blocks go through every rule (except the tie blocks, which are built from
    each rule's own X so that every element lands exactly on a midpoint)."""
    cases = []
    for ename, fmt in ELEMS.items():
        mids = midpoints(fmt)
        if len(mids) > 40:
            step = len(mids) // 30
            mids = sorted(set(mids[::step] + mids[:6] + mids[-6:]))
        blocks = []  # (tag, bits), shared by all rules
        # random Gaussian blocks at various magnitudes
        for i in range(6):
            sigma = 2.0 ** rng.randint(-20, 20)
            blocks.append(("gaussian", gauss_block(rng, MX_BLOCK, sigma)))
        # amax at binade edges: powers of two, max_elem * 2^k, one ulp either side
        for k in (-9, 0, 13):
            for base in (F(1), fmt.max_elem):
                for ab in neighbours(float(base * p2(k))):
                    a = f32_float(ab)
                    blocks.append(("binade_edge", fill(rng, [ab, b32(-a * 0.5)], MX_BLOCK, a)))
        for ab in (0x7F7FFFFF, 0x00800000, 0x00800001, 0x007FFFFF):
            a = f32_float(ab)
            blocks.append(("binade_edge_extreme", fill(rng, [ab | 0x80000000], MX_BLOCK, a)))
        # saturation: amax with a large significand so that floor overflows the element range
        for k in (-2, 4):
            a = float(p2(fmt.emax_elem + 1) * (1 - p2(-9)) * p2(k))
            blocks.append(("saturate", fill(rng, [b32(a), b32(-a), b32(a * 0.9)], MX_BLOCK, a)))
        # near-ties where floor and rceil differ: amax slightly above max_elem * 2^k
        for k in (-1, 3):
            base = float(fmt.max_elem * p2(k))
            for ab in (b32(base) + 1, b32(base) + 4, b32(base * 1.01)):
                a = f32_float(ab)
                blocks.append(("floor_vs_rceil", fill(rng, [ab], MX_BLOCK, a)))
        # zeros, signed zeros, denormal amax, Inf, NaN
        blocks.append(("zero", [0] * MX_BLOCK))
        blocks.append(("signed_zero", [0x80000000 if i % 3 == 0 else 0 for i in range(MX_BLOCK)]))
        blocks.append(("denormal_amax", [rng.randint(1, 0x7FFFFF) | (rng.randint(0, 1) << 31)
                                         for _ in range(MX_BLOCK)]))
        blocks.append(("inf", fill(rng, [0x7F800000, 0xFF800000], MX_BLOCK, 3.0)))
        blocks.append(("neg_inf", fill(rng, [0xFF800000], MX_BLOCK, 3.0)))
        blocks.append(("nan", fill(rng, [0x7FC00000], MX_BLOCK, 3.0)))
        blocks.append(("nan_inf", fill(rng, [0x7FC00000, 0x7F800000], MX_BLOCK, 3.0)))
        for rule in RULES:
            rblocks = list(blocks)
            # ties at the element grid's midpoints after scaling by this rule's X
            for amax in (fmt.max_elem, fmt.max_elem * F(3, 4) + p2(fmt.emax_elem - 3),
                         p2(fmt.emax_elem + 1) - p2(fmt.emax_elem - 4)):
                ab = b32(float(amax))
                X = e8m0_value(e8m0_scale(rule, ab, fmt)).mag
                amv = f32_decode(ab).mag
                ties = [m * X for m in mids if m * X <= amv]
                ties = [t for t in ties if f32_decode(b32(float(t))).mag == t]
                for j in range(0, max(1, len(ties)), MX_BLOCK - 1):
                    chunk = ties[j:j + MX_BLOCK - 1]
                    head = [ab] + [b32(float(t)) ^ (0x80000000 if (i % 2) else 0)
                                   for i, t in enumerate(chunk)]
                    head += [0] * (MX_BLOCK - len(head))
                    rblocks.append(("ties", head))
            for tag, bl in rblocks:
                assert len(bl) == MX_BLOCK
                r = quantize_block_e8m0(rule, fmt, bl)
                cases.append(case(rule, ename, "f8E8M0FNU", tag, bl, r))
    return cases


def case(rule, ename, stype, tag, bl, r):
    c = {"rule": rule, "element": ename, "scale_type": stype, "tag": tag,
         "block": ["0x%08x" % b for b in bl]}
    for k in ("scale", "tensor_amax", "per_tensor_scale", "block_scale_f32"):
        if k in r:
            c[k] = r[k]
    c["codes"] = r["codes"]
    c["codes_defined"] = r["codes_defined"]
    c["dequantized"] = ["0x%08x" % b for b in r["dequantized"]]
    return c


def nvfp4_cases(rng):
    cases = []
    fp4 = ELEMS["f4E2M1FN"]
    mids = midpoints(fp4)
    for level in (1, 2):
        stype = "f8E4M3FN" if level == 1 else "f8E4M3FN*f32"
        blocks = []  # (tag, bits, tensor_amax_bits)

        def add(tag, bl, tam=None):
            if level == 2 and tam is None:
                am = max(abs(f32_float(b)) for b in bl if f32_decode(b).isfinite())
                mults = [1.0, 1.0, 3.7, 100.0, 2.0 ** 20] if tag == "gaussian" else [1.0, 3.7]
                tam = b32(max(am, 1e-30) * rng.choice(mults))
            blocks.append((tag, bl, tam if level == 2 else None))
        for i in range(16):
            add("gaussian", gauss_block(rng, NV_BLOCK, 2.0 ** rng.randint(-12, 12)))
        # binade edges of amax / 6 around e4m3 edges: min normal 2^-6, 1, 448, and around
        # power-of-two amax
        for a in (6 * 2.0 ** -6, 6.0, 6 * 448.0, 6 * 2.0 ** -9, 1.0, 2.0 ** 10, 6 * 480.0):
            for ab in neighbours(a):
                add("binade_edge", fill(rng, [ab], NV_BLOCK, f32_float(ab)))
        # ties: X is an exact e4m3 value (one-level) and every midpoint times X
        for s8v in (F(1), F(3, 2), F(13, 8) * p2(-3), F(5, 4) * p2(4)):
            amax = 6 * s8v
            ties = [m * s8v for m in mids]
            head = [b32(float(amax))] + [b32(float(t)) ^ (0x80000000 if i % 2 else 0)
                                         for i, t in enumerate(ties)]
            head += [b32(-float(t)) for t in ties]
            head = head[:NV_BLOCK] + [0] * (NV_BLOCK - len(head[:NV_BLOCK]))
            add("ties", head, b32(float(amax)) if level == 2 else None)
            # two-level with pts that makes X = pts * s8 exact: tensor_amax = 2688 * 2^j
        # saturation: amax / 6 rounds down in e4m3 so amax / X > 6
        for a in (6 * 1.0624, 6 * 1.0625, 6 * 1.124, 6 * 460.0, 7.9):
            add("saturate", fill(rng, [b32(a), b32(-a)], NV_BLOCK, a))
        add("zero", [0] * NV_BLOCK, b32(1.0))
        add("signed_zero", [0x80000000 if i % 2 else 0 for i in range(NV_BLOCK)], b32(1.0))
        add("denormal_amax", [rng.randint(1, 0x7FFFFF) | (rng.randint(0, 1) << 31)
                              for _ in range(NV_BLOCK)], b32(1e-3))
        add("inf", fill(rng, [0x7F800000, 0xFF800000], NV_BLOCK, 3.0), b32(10.0))
        add("nan", fill(rng, [0x7FC00000], NV_BLOCK, 3.0), b32(10.0))
        if level == 2:
            # per-tensor scale edges: tensor_amax such that bs / pts is at or beyond 448 and 2^-6
            for tam in (6.0, 6.0 * 1.5, 2688.0, 2688.0 * 1000, 1e-3, 3e5):
                add("per_tensor_edge", gauss_block(rng, NV_BLOCK, 1.0), b32(tam))
        for tag, bl, tam in blocks:
            r = quantize_block_nvfp4(bl, tam)
            cases.append(case("nvfp4", "f4E2M1FN", stype, tag, bl, r))
    return cases


def fp8_cases(rng):
    cases = []
    for ename in ("f8E4M3FN", "f8E5M2"):
        fmt = ELEMS[ename]
        mids = midpoints(fmt)
        blocks = []
        for i in range(8):
            blocks.append(("gaussian", gauss_block(rng, FP8_BLOCK, 2.0 ** rng.randint(-30, 30))))
        for a in (float(fmt.max_elem), 1.0, float(fmt.max_elem) * 2.0 ** -130, 3.4e38):
            for ab in neighbours(a):
                blocks.append(("binade_edge", fill(rng, [ab], FP8_BLOCK, f32_float(ab))))
        # ties: amax = max_elem * 2^k -> s = 2^k exactly; midpoints times s
        for k in (0, -7):
            s = p2(k)
            ties = [m * s for m in mids]
            for j in range(0, len(ties), FP8_BLOCK - 1):
                head = [b32(float(fmt.max_elem * s))] + \
                    [b32(float(t)) ^ (0x80000000 if i % 2 else 0)
                     for i, t in enumerate(ties[j:j + FP8_BLOCK - 1])]
                head += [0] * (FP8_BLOCK - len(head))
                blocks.append(("ties", head))
        # amax / s slightly above max_elem because s = RN32(amax / max) rounds down
        for a in (1.0 + 2.0 ** -22, 3.0000002, 1000.0001):
            blocks.append(("saturate", fill(rng, [b32(a), b32(-a)], FP8_BLOCK, a)))
        blocks.append(("zero", [0] * FP8_BLOCK))
        blocks.append(("signed_zero", [0x80000000 if i % 2 else 0 for i in range(FP8_BLOCK)]))
        blocks.append(("denormal_amax", [rng.randint(1, 0x7FFFFF) | (rng.randint(0, 1) << 31)
                                         for _ in range(FP8_BLOCK)]))
        blocks.append(("tiny_amax_scale_zero", [1, 0x80000002, 3] + [0] * (FP8_BLOCK - 3)))
        blocks.append(("inf", fill(rng, [0x7F800000], FP8_BLOCK, 3.0)))
        blocks.append(("nan", fill(rng, [0x7FC00000], FP8_BLOCK, 3.0)))
        for tag, bl in blocks:
            r = quantize_block_f32(fmt, bl)
            cases.append(case("amax_over_max", ename, "f32", tag, bl, r))
    return cases


def write_json(path, header, cases):
    with open(path, "w") as f:
        f.write("{\n")
        for k, v in header.items():
            f.write("  %s: %s,\n" % (json.dumps(k), json.dumps(v)))
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n  ]\n}\n")


def vectors(outdir):
    selftest(verbose=False)
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(37)
    common = {"generator": "utils/mx-reference.py vectors (seed 37)",
              "format": "block/dequantized/f32 scales: f32 bit patterns as hex; scale in its own "
                        "type as hex; codes: unsigned integers of the element width; "
                        "codes_defined=false: NaN-scale block, codes are don't-care and every "
                        "dequantized value is NaN (compare NaN-ness only)"}
    files = [
        ("mx_e8m0.json", dict(common, scale_type="f8E8M0FNU", block_size=MX_BLOCK,
                              rules=RULES, elements=list(ELEMS)), e8m0_cases(rng)),
        ("nvfp4_e4m3.json", dict(common, scale_type="f8E4M3FN (one-level) and f8E4M3FN*f32 "
                                 "(two-level)", block_size=NV_BLOCK, rules=["nvfp4"],
                                 elements=["f4E2M1FN"]), nvfp4_cases(rng)),
        ("fp8_block_f32.json", dict(common, scale_type="f32", block_size=FP8_BLOCK,
                                    rules=["amax_over_max"], elements=["f8E4M3FN", "f8E5M2"]),
         fp8_cases(rng)),
    ]
    for name, header, cases in files:
        write_json(os.path.join(outdir, name), header, cases)
        print("%s: %d cases, %d bytes" % (name, len(cases), os.path.getsize(os.path.join(outdir, name))))


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def stats(nblocks=20000, seed=20000):
    fp4 = ELEMS["f4E2M1FN"]
    rng = random.Random(seed)
    names = RULES + ["truncf", "truncf_rne"]
    counts = {}
    nv_diff = [0, 0]
    for i in range(nblocks):
        bl = [b32(rng.gauss(0.0, 1.0)) for _ in range(MX_BLOCK)]
        am = max(bl_ & 0x7FFFFFFF for bl_ in bl)  # positive f32 bits order like values
        ks = {r: e8m0_scale(r, am, fp4) for r in names}
        for a in names:
            for b in names:
                if ks[a] != ks[b]:
                    counts[(a, b)] = counts.get((a, b), 0) + 1
        if i < 2000:
            for lvl, half in ((0, bl[:16]), (1, bl[16:])):
                tam = b32(4.5) if lvl else None
                if torchao_nvfp4_codes(half, tam) != quantize_block_nvfp4(half, tam)["codes"]:
                    nv_diff[lvl] += 1
    print("%d Gaussian N(0,1) MXFP4 blocks of 32 (random.Random(%d).gauss, rounded to f32)"
          % (nblocks, seed))
    print("fraction of blocks where the E8M0 scale differs (row vs column):")
    print("%-11s" % "" + "".join("%11s" % n for n in names))
    for a in names:
        print("%-11s" % a + "".join("%11.4f" % (counts.get((a, b), 0) / nblocks) for b in names))
    print("NVFP4 (first 2000 blocks, halves of 16): TAO f32-reciprocal codes differ from exact "
          "division in %d one-level and %d two-level (tensor_amax 4.5) blocks" % tuple(nv_diff))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "vectors" and len(sys.argv) == 3:
        vectors(sys.argv[2])
    elif len(sys.argv) >= 2 and sys.argv[1] == "stats":
        stats(int(sys.argv[2]) if len(sys.argv) > 2 else 20000)
    elif len(sys.argv) == 2 and sys.argv[1] == "selftest":
        selftest()
    else:
        print(__doc__.split("\n\n")[2])
        sys.exit(2)
