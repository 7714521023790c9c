#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Write a module with COUNT quant_affine ops (default 1000) for compile-time
measurement: functions of PER_FUNC ops (default 10; PER_FUNC = COUNT makes
one chain), each a chain of quantize, dequantize and qdq ops on 256 x 512
tensors with per-tensor, per-channel and block encodings.

usage: gen_many_ops.py OUT.mlir [COUNT [PER_FUNC]]
"""
import sys

ENCODINGS = [
    ("tensor<1x1xf32>", ""),
    ("tensor<256x1xf32>", ""),
    ("tensor<256x16xf32>", " block [1, 32]"),
    ("tensor<256x4xf32>", " block [1, 128]"),
]


def main():
    path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    per_func = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    lines = []
    for f in range(count // per_func):
        st, block = ENCODINGS[f % len(ENCODINGS)]
        lines.append("func.func @chain%d(%%x: tensor<256x512xf32>, %%s: %s, %%o: %s, "
                     "%%out: memref<256x512xf32>) {" % (f, st, st))
        value = "%x"
        # quantize + dequantize pairs and single qdq ops: 10 ops a function.
        for i in range(per_func):
            rng = "[-128, 127]" if (f + i) % 2 else "[-8, 7]"
            if i % 10 in (1, 5):
                rng = rng_prev
            if i % 10 in (0, 4):
                lines.append("  %%q%d = quant_affine.quantize %s, %%s, %%o range %s%s : "
                             "(tensor<256x512xf32>, %s, %s) -> tensor<256x512xi8>"
                             % (i, value, rng, block, st, st))
                value = "%%q%d" % i
                rng_prev = rng
                continue
            if i % 10 in (1, 5):
                lines.append("  %%v%d = quant_affine.dequantize %s, %%s, %%o range %s%s : "
                             "(tensor<256x512xi8>, %s, %s) -> tensor<256x512xf32>"
                             % (i, value, rng_prev, block, st, st))
            else:
                lines.append("  %%v%d = quant_affine.qdq %s, %%s, %%o range %s%s : "
                             "(tensor<256x512xf32>, %s, %s) -> tensor<256x512xf32>"
                             % (i, value, rng, block, st, st))
            value = "%%v%d" % i
            rng_prev = rng
        lines.append("  bufferization.materialize_in_destination %s in restrict writable %%out"
                     " : (tensor<256x512xf32>, memref<256x512xf32>) -> ()" % value)
        lines.append("  return")
        lines.append("}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    ops = sum(l.count("quant_affine.") for l in lines)
    print("%s: %d quant_affine ops" % (path, ops))


if __name__ == "__main__":
    main()
