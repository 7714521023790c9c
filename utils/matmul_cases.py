# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The fused matmul as the tests and benchmarks write it: dequantize
feeding a transposed linalg.matmul onto zeros or a given initial value,
written into the caller's buffer (destination style, so that buffer may be
device memory)."""


def fused_matmul(name, m, n, k, bits, block, act="f32", attributes="",
                 result=None, init=False):
    """`block` 0: a scale per channel. `attributes`: appended to the
    signature (` attributes {llvm.emit_c_interface}`). `result`: the result's
    element type (default `act`). `init`: the sum starts from an argument
    `%init` of the result's type (after the scales) instead of zeros."""
    result = result or act
    scales = "%dx%d" % (n, k // block) if block else "%dx1" % n
    encoding = " block [1, %d]" % block if block else ""
    x, q, w = ("tensor<%dx%dx%s>" % (m, k, act), "tensor<%dx%dxi%d>" % (n, k, bits),
               "tensor<%dx%dx%s>" % (n, k, act))
    y, s = "tensor<%dx%dx%s>" % (m, n, result), "tensor<%sxf32>" % scales
    out = y.replace("tensor", "memref")
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    init_arg = ", %%init: %s" % y if init else ""
    lines = [
        "func.func @%s(%%x: %s, %%q: %s, %%s: %s%s, %%out: %s)%s {"
        % (name, x, q, s, init_arg, out, attributes),
        "  %%w = quant_affine.dequantize %%q, %%s range [%d, %d]%s : (%s, %s) -> %s" % (lo, hi, encoding, q, s, w),
    ]
    if init:
        dest = "%init"
    else:
        lines += [
            "  %%zero = arith.constant 0.0 : %s" % result,
            "  %%e = tensor.empty() : %s" % y,
            "  %%f = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s" % (result, y, y),
        ]
        dest = "%f"
    return "\n".join(lines + [
        "  %%y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
        "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] "
        "ins(%%x, %%w : %s, %s) outs(%s : %s) -> %s" % (x, w, dest, y, y),
        "  bufferization.materialize_in_destination %%y in restrict writable %%out : (%s, %s) -> ()" % (y, out),
        "  return",
        "}",
        ""])
