# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes small QDQ models as quantization tools deliver them, with int8
activations (QuantizeLinear -> DequantizeLinear pairs) and blocked int4
weights (DequantizeLinear with block_size over an int4 initializer), and
their expected outputs computed here with NumPy from ONNX's definitions:

- OUT/test_qdq_mlp: x -> QDQ -> MatMul(DQ(W1)) -> Add(b1) -> Relu -> QDQ ->
  MatMul(DQ(W2)) -> Add(b2);
- OUT/test_qdq_cnn: x -> QDQ -> Conv(DQ(Wc), per-channel int8) -> Relu ->
  MaxPool -> GlobalAveragePool -> Flatten -> QDQ -> Gemm(DQ(Wf));
- OUT/test_qdq_transformer_block: a pre-norm block (LayerNormalization,
  single-head attention with Softmax, an Erf GELU MLP, residuals) on a QDQ
  input with blocked int4 weights.

In the MLP and the CNN, inputs are multiples of 1/4 and scales powers of two,
so every sum is exact in f32 and the outputs must match bit for bit. The
transformer block's softmax, erf and square roots are not exact: its output
is compared within rtol 1e-4, atol 1e-5 of a float64 reference.

usage: gen-qdq-models.py OUT
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

INT4 = 22  # TensorProto.INT4 in ONNX 1.16+; Debian's 1.12 lacks the name.


def int4_initializer(name, values):
    """An int4 tensor, two values a byte, low nibble first."""
    flat = (np.asarray(values, np.int8).reshape(-1) & 0xF).astype(np.uint8)
    if flat.size % 2:
        flat = np.append(flat, 0)
    packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)
    tensor = TensorProto()
    tensor.name = name
    tensor.data_type = INT4
    tensor.dims.extend(values.shape)
    tensor.raw_data = packed.tobytes()
    return tensor


def quantize(x, scale, zero_point, lo, hi):
    q = np.rint(x.astype(np.float32) / np.float32(scale)) + zero_point
    return np.clip(q, lo, hi)


def dequantize(q, scale, zero_point):
    return ((q.astype(np.float32) - np.float32(zero_point)) *
            np.float32(scale)).astype(np.float32)


def qdq(x, scale, zero_point):
    return dequantize(quantize(x, scale, zero_point, -128, 127), scale,
                      zero_point)


class Builder:
    def __init__(self):
        self.nodes, self.initializers, self.count = [], [], 0

    def name(self, prefix):
        self.count += 1
        return "%s_%d" % (prefix, self.count)

    def const(self, array, name=None):
        name = name or self.name("c")
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def qdq(self, x, scale, zero_point):
        s = self.const(np.array(scale, np.float32))
        z = self.const(np.array(zero_point, np.int8))
        return self.node("DequantizeLinear",
                         [self.node("QuantizeLinear", [x, s, z]), s, z])


def blocked_weight(builder, rng, k, n, block):
    """An int4 [K, N] weight in blocks of `block` along K: DequantizeLinear
    (axis 0, block_size) of an int4 initializer."""
    q = rng.integers(-8, 8, size=(k, n)).astype(np.int8)
    scale = (2.0 ** rng.integers(-3, 0, size=(k // block, n))).astype(np.float32)
    w = (q.astype(np.float32) * np.repeat(scale, block, axis=0)).astype(np.float32)
    name = builder.name("w")
    builder.initializers.append(int4_initializer(name, q))
    out = builder.node("DequantizeLinear", [name, builder.const(scale)],
                       axis=0, block_size=block)
    return out, w


def save(out, name, builder, inputs, outputs, x, *ys):
    graph = helper.make_graph(builder.nodes, name, inputs, outputs,
                              builder.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 8
    directory = os.path.join(out, name)
    os.makedirs(os.path.join(directory, "test_data_set_0"), exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    tensors = [(numpy_helper.from_array(x, "x"), "input_0.pb")]
    tensors += [(numpy_helper.from_array(y, o.name), "output_%d.pb" % i)
                for i, (o, y) in enumerate(zip(outputs, ys))]
    for tensor, file in tensors:
        with open(os.path.join(directory, "test_data_set_0", file), "wb") as f:
            f.write(tensor.SerializeToString())


def mlp(out):
    rng = np.random.default_rng(7)
    b = Builder()
    x = (rng.integers(-16, 16, size=(4, 64)) / 4).astype(np.float32)
    h = b.qdq("x", 0.25, 0)
    w1, w1v = blocked_weight(b, rng, 64, 32, 32)
    b1 = (rng.integers(-8, 8, size=(32,)) / 4).astype(np.float32)
    h = b.node("Relu", [b.node("Add", [b.node("MatMul", [h, w1]),
                                       b.const(b1)])])
    # The hidden activation's int8 codes are an output too ("h_q"), so that
    # the quantized values themselves are compared.
    s, z = b.const(np.array(0.5, np.float32)), b.const(np.array(0, np.int8))
    h_q = b.node("QuantizeLinear", [h, s, z])
    b.nodes[-1].output[0] = "h_q"
    h = b.node("DequantizeLinear", ["h_q", s, z])
    del h_q
    w2, w2v = blocked_weight(b, rng, 32, 8, 16)
    b2 = (rng.integers(-8, 8, size=(8,)) / 4).astype(np.float32)
    y_name = b.node("Add", [b.node("MatMul", [h, w2]), b.const(b2)])
    b.nodes[-1].output[0] = "y"
    r = qdq(x, 0.25, 0)
    r = np.maximum((r.astype(np.float64) @ w1v + b1).astype(np.float32), 0)
    r_q = quantize(r, 0.5, 0, -128, 127).astype(np.int8)
    r = dequantize(r_q, 0.5, 0)
    y = (r.astype(np.float64) @ w2v + b2).astype(np.float32)
    save(out, "test_qdq_mlp", b,
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 64])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8]),
          helper.make_tensor_value_info("h_q", TensorProto.INT8, [4, 32])],
         x, y, r_q)
    del y_name


def cnn(out):
    rng = np.random.default_rng(11)
    b = Builder()
    x = (rng.integers(-8, 8, size=(1, 2, 8, 8)) / 4).astype(np.float32)
    h = b.qdq("x", 0.25, 0)
    # Per output channel int8 filters (axis 0).
    qc = rng.integers(-4, 5, size=(4, 2, 3, 3)).astype(np.int8)
    sc = np.array([0.5, 0.25, 1.0, 0.5], np.float32)
    wc = b.node("DequantizeLinear", [b.const(qc), b.const(sc)], axis=0)
    wcv = (qc.astype(np.float32) * sc[:, None, None, None]).astype(np.float32)
    h = b.node("Relu", [b.node("Conv", [h, wc], pads=[1, 1, 1, 1])])
    h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h = b.node("Flatten", [b.node("GlobalAveragePool", [h])])
    h = b.qdq(h, 0.125, 0)
    wf, wfv = blocked_weight(b, rng, 4, 3, 2)
    b.node("Gemm", [h, wf])
    b.nodes[-1].output[0] = "y"
    # Reference.
    r = qdq(x, 0.25, 0)
    padded = np.pad(r, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, 4, 8, 8), np.float64)
    for o in range(4):
        for i in range(8):
            for j in range(8):
                conv[0, o, i, j] = np.sum(padded[0, :, i:i + 3, j:j + 3] *
                                          wcv[o].astype(np.float64))
    r = np.maximum(conv.astype(np.float32), 0)
    r = r.reshape(1, 4, 4, 2, 4, 2).max(axis=(3, 5))
    r = (r.astype(np.float64).sum(axis=(2, 3)) / 16).astype(np.float32)
    r = qdq(r, 0.125, 0)
    y = (r.astype(np.float64) @ wfv).astype(np.float32)
    save(out, "test_qdq_cnn", b,
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 8, 8])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])], x, y)


def layer_norm(x, axis=-1, epsilon=1e-5):
    mean = x.mean(axis=axis, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon)


def transformer(out):
    """One pre-norm transformer block (single head) with int8 QDQ input and
    blocked int4 weights; softmax, erf and the layer norms make its float
    parts inexact: compared within rtol 1e-4, atol 1e-5 of a float64
    reference."""
    rng = np.random.default_rng(13)
    b = Builder()
    s, d, f = 4, 32, 64
    x = (rng.integers(-32, 32, size=(s, d)) / 16).astype(np.float32)
    ones, zeros = np.ones(d, np.float32), np.zeros(d, np.float32)
    h0 = b.qdq("x", 0.0625, 0)
    norm1 = b.node("LayerNormalization", [h0, b.const(ones), b.const(zeros)])
    wq, wqv = blocked_weight(b, rng, d, d, 16)
    wk, wkv = blocked_weight(b, rng, d, d, 16)
    wv, wvv = blocked_weight(b, rng, d, d, 16)
    wo, wov = blocked_weight(b, rng, d, d, 16)
    q = b.node("MatMul", [norm1, wq])
    k = b.node("MatMul", [norm1, wk])
    v = b.node("MatMul", [norm1, wv])
    scores = b.node("Mul", [b.node("MatMul", [q, b.node("Transpose", [k])]),
                            b.const(np.array(1 / np.sqrt(d), np.float32))])
    attention = b.node("MatMul", [b.node("Softmax", [scores]), v])
    h1 = b.node("Add", [h0, b.node("MatMul", [attention, wo])])
    norm2 = b.node("LayerNormalization", [h1, b.const(ones), b.const(zeros)])
    w1, w1v = blocked_weight(b, rng, d, f, 16)
    w2, w2v = blocked_weight(b, rng, f, d, 32)
    u = b.node("MatMul", [norm2, w1])
    gelu = b.node("Mul", [b.node("Mul", [u, b.const(np.array(0.5, np.float32))]),
                          b.node("Add", [b.const(np.array(1, np.float32)),
                                         b.node("Erf", [b.node("Div", [
                                             u, b.const(np.array(np.sqrt(2),
                                                                 np.float32))])])])])
    b.node("Add", [h1, b.node("MatMul", [gelu, w2])])
    b.nodes[-1].output[0] = "y"
    # Reference in float64 from the exactly quantized input.
    from math import erf
    r0 = qdq(x, 0.0625, 0).astype(np.float64)
    n1 = layer_norm(r0)
    qv, kv, vv = n1 @ wqv, n1 @ wkv, n1 @ wvv
    sc = (qv @ kv.T) * np.float64(np.float32(1 / np.sqrt(d)))
    e = np.exp(sc - sc.max(axis=-1, keepdims=True))
    att = (e / e.sum(axis=-1, keepdims=True)) @ vv
    r1 = r0 + att @ wov
    n2 = layer_norm(r1)
    uu = n2 @ w1v
    g = uu * 0.5 * (1 + np.vectorize(erf)(uu / np.sqrt(2)))
    y = (r1 + g @ w2v).astype(np.float32)
    save(out, "test_qdq_transformer_block", b,
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [s, d])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [s, d])], x, y)


def gelu(out):
    """Gelu (opset 20), exact and tanh forms, on the same input."""
    from math import erf, tanh, sqrt, pi
    rng = np.random.default_rng(17)
    b = Builder()
    x = rng.uniform(-4, 4, size=(3, 16)).astype(np.float32)
    exact = b.node("Gelu", ["x"])
    approx = b.node("Gelu", ["x"], approximate="tanh")
    b.node("Add", [exact, b.node("Mul", [approx,
                                         b.const(np.array(1024, np.float32))])])
    b.nodes[-1].output[0] = "y"
    xd = x.astype(np.float64)
    e = xd * 0.5 * (1 + np.vectorize(erf)(xd / sqrt(2)))
    t = xd * 0.5 * (1 + np.vectorize(tanh)(sqrt(2 / pi) *
                                            (xd + 0.044715 * xd ** 3)))
    y = (e + 1024 * t).astype(np.float32)
    save(out, "test_gelu", b,
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 16])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 16])], x, y)


def main():
    mlp(sys.argv[1])
    cnn(sys.argv[1])
    transformer(sys.argv[1])
    gelu(sys.argv[1])


if __name__ == "__main__":
    main()
