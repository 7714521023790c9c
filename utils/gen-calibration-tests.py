#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generate the compute_encoding execution test from the shared conformance data.

usage: /usr/bin/python3 utils/gen-calibration-tests.py PATH/TO/shared/conformance

Writes test/Integration/CPU/conformance-compute-encoding.mlir: every public
aimet_compute_encoding and aimet_encoding_degenerate vector valid for AIMET's
2025 behaviour, every public torchao_choose_qparams vector (torchao 0.10 and
head, as compute_encoding's `torchao` properties), plus edge cases (NaN, +-Inf, all equal, all zero, one
element, subnormal ranges; f32, f16, bf16; per tensor, per channel, per
block; 1-, 2-, 4- and 8-bit grids) whose expected encodings come from ref.py
(the NumPy reference, normative). The data is copied into the test. Each case
computes the encoding of its argument and prints the bits of scale and
offset; the second RUN line inlines and folds every case on constants, so
the constant folder is checked against the same bits.
"""
import importlib.util
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "Integration", "CPU", "conformance-compute-encoding.mlir")
spec = importlib.util.spec_from_file_location("gen", os.path.join(HERE, "gen-conformance-tests.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


class Case:
    def __init__(self, name, x, x_dt, shape, qmin, qmax, symmetric, block, scale, offset, note,
                 extra="", scale_dt="f32", offset_dt="f32"):
        self.__dict__.update(locals())
        del self.__dict__["self"]

    def canonical(self, values, dt):
        v = np.asarray(values, np.float64).reshape(-1)
        bits = [int(b) for b in gen.float_bits(gen.to_np(v.tolist(), dt), dt)]
        return [gen.CANONICAL_NAN[dt] if np.isnan(a) else b for a, b in zip(v, bits)]

    def checks(self):
        lines = ["// CHECK-LABEL: %s" % self.name,
                 "// CHECK-NEXT: Unranked Memref",
                 "// CHECK-NEXT: %s" % json.dumps(self.canonical(self.scale, self.scale_dt)).replace(",  ", ", ")]
        if self.offset is not None:
            lines += ["// CHECK-NEXT: Unranked Memref",
                      "// CHECK-NEXT: %s" % json.dumps(self.canonical(self.offset, self.offset_dt)).replace(",  ", ", ")]
        return lines

    def emit(self):
        xs = list(np.shape(self.x))
        tx = gen.ttype(xs, self.x_dt)
        ts, to = gen.ttype(self.shape, self.scale_dt), gen.ttype(self.shape, self.offset_dt)
        count = int(np.prod(self.shape)) if self.shape else 1
        attrs = " range [%d, %d]" % (self.qmin, self.qmax)
        if self.symmetric:
            attrs += " symmetric"
        attrs += self.extra
        if self.block is not None:
            attrs += " block [%s]" % ", ".join(str(b) for b in self.block)
        lines = ["// %s" % self.note,
                 "func.func @%s(%%x: %s) {" % (self.name, tx),
                 "  %%s, %%o = quant_affine.compute_encoding %%x%s : %s -> (%s, %s)" % (attrs, tx, ts, to),
                 '  vector.print str "%s\\n"' % self.name]
        shown = ("s", "o") if self.offset is not None else ("s",)
        for v in shown:
            dt = self.scale_dt if v == "s" else self.offset_dt
            ts = gen.ttype(self.shape, dt)
            flat = gen.ttype([count], dt)
            ity = "i%d" % gen.BITS[dt]
            nan = gen.CANONICAL_NAN[dt]
            src = "%" + v
            if list(self.shape) != [count]:
                groups = "[]" if not self.shape else "[[%s]]" % ", ".join(str(i) for i in range(len(self.shape)))
                lines.append("  %%%s_flat = tensor.collapse_shape %s %s : %s into %s" % (v, src, groups, ts, flat)
                             if self.shape else
                             "  %%%s_flat = tensor.expand_shape %s [] output_shape [1] : %s into %s" % (v, src, ts, flat))
                src = "%%%s_flat" % v
            lines += [
                "  %%%s_nan = arith.constant dense<%d> : %s" % (v, nan, gen.ttype([count], ity)),
                "  %%%s_nanf = arith.bitcast %%%s_nan : %s to %s" % (v, v, gen.ttype([count], ity), flat),
                "  %%%s_isnan = arith.cmpf uno, %s, %s : %s" % (v, src, src, flat),
                "  %%%s_c = arith.select %%%s_isnan, %%%s_nanf, %s : %s, %s" % (
                    v, v, v, src, gen.ttype([count], "i1"), flat),
                "  %%%s_b = arith.bitcast %%%s_c : %s to %s" % (v, v, flat, gen.ttype([count], ity)),
                "  %%%s_w = arith.extui %%%s_b : %s to %s" % (v, v, gen.ttype([count], ity), gen.ttype([count], "i64")),
                "  %%%s_u = tensor.cast %%%s_w : %s to tensor<*xi64>" % (v, v, gen.ttype([count], "i64")),
                "  call @printMemrefI64(%%%s_u) : (tensor<*xi64>) -> ()" % v]
        lines += ["  return", "}"]
        return "\n".join(lines)

    def emit_call(self):
        xs = list(np.shape(self.x))
        tx = gen.ttype(xs, self.x_dt)
        bits = gen.float_bits(self.x, self.x_dt)
        return "\n".join([
            "  %%%s_x = arith.constant dense<\"%s\"> : %s" % (self.name, gen.hex_dense(bits, gen.BITS[self.x_dt]), tx),
            "  call @%s(%%%s_x) : (%s) -> ()" % (self.name, self.name, tx)])


def vector_cases():
    cases = []
    for family in ("compute_encoding", "encoding_degenerate"):
        data = json.load(open(os.path.join(SHARED, "vectors", "aimet_%s.json" % family)))
        for c in data["cases"]:
            if "2025" not in c["profiles"] or "expected" not in c:
                continue
            dt = c["input"]["dtype"]
            x = gen.to_np(c["input"]["data"], dt).reshape(c["input"]["shape"])
            e = c["expected"]
            scale = gen.to_np(e["scale"]["data"], "f32")
            offset = gen.to_np(e["offset"]["data"], "f32")
            name = "%s_%s" % (family, c["id"].split(".")[-1])
            cases.append(Case(name, x, dt, c["encoding_shape"], c["qmin"], c["qmax"], c["symmetric"],
                              c["block_size"], scale, offset, c["id"] + (" (%s)" % c["notes"] if c.get("notes") else "")))
    return cases


def torchao_cases():
    """Every public torchao_choose_qparams vector: torchao's block sizes are
    the op's (full rank), results in its scale and zero-point types."""
    data = json.load(open(os.path.join(SHARED, "vectors", "torchao_choose_qparams.json")))
    cases = []
    for c in data["cases"]:
        if "expected" not in c:
            continue
        dt = c["input"]["dtype"]
        xs = c["input"]["shape"]
        x = gen.to_np(c["input"]["data"], dt).reshape(xs)
        qmin, qmax = ref.ao_qmin_qmax(c["target_dtype"], c["quant_min"], c["quant_max"])
        block = list(c["block_size"])
        shape = [X // B for X, B in zip(xs, block)]
        mapping, domain = c["mapping_type"], c["zero_point_domain"]
        eps = c["eps"]
        if eps is None and c["version"] == "head":
            eps = ref.finfo(dt).smallest_normal
        extra = " torchao"
        if mapping == "SYMMETRIC_NO_CLIPPING_ERR":
            extra += " no_clipping_err"
        if not c["preserve_zero"]:
            extra += " no_preserve_zero"
        if domain == "FLOAT":
            extra += " float_zero_point"
        if eps is not None:
            extra += " eps %r" % float(eps)
        e = c["expected"]
        scale_dt = e["scale"]["dtype"]
        scale = gen.to_np(e["scale"]["data"], scale_dt)
        offset, offset_dt = None, dt
        if e.get("zero_point"):
            zp_dt = e["zero_point"]["dtype"]
            offset_dt = zp_dt if zp_dt in gen.BITS else "f32"
            zp = np.asarray(e["zero_point"]["data"], np.float64)
            offset = zp if domain == "FLOAT" else 0.0 - zp
        name = "torchao_%s" % c["id"].split(".")[-1]
        note = "%s (torchao %s %s %s%s)" % (c["id"], c["version"], mapping, domain,
                                           ", " + c["notes"] if c.get("notes") else "")
        cases.append(Case(name, x, dt, shape, qmin, qmax, mapping != "ASYMMETRIC", block, scale,
                          offset, note, extra=extra, scale_dt=scale_dt, offset_dt=offset_dt))
    return cases


def edge_cases():
    """Inputs the vectors do not cover, expected values from ref.py."""
    inf, nan = np.inf, np.nan
    rows = {
        "nan": [1.0, nan, -2.0, 0.5],
        "posinf": [1.0, inf, -2.0, 0.5],
        "neginf": [1.0, -inf, -2.0, 0.5],
        "bothinf": [-inf, inf, 0.0, 1.0],
        "equal_pos": [3.0, 3.0, 3.0, 3.0],
        "equal_neg": [-0.75, -0.75, -0.75, -0.75],
        # Zeros of one sign each: with both, which one a minimum returns is
        # up to the reduction order in PyTorch and NumPy (ours: -0 < +0).
        "zeros": [0.0, 0.0, 0.0, 0.0],
        "negzeros": [-0.0, -0.0, -0.0, -0.0],
        "subnormal": [1e-40, -3e-41, 2e-42, 0.0],
        "tiny_f16": [6e-8, -1.2e-7, 3e-8, 0.0],
        "large": [3e38, -1e38, 2.5e38, 1.0],
    }
    grids = [(0, 255, False), (-128, 127, True), (-8, 7, True), (-8, 7, False), (-2, 1, True), (0, 1, False)]
    cases = []
    for dt in ("f32", "f16", "bf16"):
        for r, (label, row) in enumerate(rows.items()):
            if dt == "f16" and label in ("subnormal", "large"):
                continue
            if dt != "f16" and label == "tiny_f16":
                continue
            qmin, qmax, symmetric = grids[r % len(grids)]
            # Per tensor (one row), per channel (2 rows: this one and a plain
            # one) and per block (blocks of 2 along the row).
            plain = [0.25, -1.5, 2.0, 0.125]
            layouts = [
                ("tensor", np.array([row]), [], None),
                ("channel", np.array([row, plain]), [2, 1], None),
                ("block", np.array([row, plain]), [2, 2], [1, 2]),
            ]
            for layout, x, shape, block in layouts:
                x = gen.to_np(x.reshape(-1).tolist(), dt).reshape(x.shape)
                with np.errstate(all="ignore"):
                    d = ref.aimet_compute_encoding(x, tuple(shape), qmin, qmax, symmetric, block,
                                                   x_dtype=dt, profile="2025")
                name = "edge_%s_%s_%s" % (dt, label, layout)
                cases.append(Case(name, x, dt, shape, qmin, qmax, symmetric, block, d["scale"], d["offset"],
                                  "%s %s %s, [%d, %d]%s (ref.py)" % (
                                      label, dt, layout, qmin, qmax, " symmetric" if symmetric else "")))
    # One element.
    for dt in ("f32", "f16", "bf16"):
        x = gen.to_np([-0.3], dt).reshape([1, 1])
        d = ref.aimet_compute_encoding(x, (), 0, 15, False, None, x_dtype=dt, profile="2025")
        cases.append(Case("edge_%s_single" % dt, x, dt, [], 0, 15, False, None, d["scale"], d["offset"],
                          "one element, %s (ref.py)" % dt))
    return cases


# The other CPU pipeline option sets compute the same bits.
MORE_RUNS = """// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="openmp=true" \\
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


def write(path, cases):
    body = [gen.RUN + MORE_RUNS, "// compute_encoding: AIMET vectors valid for the 2025 behaviour and edge cases",
            "// Generated by utils/gen-calibration-tests.py; do not edit.", "",
            "func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})", ""]
    for c in cases:
        body.append("\n".join(c.checks()))
        body.append(c.emit())
        body.append("")
    body.append("func.func @main() {")
    body += [c.emit_call() for c in cases]
    body += ["  return", "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases" % (os.path.relpath(path), len(cases)))


if __name__ == "__main__":
    SHARED = os.path.abspath(sys.argv[1])
    sys.path.insert(0, SHARED)
    import ref  # noqa: E402
    gen.ref = ref
    write(OUT, vector_cases() + edge_cases() + torchao_cases())
