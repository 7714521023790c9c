# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes block-reductions.test's program: per-block statistics of rows of
many blocks, which the CPU pipeline reduces a vector's lanes of blocks at a
time with a shuffle tree (ReductionTree.h), with the expected bits as CHECK
lines computed here from the inputs (and utils/mx-reference.py for the E8M0
scales), independently of the project's code:

- @min_max: each block's minimum and maximum (a linalg.generic of minimumf
  and maximumf: NaN propagates, -0 below +0), as f32 bits, NaN printed as
  0x7FC00000;
- @scales32 / @scales16: block_scale's E8M0 bytes (FLOOR for f8E4M3FN,
  RCEIL for f4E2M1FN, both from each block's largest magnitude) for blocks
  of 32 and of 16;
- @mxfp8_qdq / @mxfp4_qdq: those scales' values quantizing each block to
  f8E4M3FN and f4E2M1FN and back (mx-reference's quantize_block_e8m0), as
  f32 bits, NaN printed as 0x7FC00000;
- @mxfp8_codes: the f8E4M3FN codes of MXFP8 quantization as bench/mxquant
  writes it (the scale's extf fused into the quantize, which then reads the
  E8M0 bytes: as a large op, in tiles of whole blocks), of the same rows
  with the NaNs and infinities made finite (their blocks' codes are NaN
  codes the reference leaves undefined).

Each row holds 32 blocks of 32 (or 64 of 16); each block is one of the
kinds below, chosen so that every kind lands in several lanes of a tree:
NaNs of either sign, infinities, zeros of either sign, subnormals only,
the largest float, a lone outlier first or last, ordinary values.

usage: block-reductions.py REPO_ROOT > program.mlir
"""
import importlib.util
import math
import os
import struct
import sys

spec = importlib.util.spec_from_file_location(
    "mxref", os.path.join(sys.argv[1], "utils", "mx-reference.py"))
mx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mx)

ROWS, COLS = 3, 1024
NAN = 0x7FC00000


def bits_of(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def value_of(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


state = 20261130


def uniform():
    global state
    state = (state * 1664525 + 1013904223) % 2 ** 32
    return state / 2 ** 32 - 0.5


def block(kind, n):
    """n f32 bit patterns of one kind of block."""
    ordinary = [bits_of(uniform() * 2.0 ** (kind % 11 - 4)) for _ in range(n)]
    where = (kind * 7) % n
    k = kind % 12
    if k == 1:
        ordinary[where] = 0x7FC00001  # a positive NaN
    elif k == 2:
        ordinary[where] = 0xFFC00000  # a negative NaN
    elif k == 3:
        ordinary[where] = 0x7F800000  # +inf
    elif k == 4:
        ordinary[where] = 0xFF800000  # -inf
    elif k == 5:
        ordinary = [0x00000000] * n
    elif k == 6:
        ordinary = [0x80000000] * n
    elif k == 7:
        ordinary = [0x80000000 if i % 3 else 0 for i in range(n)]
    elif k == 8:
        ordinary = [(i * 2654435761) % 0x7FFFFF | (0x80000000 if i % 2 else 0)
                    for i in range(n)]  # subnormals only
    elif k == 9:
        ordinary[where] = 0xFF7FFFFF  # -FLT_MAX
    elif k == 10:
        ordinary[0] = bits_of(1.5e30)  # an outlier first
    elif k == 11:
        ordinary[-1] = bits_of(-3.0e-30)  # a tiny last element
        ordinary = [b | 0x80000000 for b in ordinary]  # negatives only
    return ordinary


def order_key(b):
    """Float order with -0 below +0."""
    v = value_of(b)
    return (v, 0 if b == 0x80000000 else 1)


def is_nan(b):
    return (b & 0x7FFFFFFF) > 0x7F800000


def extremes(blk):
    if any(is_nan(b) for b in blk):
        return NAN, NAN
    return min(blk, key=order_key), max(blk, key=order_key)


def check_ints(prefix, values):
    signed = [v - 2 ** 32 if v >= 2 ** 31 else v for v in values]
    return "// %s: [%s]" % (prefix, ",{{ *}}".join(str(v) for v in signed))


def main():
    bits = []
    for r in range(ROWS):
        for b in range(COLS // 32):
            bits.extend(block(r * 5 + b, 32))
    blocks32 = [bits[i:i + 32] for i in range(0, len(bits), 32)]
    blocks16 = [bits[i:i + 16] for i in range(0, len(bits), 16)]
    per_row32, per_row16 = COLS // 32, COLS // 16
    lines = []
    for r in range(ROWS):
        rows = blocks32[r * per_row32:(r + 1) * per_row32]
        lows, highs = zip(*(extremes(b) for b in rows))
        lines.append(check_ints("CHECK", lows))
        lines.append(check_ints("CHECK", highs))
    amax = lambda blk: max(b & 0x7FFFFFFF for b in blk)
    for r in range(ROWS):
        rows = blocks32[r * per_row32:(r + 1) * per_row32]
        lines.append(check_ints("CHECK", [
            mx.e8m0_scale("floor", amax(b), mx.ELEMS["f8E4M3FN"]) for b in rows]))
    for r in range(ROWS):
        rows = blocks32[r * per_row32:(r + 1) * per_row32]
        lines.append(check_ints("CHECK", [
            mx.e8m0_scale("rceil", amax(b), mx.ELEMS["f4E2M1FN"]) for b in rows]))
    for r in range(ROWS):
        rows = blocks16[r * per_row16:(r + 1) * per_row16]
        lines.append(check_ints("CHECK", [
            mx.e8m0_scale("floor", amax(b), mx.ELEMS["f8E4M3FN"]) for b in rows]))
    for _, rule, element, _ in QDQ_FORMATS:
        fmt = mx.ELEMS[element]
        for r in range(ROWS):
            out = []
            for blk in blocks32[r * per_row32:(r + 1) * per_row32]:
                out.extend(NAN if is_nan(b) else b for b in
                           mx.quantize_block_e8m0(rule, fmt, blk)["dequantized"])
            lines.append(check_ints("CHECK", out))
    finite = [b if (b & 0x7F800000) != 0x7F800000 else (b & 0x80000000) | 0x3F800000
              for b in bits]
    fmt = mx.ELEMS["f8E4M3FN"]
    for r in range(ROWS):
        codes = []
        for i in range(r * COLS, (r + 1) * COLS, 32):
            res = mx.quantize_block_e8m0("floor", fmt, finite[i:i + 32])
            assert res["codes_defined"]
            codes.extend(res["codes"])
        lines.append(check_ints("CHECK", codes))
    hexdata2 = "".join(struct.pack("<I", b).hex().upper() for b in finite)
    hexdata = "".join(struct.pack("<I", b).hex().upper() for b in bits)
    print("\n".join(lines))
    kernels = "".join(QDQ.format(name=name, rule=rule, element=element,
                                 bound=bound)
                      for name, rule, element, bound in QDQ_FORMATS)
    print(PROGRAM.replace("@DATA@", hexdata).replace("@FINITE@", hexdata2)
          .replace("@QDQ_KERNELS@", kernels))


# One qdq kernel per MX format: E8M0 scales by `rule`, elements `element`.
QDQ_FORMATS = (("mxfp8", "floor", "f8E4M3FN", 448),
               ("mxfp4", "rceil", "f4E2M1FN", 6))
QDQ = """func.func @{name}_qdq(%x: tensor<3x1024xf32>) -> tensor<3x1024xi32> {{
  %s = quant_affine.block_scale %x element {element} rounding "{rule}" block [1, 32] : (tensor<3x1024xf32>) -> tensor<3x32xf8E8M0FNU>
  %sf = arith.extf %s : tensor<3x32xf8E8M0FNU> to tensor<3x32xf32>
  %q = quant_affine.quantize %x, %sf range [-{bound}, {bound}] block [1, 32] : (tensor<3x1024xf32>, tensor<3x32xf32>) -> tensor<3x1024x{element}>
  %y = quant_affine.dequantize %q, %sf range [-{bound}, {bound}] block [1, 32] : (tensor<3x1024x{element}>, tensor<3x32xf32>) -> tensor<3x1024xf32>
  %r = call @bits(%y) : (tensor<3x1024xf32>) -> tensor<3x1024xi32>
  return %r : tensor<3x1024xi32>
}}

"""

PROGRAM = """
func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @min_max(%x: tensor<3x1024xf32>) -> (tensor<3x32xi32>, tensor<3x32xi32>) {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3x32xf32>
  %lo0 = linalg.fill ins(%inf : f32) outs(%e : tensor<3x32xf32>) -> tensor<3x32xf32>
  %hi0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<3x32xf32>) -> tensor<3x32xf32>
  %b = tensor.expand_shape %x [[0], [1, 2]] output_shape [3, 32, 32] : tensor<3x1024xf32> into tensor<3x32x32xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b : tensor<3x32x32xf32>) outs(%lo0, %hi0 : tensor<3x32xf32>, tensor<3x32xf32>) {
  ^bb0(%in: f32, %lo: f32, %hi: f32):
    %1 = arith.minimumf %lo, %in : f32
    %2 = arith.maximumf %hi, %in : f32
    linalg.yield %1, %2 : f32, f32
  } -> (tensor<3x32xf32>, tensor<3x32xf32>)
  %nan = arith.constant dense<2143289344> : tensor<3x32xi32>
  %n0 = arith.cmpf uno, %r#0, %r#0 : tensor<3x32xf32>
  %b0 = arith.bitcast %r#0 : tensor<3x32xf32> to tensor<3x32xi32>
  %c0 = arith.select %n0, %nan, %b0 : tensor<3x32xi1>, tensor<3x32xi32>
  %n1 = arith.cmpf uno, %r#1, %r#1 : tensor<3x32xf32>
  %b1 = arith.bitcast %r#1 : tensor<3x32xf32> to tensor<3x32xi32>
  %c1 = arith.select %n1, %nan, %b1 : tensor<3x32xi1>, tensor<3x32xi32>
  return %c0, %c1 : tensor<3x32xi32>, tensor<3x32xi32>
}

func.func @scales32(%x: tensor<3x1024xf32>) -> (tensor<3x32xi32>, tensor<3x32xi32>) {
  %s = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 32] : (tensor<3x1024xf32>) -> tensor<3x32xf8E8M0FNU>
  %t = quant_affine.block_scale %x element f4E2M1FN rounding "rceil" block [1, 32] : (tensor<3x1024xf32>) -> tensor<3x32xf8E8M0FNU>
  %sb = arith.bitcast %s : tensor<3x32xf8E8M0FNU> to tensor<3x32xi8>
  %tb = arith.bitcast %t : tensor<3x32xf8E8M0FNU> to tensor<3x32xi8>
  %sw = arith.extui %sb : tensor<3x32xi8> to tensor<3x32xi32>
  %tw = arith.extui %tb : tensor<3x32xi8> to tensor<3x32xi32>
  return %sw, %tw : tensor<3x32xi32>, tensor<3x32xi32>
}

func.func @scales16(%x: tensor<3x1024xf32>) -> tensor<3x64xi32> {
  %s = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 16] : (tensor<3x1024xf32>) -> tensor<3x64xf8E8M0FNU>
  %sb = arith.bitcast %s : tensor<3x64xf8E8M0FNU> to tensor<3x64xi8>
  %sw = arith.extui %sb : tensor<3x64xi8> to tensor<3x64xi32>
  return %sw : tensor<3x64xi32>
}

@QDQ_KERNELS@
func.func @mxfp8_codes(%x: tensor<3x1024xf32>) -> tensor<3x1024xi32> {
  %s = quant_affine.block_scale %x element f8E4M3FN rounding "floor" block [1, 32] : (tensor<3x1024xf32>) -> tensor<3x32xf8E8M0FNU>
  %sf = arith.extf %s : tensor<3x32xf8E8M0FNU> to tensor<3x32xf32>
  %q = quant_affine.quantize %x, %sf range [-448, 448] block [1, 32] : (tensor<3x1024xf32>, tensor<3x32xf32>) -> tensor<3x1024xf8E4M3FN>
  %b = arith.bitcast %q : tensor<3x1024xf8E4M3FN> to tensor<3x1024xi8>
  %w = arith.extui %b : tensor<3x1024xi8> to tensor<3x1024xi32>
  return %w : tensor<3x1024xi32>
}

func.func @bits(%y: tensor<3x1024xf32>) -> tensor<3x1024xi32> {
  %nan = arith.constant dense<2143289344> : tensor<3x1024xi32>
  %n = arith.cmpf uno, %y, %y : tensor<3x1024xf32>
  %b = arith.bitcast %y : tensor<3x1024xf32> to tensor<3x1024xi32>
  %c = arith.select %n, %nan, %b : tensor<3x1024xi1>, tensor<3x1024xi32>
  return %c : tensor<3x1024xi32>
}

func.func @print_rows(%t: tensor<3x1024xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %r = tensor.extract_slice %t[%i, 0] [1, 1024] [1, 1] : tensor<3x1024xi32> to tensor<1024xi32>
    %ru = tensor.cast %r : tensor<1024xi32> to tensor<*xi32>
    func.call @printMemrefI32(%ru) : (tensor<*xi32>) -> ()
  }
  return
}

func.func @main() {
  %bits = arith.constant dense<"0x@DATA@"> : tensor<3x1024xi32>
  %x = arith.bitcast %bits : tensor<3x1024xi32> to tensor<3x1024xf32>
  %lo, %hi = call @min_max(%x) : (tensor<3x1024xf32>) -> (tensor<3x32xi32>, tensor<3x32xi32>)
  %s, %t = call @scales32(%x) : (tensor<3x1024xf32>) -> (tensor<3x32xi32>, tensor<3x32xi32>)
  %u = call @scales16(%x) : (tensor<3x1024xf32>) -> tensor<3x64xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %l = tensor.extract_slice %lo[%i, 0] [1, 32] [1, 1] : tensor<3x32xi32> to tensor<32xi32>
    %h = tensor.extract_slice %hi[%i, 0] [1, 32] [1, 1] : tensor<3x32xi32> to tensor<32xi32>
    %lu = tensor.cast %l : tensor<32xi32> to tensor<*xi32>
    %hu = tensor.cast %h : tensor<32xi32> to tensor<*xi32>
    func.call @printMemrefI32(%lu) : (tensor<*xi32>) -> ()
    func.call @printMemrefI32(%hu) : (tensor<*xi32>) -> ()
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = tensor.extract_slice %s[%i, 0] [1, 32] [1, 1] : tensor<3x32xi32> to tensor<32xi32>
    %ru = tensor.cast %r : tensor<32xi32> to tensor<*xi32>
    func.call @printMemrefI32(%ru) : (tensor<*xi32>) -> ()
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = tensor.extract_slice %t[%i, 0] [1, 32] [1, 1] : tensor<3x32xi32> to tensor<32xi32>
    %ru = tensor.cast %r : tensor<32xi32> to tensor<*xi32>
    func.call @printMemrefI32(%ru) : (tensor<*xi32>) -> ()
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = tensor.extract_slice %u[%i, 0] [1, 64] [1, 1] : tensor<3x64xi32> to tensor<64xi32>
    %ru = tensor.cast %r : tensor<64xi32> to tensor<*xi32>
    func.call @printMemrefI32(%ru) : (tensor<*xi32>) -> ()
  }
  %m8 = call @mxfp8_qdq(%x) : (tensor<3x1024xf32>) -> tensor<3x1024xi32>
  call @print_rows(%m8) : (tensor<3x1024xi32>) -> ()
  %m4 = call @mxfp4_qdq(%x) : (tensor<3x1024xf32>) -> tensor<3x1024xi32>
  call @print_rows(%m4) : (tensor<3x1024xi32>) -> ()
  %fbits = arith.constant dense<"0x@FINITE@"> : tensor<3x1024xi32>
  %f = arith.bitcast %fbits : tensor<3x1024xi32> to tensor<3x1024xf32>
  %codes = call @mxfp8_codes(%f) : (tensor<3x1024xf32>) -> tensor<3x1024xi32>
  call @print_rows(%codes) : (tensor<3x1024xi32>) -> ()
  return
}
"""

main()
