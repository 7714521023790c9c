# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes float ONNX models with AIMET encodings files beside them, and the
outputs that AIMET's simulation gives, computed here with NumPy from AIMET's
formula (q = clamp(roundeven(x / s) - o, qmin, qmax), x' = (q + o) * s, in
f32; scales held in f32):

- OUT/aimet_activations: x -> Relu -> y with a uint8 asymmetric encoding on x
  (scale 0.0131, offset -161 on AIMET's unsigned grid, zero point 161) and a
  signed symmetric int16 one on y in 2.x; fp16 on y in 1.0.0 and 8-bit float
  (E4M3 with infinities) in 0.6.1 (2.x has no float encodings). Inputs
  include ties, values out of
  range, infinities and NaN: the output is compared bit for bit.
- OUT/aimet_network: x -> Conv(W1) -> Relu -> Reshape -> Gemm(W2, transB=1)
  -> MatMul(W3) -> y, with an int8 per-tensor encoding on x, the Conv
  weight per channel (int8), the Gemm weight LPBQ (int4 blocks of 8 under
  per-channel scales, decompressed to 8 bits) and the MatMul weight per
  block (int4, blocks of 4 along K) in 1.0.0 and 2.x; 0.6.1 cannot hold
  blocks, so there the Gemm and MatMul weights are per channel. Scales are
  powers of two and inputs multiples of 1/8, so every sum is exact.

Each test directory holds model.onnx, test_data_set_0 per format
(set_0.6.1, set_1.0.0, set_2.0.0) and the encodings files
(model-VERSION.encodings).

usage: gen-aimet-models.py OUT
"""
import json
import os
import sys

import numpy as np
from onnx import helper, numpy_helper, TensorProto


def qdq(x, scale, offset, qmin, qmax):
    """AIMET's qdq in f32 (broadcast scale and offset)."""
    x = np.asarray(x, np.float32)
    s = np.asarray(scale, np.float32)
    o = np.asarray(offset, np.float32)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        q = np.clip(np.rint(x / s) - o, np.float32(qmin), np.float32(qmax))
        return ((q + o) * s).astype(np.float32)


def fake_e4m3(x):
    """AIMET's fake-cast to E4M3 with infinities (largest finite 240):
    clamp to +-240, then round to nearest even on the grid of 3 mantissa
    bits. AIMET's fake_cast_to_ieee_float clamps the binade index at 1, so
    its grid reaches one binade below IEEE's subnormals: the smallest
    quantum is 2^-10, not 2^-9. NaN stays NaN."""
    x = np.asarray(x, np.float64)
    clamped = np.clip(x, -240.0, 240.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = np.floor(np.log2(np.abs(clamped)))
    exponent = np.where(np.isfinite(exponent), exponent, -7)
    quantum = 2.0 ** (np.maximum(exponent, -7) - 3)
    y = np.rint(clamped / quantum) * quantum
    y = np.where(np.isnan(x), x, np.copysign(y, x))
    return y.astype(np.float32)


def write_set(directory, name, inputs, outputs):
    os.makedirs(os.path.join(directory, name), exist_ok=True)
    for kind, arrays in (("input", inputs), ("output", outputs)):
        for i, array in enumerate(arrays):
            with open(os.path.join(directory, name, "%s_%d.pb" % (kind, i)),
                      "wb") as f:
                f.write(numpy_helper.from_array(array).SerializeToString())


def write_model(directory, graph):
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


def activations(out):
    directory = os.path.join(out, "aimet_activations")
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        "aimet_activations",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 16])])
    write_model(directory, graph)
    s = np.float32(0.0131)
    # Ties of x / s (k + 0.5, computed so that the f32 division lands on
    # them), their neighbours, the ends of the grid, and specials.
    ties = np.array([(k + 0.5) * s for k in range(-3, 5)], np.float32)
    x = np.concatenate([
        ties, np.nextafter(ties, np.float32(np.inf)),
        np.nextafter(ties, np.float32(-np.inf)),
        np.array([-161 * s, 94 * s, -162 * s, 95 * s, 1e6, -1e6, np.inf,
                  -np.inf, np.nan, -0.0, 0.0, 1e-30], np.float32),
        np.linspace(-2.5, 1.5, 28).astype(np.float32)]).reshape(4, 16)
    y_scale = np.float32(2.0 ** -8)
    h = qdq(x, s, -161, 0, 255)
    relu = np.where(h < 0, np.float32(0), h)  # NaN and -0.0 stay
    y16 = qdq(relu, y_scale, 0, -32768, 32767)
    write_set(directory, "set_2.0.0", [x], [y16])
    write_json(os.path.join(directory, "model-2.0.0.encodings"), {
        "version": "2.0.0",
        "encodings": [
            {"name": "x", "output_dtype": "uint8", "y_scale": float(s),
             "y_zero_point": 161},
            {"name": "y", "output_dtype": "int16", "y_scale": float(y_scale)},
        ]})
    # 1.0.0: x as above (file offset -161); y as fp16 (a float fake-cast).
    y_half = relu.astype(np.float16).astype(np.float32)
    write_set(directory, "set_1.0.0", [x], [y_half])
    write_json(os.path.join(directory, "model-1.0.0.encodings"), {
        "version": "1.0.0",
        "activation_encodings": [
            {"name": "x", "dtype": "INT", "enc_type": "PER_TENSOR", "bw": 8,
             "is_sym": False, "scale": [float(s)], "offset": [-161.0]},
            {"name": "y", "dtype": "FLOAT", "enc_type": "PER_TENSOR",
             "bw": 16},
        ],
        "param_encodings": [],
        "quantizer_args": {"activation_bitwidth": 8, "dtype": "int"}})
    # 0.6.1: x as above; y as 8-bit float, which AIMET reads as E4M3 with
    # infinities (largest finite 240).
    write_set(directory, "set_0.6.1", [x], [fake_e4m3(relu)])
    write_json(os.path.join(directory, "model-0.6.1.encodings"), {
        "version": "0.6.1",
        "activation_encodings": {
            "x": [{"bitwidth": 8, "dtype": "int", "is_symmetric": "False",
                   "scale": float(s), "offset": -161,
                   "min": float(-161 * s), "max": float(94 * s)}],
            "y": [{"bitwidth": 8, "dtype": "float"}],
        },
        "param_encodings": {},
        "excluded_layers": []})


def network(out):
    directory = os.path.join(out, "aimet_network")
    rng = np.random.default_rng(35)
    w1 = rng.uniform(-1, 1, size=(4, 2, 3, 3)).astype(np.float32)
    w2 = rng.uniform(-1, 1, size=(6, 16)).astype(np.float32)  # Gemm transB
    w3 = rng.uniform(-1, 1, size=(6, 3)).astype(np.float32)  # MatMul [K, N]
    x = (rng.integers(-16, 16, size=(1, 2, 4, 4)) / 8).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["conv"], name="conv",
                         pads=[0, 0, 0, 0]),
        helper.make_node("Relu", ["conv"], ["relu"], name="relu"),
        helper.make_node("Reshape", ["relu", "shape"], ["flat"],
                         name="reshape"),
        helper.make_node("Gemm", ["flat", "w2"], ["gemm"], name="gemm",
                         transB=1),
        helper.make_node("MatMul", ["gemm", "w3"], ["y"], name="matmul"),
    ]
    graph = helper.make_graph(
        nodes, "aimet_network",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
         numpy_helper.from_array(w3, "w3"),
         numpy_helper.from_array(np.array([1, 16], np.int64), "shape")])
    write_model(directory, graph)

    def run(w1q, w2q, w3q):
        xq = qdq(x, 2.0 ** -3, 0, -128, 127).astype(np.float64)
        conv = np.zeros((4, 2, 2))
        for o in range(4):
            for i in range(2):
                for j in range(2):
                    conv[o, i, j] = np.sum(xq[0, :, i:i + 3, j:j + 3] *
                                           w1q[o].astype(np.float64))
        h = np.maximum(conv.astype(np.float32), 0).reshape(1, 16)
        h = (h.astype(np.float64) @ w2q.T.astype(np.float64)).astype(np.float32)
        return (h.astype(np.float64) @ w3q.astype(np.float64)).astype(np.float32)

    # Conv weight per output channel, int8 signed symmetric.
    c1 = (2.0 ** -np.array([6, 7, 6, 8])).astype(np.float32)
    w1q = qdq(w1, c1.reshape(4, 1, 1, 1), 0, -128, 127)
    # Gemm weight [6, 16]: LPBQ, blocks of 8 along K (axis 1), int4 grid;
    # the block scale is the channel's scale times an integer in [1, 16].
    per_channel = (2.0 ** -np.array([8, 9, 8, 10, 9, 8])).astype(np.float32)
    ints = rng.choice([1, 2, 4, 8, 16], size=(6, 2)).astype(np.float32)
    w2q = qdq(w2, np.repeat(per_channel[:, None] * ints, 8, axis=1), 0, -8, 7)
    # MatMul weight [6, 3]: int4 blocks of 4... K = 6 is not a multiple of 4,
    # so blocks of 3 along K (axis -2), scales (2, 3).
    b3 = (2.0 ** -rng.integers(2, 5, size=(2, 3))).astype(np.float32)
    w3q = qdq(w3, np.repeat(b3, 3, axis=0), 0, -8, 7)
    x_entry_1 = {"name": "x", "dtype": "INT", "enc_type": "PER_TENSOR",
                 "bw": 8, "is_sym": True, "scale": [0.125], "offset": [-128]}
    write_set(directory, "set_1.0.0", [x], [run(w1q, w2q, w3q)])
    write_json(os.path.join(directory, "model-1.0.0.encodings"), {
        "version": "1.0.0",
        "activation_encodings": [x_entry_1],
        "param_encodings": [
            {"name": "w1", "dtype": "INT", "enc_type": "PER_CHANNEL", "bw": 8,
             "is_sym": True, "scale": c1.tolist(), "offset": [-128] * 4},
            {"name": "w2", "dtype": "INT", "enc_type": "LPBQ", "bw": 8,
             "compressed_bw": 4, "block_size": 8, "is_sym": True,
             "scale": per_channel.tolist(), "offset": [-128] * 6,
             "per_block_int_scale": ints.astype(int).reshape(-1).tolist()},
            {"name": "w3", "dtype": "INT", "enc_type": "PER_BLOCK", "bw": 4,
             "block_size": 3, "is_sym": True,
             "scale": b3.reshape(-1).tolist(), "offset": [-8] * 6},
        ]})
    write_set(directory, "set_2.0.0", [x], [run(w1q, w2q, w3q)])
    write_json(os.path.join(directory, "model-2.0.0.encodings"), {
        "version": "2.0.0",
        "encodings": [
            {"name": "x", "output_dtype": "int8", "y_scale": 0.125},
            {"name": "w1", "output_dtype": "int8", "axis": 0,
             "y_scale": c1.tolist()},
            {"name": "w2", "output_dtype": "int4", "axis": 1, "block_size": 8,
             "per_block_int_scale": ints.astype(int).tolist(),
             "per_channel_float_scale": per_channel.reshape(6, 1).tolist()},
            {"name": "w3", "output_dtype": "int4", "axis": -2, "block_size": 3,
             "y_scale": b3.tolist()},
        ]})
    # 0.6.1 holds no blocks: w2 per output channel (axis 0 under Gemm
    # transB), w3 per column (axis -1 under MatMul), both int4.
    c2 = (2.0 ** -np.array([4, 5, 4, 6, 5, 4])).astype(np.float32)
    c3 = (2.0 ** -np.array([2, 3, 4])).astype(np.float32)
    w2p = qdq(w2, c2.reshape(6, 1), 0, -8, 7)
    w3p = qdq(w3, c3.reshape(1, 3), 0, -8, 7)
    write_set(directory, "set_0.6.1", [x], [run(w1q, w2p, w3p)])

    def legacy(scales, bitwidth):
        return [{"bitwidth": bitwidth, "dtype": "int", "is_symmetric": "True",
                 "scale": float(s), "offset": -2 ** (bitwidth - 1),
                 "min": float(-2 ** (bitwidth - 1) * s),
                 "max": float((2 ** (bitwidth - 1) - 1) * s)} for s in scales]
    write_json(os.path.join(directory, "model-0.6.1.encodings"), {
        "version": "0.6.1",
        "activation_encodings": {"x": legacy([0.125], 8)},
        "param_encodings": {"w1": legacy(c1, 8), "w2": legacy(c2, 4),
                            "w3": legacy(c3, 4)}})


def main():
    activations(sys.argv[1])
    network(sys.argv[1])


if __name__ == "__main__":
    main()
