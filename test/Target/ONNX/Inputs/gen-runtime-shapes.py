# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes Reshape, Unsqueeze and Squeeze tests whose shape or axes are a
graph input, with a valid and an invalid data set each (ONNX's node-test
layout; the invalid sets' outputs are placeholders, never reached):

- test_reshape_input_shape: x (2, 3, 4) by shape [-1, 0, 2] -> (4, 3, 2);
  invalid: [5, -1, 2] (24 is not a multiple of 10);
- test_unsqueeze_input_axes: x (3, 4) at axes [-1, 0] -> (1, 3, 4, 1);
  invalid: [0, 0] (repeated);
- test_squeeze_input_axes: x (1, 3, 1, 4) at axes [2] -> (1, 3, 4);
  invalid: [1] (a dim of 3).

usage: gen-runtime-shapes.py OUT
"""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper, TensorProto


def save(out, name, op, x, valid, invalid, y):
    node = helper.make_node(op, ["x", "s"], ["y"], name=name)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape),
         helper.make_tensor_value_info("s", TensorProto.INT64, [len(valid)])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    os.makedirs(os.path.join(out, name))
    with open(os.path.join(out, name, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for index, (shape, result) in enumerate(((valid, y), (invalid, y))):
        directory = os.path.join(out, name, "test_data_set_%d" % index)
        os.makedirs(directory)
        tensors = [("input_0", x), ("input_1", np.array(shape, np.int64)),
                   ("output_0", result)]
        for file, array in tensors:
            with open(os.path.join(directory, file + ".pb"), "wb") as f:
                f.write(numpy_helper.from_array(array).SerializeToString())


def main(out):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    save(out, "test_reshape_input_shape", "Reshape", x, [-1, 0, 2], [5, -1, 2],
         x.reshape(4, 3, 2))
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    save(out, "test_unsqueeze_input_axes", "Unsqueeze", x, [-1, 0], [0, 0],
         x.reshape(1, 3, 4, 1))
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 1, 4)
    save(out, "test_squeeze_input_axes", "Squeeze", x, [2], [1],
         x.reshape(1, 3, 4))


if __name__ == "__main__":
    main(sys.argv[1])
