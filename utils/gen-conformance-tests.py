#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generate the CPU execution tests from the shared AIMET conformance data.

usage: /usr/bin/python3 utils/gen-conformance-tests.py PATH/TO/shared/conformance

Writes test/Integration/CPU/{conformance-*,seeds,variants}.mlir and their GPU
share in test/Integration/GPU/. The data is
copied into the tests, so the suite never reads the shared directory; run this
again only when the vectors change. Expected results are the bits of the
vectors' `expected` fields, or of ref.py (the NumPy reference) where a test
is built here: the seed examples (whose encodings come from AIMET's min-max
calibration, which the dialect does not model yet) and the extra rank, dtype,
storage and dynamic-shape variants.

Every case is one function that computes an op on constants, makes NaN
canonical (NaN equals NaN in the comparison rules), bitcasts floats to
integers, widens everything to i64 and prints it; FileCheck compares the
printed bits.
"""
import json
import math
import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "Integration", "CPU")
GPU_OUT = os.path.join(os.path.dirname(__file__), "..", "test", "Integration", "GPU")
# Run 1 executes the generated code: each case receives its operands as
# function arguments, so nothing folds. Run 2 first inlines the cases into
# @main and folds every op on constants (-inline -canonicalize), checking the
# constant folder against the same expected bits.
RUN = """// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="runtime-checks=true" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline="runtime-checks=true" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
"""
BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
CANONICAL_NAN = {"f16": 0x7E00, "bf16": 0x7FC0, "f32": 0x7FC00000, "f64": 0x7FF8000000000000}


def to_np(values, dt):
    """JSON numbers ('nan', 'inf' as strings) to exact values of dtype dt."""
    a = np.array([float(v) if v is not None else np.nan for v in values], np.float64)
    if dt == "f16":
        return a.astype(np.float16)
    if dt == "bf16":
        return ref.bf16_round(a.astype(np.float32))
    return a.astype({"f32": np.float32, "f64": np.float64}[dt])


def float_bits(a, dt):
    a = np.asarray(a).reshape(-1)
    if dt == "bf16":
        return (np.asarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint64)
    view = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}[dt]
    return np.asarray(a, {"f16": np.float16, "f32": np.float32, "f64": np.float64}[dt]).view(view).astype(np.uint64)


def hex_dense(bits, width):
    """Little-endian raw bytes for a dense<"0x..."> attribute."""
    nbytes = width // 8
    return "0x" + "".join(int(b).to_bytes(nbytes, "little").hex().upper() for b in bits)


def ttype(shape, elem):
    return "tensor<%s%s>" % ("".join("%sx" % d for d in shape), elem)


def int_type_for(qmin, qmax):
    for w in range(1, 33):
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if qmin < 0 else (0, (1 << w) - 1)
        if lo <= qmin and qmax <= hi:
            return w
    return None


class Case:
    """One op applied to constants, with the expected result."""

    def __init__(self, name, op, x, x_dt, scale, offset, qmin, qmax, block, compute,
                 result_dt, expected, dynamic=False, note=""):
        self.__dict__.update(locals())
        del self.__dict__["self"]

    def attributes(self):
        """The op's range, block and compute type in the custom form."""
        attrs = " range [%d, %d]" % (self.qmin, self.qmax)
        if self.block is not None:
            attrs += " block [%s]" % ", ".join(str(b) for b in self.block)
        if self.compute:
            attrs += " compute %s" % self.compute
        return attrs

    def operand(self, lines, name, values, dt, shape, gpu=False):
        if gpu and dt not in BITS:  # iN as decimals: no arith.trunci on the host
            value = json.dumps(np.asarray(values).astype(np.int64).tolist())
            lines.append("  %%%s = arith.constant dense<%s> : %s" % (name, value, ttype(shape, dt)))
            return "%" + name
        if dt in BITS:
            bits, width = float_bits(values, dt), BITS[dt]
        else:  # iN storage, as two's complement bytes of a container width
            width = int(dt[1:])
            container = 8 if width <= 8 else 16 if width <= 16 else 32
            bits = [int(v) & ((1 << container) - 1) for v in np.asarray(values).reshape(-1)]
            lines.append("  %%%s_raw = arith.constant dense<\"%s\"> : %s" % (
                name, hex_dense(bits, container) if bits else "[]", ttype(shape, "i%d" % container)))
            if container != width:
                lines.append("  %%%s = arith.trunci %%%s_raw : %s to %s" % (
                    name, name, ttype(shape, "i%d" % container), ttype(shape, dt)))
                return "%" + name
            return "%" + name + "_raw"
        lines.append("  %%%s = arith.constant dense<\"%s\"> : %s" % (name, hex_dense(bits, width), ttype(shape, dt)))
        return "%" + name

    def emit_gpu_call(self):
        """For @main on the GPU: operands and result in managed memory (which
        host and device both address), the call, and the printout."""
        xs, ss = list(np.shape(self.x)), list(np.shape(self.scale))
        lines = []
        operands = [("x", self.x, self.x_dt, xs), ("s", self.scale, "f32", ss)]
        if self.offset is not None:
            operands.append(("o", self.offset, "f32", ss))
        names, types = [], []
        for tag, values, dt, shape in operands:
            name = "%s_%s" % (self.name, tag)
            const = self.operand(lines, name, values, dt, shape, gpu=True)
            tt, mt = ttype(shape, dt), ttype(shape, dt).replace("tensor", "memref")
            lines.append("  %%%s_c = bufferization.to_buffer %s : %s to %s" % (name, const, tt, mt))
            lines.append("  %%%s_m = gpu.alloc host_shared () : %s" % (name, mt))
            lines.append("  memref.copy %%%s_c, %%%s_m : %s to %s" % (name, name, mt, mt))
            lines.append("  %%%s_t = bufferization.to_tensor %%%s_m restrict : %s to %s" % (name, name, mt, tt))
            names.append("%%%s_t" % name)
            types.append(tt)
        out = ttype(xs, "i64").replace("tensor", "memref")
        lines.append("  %%%s_out = gpu.alloc host_shared () : %s" % (self.name, out))
        names.append("%%%s_out" % self.name)
        types.append(out)
        lines.append("  call @%s(%s) : (%s) -> ()" % (self.name, ", ".join(names), ", ".join(types)))
        printed = "%%%s_out" % self.name
        if len(xs) > 1:
            # Printed flat, one line, as the CPU tests print it.
            flat = "memref<%dxi64>" % int(np.prod(xs))
            lines.append("  %%%s_flat = memref.collapse_shape %s [[%s]] : %s into %s"
                         % (self.name, printed, ", ".join(str(i) for i in range(len(xs))), out, flat))
            printed, out = "%%%s_flat" % self.name, flat
        lines.append("  %%%s_u = memref.cast %s : %s to memref<*xi64>" % (self.name, printed, out))
        lines.append("  vector.print str \"%s\\n\"" % self.name)
        lines.append("  call @printMemrefI64(%%%s_u) : (memref<*xi64>) -> ()" % self.name)
        return "\n".join(lines)

    def emit_gpu(self):
        """The case as a kernel: static shapes, the widened bits written
        into the caller's buffer of the operand's shape."""
        xs, ss = list(np.shape(self.x)), list(np.shape(self.scale))
        args = ["%%x: %s" % ttype(xs, self.x_dt), "%%s: %s" % ttype(ss, "f32")]
        if self.offset is not None:
            args.append("%%o: %s" % ttype(ss, "f32"))
        args.append("%%out: %s" % ttype(xs, "i64").replace("tensor", "memref"))
        lines = ["// %s" % self.note] if self.note else []
        lines.append("func.func @%s(%s) {" % (self.name, ", ".join(args)))
        operands = [("%x", self.x_dt), ("%s", "f32")] + ([("%o", "f32")] if self.offset is not None else [])
        shapes = [xs, ss, ss]
        lines.append("  %%y = quant_affine.%s %s%s : (%s) -> %s" % (
            self.op, ", ".join(v for v, _ in operands), self.attributes(),
            ", ".join(ttype(shape, dt) for (_, dt), shape in zip(operands, shapes)), ttype(xs, self.result_dt)))
        rdt, src = self.result_dt, "%y"
        if rdt in BITS:
            w = BITS[rdt]
            lines.append("  %%nan = arith.constant dense<%d> : %s" % (CANONICAL_NAN[rdt], ttype(xs, "i%d" % w)))
            lines.append("  %%nanf = arith.bitcast %%nan : %s to %s" % (ttype(xs, "i%d" % w), ttype(xs, rdt)))
            lines.append("  %%isnan = arith.cmpf uno, %%y, %%y : %s" % ttype(xs, rdt))
            lines.append("  %%c = arith.select %%isnan, %%nanf, %%y : %s, %s" % (ttype(xs, "i1"), ttype(xs, rdt)))
            lines.append("  %%b = arith.bitcast %%c : %s to %s" % (ttype(xs, rdt), ttype(xs, "i%d" % w)))
            src, ext, sw = "%b", "extui", w
        else:
            sw = int(rdt[1:])
            ext = "extsi" if self.qmin < 0 else "extui"
        if sw < 64:
            lines.append("  %%w = arith.%s %s : %s to %s" % (ext, src, ttype(xs, "i%d" % sw), ttype(xs, "i64")))
            src = "%w"
        lines.append("  bufferization.materialize_in_destination %s in restrict writable %%out : (%s, %s) -> ()" % (
            src, ttype(xs, "i64"), ttype(xs, "i64").replace("tensor", "memref")))
        lines.append("  return")
        lines.append("}")
        return "\n".join(lines)

    def emit_call(self):
        """The constants and the call, for @main."""
        xs, ss = list(np.shape(self.x)), list(np.shape(self.scale))
        lines = []
        names = [self.operand(lines, "%s_x" % self.name, self.x, self.x_dt, xs),
                 self.operand(lines, "%s_s" % self.name, self.scale, "f32", ss)]
        types = [ttype(xs, self.x_dt), ttype(ss, "f32")]
        if self.offset is not None:
            names.append(self.operand(lines, "%s_o" % self.name, self.offset, "f32", ss))
            types.append(ttype(ss, "f32"))
        lines.append("  call @%s(%s) : (%s) -> ()" % (self.name, ", ".join(names), ", ".join(types)))
        return "\n".join(lines)

    def emit(self):
        xs = list(np.shape(self.x))
        ss = list(np.shape(self.scale))
        args = ["%%x: %s" % ttype(xs, self.x_dt), "%%s: %s" % ttype(ss, "f32")]
        if self.offset is not None:
            args.append("%%o: %s" % ttype(ss, "f32"))
        lines = ["func.func @%s(%s) {" % (self.name, ", ".join(args))]
        if self.note:
            lines.insert(0, "// %s" % self.note)
        x, s = "%x", "%s"
        o = "%o" if self.offset is not None else None
        operands = [(x, xs, self.x_dt), (s, ss, "f32")] + ([(o, ss, "f32")] if o else [])
        if self.dynamic:  # every dim dynamic: exercises tensor.dim, gathers, run-time checks
            cast = []
            for v, shape, dt in operands:
                dyn = ["?"] * len(shape)
                lines.append("  %s_d = tensor.cast %s : %s to %s" % (v, v, ttype(shape, dt), ttype(dyn, dt)))
                cast.append((v + "_d", dyn, dt))
            operands = cast
        rshape = ["?"] * len(xs) if self.dynamic else xs
        lines.append("  %%y = quant_affine.%s %s%s : (%s) -> %s" % (
            self.op, ", ".join(v for v, _, _ in operands), self.attributes(),
            ", ".join(ttype(shape, dt) for _, shape, dt in operands), ttype(rshape, self.result_dt)))
        y = "%y"
        if self.dynamic:
            lines.append("  %%ys = tensor.cast %%y : %s to %s" % (ttype(rshape, self.result_dt), ttype(xs, self.result_dt)))
            y = "%ys"
        n = int(np.prod(xs)) if xs else 1
        flat = [n]
        if len(xs) != 1:
            groups = "[[%s]]" % ", ".join(str(i) for i in range(len(xs))) if xs else "[]"
            op = "collapse_shape" if xs else "expand_shape"
            extra = "" if xs else " output_shape [1]"
            lines.append("  %%f = tensor.%s %s %s%s : %s into %s" % (
                op, y, groups, extra, ttype(xs, self.result_dt), ttype(flat, self.result_dt)))
            y = "%f"
        rdt = self.result_dt
        if rdt in BITS:
            w = BITS[rdt]
            lines.append("  %%nan = arith.constant dense<%d> : %s" % (CANONICAL_NAN[rdt], ttype(flat, "i%d" % w)))
            lines.append("  %%nanf = arith.bitcast %%nan : %s to %s" % (ttype(flat, "i%d" % w), ttype(flat, rdt)))
            lines.append("  %%isnan = arith.cmpf uno, %s, %s : %s" % (y, y, ttype(flat, rdt)))
            lines.append("  %%c = arith.select %%isnan, %%nanf, %s : %s, %s" % (y, ttype(flat, "i1"), ttype(flat, rdt)))
            lines.append("  %%b = arith.bitcast %%c : %s to %s" % (ttype(flat, rdt), ttype(flat, "i%d" % w)))
            src, ext, sw = "%b", "extui", w
        else:
            src, sw = y, int(rdt[1:])
            ext = "extsi" if self.qmin < 0 else "extui"
        if sw < 64:
            lines.append("  %%w = arith.%s %s : %s to %s" % (ext, src, ttype(flat, "i%d" % sw), ttype(flat, "i64")))
            src = "%w"
        lines.append("  %%u = tensor.cast %s : %s to tensor<*xi64>" % (src, ttype(flat, "i64")))
        lines.append("  vector.print str \"%s\\n\"" % self.name)
        lines.append("  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()")
        lines.append("  return")
        lines.append("}")
        return "\n".join(lines)

    def checks(self):
        exp = np.asarray(self.expected).reshape(-1)
        out = []
        for v in exp:
            if self.result_dt in BITS:
                if np.isnan(v):
                    out.append(str(CANONICAL_NAN[self.result_dt]))
                else:
                    bits = int(float_bits(np.array([v]), self.result_dt)[0])
                    out.append(str(bits - (1 << 64) if bits >= 1 << 63 else bits))  # printed as i64
            elif v is None or (isinstance(v, float) and math.isnan(v)):
                out.append("{{-?[0-9]+}}")  # poison (NaN into an integer)
            else:
                out.append(str(int(v)))
        return ["// CHECK-LABEL: %s" % self.name,
                "// CHECK-NEXT: Unranked Memref",
                "// CHECK-NEXT: [%s]" % ", ".join(out)]


GPU_RUN = """// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="chip=%gpu_chip format=fatbin" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%cuda_runtime_lib \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
// REQUIRES: cuda-gpu
"""


def write(path, header, cases, gpu=False):
    """One test file: the cases, each with its checks, and @main calling them
    (on the GPU: in managed memory, results checked against the same bits)."""
    run, printer = (GPU_RUN, "memref<*xi64>") if gpu else (
        RUN, "tensor<*xi64> {bufferization.access = \"read\"}")
    body = [run, "// %s%s" % (header, ", on the GPU" if gpu else ""),
            "// Generated by utils/gen-conformance-tests.py; do not edit.", "",
            "func.func private @printMemrefI64(%s)" % printer, ""]
    for c in cases:
        body.append("\n".join(c.checks()))
        body.append(c.emit_gpu() if gpu else c.emit())
        body.append("")
    body.append("func.func @main() {")
    body += [c.emit_gpu_call() if gpu else c.emit_call() for c in cases]
    body += ["  return", "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases" % (os.path.relpath(path), len(cases)))


def vector_cases(family, op):
    data = json.load(open(os.path.join(SHARED, "vectors", "aimet_%s.json" % family)))
    cases = []
    for i, c in enumerate(data["cases"]):
        if "expected" not in c or c.get("variant", "reference") != "reference":
            continue
        x_dt, r_dt = c["input"]["dtype"], c["expected"]["dtype"]
        xs, ss = c["input"]["shape"], c["scale"]["shape"]
        x = to_np(c["input"]["data"], x_dt).reshape(xs)
        scale = to_np(c["scale"]["data"], "f32").reshape(ss)
        offset = to_np(c["offset"]["data"], "f32").reshape(ss) if c.get("offset") else None
        expected = to_np(c["expected"]["data"], r_dt)
        if "qmin" in c:
            qmin, qmax = c["qmin"], c["qmax"]
        else:  # dequantize of float storage: the range only names signedness
            finite = [v for v in x.reshape(-1).astype(np.float64) if np.isfinite(v)] or [0]
            qmin, qmax = int(math.floor(min(finite + [0]))), int(math.ceil(max(finite + [0])))
        # Cases valid for the newest AIMET test the default compute-type rule;
        # the others name the compute type their profile used.
        compute = None if "latest" in c["profiles"] or op == "dequantize" else c["compute_dtype"]
        name = "%s_%s" % (family, c["id"].split(".")[-1])
        cases.append(Case(name, op, x, x_dt, scale, offset, qmin, qmax, c["block_size"], compute,
                          r_dt, expected, dynamic=(i % 4 == 3), note=c["id"]))
        # Integer storage: the same grid values as iN (quantize results, dequantize inputs).
        ints = np.asarray(expected if op == "quantize" else x, np.float64).reshape(-1)
        finite = ints[np.isfinite(ints)]
        if op in ("quantize", "dequantize") and np.all(finite == np.round(finite)):
            lo, hi = (qmin, qmax) if op == "quantize" else (int(finite.min(initial=0)), int(finite.max(initial=0)))
            w = int_type_for(lo, hi)
            if w and (op == "quantize" or np.all(np.isfinite(ints))):
                if op == "quantize" and offset is not None and np.any(offset != np.round(offset)):
                    continue
                iv = [None if not np.isfinite(v) else int(v) for v in ints]
                if op == "quantize":
                    cases.append(Case(name + "_i%d" % w, op, x, x_dt, scale, offset, qmin, qmax, c["block_size"],
                                      compute, "i%d" % w, iv, dynamic=(i % 3 == 1), note=c["id"] + " as i%d" % w))
                else:
                    q = np.array(iv).reshape(xs)
                    cases.append(Case(name + "_i%d" % w, op, q, "i%d" % w, scale, offset, lo, hi, c["block_size"],
                                      None, r_dt, expected, dynamic=(i % 3 == 1), note=c["id"] + " from i%d" % w))
    return cases


def seed_cases():
    """The examples printed in the seed documents, encodings from ref.py."""
    cases = []
    # Seed 000: arange(-0.3, 1.3, 0.05), scale f32(1/15), [0, 15]; the tie at x = 0.1 gives 2.
    x = np.arange(-0.3, 1.3, 0.05).astype(np.float32)
    s, o = np.float32(1 / 15), np.float32(0.0)
    q, _ = ref.aimet_quantize(x, s, o, 0, 15, profile="latest")
    cases.append(Case("seed000_quantize", "quantize", x, "f32", np.array(s), np.array(o), 0, 15, None, None,
                      "f32", q, note="seed 000: quantize docstring, -0. at index 6"))
    y, _ = ref.aimet_quantize_dequantize(x, s, o, 0, 15, profile="latest")
    cases.append(Case("seed000_qdq", "qdq", x, "f32", np.array(s), np.array(o), 0, 15, None, None,
                      "f32", y, note="seed 000: quantize_dequantize, 0.1333 at index 8"))
    cases.append(Case("seed000_quantize_u4", "quantize", x, "f32", np.array(s), None, 0, 15, None, None,
                      "i4", [int(v) for v in q], note="seed 000 as unsigned i4"))
    # Seed 001: 8-bit symmetric [-12.8, 12.7] and asymmetric [-10, 41].
    p = ref.aimet_quantizer_params(np.float32(-12.8), np.float32(12.7), -128, 127, True, profile="2025")
    x1 = np.array([[2.57, -2.312], [0.153, 0.205]], np.float32)
    q1, _ = ref.aimet_quantize(x1, p["scale"], p["offset"], -128, 127, profile="latest")
    sc, of = np.array(p["scale"], np.float32), np.array(p["offset"], np.float32)
    cases.append(Case("seed001_quantize_i8", "quantize", x1, "f32", sc, of, -128, 127, None, None, "i8",
                      q1.astype(int), note="seed 001: x_q = [[26, -23], [2, 2]]"))
    d1, _ = ref.aimet_dequantize(q1, p["scale"], p["offset"], profile="latest")
    cases.append(Case("seed001_dequantize_i8", "dequantize", q1.astype(int), "i8", sc, of, -128, 127, None, None,
                      "f32", d1, note="seed 001: x_q.dequantize() = [[2.6, -2.3], [0.2, 0.2]]"))
    p = ref.aimet_quantizer_params(np.float32(-10), np.float32(41), 0, 255, False, profile="2025")
    x2 = np.array([[0.39, 51.0], [3.521, 9.41]], np.float32)
    sc, of = np.array(p["scale"], np.float32), np.array(p["offset"], np.float32)
    y2, _ = ref.aimet_quantize_dequantize(x2, p["scale"], p["offset"], 0, 255, profile="latest")
    cases.append(Case("seed001_qdq", "qdq", x2, "f32", sc, of, 0, 255, None, None, "f32", y2,
                      note="seed 001: x_qdq = [[0.4, 41.0], [3.6, 9.4]]"))
    q2, _ = ref.aimet_quantize(y2, p["scale"], p["offset"], 0, 255, profile="latest")
    cases.append(Case("seed001_requantize_u8", "quantize", y2, "f32", sc, of, 0, 255, None, None, "i8",
                      q2.astype(int), note="seed 001: x_qdq.quantize() = [[52, 255], [68, 97]]"))
    # Seed 002 (blog): 4x4 randn(seed 0) as printed, encodings of examples 1, 3 and 4 (2024).
    bx = np.array([[-1.1258, -1.1524, -0.2506, -0.4339], [0.8487, 0.6920, -0.3160, -2.1152],
                   [0.3223, -1.2633, 0.3500, 0.3081], [0.1198, 1.2377, 1.1168, -0.2473]], np.float32)
    for tag, (qmin, qmax, sym) in {"ex1": (0, 255, False), "ex3": (-128, 127, True), "ex4": (0, 255, True)}.items():
        enc = ref.aimet_compute_encoding(bx, (1,), qmin, qmax, sym, profile="2024")
        sc, of = np.asarray(enc["scale"], np.float32), np.asarray(enc["offset"], np.float32)
        q, _ = ref.aimet_quantize(bx, sc, of, qmin, qmax, profile="latest")
        w = int_type_for(qmin, qmax)
        cases.append(Case("seed002_%s_quantize" % tag, "quantize", bx, "f32", sc, of, qmin, qmax, None, None,
                          "i%d" % w, q.astype(int), note="seed 002 %s: quantized input" % tag))
        d, _ = ref.aimet_dequantize(q, sc, of, profile="latest")
        cases.append(Case("seed002_%s_dequantize" % tag, "dequantize", q.astype(int), "i%d" % w, sc, of,
                          qmin, qmax, None, None, "f32", d, note="seed 002 %s: dequantized" % tag))
    # Seed 003: per-tensor, per-channel (8, 1) and per-block (8, 2) with block (-1, 4).
    x3 = (np.arange(256, dtype=np.float32) / np.float32(256)).astype(np.float32)
    enc = ref.aimet_compute_encoding(x3, (), 0, 255, False, profile="2025")
    sc, of = np.asarray(enc["scale"], np.float32), np.asarray(enc["offset"], np.float32)
    y3, _ = ref.aimet_quantize_dequantize(x3, sc, of, 0, 255, profile="latest")
    cases.append(Case("seed003_per_tensor_qdq", "qdq", x3, "f32", sc, of, 0, 255, None, None, "f32", y3,
                      note="seed 003: per-tensor qdq"))
    W = (np.arange(-32, 32, dtype=np.float32) / np.float32(64)).reshape(8, 8).T.copy()
    enc = ref.aimet_compute_encoding(W, (8, 1), -128, 127, True, profile="2025")
    sc, of = np.asarray(enc["scale"], np.float32), np.asarray(enc["offset"], np.float32)
    yw, _ = ref.aimet_quantize_dequantize(W, sc, of, -128, 127, profile="latest")
    qw, _ = ref.aimet_quantize(yw, sc, of, -128, 127, profile="latest")
    cases.append(Case("seed003_per_channel_qdq", "qdq", W, "f32", sc, of, -128, 127, None, None, "f32", yw,
                      note="seed 003: per-channel (8, 1) qdq"))
    cases.append(Case("seed003_per_channel_quantize", "quantize", yw, "f32", sc, of, -128, 127, None, None, "i8",
                      qw.astype(int), note="seed 003: per-channel quantized table"))
    Wb = np.concatenate([(np.arange(-16, 16, dtype=np.float32) / np.float32(32)).reshape(4, 8).T,
                         (np.arange(-16, 16, dtype=np.float32) / np.float32(16)).reshape(4, 8).T],
                        axis=1).astype(np.float32)
    enc = ref.aimet_compute_encoding(Wb, (8, 2), -128, 127, True, (-1, 4), profile="2025")
    sc, of = np.asarray(enc["scale"], np.float32), np.asarray(enc["offset"], np.float32)
    yb, _ = ref.aimet_quantize_dequantize(Wb, sc, of, -128, 127, (-1, 4), profile="latest")
    qb, _ = ref.aimet_quantize(yb, sc, of, -128, 127, (-1, 4), profile="latest")
    cases.append(Case("seed003_per_block_qdq", "qdq", Wb, "f32", sc, of, -128, 127, [-1, 4], None, "f32", yb,
                      note="seed 003: per-block (8, 2), block (-1, 4)"))
    cases.append(Case("seed003_per_block_quantize", "quantize", yb, "f32", sc, of, -128, 127, [-1, 4], None,
                      "i8", qb.astype(int), note="seed 003: per-block quantized table"))
    return cases


def variant_cases():
    """Ranks 3-4, channel axes, blocks with -1, f16/bf16/f64, 32-bit grids, edge values."""
    rng = np.random.default_rng(1234)
    edge = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e30, -1e30, 1e-40]
    cases = []

    def data(shape, dt, scale_mag=4.0):
        a = (rng.standard_normal(int(np.prod(shape))) * scale_mag).astype(np.float64)
        # Exact ties of x / s for power-of-two scales, plus the edge values.
        a[: min(len(a), 6)] = [0.625, -0.375, 2.5, -1.5, 0.125, 3.375][: min(len(a), 6)]
        a[6: 6 + len(edge)] = edge[: max(0, min(len(edge), len(a) - 6))]
        return ref.cast(a.reshape(shape), dt)

    specs = [
        # name, x shape, dtype, scale shape, block, qmin, qmax, offsets odd
        ("rank3_block_wild", (2, 4, 64), "f32", (4, 2), [1, -1], -8, 7),
        ("rank4_axis1", (2, 3, 4, 5), "f32", (3, 1, 1), None, 0, 255),
        ("rank4_block_inner", (2, 3, 2, 32), "f32", (3, 1, 2), [-1, 2, 16], -128, 127),
        ("rank2_axis0_f16", (8, 16), "f16", (8, 1), None, 0, 255),
        ("rank2_lastaxis_bf16", (4, 16), "bf16", (16,), None, -128, 127),
        ("rank2_bf16_4bit", (4, 32), "bf16", (4, 2), [1, 16], -8, 7),
        ("rank1_f64_i32grid", (48,), "f64", (), None, -2147483648, 2147483647),
        ("rank2_f32_i32grid", (4, 12), "f32", (4, 1), None, -2147483648, 2147483647),
        ("rank2_f16_16bit", (4, 16), "f16", (1, 16), None, 0, 65535),
        ("rank2_i1", (4, 16), "f32", (4, 1), None, -1, 0),
    ]
    for i, (name, xs, dt, ss, block, qmin, qmax) in enumerate(specs):
        x = data(xs, dt)
        sc = (2.0 ** rng.integers(-3, 3, size=ss)).astype(np.float32)  # powers of two: exact ties
        if i % 2:
            sc = (sc * np.float32(1.0 / 3.0)).astype(np.float32)       # and inexact divisions
        of = rng.integers(-3, 4, size=ss).astype(np.float32)           # odd offsets: tie order matters
        if qmin == -1:
            of = np.zeros(ss, np.float32)
        # DESIGN.md: quantize promotes like qdq (AIMET's quantize would raise
        # where the grid is not exact in the input type).
        cdt = ref.aimet_compute_dtype("qdq", dt, qmin, qmax, "latest")
        y = ref_in(x, sc, of, qmin, qmax, block, dt, cdt, dequantize=True)
        cases.append(Case("var_%s_qdq" % name, "qdq", x, dt, sc, of, qmin, qmax, block, None, dt, y,
                          dynamic=(i % 3 == 0), note="%s qdq, compute %s" % (name, cdt)))
        q = ref_in(x, sc, of, qmin, qmax, block, dt, cdt, dequantize=False)
        cases.append(Case("var_%s_quantize" % name, "quantize", x, dt, sc, of, qmin, qmax, block, None, dt, q,
                          dynamic=(i % 3 == 1), note="%s quantize to %s, compute %s" % (name, dt, cdt)))
        w = int_type_for(qmin, qmax)
        # Integer results convert the compute-type value, not the dt-rounded one.
        qc = np.asarray(ref_in(x, sc, of, qmin, qmax, block, cdt, cdt, dequantize=False), np.float64)
        qi = [None if np.isnan(v) else int(v) for v in qc.reshape(-1)]
        cases.append(Case("var_%s_quantize_i%d" % (name, w), "quantize", x, dt, sc, of, qmin, qmax, block, None,
                          "i%d" % w, qi, dynamic=(i % 3 == 2), note="%s quantize to i%d" % (name, w)))
        qd = np.nan_to_num(qc, nan=0.0).astype(np.int64).reshape(xs)
        # dequantize from iN to f64 (every grid here is exact in f64).
        d, _ = ref.aimet_dequantize(qd.astype(np.float64), sc, of, block, q_dtype="f64", profile="latest")
        cases.append(Case("var_%s_dequantize_i%d" % (name, w), "dequantize", qd, "i%d" % w, sc, of, qmin, qmax,
                          block, None, "f64", d, dynamic=(i % 3 == 0), note="%s dequantize i%d to f64" % (name, w)))
    # Explicit compute types that differ from the default rule.
    x = data((4, 16), "bf16")
    sc = np.full((4, 1), 0.0625, np.float32)
    of = np.array([[1], [-3], [0], [5]], np.float32)
    y = ref_in(x, sc, of, -128, 127, None, "bf16", "bf16", dequantize=True)
    cases.append(Case("explicit_bf16_compute_qdq", "qdq", x, "bf16", sc, of, -128, 127, None, "bf16", "bf16", y,
                      note="8-bit qdq of bf16 forced to compute in bf16 (default would be f32)"))
    return cases


def ref_in(x, sc, of, qmin, qmax, block, dt, cdt, dequantize):
    """quantize (or qdq) in compute type cdt, from ref.py's primitives."""
    xv, sv, ov, restore = ref._aimet_blocked_views(x, sc, of, block)
    s, o = ref.cast(sv, cdt), ref.cast(ov, cdt)
    q = ref._sub(ref._rint(ref._div(ref.cast(xv, cdt), s, cdt), cdt), o, cdt)
    q = ref._clamp(q, qmin, qmax, cdt)
    if dequantize:
        q = ref._mul(ref._add(q, o, cdt), s, cdt)
    return restore(ref.cast(q, dt))


def gpu_share(cases, every):
    """Every `every`-th case, plus every case with f16 or bf16 data."""
    return [c for i, c in enumerate(cases)
            if i % every == 0 or c.x_dt in ("f16", "bf16") or c.result_dt in ("f16", "bf16")]


if __name__ == "__main__":
    SHARED = os.path.abspath(sys.argv[1])
    sys.path.insert(0, SHARED)
    import ref  # noqa: E402
    write(os.path.join(OUT, "conformance-quantize.mlir"), "AIMET quantize vectors (aimet_quantize.json)",
          vector_cases("quantize", "quantize"))
    write(os.path.join(OUT, "conformance-dequantize.mlir"), "AIMET dequantize vectors (aimet_dequantize.json)",
          vector_cases("dequantize", "dequantize"))
    write(os.path.join(OUT, "conformance-qdq.mlir"), "AIMET qdq vectors (aimet_qdq.json)",
          vector_cases("qdq", "qdq"))
    write(os.path.join(OUT, "seeds.mlir"), "Every example printed in the seed documents",
          seed_cases())
    write(os.path.join(OUT, "variants.mlir"),
          "Ranks 3-4, channel axes, -1 blocks, f16/bf16/f64, 32-bit and 1-bit grids, ties, NaN, Inf, huge",
          variant_cases())
    # The GPU runs a share of the same cases: all seeds, a third of the rest.
    write(os.path.join(GPU_OUT, "seeds.mlir"), "Every example printed in the seed documents",
          seed_cases(), gpu=True)
    quantize, dequantize, qdq = (vector_cases(f, f) for f in ("quantize", "dequantize", "qdq"))
    write(os.path.join(GPU_OUT, "conformance.mlir"), "A third of the AIMET vectors",
          gpu_share(quantize, 3) + gpu_share(dequantize, 3) + gpu_share(qdq, 3), gpu=True)
    write(os.path.join(GPU_OUT, "variants.mlir"), "Half of the rank, dtype and grid variants",
          gpu_share(variant_cases(), 2), gpu=True)
