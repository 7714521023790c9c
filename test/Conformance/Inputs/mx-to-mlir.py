# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turns the microscaling reference vectors (mx/*.json, written by
utils/mx-reference.py, an exact reference independent of this project)
into one MLIR program that computes every case with quant_affine ops and
counts the differences:

- the block scale: quant_affine.block_scale (E8M0 bytes, f8E4M3FN bytes,
  f32 bits), compared with the vector's scale; an E8M0 scale's arith.extf
  must equal block_scale's f32 result bit for bit (NaN included);
- the elements: quant_affine.quantize with the scale in f32 and the
  element's range (codes compared where the vector defines them), and
  quant_affine.dequantize (f32 bits, NaN equal to NaN).

For each group (file, rule, element) it prints a line
`GROUP cases=N scale=S codes=C values=V` through @printMemrefI64 of
[N, S, C, V] preceded by the group's name (printed by the caller as the
order of the groups is fixed: see the GROUPS comment in the output).

usage: mx-to-mlir.py [--finite] DIR > program.mlir

--finite leaves out the cases whose block holds an infinity or a NaN: their
scale is E8M0's NaN, which block_scale's folder leaves to the generated code
(upstream's arith.extf folder reads it as +inf), so that with --finite every
E8M0 scale folds.
"""
import json
import os
import re
import struct
import sys

# Element -> (storage type, range end, code type). f6E2M3FN's largest
# value 7.5 is not an integer: the range [-8, 8] lets values past it reach
# the conversion, which saturates (the type has no inf or NaN).
ELEMENT_TYPES = {
    "f4E2M1FN": ("f4E2M1FN", 6, "i4"),
    "f6E2M3FN": ("f6E2M3FN", 8, "i6"),
    "f6E3M2FN": ("f6E3M2FN", 28, "i6"),
    "f8E4M3FN": ("f8E4M3FN", 448, "i8"),
    "f8E5M2": ("f8E5M2", 57344, "i8"),
    "mxint8": ("i8", 127, "i8"),
}


def hex_tensor(values, fmt):
    """Values packed little-endian as MLIR's dense hex form."""
    return '"0x' + b"".join(struct.pack("<" + fmt, v)
                            for v in values).hex().upper() + '"'


def bits(h):
    return int(h, 16)


class Program:
    def __init__(self):
        self.functions, self.groups = [], []

    def group(self, name, cases, scale_type, block, element, rounding,
              tensor_scales=None):
        """One function for a group of cases with one rule."""
        n = len(cases)
        fn = "@group%d" % len(self.groups)
        self.groups.append((name, fn, n))
        lines = []
        x = [bits(v) for c in cases for v in c["block"]]
        lines.append("  %%x = arith.constant dense<%s> : tensor<%dx%dxi32>"
                     % (hex_tensor(x, "I"), n, block))
        lines.append("  %%xf = arith.bitcast %%x : tensor<%dx%dxi32> to "
                     "tensor<%dx%dxf32>" % (n, block, n, block))
        elem_attr = ELEMENT_TYPES.get(element, (element,))[0]
        if element == "mxint8":
            elem_attr = "i8"
        rounding_text = ' rounding "%s"' % rounding if rounding else ""
        # The scale in its own type, compared with the vector's bits.
        if scale_type == "f8E8M0FNU" or scale_type == "f8E4M3FN":
            expected = [bits(c["scale"]) for c in cases]
            lines.append("  %%es = arith.constant dense<%s> : tensor<%dx1xi8>"
                         % (hex_tensor(expected, "B"), n))
            if tensor_scales is None:
                lines.append("  %%s = quant_affine.block_scale %%xf element %s%s "
                             "block [1, %d] : (tensor<%dx%dxf32>) -> "
                             "tensor<%dx1x%s>" % (elem_attr, rounding_text,
                                                  block, n, block, n,
                                                  scale_type))
            else:
                # Two-level NVFP4: one op per case (its own tensor scale).
                parts = []
                for i, t in enumerate(tensor_scales):
                    lines.append(
                        "  %%t%d = arith.constant dense<%s> : tensor<i32>"
                        % (i, hex_tensor([t], "I")))
                    lines.append("  %%tf%d = arith.bitcast %%t%d : tensor<i32> "
                                 "to tensor<f32>" % (i, i))
                    lines.append("  %%row%d = tensor.extract_slice %%xf[%d, 0] "
                                 "[1, %d] [1, 1] : tensor<%dx%dxf32> to "
                                 "tensor<1x%dxf32>" % (i, i, block, n, block,
                                                       block))
                    lines.append("  %%s%d = quant_affine.block_scale %%row%d, "
                                 "%%tf%d element f4E2M1FN block [1, %d] : "
                                 "(tensor<1x%dxf32>, tensor<f32>) -> "
                                 "tensor<1x1xf8E4M3FN>" % (i, i, i, block,
                                                           block))
                    parts.append("%%s%d" % i)
                lines.append("  %%s = tensor.concat dim(0) %s : (%s) -> "
                             "tensor<%dx1xf8E4M3FN>"
                             % (", ".join(parts),
                                ", ".join(["tensor<1x1xf8E4M3FN>"] * n), n))
            lines.append("  %%sb = arith.bitcast %%s : tensor<%dx1x%s> to "
                         "tensor<%dx1xi8>" % (n, scale_type, n))
            lines.append("  %%scale_bad = arith.cmpi ne, %%sb, %%es : "
                         "tensor<%dx1xi8>" % n)
            # The scale each element divides by, in f32.
            if scale_type == "f8E8M0FNU":
                # Its value (arith.extf), and the same from an f32 result.
                lines.append("  %%sf = arith.extf %%s : tensor<%dx1xf8E8M0FNU> "
                             "to tensor<%dx1xf32>" % (n, n))
                lines.append("  %%sf32 = quant_affine.block_scale %%xf element "
                             "%s%s block [1, %d] : (tensor<%dx%dxf32>) -> "
                             "tensor<%dx1xf32>" % (elem_attr, rounding_text,
                                                   block, n, block, n))
                lines.append("  %%sfb = arith.bitcast %%sf : tensor<%dx1xf32> "
                             "to tensor<%dx1xi32>" % (n, n))
                lines.append("  %%sf32b = arith.bitcast %%sf32 : "
                             "tensor<%dx1xf32> to tensor<%dx1xi32>" % (n, n))
                lines.append("  %%f32_ne = arith.cmpi ne, %%sfb, %%sf32b : "
                             "tensor<%dx1xi32>" % n)
                lines.append("  %%f32_bad = arith.ori %%scale_bad, %%f32_ne : "
                             "tensor<%dx1xi1>" % n)
            else:
                effective = [bits(c["block_scale_f32"]) for c in cases]
                lines.append("  %%eff = arith.constant dense<%s> : "
                             "tensor<%dx1xi32>" % (hex_tensor(effective, "I"), n))
                lines.append("  %%sf = arith.bitcast %%eff : tensor<%dx1xi32> "
                             "to tensor<%dx1xf32>" % (n, n))
        else:  # f32 block scales
            expected = [bits(c["scale"]) for c in cases]
            lines.append("  %%es = arith.constant dense<%s> : tensor<%dx1xi32>"
                         % (hex_tensor(expected, "I"), n))
            lines.append("  %%sf = quant_affine.block_scale %%xf element %s "
                         "block [1, %d] : (tensor<%dx%dxf32>) -> tensor<%dx1xf32>"
                         % (elem_attr, block, n, block, n))
            lines.append("  %%sb = arith.bitcast %%sf : tensor<%dx1xf32> to "
                         "tensor<%dx1xi32>" % (n, n))
            lines.append("  %%scale_ne = arith.cmpi ne, %%sb, %%es : "
                         "tensor<%dx1xi32>" % n)
            # A NaN scale equals any NaN.
            lines.append("  %%esf = arith.bitcast %%es : tensor<%dx1xi32> to "
                         "tensor<%dx1xf32>" % (n, n))
            lines.append("  %%s_num = arith.cmpf ord, %%sf, %%esf : "
                         "tensor<%dx1xf32>" % n)
            lines.append("  %%scale_bad = arith.andi %%scale_ne, %%s_num : "
                         "tensor<%dx1xi1>" % n)
        bad = "f32_bad" if scale_type == "f8E8M0FNU" else "scale_bad"
        lines.append("  %%scale_count = func.call @count_2d(%%%s) : "
                     "(tensor<%dx1xi1>) -> i64" % (bad, n))
        if element in ELEMENT_TYPES:
            self.elements(lines, cases, element, block)
        else:
            lines.append("  %codes_count = arith.constant -1 : i64")
            lines.append("  %values_count = arith.constant -1 : i64")
        self.functions.append(
            "func.func %s() -> (i64, i64, i64) {\n%s\n  return %%scale_count, "
            "%%codes_count, %%values_count : i64, i64, i64\n}"
            % (fn, "\n".join(lines)))

    def elements(self, lines, cases, element, block):
        n = len(cases)
        storage, limit, code_type = ELEMENT_TYPES[element]
        shape = "%dx%d" % (n, block)
        scale = "%sf"
        if element == "mxint8":
            # MXINT8 codes are units of 2^-6.
            lines.append("  %%unit = arith.constant dense<0.015625> : "
                         "tensor<%dx1xf32>" % n)
            lines.append("  %%si = arith.mulf %%sf, %%unit : tensor<%dx1xf32>"
                         % n)
            scale = "%si"
        lines.append("  %%q = quant_affine.quantize %%xf, %s range "
                     "[-%d, %d] block [1, %d] : (tensor<%sxf32>, "
                     "tensor<%dx1xf32>) -> tensor<%sx%s>"
                     % (scale, limit, limit, block, shape, n, shape,
                        storage))
        if storage == "i8":
            lines.append("  %%qc = arith.extui %%q : tensor<%sxi8> to "
                         "tensor<%sxi32>" % (shape, shape))
        else:
            lines.append("  %%qb = arith.bitcast %%q : tensor<%sx%s> to "
                         "tensor<%sx%s>" % (shape, storage, shape, code_type))
            lines.append("  %%qc = arith.extui %%qb : tensor<%sx%s> to "
                         "tensor<%sxi32>" % (shape, code_type, shape))
        codes = [v for c in cases for v in c["codes"]]
        defined = [int(c["codes_defined"]) for c in cases for _ in c["codes"]]
        lines.append("  %%ec = arith.constant dense<%s> : tensor<%sxi32>"
                     % (hex_tensor(codes, "I"), shape))
        lines.append("  %%def = arith.constant dense<%s> : tensor<%sxi8>"
                     % (hex_tensor(defined, "B"), shape))
        lines.append("  %%defb = arith.trunci %%def : tensor<%sxi8> to "
                     "tensor<%sxi1>" % (shape, shape))
        lines.append("  %%code_ne = arith.cmpi ne, %%qc, %%ec : tensor<%sxi32>"
                     % shape)
        lines.append("  %%code_bad = arith.andi %%code_ne, %%defb : "
                     "tensor<%sxi1>" % shape)
        lines.append("  %%codes_count = func.call @count_2d(%%code_bad) : "
                     "(tensor<%sxi1>) -> i64" % shape)
        lines.append("  %%y = quant_affine.dequantize %%q, %s range "
                     "[-%d, %d] block [1, %d] : (tensor<%sx%s>, "
                     "tensor<%dx1xf32>) -> tensor<%sxf32>"
                     % (scale, limit, limit, block, shape, storage, n,
                        shape))
        values = [bits(v) for c in cases for v in c["dequantized"]]
        lines.append("  %%ev = arith.constant dense<%s> : tensor<%sxi32>"
                     % (hex_tensor(values, "I"), shape))
        lines.append("  %%evf = arith.bitcast %%ev : tensor<%sxi32> to "
                     "tensor<%sxf32>" % (shape, shape))
        lines.append("  %%yb = arith.bitcast %%y : tensor<%sxf32> to "
                     "tensor<%sxi32>" % (shape, shape))
        lines.append("  %%val_ne = arith.cmpi ne, %%yb, %%ev : tensor<%sxi32>"
                     % shape)
        # NaN equals NaN.
        lines.append("  %%y_nan = arith.cmpf uno, %%y, %%y : tensor<%sxf32>"
                     % shape)
        lines.append("  %%e_nan = arith.cmpf uno, %%evf, %%evf : "
                     "tensor<%sxf32>" % shape)
        lines.append("  %%both_nan = arith.andi %%y_nan, %%e_nan : "
                     "tensor<%sxi1>" % shape)
        lines.append("  %%true = arith.constant dense<true> : tensor<%sxi1>"
                     % shape)
        lines.append("  %%not_nan = arith.xori %%both_nan, %%true : "
                     "tensor<%sxi1>" % shape)
        lines.append("  %%val_bad = arith.andi %%val_ne, %%not_nan : "
                     "tensor<%sxi1>" % shape)
        lines.append("  %%values_count = func.call @count_2d(%%val_bad) : "
                     "(tensor<%sxi1>) -> i64" % shape)

    def emit(self):
        out = ["// Generated by test/Conformance/Inputs/mx-to-mlir.py.",
               "// GROUPS: " + "; ".join("%s (%d)" % (name, n)
                                         for name, _, n in self.groups)]
        out.append('''func.func @count_2d(%bad: tensor<?x?xi1>) -> i64 {
  %zero = arith.constant 0 : i64
  %init = tensor.empty() : tensor<i64>
  %acc = linalg.fill ins(%zero : i64) outs(%init : tensor<i64>) -> tensor<i64>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%bad : tensor<?x?xi1>) outs(%acc : tensor<i64>) {
  ^bb0(%b: i1, %a: i64):
    %one = arith.extui %b : i1 to i64
    %next = arith.addi %a, %one : i64
    linalg.yield %next : i64
  } -> tensor<i64>
  %count = tensor.extract %sum[] : tensor<i64>
  return %count : i64
}''')
        # Counts take any shape: each call casts its mask first.
        call = re.compile(r"%(\w+) = func.call @count_2d\(%(\w+)\) : "
                          r"\((tensor<[^>]*>)\) -> i64")
        out.extend(call.sub(r"%\2_any = tensor.cast %\2 : \3 to "
                            r"tensor<?x?xi1>\n  %\1 = func.call "
                            r"@count_2d(%\2_any) : (tensor<?x?xi1>) -> i64", f)
                   for f in self.functions)
        body = ["func.func @main() {",
                "  %c0 = arith.constant 0 : index",
                "  %c1 = arith.constant 1 : index",
                "  %c2 = arith.constant 2 : index",
                "  %c3 = arith.constant 3 : index"]
        for i, (name, fn, n) in enumerate(self.groups):
            body += [
                "  %%s%d, %%c%d_, %%v%d = func.call %s() : () -> (i64, i64, i64)"
                % (i, i, i, fn),
                "  %%n%d = arith.constant %d : i64" % (i, n),
                "  %%r%d = tensor.from_elements %%n%d, %%s%d, %%c%d_, %%v%d : "
                "tensor<4xi64>" % (i, i, i, i, i),
                "  %%u%d = tensor.cast %%r%d : tensor<4xi64> to tensor<*xi64>"
                % (i, i),
                "  func.call @printMemrefI64(%%u%d) : (tensor<*xi64>) -> ()" % i]
        body += ["  return", "}",
                 "func.func private @printMemrefI64(tensor<*xi64>)"]
        out.extend(body)
        return "\n".join(out) + "\n"


def is_finite(case):
    return all(bits(v) & 0x7F800000 != 0x7F800000 for v in case["block"])


def main():
    finite = sys.argv[1] == "--finite"
    directory = sys.argv[-1]
    keep = is_finite if finite else (lambda case: True)
    program = Program()
    with open(os.path.join(directory, "mx_e8m0.json")) as f:
        mx = json.load(f)
    for rule in mx["rules"]:
        for element in mx["elements"]:
            cases = [c for c in mx["cases"]
                     if c["rule"] == rule and c["element"] == element
                     and keep(c)]
            program.group("mx %s %s" % (rule, element), cases, "f8E8M0FNU",
                          mx["block_size"], element, rule)
    with open(os.path.join(directory, "nvfp4_e4m3.json")) as f:
        nv = json.load(f)
    one = [c for c in nv["cases"] if "per_tensor_scale" not in c and keep(c)]
    two = [c for c in nv["cases"] if "per_tensor_scale" in c and keep(c)]
    program.group("nvfp4 one-level", one, "f8E4M3FN", nv["block_size"],
                  "f4E2M1FN", None)
    program.group("nvfp4 two-level", two, "f8E4M3FN", nv["block_size"],
                  "f4E2M1FN", None,
                  tensor_scales=[bits(c["per_tensor_scale"]) for c in two])
    with open(os.path.join(directory, "fp8_block_f32.json")) as f:
        fp8 = json.load(f)
    # Blocks whose f32 scale is 0 (all zeros, or an amax below 448 * 2^-150)
    # are left out: quantize divides by the scale as it is, so 0 / 0 gives
    # NaN codes, as DeepSeek-V3's kernel does; the reference chose signed
    # zeros (its README, decision 4).
    zero_scale = ("zero", "signed_zero", "tiny_amax_scale_zero")
    for element in fp8["elements"]:
        cases = [c for c in fp8["cases"]
                 if c["element"] == element and c["tag"] not in zero_scale
                 and keep(c)]
        program.group("fp8-block %s" % element, cases, "f32",
                      fp8["block_size"], element, None)
    sys.stdout.write(program.emit())


if __name__ == "__main__":
    main()
