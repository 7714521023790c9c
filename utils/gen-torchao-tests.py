#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generate the torchao conformance test from the shared conformance data.

usage: /usr/bin/python3 utils/gen-torchao-tests.py PATH/TO/shared/conformance

Writes test/Integration/CPU/conformance-torchao.mlir: every public
torchao_quantize_affine, torchao_dequantize_affine and
torchao_fake_quantize_affine vector that one compute type expresses, as
quantize, dequantize and qdq with `reciprocal` (INT and NONE zero-point
domains) or `float_zero_point` (FLOAT), the vector's compute type explicit,
scales and zero points in their own types. Each case prints the bits of its
result; the second RUN line inlines and folds every case on constants. The
cases not expressible are listed with the reason (docs/Calibration.md).
"""
import importlib.util
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "Integration", "CPU", "conformance-torchao.mlir")
GPU_OUT = os.path.join(HERE, "..", "test", "Integration", "GPU", "torchao.mlir")
sys.path.insert(0, HERE)
import gpu_cases  # noqa: E402
spec = importlib.util.spec_from_file_location("gen", os.path.join(HERE, "gen-conformance-tests.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

# torchao dtype -> (storage type, qmin, qmax)
STORAGE = {"uint8": ("i8", 0, 255), "int8": ("i8", -128, 127), "uint4": ("i4", 0, 15), "int4": ("i4", -8, 7),
           "int16": ("i16", -32768, 32767), "int32": ("i32", -2 ** 31, 2 ** 31 - 1)}


class Case:
    def __init__(self, name, op, x, x_dt, scale, s_dt, offset, o_dt, qmin, qmax, block, scale_shape,
                 compute, flags, result_dt, expected, note):
        self.__dict__.update(locals())
        del self.__dict__["self"]

    def value_operand(self, lines, name, values, dt, shape):
        if dt in gen.BITS:
            bits = gen.float_bits(gen.to_np(np.asarray(values, np.float64).reshape(-1).tolist(), dt), dt)
            lines.append("  %%%s = arith.constant dense<\"%s\"> : %s" % (
                name, gen.hex_dense(bits, gen.BITS[dt]), gen.ttype(shape, dt)))
            return "%" + name
        value = json.dumps(np.asarray(values).astype(np.int64).reshape(shape).tolist())
        lines.append("  %%%s = arith.constant dense<%s> : %s" % (name, value, gen.ttype(shape, dt)))
        return "%" + name

    def operands(self):
        ops = [("x", self.x, self.x_dt, list(np.shape(self.x))),
               ("s", self.scale, self.s_dt, self.scale_shape)]
        if self.offset is not None:
            ops.append(("o", self.offset, self.o_dt, self.scale_shape))
        return ops

    def emit(self):
        ops = self.operands()
        xs = list(np.shape(self.x))
        lines = ["// %s" % self.note,
                 "func.func @%s(%s) {" % (self.name, ", ".join("%%%s: %s" % (t, gen.ttype(sh, dt))
                                                               for t, _, dt, sh in ops))]
        attrs = " range [%d, %d]%s" % (self.qmin, self.qmax, "".join(" " + f for f in self.flags))
        if self.block:
            attrs += " block [%s]" % ", ".join(str(b) for b in self.block)
        attrs += " compute %s" % self.compute
        lines.append("  %%y = quant_affine.%s %s%s : (%s) -> %s" % (
            self.op, ", ".join("%" + t for t, _, _, _ in ops), attrs,
            ", ".join(gen.ttype(sh, dt) for _, _, dt, sh in ops), gen.ttype(xs, self.result_dt)))
        n = int(np.prod(xs))
        flat = [n]
        y = "%y"
        if len(xs) != 1:
            lines.append("  %%f = tensor.collapse_shape %%y [[%s]] : %s into %s" % (
                ", ".join(str(i) for i in range(len(xs))), gen.ttype(xs, self.result_dt),
                gen.ttype(flat, self.result_dt)))
            y = "%f"
        rdt = self.result_dt
        if rdt in gen.BITS:
            w = gen.BITS[rdt]
            lines += ["  %%nan = arith.constant dense<%d> : %s" % (gen.CANONICAL_NAN[rdt], gen.ttype(flat, "i%d" % w)),
                      "  %%nanf = arith.bitcast %%nan : %s to %s" % (gen.ttype(flat, "i%d" % w), gen.ttype(flat, rdt)),
                      "  %%isnan = arith.cmpf uno, %s, %s : %s" % (y, y, gen.ttype(flat, rdt)),
                      "  %%c = arith.select %%isnan, %%nanf, %s : %s, %s" % (y, gen.ttype(flat, "i1"),
                                                                          gen.ttype(flat, rdt)),
                      "  %%b = arith.bitcast %%c : %s to %s" % (gen.ttype(flat, rdt), gen.ttype(flat, "i%d" % w))]
            src, ext, sw = "%b", "extui", w
        else:
            src, sw = y, int(rdt[1:])
            ext = "extsi" if self.qmin < 0 else "extui"
        if sw < 64:
            lines.append("  %%w = arith.%s %s : %s to %s" % (ext, src, gen.ttype(flat, "i%d" % sw),
                                                          gen.ttype(flat, "i64")))
            src = "%w"
        lines += ["  %%u = tensor.cast %s : %s to tensor<*xi64>" % (src, gen.ttype(flat, "i64")),
                  "  vector.print str \"%s\\n\"" % self.name,
                  "  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()", "  return", "}"]
        return "\n".join(lines)

    def op_line(self):
        ops = self.operands()
        xs = list(np.shape(self.x))
        attrs = " range [%d, %d]%s" % (self.qmin, self.qmax, "".join(" " + f for f in self.flags))
        if self.block:
            attrs += " block [%s]" % ", ".join(str(b) for b in self.block)
        attrs += " compute %s" % self.compute
        return "%%y = quant_affine.%s %s%s : (%s) -> %s" % (
            self.op, ", ".join("%" + t for t, _, _, _ in ops), attrs,
            ", ".join(gen.ttype(sh, dt) for _, _, dt, sh in ops), gen.ttype(xs, self.result_dt))

    def emit_gpu(self):
        args = ["%s: %s" % (t, gen.ttype(sh, dt)) for t, _, dt, sh in self.operands()]
        return "// %s\n" % self.note + gpu_cases.function(self.name, args, [self.op_line()], "%y",
                                                         list(np.shape(self.x)), self.result_dt,
                                                         self.qmin < 0)

    def emit_gpu_call(self):
        ops = []
        for tag, values, dt, shape in self.operands():
            lines = []
            name = self.value_operand(lines, "%s_%s" % (self.name, tag), values, dt, shape)
            ops.append((lines, name, shape, dt))
        return gpu_cases.call(self.name, ops, int(np.prod(np.shape(self.x))))

    def emit_call(self):
        lines, names, types = [], [], []
        for tag, values, dt, shape in self.operands():
            names.append(self.value_operand(lines, "%s_%s" % (self.name, tag), values, dt, shape))
            types.append(gen.ttype(shape, dt))
        lines.append("  call @%s(%s) : (%s) -> ()" % (self.name, ", ".join(names), ", ".join(types)))
        return "\n".join(lines)

    def checks(self):
        out = []
        for v in np.asarray(self.expected, dtype=object).reshape(-1):
            if self.result_dt in gen.BITS:
                f = float(v)
                if math.isnan(f):
                    out.append(str(gen.CANONICAL_NAN[self.result_dt]))
                else:
                    out.append(str(int(gen.float_bits(gen.to_np([f], self.result_dt), self.result_dt)[0])))
            else:
                out.append(str(int(v)))
        return ["// CHECK-LABEL: %s" % self.name, "// CHECK-NEXT: Unranked Memref",
                "// CHECK-NEXT: [%s]" % ", ".join(out)]


def dt_of(name):
    return {"f32": "f32", "bf16": "bf16", "f16": "f16", "f64": "f64", "i32": "i32"}[name]


def convert(c, kind, skipped):
    """A vector as a Case, or None (appended to `skipped` with the reason)."""
    cid = c["id"]
    dom = c["zero_point_domain"]
    if kind == "dequantize":
        qname = c["input_dtype"]
        out_dt = c["output_dtype"]
    else:
        qname = c.get("output_dtype") or c.get("quant_dtype")
        out_dt = None
    storage, qmin, qmax = STORAGE[qname]
    if c.get("quant_min") is not None:
        qmin = c["quant_min"]
    if c.get("quant_max") is not None:
        qmax = c["quant_max"]
    if qname == "int32" and kind == "dequantize":
        skipped.append((cid, "int32 codes: torchao subtracts the zero point in int32 and rounds "
                              "once to f32; q + o rounds q itself in f32 (|q| > 2^24), and in f64 "
                              "the product rounds differently"))
        return None
    if qname == "int32":
        skipped.append((cid, "int32 grid: torchao computes in f32, which cannot hold 2^31 - 1 "
                              "(quantize's compute type must hold the grid of an integer result)"))
        return None
    x_dt = c["input"]["dtype"] if kind != "dequantize" else None
    s_dt = c["scale"]["dtype"]
    zp = c.get("zero_point")
    z_dt = zp["dtype"] if zp else None
    compute = c.get("compute_dtype") or (out_dt if kind == "dequantize" else x_dt)
    if kind == "dequantize" and s_dt != out_dt:
        compute = "f32"
    # aimet_equivalent gives the scale shape; else derive from block_size.
    xshape = c["input"]["shape"]
    block = c["block_size"]
    sshape = [xd // b for xd, b in zip(xshape, block)]
    flags = []
    offset, o_dt = None, None
    if dom == "FLOAT":
        flags.append("float_zero_point")
        offset = np.asarray(zp["data"], np.float64).reshape(sshape)
        o_dt = z_dt
    elif dom == "INT":
        if kind != "dequantize":
            flags.append("reciprocal")
        o_dt = z_dt if z_dt in ("f32", "bf16", "f16") else compute
        offset = -np.asarray(zp["data"], np.float64).reshape(sshape)
        offset = offset + 0.0  # -0.0 -> +0.0: AIMET's offset of a zero point 0
    else:  # NONE
        if kind != "dequantize":
            flags.append("reciprocal")
    scale = np.asarray(c["scale"]["data"], np.float64).reshape(sshape)
    op = {"quantize": "quantize", "dequantize": "dequantize", "fake_quantize": "qdq"}[kind]
    if kind == "quantize":
        x = gen.to_np(c["input"]["data"], x_dt).reshape(xshape)
        result_dt = storage
        expected = c["expected"]["data"]
        xin_dt = x_dt
    elif kind == "dequantize":
        x = np.asarray(c["input"]["data"], np.int64).reshape(xshape)
        xin_dt = storage
        result_dt = out_dt
        expected = c["expected"]["data"]
    else:
        x = gen.to_np(c["input"]["data"], x_dt).reshape(xshape)
        xin_dt = x_dt
        result_dt = x_dt
        expected = c["expected"]["data"]
    name = "%s_%s" % (kind, cid.split(".")[-1])
    note = "%s (torchao %s, %s domain, %s%s)" % (cid, c["version"], dom, qname,
                                                  ": " + c["notes"] if c.get("notes") else "")
    return Case(name, op, x, xin_dt, scale, s_dt, offset, o_dt, qmin, qmax,
                block if any(b != 1 for b in block) and sshape != [1] * len(sshape) else None,
                sshape, compute, flags, result_dt, expected, note)


def main():
    shared = os.path.abspath(sys.argv[1])
    sys.path.insert(0, shared)
    import ref  # noqa: E402
    gen.ref = ref
    cases, skipped = [], []
    for kind in ("quantize", "dequantize", "fake_quantize"):
        data = json.load(open(os.path.join(shared, "vectors", "torchao_%s_affine.json" % kind)))
        for c in data["cases"]:
            if "expected" not in c:
                continue
            case = convert(c, kind, skipped)
            if case:
                cases.append(case)
    head = gen.RUN.replace('--quant-affine-cpu-pipeline="runtime-checks=true"', "--quant-affine-cpu-pipeline")
    head += """// RUN: quant-affine-opt %s -inline -canonicalize --quant-affine-cpu-pipeline \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
"""
    body = [head, "// torchao's quantize_affine, dequantize_affine and fake_quantize_affine: the public",
            "// vectors, bit for bit. Generated by utils/gen-torchao-tests.py; do not edit.",
            "// Not expressible (%d):" % len(skipped)]
    body += ["//   %s: %s" % s for s in skipped]
    body += ["", "func.func private @printMemrefI64(tensor<*xi64> {bufferization.access = \"read\"})", ""]
    for c in cases:
        body += ["\n".join(c.checks()), c.emit(), ""]
    body.append("func.func @main() {")
    body += [c.emit_call() for c in cases]
    body += ["  return", "}", ""]
    with open(OUT, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases, %d not expressible" % (os.path.relpath(OUT), len(cases), len(skipped)))
    # Managed buffers of packed sub-byte codes cannot be allocated from the
    # host (gpu.alloc of i4): those dequantize cases stay on the CPU.
    gpu = [c for c in cases if not (c.op == "dequantize" and c.x_dt == "i4")]
    body = [gpu_cases.RUN, "// torchao's vectors on the GPU: the cases of conformance-torchao.mlir (but",
            "// the dequantizations of packed int4 codes), the same bits.",
            "// Generated by utils/gen-torchao-tests.py; do not edit.", "",
            "func.func private @printMemrefI64(memref<*xi64>)", ""]
    for c in gpu:
        body += ["\n".join(c.checks()), c.emit_gpu(), ""]
    body.append("func.func @main() {")
    body += [c.emit_gpu_call() for c in gpu]
    body += ["  return", "}", ""]
    with open(GPU_OUT, "w") as f:
        f.write("\n".join(body))
    print("%s: %d cases" % (os.path.relpath(GPU_OUT), len(gpu)))


main()
