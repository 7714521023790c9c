#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes OUT/cast-e4m3-ROWS.onnx for ROWS in 4096, 11008: Cast of a
ROWS x 4096 f32 input X to float8e4m3fn (saturate = 1, opset 21) and back to
f32: ONNX's spelling of the fp8 E4M3 fake cast. The protobuf is encoded
with the helpers of bench/matmul/ort/make_model.py.

usage: make_model.py OUT
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "matmul_model", os.path.join(HERE, "..", "..", "matmul", "ort", "make_model.py"))
pb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pb)

FLOAT8E4M3FN = 17


def model(rows):
    down = (pb.field_bytes(1, "X") + pb.field_bytes(2, "X8") + pb.field_bytes(3, "down")
            + pb.field_bytes(4, "Cast") + pb.field_bytes(5, pb.attribute("to", FLOAT8E4M3FN))
            + pb.field_bytes(5, pb.attribute("saturate", 1)))
    up = (pb.field_bytes(1, "X8") + pb.field_bytes(2, "Y") + pb.field_bytes(3, "up")
          + pb.field_bytes(4, "Cast") + pb.field_bytes(5, pb.attribute("to", pb.FLOAT)))
    graph = (pb.field_bytes(1, down) + pb.field_bytes(1, up) + pb.field_bytes(2, "g")
             + pb.field_bytes(11, pb.value_info("X", pb.FLOAT, [rows, 4096]))
             + pb.field_bytes(12, pb.value_info("Y", pb.FLOAT, [rows, 4096])))
    opsets = pb.field_bytes(8, pb.field_bytes(1, "") + pb.field_varint(2, 21))
    return (pb.field_varint(1, 10) + pb.field_bytes(2, "quant-affine-bench")
            + pb.field_bytes(7, graph) + opsets)


if __name__ == "__main__":
    for rows in (4096, 11008):
        with open(os.path.join(sys.argv[1], "cast-e4m3-%d.onnx" % rows), "wb") as f:
            f.write(model(rows))
