#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Write a module of about N ops of one of three shapes, for measuring how
compile time grows with the size of the program (bench/compile_times.sh).

  chain  one function: N pairs of quant_affine.qdq (per-tensor scale,
         int8 range) and arith.addf on tensor<1024xf32>, each reading the
         previous result; N counts the qdq ops (as issue 38 measured it).
  mlp    one function: N/2 layers of an MLP on one token, each a
         quant_affine.dequantize of an int4 16 x 16 weight (a scale per
         output channel; weight and scale are function arguments) and a
         linalg.matmul of the activations by it (into a zero-filled tensor);
         N counts the dequantize and matmul ops (N = 1,000 is a 500-layer
         MLP). Layers are small so that time follows the number of layers,
         not their size: each still lowers to about 240 lines of LLVM dialect
         (register tiles unrolled).
  funcs  N/5 independent functions of 5 qdq/addf pairs each, as in chain;
         N counts the qdq ops.

usage: gen_scaling.py SHAPE N OUT.mlir
"""
import sys


def chain(pairs, name, lines):
    lines.append("func.func @%s(%%x: tensor<1024xf32>, %%s: tensor<f32>, "
                 "%%out: memref<1024xf32>) {" % name)
    value = "%x"
    for i in range(pairs):
        lines.append("  %%q%d = quant_affine.qdq %s, %%s range [-128, 127] : "
                     "(tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>" % (i, value))
        lines.append("  %%a%d = arith.addf %%q%d, %s : tensor<1024xf32>" % (i, i, value))
        value = "%%a%d" % i
    lines.append("  bufferization.materialize_in_destination %s in restrict writable %%out"
                 " : (tensor<1024xf32>, memref<1024xf32>) -> ()" % value)
    lines.append("  return")
    lines.append("}")


def mlp(layers, lines):
    args = ", ".join("%%w%d: tensor<16x16xi4>, %%s%d: tensor<16x1xf32>" % (i, i)
                     for i in range(layers))
    lines.append("func.func @mlp(%%x: tensor<1x16xf32>, %s, %%out: memref<1x16xf32>) {"
                 % args)
    lines.append("  %zero = arith.constant 0.0 : f32")
    value = "%x"
    maps = ("[affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
            "affine_map<(m, n, k) -> (m, n)>]")
    for i in range(layers):
        lines.append("  %%d%d = quant_affine.dequantize %%w%d, %%s%d range [-8, 7] : "
                     "(tensor<16x16xi4>, tensor<16x1xf32>) -> tensor<16x16xf32>" % (i, i, i))
        lines.append("  %%e%d = tensor.empty() : tensor<1x16xf32>" % i)
        lines.append("  %%f%d = linalg.fill ins(%%zero : f32) outs(%%e%d : tensor<1x16xf32>) "
                     "-> tensor<1x16xf32>" % (i, i))
        lines.append("  %%m%d = linalg.matmul indexing_maps = %s ins(%s, %%d%d : tensor<1x16xf32>, "
                     "tensor<16x16xf32>) outs(%%f%d : tensor<1x16xf32>) -> tensor<1x16xf32>"
                     % (i, maps, value, i, i))
        value = "%%m%d" % i
    lines.append("  bufferization.materialize_in_destination %s in restrict writable %%out"
                 " : (tensor<1x16xf32>, memref<1x16xf32>) -> ()" % value)
    lines.append("  return")
    lines.append("}")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("chain", "mlp", "funcs"):
        sys.exit(__doc__)
    shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = []
    if shape == "chain":
        chain(n, "chain", lines)
    elif shape == "mlp":
        mlp(n // 2, lines)
    else:
        for f in range(n // 5):
            chain(5, "chain%d" % f, lines)
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
