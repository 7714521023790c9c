#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes OUT/dynamic-quantize.onnx: one DynamicQuantizeLinear node
(opset 21) on a 4096 x 4096 f32 input X, with outputs Y (uint8), Y_scale
and Y_zero_point. The protobuf is encoded with the helpers of
bench/matmul/ort/make_model.py (field numbers of onnx.proto), so the `onnx`
package is not needed.

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

ROWS = COLS = 4096


def model():
    node = (pb.field_bytes(1, "X") + pb.field_bytes(2, "Y") + pb.field_bytes(2, "Y_scale")
            + pb.field_bytes(2, "Y_zero_point") + pb.field_bytes(3, "dq")
            + pb.field_bytes(4, "DynamicQuantizeLinear"))
    graph = (pb.field_bytes(1, node) + pb.field_bytes(2, "g")
             + pb.field_bytes(11, pb.value_info("X", pb.FLOAT, [ROWS, COLS]))
             + pb.field_bytes(12, pb.value_info("Y", pb.UINT8, [ROWS, COLS]))
             + pb.field_bytes(12, pb.value_info("Y_scale", pb.FLOAT, []))
             + pb.field_bytes(12, pb.value_info("Y_zero_point", pb.UINT8, [])))
    opsets = pb.field_bytes(8, pb.field_bytes(1, "") + pb.field_varint(2, 21))
    return (pb.field_varint(1, 10) + pb.field_bytes(2, "quant-affine-bench")
            + pb.field_bytes(7, graph) + opsets)


if __name__ == "__main__":
    with open(os.path.join(sys.argv[1], "dynamic-quantize.onnx"), "wb") as f:
        f.write(model())
