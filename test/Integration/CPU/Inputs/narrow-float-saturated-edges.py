#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes test/Integration/CPU/narrow-float-saturated-edges.test's program:
arith.truncf from f32 to each float8, float6 and float4 type with a -0,
after quantize's clamp to the type's range (select(cmpf olt) against each
bound, lower bound first and upper bound first), which
quant-affine-expand-narrow-floats folds into its saturated encoding. The
inputs are the edges of every binade of the type: each value of the grid,
each midpoint between neighbours (a tie) and the f32 values next to it, the
ties beyond the largest value, huge values, infinities, NaNs of both signs
and several payloads, zeros and f32 subnormals, all of both signs. The
expected codes come from an exact reference written from the formats'
definitions (Fractions, ties to the even code), not from the expansion:
saturated, a finite value beyond the largest becomes the largest of its
sign, an infinity too; NaN becomes the type's NaN code (positive) where it
has one, else a zero of NaN's sign. The program counts the codes that
differ and prints the count per type and clamp order."""
import struct
import sys
from fractions import Fraction

# name, exponent bits, mantissa bits, NaN code (None: no NaN), has inf
FORMATS = [
    ("f8E4M3FN", 4, 3, 0x7F, False),
    ("f8E5M2", 5, 2, 0x7E, True),
    ("f6E2M3FN", 2, 3, None, False),
    ("f6E3M2FN", 3, 2, None, False),
    ("f4E2M1FN", 2, 1, None, False),
]


def f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def f32_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def grid(ebits, mbits, nan_code, has_inf):
    """The non-negative finite values of the format, by code."""
    bias = (1 << (ebits - 1)) - 1
    values = {}
    for code in range(1 << (ebits + mbits)):
        exponent, mantissa = code >> mbits, code & ((1 << mbits) - 1)
        if has_inf and exponent == (1 << ebits) - 1:
            continue  # inf and NaNs (IEEE-like f8E5M2)
        if nan_code is not None and code == nan_code:
            continue
        if exponent == 0:
            value = Fraction(mantissa, 1 << mbits) * Fraction(2) ** (1 - bias)
        else:
            value = (1 + Fraction(mantissa, 1 << mbits)) * Fraction(2) ** (
                exponent - bias)
        values[code] = value
    return values


def reference(bits, fmt):
    """The saturated code of the f32 bit pattern `bits`."""
    name, ebits, mbits, nan_code, has_inf = fmt
    width = 1 + ebits + mbits
    sign = (bits >> 31) << (width - 1)
    magnitude_bits = bits & 0x7FFFFFFF
    if magnitude_bits > 0x7F800000:  # NaN
        return nan_code if nan_code is not None else sign
    values = grid(ebits, mbits, nan_code, has_inf)
    largest = max(values.values())
    if magnitude_bits == 0x7F800000:
        magnitude = largest
    else:
        magnitude = min(Fraction(f32_value(magnitude_bits)), largest)
    best = None
    for code, value in values.items():
        distance = abs(value - magnitude)
        if (best is None or distance < best[0] or
                (distance == best[0] and code % 2 == 0)):
            best = (distance, code)
    return best[1] | sign


def inputs(fmt):
    name, ebits, mbits, nan_code, has_inf = fmt
    values = sorted(grid(ebits, mbits, nan_code, has_inf).values())
    positive = set()
    for value in values:
        positive.add(f32_bits(float(value)))
    for low, high in zip(values, values[1:]):
        tie = f32_bits(float((low + high) / 2))  # exact: few bits
        positive.update({tie - 1, tie, tie + 1})
    largest, quantum = values[-1], values[-1] - values[-2]
    for beyond in (largest + quantum / 2, largest + quantum,
                   2 * largest, Fraction(2) ** 100):
        bits = f32_bits(float(beyond))
        positive.update({bits - 1, bits, bits + 1})
    positive.update({0, 1, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x7F800000,
                     0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x7FA00001})
    positive = sorted(positive)
    return positive + [bits | 0x80000000 for bits in positive]


def kernel(name, largest, upper_first):
    fname = name + ("_upper_first" if upper_first else "_lower_first")
    width = 1 + dict((f[0], f[1] + f[2]) for f in FORMATS)[name]
    first, second = ("%hi", "%lo") if upper_first else ("%lo", "%hi")
    def clamp(source, bound, result):
        if bound == "%lo":
            return (f"    %{result}c = arith.cmpf olt, {source}, %lo : f32\n"
                    f"    %{result} = arith.select %{result}c, %lo, {source}"
                    " : f32\n")
        return (f"    %{result}c = arith.cmpf olt, %hi, {source} : f32\n"
                f"    %{result} = arith.select %{result}c, %hi, {source}"
                " : f32\n")
    return f"""
func.func @{fname}(%x: tensor<?xi32>) -> tensor<?xi32> {{
  %lo = arith.constant {-largest:e} : f32
  %hi = arith.constant {largest:e} : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %codes = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<?xi32>) outs(%e : tensor<?xi32>) {{
  ^bb0(%b: i32, %o: i32):
    %v = arith.bitcast %b : i32 to f32
{clamp("%v", first, "a")}{clamp("%a", second, "c")}    %t = arith.truncf %c : f32 to {name}
    %i = arith.bitcast %t : {name} to i{width}
    %z = arith.extui %i : i{width} to i32
    linalg.yield %z : i32
  }} -> tensor<?xi32>
  return %codes : tensor<?xi32>
}}
"""


def main():
    out = ["// Generated by " + sys.argv[0].split("/test/")[-1] + "."]
    out += [("// " + line).rstrip() for line in __doc__.splitlines()]
    out.append("""
func.func @mismatches(%codes: tensor<?xi32>, %expected: tensor<?xi32>) -> i32 {
  %zero = arith.constant dense<0> : tensor<i32>
  %count = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
      iterator_types = ["reduction"]} ins(%codes, %expected : tensor<?xi32>, tensor<?xi32>) outs(%zero : tensor<i32>) {
  ^bb0(%c: i32, %x: i32, %acc: i32):
    %ne = arith.cmpi ne, %c, %x : i32
    %one = arith.extui %ne : i1 to i32
    %sum = arith.addi %acc, %one : i32
    linalg.yield %sum : i32
  } -> tensor<i32>
  %r = tensor.extract %count[] : tensor<i32>
  return %r : i32
}""")
    main_body = ["func.func @main() {"]
    checks = []
    for fmt in FORMATS:
        name = fmt[0]
        values = grid(fmt[1], fmt[2], fmt[3], fmt[4])
        largest = float(max(values.values()))
        xs = inputs(fmt)
        expected = [reference(bits, fmt) for bits in xs]
        out.append(kernel(name, largest, False))
        out.append(kernel(name, largest, True))
        n = len(xs)
        x_text = ", ".join(str(b - (1 << 32) if b >= 1 << 31 else b)
                           for b in xs)
        e_text = ", ".join(str(v) for v in expected)
        main_body.append(
            f"  %x_{name} = arith.constant dense<[{x_text}]> : tensor<{n}xi32>\n"
            f"  %xd_{name} = tensor.cast %x_{name} : tensor<{n}xi32> to tensor<?xi32>\n"
            f"  %e_{name} = arith.constant dense<[{e_text}]> : tensor<{n}xi32>\n"
            f"  %ed_{name} = tensor.cast %e_{name} : tensor<{n}xi32> to tensor<?xi32>")
        for order in ("lower_first", "upper_first"):
            main_body.append(
                f"  %c_{name}_{order} = call @{name}_{order}(%xd_{name})"
                " : (tensor<?xi32>) -> tensor<?xi32>\n"
                f"  %m_{name}_{order} = call @mismatches(%c_{name}_{order}, %ed_{name})"
                " : (tensor<?xi32>, tensor<?xi32>) -> i32\n"
                f"  vector.print str \"{name} {order} ({n} inputs): \"\n"
                f"  vector.print %m_{name}_{order} : i32")
            checks.append(f"// CHECK: {name} {order} ({n} inputs): 0")
    main_body.append("  return\n}")
    out.append("\n".join(main_body))
    out.append("\n".join(checks))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
