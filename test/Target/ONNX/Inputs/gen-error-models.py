# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes OUT/<case>.onnx: small models that the importer must reject with an
error naming the node (errors.test).

usage: gen-error-models.py OUT
"""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper, TensorProto


def write_model(out, name, node, inputs, outputs, initializers, opset):
    graph = helper.make_graph([node], name, inputs, outputs, initializers)
    model = helper.make_model(graph, producer_name="errors.test",
                              opset_imports=[helper.make_opsetid("", opset)])
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    # A zero point of 2 values beside a scale of 3: neither one element nor
    # the scale's shape.
    write_model(
        out, "quantize_zero_point_shape",
        helper.make_node("QuantizeLinear", ["x", "scale", "zero_point"], ["y"],
                         name="q", axis=0),
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [3, 4])],
        [numpy_helper.from_array(np.array([1, 2, 4], np.float32), "scale"),
         numpy_helper.from_array(np.array([0, 1], np.uint8), "zero_point")],
        13)


if __name__ == "__main__":
    main()
