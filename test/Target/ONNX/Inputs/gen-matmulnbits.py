# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes OUT/<case>/model.onnx and OUT/<case>/test_data_set_0 for
com.microsoft.MatMulNBits, the expected output computed here with NumPy from
ONNX Runtime's definition: W[n, k] = (q[n, k] - zp[n, k / bs]) * scale[n, k /
bs], codes packed two a byte (low nibble first), zero points packed the same
way (default 2^(bits - 1)), Y = A @ W^T (+ bias). Small integer activations
and power-of-two scales make every sum exact in f32, so the comparison is bit
for bit.

usage: gen-matmulnbits.py OUT
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto


def pack_nibbles(values):
    values = np.asarray(values, np.uint8).reshape(-1)
    if values.size % 2:
        values = np.append(values, 0)
    return (values[0::2] | (values[1::2] << 4)).astype(np.uint8)


def write_case(out, name, a_shape, n, k, block, bits, with_zp, with_bias, seed):
    rng = np.random.default_rng(seed)
    blocks = k // block
    q = rng.integers(0, 1 << bits, size=(n, k), dtype=np.uint8)
    scales = (2.0 ** rng.integers(-2, 2, size=(n, blocks))).astype(np.float32)
    zp = (rng.integers(0, 1 << bits, size=(n, blocks), dtype=np.uint8)
          if with_zp else np.full((n, blocks), 1 << (bits - 1), np.uint8))
    a = rng.integers(-3, 4, size=a_shape).astype(np.float32)
    bias = rng.integers(-4, 5, size=(n,)).astype(np.float32)
    w = (q.astype(np.float64) - zp.repeat(block, axis=1)) * \
        scales.repeat(block, axis=1)
    y = (a.astype(np.float64) @ w.T)
    if with_bias:
        y = y + bias
    y = y.astype(np.float32)

    if bits == 4:
        packed_q = np.stack([pack_nibbles(row) for row in q])
    else:
        packed_q = q
    packed_q = packed_q.reshape(n, blocks, block * bits // 8)
    initializers = [numpy_helper.from_array(packed_q, "B"),
                    numpy_helper.from_array(scales.reshape(-1), "scales")]
    inputs = ["A", "B", "scales"]
    if with_zp:
        packed_zp = (np.stack([pack_nibbles(row) for row in zp])
                     if bits == 4 else zp)
        initializers.append(numpy_helper.from_array(packed_zp.reshape(-1),
                                                    "zero_points"))
        inputs.append("zero_points")
    if with_bias:
        while len(inputs) < 5:
            inputs.append("")
        initializers.append(numpy_helper.from_array(bias, "bias"))
        inputs.append("bias")
    node = helper.make_node("MatMulNBits", inputs, ["Y"], domain="com.microsoft",
                            K=k, N=n, bits=bits, block_size=block)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("A", TensorProto.FLOAT, list(a_shape))],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT,
                                       list(a_shape[:-1]) + [n])],
        initializers)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    directory = os.path.join(out, name)
    os.makedirs(os.path.join(directory, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(directory, "model.onnx"))
    for tensor, file in ((numpy_helper.from_array(a, "A"), "input_0.pb"),
                         (numpy_helper.from_array(y, "Y"), "output_0.pb")):
        with open(os.path.join(directory, "test_data_set_0", file), "wb") as f:
            f.write(tensor.SerializeToString())


def main():
    out = sys.argv[1]
    write_case(out, "decode_int4_zp", (1, 256), 64, 256, 32, 4, True, False, 1)
    write_case(out, "prefill_int4_default_zp_bias", (2, 5, 128), 48, 128, 64, 4,
               False, True, 2)
    write_case(out, "decode_int8", (1, 128), 32, 128, 32, 8, True, True, 3)


if __name__ == "__main__":
    main()
