# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes grouped, depthwise, 1-D and 3-D convolution tests (ONNX 1.12's
node tests have no `group` case) in ONNX's node-test layout, with outputs
computed here with NumPy from ONNX's definition. Inputs and weights are
small integers, so every sum is exact and the comparison is bit for bit:

- test_conv_1d_group2: Conv, 1-D, group 2, pads, stride 2, bias;
- test_conv_2d_group2_dilated: Conv, 2-D, group 2, dilations 2, pads;
- test_conv_3d_depthwise: Conv, 3-D, group = channels, stride 2;
- test_convtranspose_2d_group2: ConvTranspose, group 2, strides, dilations,
  pads, output_padding, bias;
- test_convinteger_2d_group3: ConvInteger (uint8 input, int8 weight, zero
  points), group 3.

usage: gen-grouped-convs.py OUT
"""
import itertools
import os
import sys

import numpy as np
from onnx import helper, numpy_helper, TensorProto


def conv(x, w, group, strides, dilations, pads):
    """ONNX Conv on (N, C, D...) in float64 (or int64)."""
    k = x.ndim - 2
    begin, end = pads[:k], pads[k:]
    x = np.pad(x, [(0, 0), (0, 0)] + list(zip(begin, end)))
    n, c = x.shape[:2]
    f = w.shape[0]
    per_group_in, per_group_out = c // group, f // group
    extents = [(w.shape[2 + d] - 1) * dilations[d] + 1 for d in range(k)]
    out_sizes = [(x.shape[2 + d] - extents[d]) // strides[d] + 1
                 for d in range(k)]
    y = np.zeros((n, f) + tuple(out_sizes), x.dtype)
    for o in range(f):
        g = o // per_group_out
        channels = slice(g * per_group_in, (g + 1) * per_group_in)
        for position in itertools.product(*[range(s) for s in out_sizes]):
            window = tuple(
                slice(position[d] * strides[d],
                      position[d] * strides[d] + extents[d], dilations[d])
                for d in range(k))
            patch = x[(slice(None), channels) + window]
            y[(slice(None), o) + position] = np.sum(
                patch * w[o], axis=tuple(range(1, 2 + k)))
    return y


def conv_transpose(x, w, group, strides, dilations, pads, output_padding):
    """ONNX ConvTranspose on (N, C, D...) in float64, as the scatter its
    definition is: x[n, c, i] * w[c, f, r] adds to y[n, g F + f, i s + r d -
    pad_begin]."""
    k = x.ndim - 2
    n, c = x.shape[:2]
    per_group_in, per_group_out = c // group, w.shape[1]
    out_sizes = [strides[d] * (x.shape[2 + d] - 1) + output_padding[d] +
                 (w.shape[2 + d] - 1) * dilations[d] + 1 - pads[d] -
                 pads[k + d] for d in range(k)]
    y = np.zeros((n, group * per_group_out) + tuple(out_sizes))
    for ci in range(c):
        g = ci // per_group_in
        for i in itertools.product(*[range(s) for s in x.shape[2:]]):
            for r in itertools.product(*[range(s) for s in w.shape[2:]]):
                o = tuple(i[d] * strides[d] + r[d] * dilations[d] - pads[d]
                          for d in range(k))
                if all(0 <= o[d] < out_sizes[d] for d in range(k)):
                    for f in range(per_group_out):
                        y[(slice(None), g * per_group_out + f) + o] += (
                            x[(slice(None), ci) + i] * w[(ci, f) + r])
    return y


def save(out, name, node, inputs, outputs):
    """inputs/outputs: (name, array, onnx type)."""
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, t, a.shape) for n, a, t in inputs],
        [helper.make_tensor_value_info(n, t, a.shape) for n, a, t in outputs])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    directory = os.path.join(out, name, "test_data_set_0")
    os.makedirs(directory)
    with open(os.path.join(out, name, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for i, (n, a, _) in enumerate(tensors):
            with open(os.path.join(directory, "%s_%d.pb" % (kind, i)),
                      "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def main(out):
    rng = np.random.default_rng(35)
    F = TensorProto.FLOAT

    def ints(shape, lo=-4, hi=5):
        return rng.integers(lo, hi, size=shape).astype(np.float32)

    x, w, b = ints((2, 4, 9)), ints((6, 2, 3)), ints((6,))
    y = conv(x.astype(np.float64), w.astype(np.float64), 2, [2], [1], [1, 2])
    y = (y + b.reshape(6, 1)).astype(np.float32)
    save(out, "test_conv_1d_group2",
         helper.make_node("Conv", ["x", "w", "b"], ["y"], group=2,
                          strides=[2], pads=[1, 2]),
         [("x", x, F), ("w", w, F), ("b", b, F)], [("y", y, F)])

    x, w = ints((1, 4, 7, 6)), ints((4, 2, 2, 3))
    y = conv(x.astype(np.float64), w.astype(np.float64), 2, [1, 1], [2, 2],
             [1, 0, 1, 2]).astype(np.float32)
    save(out, "test_conv_2d_group2_dilated",
         helper.make_node("Conv", ["x", "w"], ["y"], group=2,
                          dilations=[2, 2], pads=[1, 0, 1, 2]),
         [("x", x, F), ("w", w, F)], [("y", y, F)])

    x, w = ints((1, 3, 5, 6, 5)), ints((3, 1, 3, 2, 3))
    y = conv(x.astype(np.float64), w.astype(np.float64), 3, [2, 2, 2],
             [1, 1, 1], [1, 1, 1, 1, 1, 1]).astype(np.float32)
    save(out, "test_conv_3d_depthwise",
         helper.make_node("Conv", ["x", "w"], ["y"], group=3,
                          strides=[2, 2, 2], pads=[1, 1, 1, 1, 1, 1]),
         [("x", x, F), ("w", w, F)], [("y", y, F)])

    x, w, b = ints((1, 4, 3, 4)), ints((4, 3, 3, 2)), ints((6,))
    y = conv_transpose(x.astype(np.float64), w.astype(np.float64), 2,
                       [2, 1], [1, 2], [1, 0, 0, 1], [1, 0])
    y = (y + b.reshape(6, 1, 1)).astype(np.float32)
    save(out, "test_convtranspose_2d_group2",
         helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], group=2,
                          strides=[2, 1], dilations=[1, 2],
                          pads=[1, 0, 0, 1], output_padding=[1, 0]),
         [("x", x, F), ("w", w, F), ("b", b, F)], [("y", y, F)])

    x = rng.integers(0, 256, size=(1, 6, 5, 5)).astype(np.uint8)
    w = rng.integers(-128, 128, size=(3, 2, 3, 3)).astype(np.int8)
    x_zero, w_zero = np.array(131, np.uint8), np.array(-3, np.int8)
    y = conv(x.astype(np.int64) - 131, w.astype(np.int64) + 3, 3, [1, 1],
             [1, 1], [0, 0, 0, 0]).astype(np.int32)
    save(out, "test_convinteger_2d_group3",
         helper.make_node("ConvInteger", ["x", "w", "x_zero", "w_zero"], ["y"],
                          group=3),
         [("x", x, TensorProto.UINT8), ("w", w, TensorProto.INT8),
          ("x_zero", x_zero, TensorProto.UINT8),
          ("w_zero", w_zero, TensorProto.INT8)],
         [("y", y, TensorProto.INT32)])


if __name__ == "__main__":
    main(sys.argv[1])
