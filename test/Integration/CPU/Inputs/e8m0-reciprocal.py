# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the program of e8m0-reciprocal.test: quantize and qdq by every
E8M0 scale (2^-127 to 2^127 and NaN) of 64 edge values, once with the scale
known as E8M0's value (arith.extf of f8E8M0FNU inside the function: the
lowering multiplies by its reciprocal) and once with the same f32 scale as a
function argument (the lowering divides). Prints the number of differing
f8E4M3FN codes, i8 codes (lanes where the division is defined: x and the
scale not NaN) and qdq f32 bits (NaN equal to NaN: with x and the scale
both NaN, LLVM may return either payload, the divide included)."""
import struct


def f32(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


X = [0x00000000, 0x80000000, 0x00000001, 0x80000003, 0x00000005, 0x00000007,
     0x007FFFFF, 0x00800000, 0x00C00000, 0x80C00001, 0x7F7FFFFF, 0xFF7FFFFF,
     0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001]
X += [f32(v) for v in (
    1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.5, 127.5, -128.5, 126.5, 448.0, 464.0,
    -464.0, 449.0, 480.0, 0.1, 1 / 3, -2 / 3, 1e-30, 3e-39, 6.5, 7.0, 1e30,
    -1e30, 255.5, 1024.5, 0.75, 0.375, 0.1875, 2.0 ** -133, 3 * 2.0 ** -140,
    2.0 ** 100, 1.9999999, -0.0009765625, 12345.678, 5e-45, 0.03125, 96.0,
    104.0, 112.0, 120.0, 3.0, 4.0, 5.0, 6.0, -6.0, 0.25, 2.0 ** 120)]
assert len(X) == 64
ROWS = 256


def hexdense(values, fmt):
    return '"0x' + b"".join(struct.pack("<" + fmt, v)
                            for v in values).hex().upper() + '"'


def e8m0_f32_bits(code):
    """2^(code - 127) as f32 bits: 2^-127 is a denormal, 0xFF NaN."""
    if code == 255:
        return 0x7FC00000
    return 0x00400000 if code == 0 else code << 23


xs = [b for _ in range(ROWS) for b in X]
codes = list(range(ROWS))
nan_x = [(b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF) != 0 for b in X]
defined = [int(code != 255 and not nan_x[j]) for code in codes
           for j in range(64)]

S = "tensor<256x1xf32>"
X_T = "tensor<256x64xf32>"
print("""func.func private @printMemrefI64(tensor<*xi64>)

func.func @known(%%x: %(X)s, %%e: tensor<256x1xf8E8M0FNU>) -> (tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s) {
  %%s = arith.extf %%e : tensor<256x1xf8E8M0FNU> to %(S)s
  %%f = quant_affine.quantize %%x, %%s range [-448, 448] block [1, 64] : (%(X)s, %(S)s) -> tensor<256x64xf8E4M3FN>
  %%i = quant_affine.quantize %%x, %%s range [-128, 127] block [1, 64] : (%(X)s, %(S)s) -> tensor<256x64xi8>
  %%y = quant_affine.qdq %%x, %%s range [-128, 127] block [1, 64] : (%(X)s, %(S)s) -> %(X)s
  return %%f, %%i, %%y : tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s
}

func.func @argument(%%x: %(X)s, %%s: %(S)s) -> (tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s) {
  %%f = quant_affine.quantize %%x, %%s range [-448, 448] block [1, 64] : (%(X)s, %(S)s) -> tensor<256x64xf8E4M3FN>
  %%i = quant_affine.quantize %%x, %%s range [-128, 127] block [1, 64] : (%(X)s, %(S)s) -> tensor<256x64xi8>
  %%y = quant_affine.qdq %%x, %%s range [-128, 127] block [1, 64] : (%(X)s, %(S)s) -> %(X)s
  return %%f, %%i, %%y : tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s
}

func.func @count(%%bad: tensor<256x64xi1>) -> i64 {
  %%zero = arith.constant dense<0> : tensor<i64>
  %%n = linalg.reduce ins(%%bad : tensor<256x64xi1>) outs(%%zero : tensor<i64>) dimensions = [0, 1]
    (%%b: i1, %%acc: i64) {
      %%w = arith.extui %%b : i1 to i64
      %%sum = arith.addi %%acc, %%w : i64
      linalg.yield %%sum : i64
    }
  %%v = tensor.extract %%n[] : tensor<i64>
  return %%v : i64
}

func.func @main() {
  %%xi = arith.constant dense<%(XS)s> : tensor<256x64xi32>
  %%x = arith.bitcast %%xi : tensor<256x64xi32> to %(X)s
  %%ci = arith.constant dense<%(CODES)s> : tensor<256x1xi8>
  %%e = arith.bitcast %%ci : tensor<256x1xi8> to tensor<256x1xf8E8M0FNU>
  // The same values as f32 bits (not an extf of the constant: upstream's
  // arith.extf folder reads E8M0's NaN as +inf).
  %%sbits = arith.constant dense<%(SBITS)s> : tensor<256x1xi32>
  %%s = arith.bitcast %%sbits : tensor<256x1xi32> to %(S)s
  %%defi = arith.constant dense<%(DEF)s> : tensor<256x64xi8>
  %%def = arith.trunci %%defi : tensor<256x64xi8> to tensor<256x64xi1>
  %%f1, %%i1, %%y1 = func.call @known(%%x, %%e) : (%(X)s, tensor<256x1xf8E8M0FNU>) -> (tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s)
  %%f2, %%i2, %%y2 = func.call @argument(%%x, %%s) : (%(X)s, %(S)s) -> (tensor<256x64xf8E4M3FN>, tensor<256x64xi8>, %(X)s)
  %%fb1 = arith.bitcast %%f1 : tensor<256x64xf8E4M3FN> to tensor<256x64xi8>
  %%fb2 = arith.bitcast %%f2 : tensor<256x64xf8E4M3FN> to tensor<256x64xi8>
  %%fne = arith.cmpi ne, %%fb1, %%fb2 : tensor<256x64xi8>
  %%ine = arith.cmpi ne, %%i1, %%i2 : tensor<256x64xi8>
  %%ibad = arith.andi %%ine, %%def : tensor<256x64xi1>
  %%yb1 = arith.bitcast %%y1 : %(X)s to tensor<256x64xi32>
  %%yb2 = arith.bitcast %%y2 : %(X)s to tensor<256x64xi32>
  %%ybits = arith.cmpi ne, %%yb1, %%yb2 : tensor<256x64xi32>
  %%ynan1 = arith.cmpf uno, %%y1, %%y1 : %(X)s
  %%ynan2 = arith.cmpf uno, %%y2, %%y2 : %(X)s
  %%ynan = arith.andi %%ynan1, %%ynan2 : tensor<256x64xi1>
  %%true = arith.constant dense<true> : tensor<256x64xi1>
  %%ynum = arith.xori %%ynan, %%true : tensor<256x64xi1>
  %%yne = arith.andi %%ybits, %%ynum : tensor<256x64xi1>
  %%nf = func.call @count(%%fne) : (tensor<256x64xi1>) -> i64
  %%ni = func.call @count(%%ibad) : (tensor<256x64xi1>) -> i64
  %%ny = func.call @count(%%yne) : (tensor<256x64xi1>) -> i64
  %%r = tensor.from_elements %%nf, %%ni, %%ny : tensor<3xi64>
  %%u = tensor.cast %%r : tensor<3xi64> to tensor<*xi64>
  func.call @printMemrefI64(%%u) : (tensor<*xi64>) -> ()
  return
}""" % {"X": X_T, "S": S, "XS": hexdense(xs, "I"),
        "CODES": hexdense(codes, "B"), "DEF": hexdense(defined, "B"),
        "SBITS": hexdense([e8m0_f32_bits(c) for c in codes], "I")})
