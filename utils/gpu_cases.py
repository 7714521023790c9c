# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""GPU execution tests from the generators' cases (utils/gen-float-qdq-
conformance.py, utils/gen-torchao-tests.py): each case becomes one function
that writes the bits of its result, widened to i64, into a buffer of the
caller's, and @main passes every operand in managed memory (gpu.alloc
host_shared), which host and device both address, then prints the buffer.
The expected bits are the CPU test's.
"""

RUN = """// RUN: quant-affine-opt %s --quant-affine-gpu-pipeline="chip=%gpu_chip format=fatbin" \\
// RUN: | mlir-runner -e main -entry-point-result=void \\
// RUN:   -shared-libs=%cuda_runtime_lib \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \\
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
// REQUIRES: cuda-gpu
"""

BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
NAN = {"f16": 0x7E00, "bf16": 0x7FC0, "f32": 0x7FC00000, "f64": 0x7FF8000000000000}


def ttype(shape, elem):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elem)


def mtype(shape, elem):
    return "memref<%s%s>" % ("".join("%dx" % d for d in shape), elem)


def function(name, args, body, result, rshape, rdt, signed):
    """`args`: ["name: type"]; `body`: lines computing `result` (a tensor of
    shape `rshape`, element `rdt`). The bits go into %out."""
    n = 1
    for d in rshape:
        n *= d
    flat = [n]
    lines = ["func.func @%s(%s, %%out: %s) {" % (
        name, ", ".join("%" + a for a in args), mtype(flat, "i64"))]
    lines += ["  " + l for l in body]
    y = result
    if len(rshape) != 1:
        lines.append("  %%flat = tensor.collapse_shape %s [[%s]] : %s into %s" % (
            y, ", ".join(str(i) for i in range(len(rshape))), ttype(rshape, rdt), ttype(flat, rdt)))
        y = "%flat"
    if rdt in BITS:
        w = BITS[rdt]
        nan = NAN[rdt] if NAN[rdt] < 2 ** 63 else NAN[rdt] - 2 ** 64
        lines += ["  %%nan = arith.constant dense<%d> : %s" % (nan, ttype(flat, "i%d" % w)),
                  "  %%nanf = arith.bitcast %%nan : %s to %s" % (ttype(flat, "i%d" % w), ttype(flat, rdt)),
                  "  %%isnan = arith.cmpf uno, %s, %s : %s" % (y, y, ttype(flat, rdt)),
                  "  %%c = arith.select %%isnan, %%nanf, %s : %s, %s" % (y, ttype(flat, "i1"), ttype(flat, rdt)),
                  "  %%b = arith.bitcast %%c : %s to %s" % (ttype(flat, rdt), ttype(flat, "i%d" % w))]
        src, ext, sw = "%b", "extui", w
    else:
        src, sw, ext = y, int(rdt[1:]), "extsi" if signed else "extui"
    if sw < 64:
        lines.append("  %%w = arith.%s %s : %s to %s" % (ext, src, ttype(flat, "i%d" % sw), ttype(flat, "i64")))
        src = "%w"
    lines += ["  bufferization.materialize_in_destination %s in restrict writable %%out : (%s, %s) -> ()"
              % (src, ttype(flat, "i64"), mtype(flat, "i64")), "  return", "}"]
    return "\n".join(lines)


def call(name, operands, count):
    """`operands`: [(constant lines, value name, shape, element)] built by
    the generator; each is copied into managed memory."""
    lines, names, types = [], [], []
    for const_lines, value, shape, elem in operands:
        lines += const_lines
        tt, mt = ttype(shape, elem), mtype(shape, elem)
        base = value.lstrip("%")
        lines += ["  %%%s_c = bufferization.to_buffer %s : %s to %s" % (base, value, tt, mt),
                  "  %%%s_m = gpu.alloc host_shared () : %s" % (base, mt),
                  "  memref.copy %%%s_c, %%%s_m : %s to %s" % (base, base, mt, mt),
                  "  %%%s_t = bufferization.to_tensor %%%s_m restrict : %s to %s" % (base, base, mt, tt)]
        names.append("%%%s_t" % base)
        types.append(tt)
    out = mtype([count], "i64")
    lines += ["  %%%s_out = gpu.alloc host_shared () : %s" % (name, out),
              "  call @%s(%s, %%%s_out) : (%s, %s) -> ()" % (name, ", ".join(names), name, ", ".join(types), out),
              "  %%%s_u = memref.cast %%%s_out : %s to memref<*xi64>" % (name, name, out),
              "  vector.print str \"%s\\n\"" % name,
              "  call @printMemrefI64(%%%s_u) : (memref<*xi64>) -> ()" % name]
    return "\n".join(lines)
