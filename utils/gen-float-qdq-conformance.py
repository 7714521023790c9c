#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generate the float_qdq conformance test from the shared conformance data.

usage: /usr/bin/python3 utils/gen-float-qdq-conformance.py PATH/TO/shared/conformance

Writes test/Integration/CPU/conformance-float-qdq.mlir: the public
aimet_float_qdq vectors of the 2025 behaviour, and edge cases (NaN, +-inf,
+-0, ties, subnormals of every format, values beyond fmt_max, the extremes of
each input type) for the six real formats and AIMET grids from (1, 0) to
(8, 3) on f16, bf16, f32 and f64 inputs, with maxvals per tensor, per
channel and per block. Expected bits come from ref.py (normative); maxvals
are chosen where NumPy's f32 log2 and power give the correctly rounded
factor (asserted). Each case prints the bits of its result; the second RUN
line inlines and folds every case on constants, which checks the folder.
"""
import importlib.util
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "Integration", "CPU", "conformance-float-qdq.mlir")
GPU_OUT = os.path.join(HERE, "..", "test", "Integration", "GPU", "float-qdq.mlir")
sys.path.insert(0, HERE)
import gpu_cases  # noqa: E402
spec = importlib.util.spec_from_file_location("gen", os.path.join(HERE, "gen-conformance-tests.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
INT = {"f16": "i16", "bf16": "i16", "f32": "i32", "f64": "i64"}

NAMED = [(5, 10, False, False), (8, 7, False, False), (4, 3, True, False), (4, 3, True, True),
         (5, 2, False, False), (5, 2, True, True)]
CUSTOM = [(4, 3, False, False), (3, 2, False, False), (2, 1, False, False), (1, 0, False, False),
          (8, 3, False, False), (6, 4, False, False)]


class Case:
    def __init__(self, name, x, dt, fmt, maxval, block, expected, note):
        self.name, self.x, self.dt, self.fmt = name, np.asarray(x), dt, fmt
        self.maxval, self.block, self.expected, self.note = maxval, block, expected, note

    def checks(self):
        bits = gen.float_bits(self.expected, self.dt)
        bits = [gen.CANONICAL_NAN[self.dt] if math.isnan(float(v)) else int(b)
                for v, b in zip(np.asarray(self.expected, np.float64).reshape(-1), bits)]
        bits = [b - 2 ** 64 if b >= 2 ** 63 else b for b in bits]  # printed signed
        return ["// CHECK-LABEL: %s" % self.name, "// CHECK-NEXT: Unranked Memref",
                "// CHECK-NEXT: [%s]" % ",   ".join(str(b) for b in bits)]

    def emit(self):
        E, M, fin, uz = self.fmt
        shape = list(self.x.shape)
        tx = gen.ttype(shape, self.dt)
        count = int(np.prod(shape))
        flat, ity = gen.ttype([count], self.dt), gen.ttype([count], INT[self.dt])
        flags = (" finite" if fin else "") + (" unsigned_zero" if uz else "")
        args = "%%x: %s" % tx
        operands, types = "%x", tx
        if self.maxval is not None:
            tm = gen.ttype(list(np.shape(self.maxval)), "f32")
            args += ", %%m: %s" % tm
            operands += ", %m"
            types += ", " + tm
        block = " block [%s]" % ", ".join(str(b) for b in self.block) if self.block else ""
        nan = gen.CANONICAL_NAN[self.dt]
        lines = ["// " + self.note,
                 "func.func @%s(%s) {" % (self.name, args),
                 "  %%y = quant_affine.float_qdq %s format [%d, %d]%s%s : (%s) -> %s" % (
                     operands, E, M, flags, block, types, tx),
                 "  vector.print str \"%s\\n\"" % self.name]
        src = "%y"
        if len(shape) != 1:
            lines.append("  %%flat = tensor.collapse_shape %%y [[%s]] : %s into %s" % (
                ", ".join(str(i) for i in range(len(shape))), tx, flat))
            src = "%flat"
        lines += [
            "  %%nan = arith.constant dense<%d> : %s" % (nan if nan < 2 ** 63 else nan - 2 ** 64, ity),
            "  %nanf = arith.bitcast %nan : " + "%s to %s" % (ity, flat),
            "  %%isnan = arith.cmpf uno, %s, %s : %s" % (src, src, flat),
            "  %%c = arith.select %%isnan, %%nanf, %s : %s, %s" % (src, gen.ttype([count], "i1"), flat),
            "  %%b = arith.bitcast %%c : %s to %s" % (flat, ity)]
        if self.dt == "f64":
            lines.append("  %%u = tensor.cast %%b : %s to tensor<*xi64>" % ity)
        else:
            lines += ["  %%w = arith.extui %%b : %s to %s" % (ity, gen.ttype([count], "i64")),
                      "  %%u = tensor.cast %%w : %s to tensor<*xi64>" % gen.ttype([count], "i64")]
        lines += ["  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()", "  return", "}"]
        return "\n".join(lines)

    def op_line(self):
        E, M, fin, uz = self.fmt
        shape = list(self.x.shape)
        tx = gen.ttype(shape, self.dt)
        flags = (" finite" if fin else "") + (" unsigned_zero" if uz else "")
        operands, types = "%x", tx
        if self.maxval is not None:
            operands += ", %m"
            types += ", " + gen.ttype(list(np.shape(self.maxval)), "f32")
        block = " block [%s]" % ", ".join(str(b) for b in self.block) if self.block else ""
        return "%%y = quant_affine.float_qdq %s format [%d, %d]%s%s : (%s) -> %s" % (
            operands, E, M, flags, block, types, tx)

    def emit_gpu(self):
        shape = list(self.x.shape)
        args = [("x", gen.ttype(shape, self.dt))]
        if self.maxval is not None:
            args.append(("m", gen.ttype(list(np.shape(self.maxval)), "f32")))
        return "// %s\n" % self.note + gpu_cases.function(self.name, ["%s: %s" % a for a in args],
                                                         [self.op_line()], "%y", shape, self.dt, False)

    def emit_gpu_call(self):
        shape = list(self.x.shape)
        ops = [(["  %%%s_x = arith.constant dense<\"%s\"> : %s" % (
            self.name, gen.hex_dense(gen.float_bits(self.x, self.dt), gen.BITS[self.dt]),
            gen.ttype(shape, self.dt))], "%%%s_x" % self.name, shape, self.dt)]
        if self.maxval is not None:
            m = np.asarray(self.maxval, np.float32)
            ops.append((["  %%%s_m = arith.constant dense<\"%s\"> : %s" % (
                self.name, gen.hex_dense(gen.float_bits(m, "f32"), 32), gen.ttype(list(m.shape), "f32"))],
                "%%%s_m" % self.name, list(m.shape), "f32"))
        return gpu_cases.call(self.name, ops, int(np.prod(shape)))

    def emit_call(self):
        tx = gen.ttype(list(self.x.shape), self.dt)
        bits = gen.float_bits(self.x, self.dt)
        out = ["  %%%s_x = arith.constant dense<\"%s\"> : %s" % (self.name, gen.hex_dense(bits, gen.BITS[self.dt]), tx)]
        operands, types = "%%%s_x" % self.name, tx
        if self.maxval is not None:
            m = np.asarray(self.maxval, np.float32)
            tm = gen.ttype(list(m.shape), "f32")
            out.append("  %%%s_m = arith.constant dense<\"%s\"> : %s" % (
                self.name, gen.hex_dense(gen.float_bits(m, "f32"), 32), tm))
            operands += ", %%%s_m" % self.name
            types += ", " + tm
        out.append("  call @%s(%s) : (%s) -> ()" % (self.name, operands, types))
        return "\n".join(out)


def fmt_max(fmt):
    E, M, fin, uz = fmt
    for name, (fe, fm, mx, _, _) in ref.FLOAT_FORMATS.items():
        if (fe, fm, name.startswith("f8E4M3FN") or name.endswith("FNUZ"), name.endswith("FNUZ")) == fmt:
            return mx
    return ref.ieee_like_max(E, M)


def factor_is_correctly_rounded(fmt, mv):
    with np.errstate(all="ignore"):
        lg = np.log2(np.abs(np.float32(mv))).astype(np.float32) - np.float32(math.log2(fmt_max(fmt)))
        numpy_k = np.power(np.float32(2.0), np.float32(lg)).astype(np.float32)
    exact_lg = np.float32(np.float32(math.log2(abs(float(np.float32(mv))))) - np.float32(math.log2(fmt_max(fmt))))
    return numpy_k == np.float32(math.pow(2.0, float(exact_lg)))


def expected(x, dt, fmt, maxval=None):
    E, M, fin, uz = fmt
    with np.errstate(all="ignore"):
        return ref.aimet_float_qdq(x, E, M, finite=fin, unsigned_zero=uz, maxval=maxval, x_dtype=dt)


def vector_cases():
    data = json.load(open(os.path.join(SHARED, "vectors", "aimet_float_qdq.json")))
    cases = []
    for c in data["cases"]:
        if "2025" not in c["profiles"] or "expected" not in c:
            continue
        dt = c["input"]["dtype"]
        x = gen.to_np(c["input"]["data"], dt).reshape(c["input"]["shape"])
        fmt = (c["exponent_bits"], c["mantissa_bits"], c["finite"], c["unsigned_zero"])
        y = gen.to_np(c["expected"]["data"], dt)
        mv = c["maxval"]
        if mv is not None:
            assert factor_is_correctly_rounded(fmt, mv)
            mv = np.array(mv, np.float32)
            # ref.py, which the vector's rtol allows, is the normative one.
            y = expected(x, dt, fmt, mv)
        else:
            assert np.array_equal(gen.float_bits(y, dt), gen.float_bits(expected(x, dt, fmt), dt))
        cases.append(Case("vector_" + c["id"].split(".")[-1], x, dt, fmt, mv, None, y,
                          c["id"] + (" (%s)" % c["notes"] if c.get("notes") else "")))
    return cases


def exact(x, dt, fmt):
    """The exact grid (DESIGN.md section 7) for an AIMET grid without maxval:
    round_to_float_format with the grid's extra subnormal binade."""
    E, M, fin, uz = fmt
    bias = (1 << (E - 1)) - 1
    with np.errstate(all="ignore"):
        r = ref.round_to_float_format(np.asarray(x, np.float64), M, -bias, fmt_max(fmt))
    return ref.cast(r, dt)


def expected_edges(x, dt, fmt):
    """ref.py's result; for AIMET grids, the exact grid where ref.py's
    op-by-op emulation (log2 rounded in the input type; a bias that float64
    does not hold as an integer) leaves it. Returns the values and a note."""
    y = expected(x, dt, fmt)
    if fmt in NAMED:
        return y, ""
    e = exact(x, dt, fmt)
    differ = gen.float_bits(y, dt) != gen.float_bits(e, dt)
    differ &= ~(np.isnan(np.asarray(y, np.float64)) & np.isnan(np.asarray(e, np.float64)))
    if not differ.any():
        return y, ""
    idx = [int(i) for i in np.nonzero(differ)[0]]
    return e, "; exact grid where ref.py differs (elements %s)" % idx


def edge_values(dt, fmt):
    """Values at every boundary of the format and of the input type."""
    E, M, fin, uz = fmt
    mx = fmt_max(fmt)
    emin = ref.FLOAT_FORMATS[[n for n in ref.FLOAT_FORMATS if ref.FLOAT_FORMATS[n][:2] == (E, M)][0]][3] \
        if fmt in NAMED else -((1 << (E - 1)) - 1)
    q = 2.0 ** (emin - M)  # the smallest quantum
    v = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, mx, -mx, mx * 1.03, -mx * 1.1, mx * 0.999,
         q, q / 2, 1.5 * q, 2.5 * q, 0.75 * q, q / 2 * 1.0001, 2.0 ** emin, 2.0 ** emin * (1 - 2.0 ** -(M + 1)),
         1 + 2.0 ** -(M + 1), 1 + 3 * 2.0 ** -(M + 1), 1 + 2.0 ** -(M + 1) * 1.01, 1 + 2.0 ** -(M + 1) * 0.99,
         3.0, -7.25, 0.1, 100.0, 1e-3, 2.0 ** 0.5]
    info = {"f16": (65504.0, 2.0 ** -24), "bf16": (3.3895313892515355e38, 2.0 ** -133),
            "f32": (3.4028234663852886e38, 2.0 ** -149), "f64": (1.7976931348623157e308, 5e-324)}[dt]
    v += [info[0], -info[0], info[1], -info[1]]
    return gen.to_np(v, dt)


def edge_cases():
    cases = []
    plan = [("f32", NAMED + CUSTOM), ("f16", NAMED + CUSTOM[:3]), ("bf16", NAMED + CUSTOM[:2] + [CUSTOM[4]]),
            ("f64", [NAMED[2], NAMED[5], NAMED[1], CUSTOM[1], CUSTOM[4], (10, 40, False, False)])]
    for dt, fmts in plan:
        for fmt in fmts:
            x = edge_values(dt, fmt)
            name = "edge_%s_e%dm%d%s%s" % (dt, fmt[0], fmt[1], "_fn" if fmt[2] else "", "uz" if fmt[3] else "")
            y, note = expected_edges(x, dt, fmt)
            cases.append(Case(name, x, dt, fmt, None, None, y, "edges of format %s on %s%s" % (fmt, dt, note)))
    # maxval per tensor, per channel and per block.
    rng = np.random.default_rng(20261126)
    for dt, fmt in [("f32", NAMED[2]), ("bf16", NAMED[4]), ("f16", CUSTOM[1]), ("f32", NAMED[5]), ("f64", NAMED[2])]:
        x = gen.to_np((rng.standard_normal(64) * 10.0 ** rng.integers(-3, 4, 64)).tolist(), dt).reshape(4, 16)
        x.reshape(-1)[:4] = gen.to_np([math.nan, math.inf, -0.0, 0.0], dt)
        for kind, mv, block in [("tensor", np.array(2.5, np.float32), None),
                                ("channel", np.array([[2.5], [1000.0], [5.0], [20.0]], np.float32), None),
                                ("block", np.array([[2.5, 100.0], [50.0, 7.5], [10.0, 1500.0], [5.0, 1000.0]],
                                                   np.float32), [1, 8])]:
            assert all(factor_is_correctly_rounded(fmt, v) for v in mv.reshape(-1)), (fmt, mv)
            full = np.repeat(mv, 8, axis=1) if block else mv
            y = expected(x, dt, fmt, full)
            name = "maxval_%s_%s_e%dm%d" % (kind, dt, fmt[0], fmt[1])
            cases.append(Case(name, x, dt, fmt, mv, block, y, "maxval per %s, format %s on %s" % (kind, fmt, dt)))
    return cases


def write(path, cases):
    head = gen.RUN.replace('--quant-affine-cpu-pipeline="runtime-checks=true"', "--quant-affine-cpu-pipeline")
    more = """// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 nontemporal-stores=true" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
"""
    body = [head + more, "// float_qdq: AIMET 2025 vectors and edge cases, bits from ref.py",
            "// Generated by utils/gen-float-qdq-conformance.py; do not edit.", "",
            "func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})", ""]
    for c in cases:
        body += ["\n".join(c.checks()), c.emit(), ""]
    body.append("func.func @main() {")
    body += [c.emit_call() for c in cases]
    body += ["  return", "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases" % (os.path.relpath(path), len(cases)))


def write_gpu(path, cases):
    body = [gpu_cases.RUN, "// float_qdq on the GPU: the cases of conformance-float-qdq.mlir, the same bits",
            "// Generated by utils/gen-float-qdq-conformance.py; do not edit.", "",
            "func.func private @printMemrefI64(memref<*xi64>)", ""]
    for c in cases:
        body += ["\n".join(c.checks()), c.emit_gpu(), ""]
    body.append("func.func @main() {")
    body += [c.emit_gpu_call() for c in cases]
    body += ["  return", "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases" % (os.path.relpath(path), len(cases)))


if __name__ == "__main__":
    SHARED = os.path.abspath(sys.argv[1])
    sys.path.insert(0, SHARED)
    import ref  # noqa: E402
    gen.ref = ref
    cases = vector_cases() + edge_cases()
    write(OUT, cases)
    write_gpu(GPU_OUT, cases)
