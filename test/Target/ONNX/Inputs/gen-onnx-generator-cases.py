# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes OUT/<test>/model.onnx and OUT/<test>/test_data_set_0 for the cases of
ONNX's own test generators (onnx/backend/test/case/node/quantizelinear.py,
dequantizelinear.py, cast.py and castlike.py, read at onnx/onnx commit
f7546912001bc31e92a238b17068a21b373d882e) that ONNX 1.12's test data lacks:
blocked scales, int4/uint4, int2/uint2, int16/uint16, float8 (e4m3fn,
e4m3fnuz, e5m2, e5m2fnuz) and float4e2m1, `output_dtype` and `saturate`.
The tests keep ONNX's names. The data are the generators' literal arrays; the
expected outputs that the generators compute with NumPy are computed the same
way here, and the ones they compute with ml_dtypes come from the exact
encoder below, which follows ml_dtypes (round to nearest even; `astype`
overflows to Inf, or to NaN where the format has no Inf; onnx's
saturate_cast clips to the largest finite value first).

Debian's python3-onnx is ONNX 1.12, whose TensorProto lacks the element types
17 to 26, so such tensors are written by number with `raw_data` filled here:
float8 one byte a value, 4-bit types two a byte and 2-bit types four a byte,
the first value in the low bits. The models are not checked with
onnx.checker. Each model imports the opset in which its case's types or
attributes first appear (19: float8, `saturate`; 21: int4, int16, blocked,
`output_dtype`; 23: float4e2m1; 25: int2), not ONNX's newest.

usage: gen-onnx-generator-cases.py OUT
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

# Element types by number (ONNX 1.12's enum stops at 16).
FLOAT, UINT8, INT8, UINT16, INT16, INT32 = 1, 2, 3, 4, 5, 6
FLOAT16, DOUBLE = 10, 11
E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ = 17, 18, 19, 20
UINT4, INT4, FLOAT4E2M1, UINT2, INT2 = 21, 22, 23, 25, 26

TYPE_NUMBERS = {
    "FLOAT": FLOAT, "UINT8": UINT8, "INT8": INT8, "UINT16": UINT16,
    "INT16": INT16, "FLOAT16": FLOAT16, "DOUBLE": DOUBLE,
    "FLOAT8E4M3FN": E4M3FN, "FLOAT8E4M3FNUZ": E4M3FNUZ,
    "FLOAT8E5M2": E5M2, "FLOAT8E5M2FNUZ": E5M2FNUZ, "UINT4": UINT4,
    "INT4": INT4, "FLOAT4E2M1": FLOAT4E2M1, "UINT2": UINT2, "INT2": INT2,
}
NUMPY_TYPES = {FLOAT: np.float32, UINT8: np.uint8, INT8: np.int8,
               UINT16: np.uint16, INT16: np.int16, INT32: np.int32,
               FLOAT16: np.float16, DOUBLE: np.float64}


class NarrowFloat:
    """An exact encoder and decoder of a float8 or float4 format.

    kind: "ieee" (Inf and NaN, as e5m2), "fn" (NaN is all ones, no Inf, as
    e4m3fn), "fnuz" (NaN is the negative zero's code, no Inf, no -0), "mx"
    (no Inf, no NaN, as float4e2m1fn)."""

    def __init__(self, exponent_bits, mantissa_bits, bias, kind):
        self.e, self.m, self.bias, self.kind = (exponent_bits, mantissa_bits,
                                                bias, kind)
        self.bits = 1 + exponent_bits + mantissa_bits
        self.sign = 1 << (self.bits - 1)
        # Positive finite codes by value.
        self.finite = [(self.decode(c), c) for c in range(self.sign)
                       if math.isfinite(self.decode(c))]
        self.largest, self.largest_code = self.finite[-1]
        exponent = (self.largest_code >> self.m) - self.bias
        self.overflow = self.largest + 2.0 ** (exponent - self.m) / 2

    def decode(self, code):
        sign = -1.0 if code & self.sign else 1.0
        e = (code >> self.m) & ((1 << self.e) - 1)
        mantissa = code & ((1 << self.m) - 1)
        if self.kind == "fnuz" and code == self.sign:
            return math.nan
        if self.kind == "fn" and e == (1 << self.e) - 1 and \
                mantissa == (1 << self.m) - 1:
            return math.nan
        if self.kind == "ieee" and e == (1 << self.e) - 1:
            return sign * math.inf if mantissa == 0 else math.nan
        if e == 0:
            return sign * mantissa * 2.0 ** (1 - self.bias - self.m)
        return sign * (1 + mantissa / 2.0 ** self.m) * 2.0 ** (e - self.bias)

    def nan(self):
        return {"ieee": 0x7E, "fn": 0x7F, "fnuz": 0x80, "mx": 0x8}[self.kind]

    def encode(self, x, saturate):
        """The code of float x: round to nearest even; with saturate values
        (Inf included) past the largest finite one clip to it (onnx's
        saturate_cast), without they overflow as ml_dtypes' astype does."""
        x = float(x)
        if math.isnan(x):
            return self.nan()
        sign = self.sign if math.copysign(1.0, x) < 0 else 0
        a = abs(x)
        if saturate and a > self.largest:
            a = self.largest
        if a > self.overflow or (a == self.overflow and
                                 self.largest_code & 1):
            if self.kind == "ieee":
                return sign | (((1 << self.e) - 1) << self.m)
            if self.kind == "mx":
                return sign | self.largest_code
            return self.nan()
        code = None
        for (low, low_code), (high, high_code) in zip(self.finite,
                                                       self.finite[1:]):
            if low <= a <= high:
                if a - low < high - a or (a - low == high - a and
                                          low_code % 2 == 0):
                    code = low_code
                else:
                    code = high_code
                break
        if code is None:
            code = self.largest_code
        if code == 0 and self.kind == "fnuz":
            return 0
        return sign | code


FORMATS = {
    E4M3FN: NarrowFloat(4, 3, 7, "fn"),
    E4M3FNUZ: NarrowFloat(4, 3, 8, "fnuz"),
    E5M2: NarrowFloat(5, 2, 15, "ieee"),
    E5M2FNUZ: NarrowFloat(5, 2, 16, "fnuz"),
    FLOAT4E2M1: NarrowFloat(2, 1, 1, "mx"),
}
INT_BITS = {UINT4: (4, False), INT4: (4, True), UINT2: (2, False),
            INT2: (2, True)}


def wrap(values, elem_type):
    """ml_dtypes' cast of values to a 4- or 2-bit integer: truncate toward
    zero, keep the low bits (two's complement)."""
    bits, signed = INT_BITS[elem_type]
    v = np.trunc(np.asarray(values, np.float64)).astype(np.int64) & \
        ((1 << bits) - 1)
    if signed:
        v = np.where(v >= 1 << (bits - 1), v - (1 << bits), v)
    return v


class Tensor:
    """A tensor of any ONNX element type: its type number, shape and values
    (floats for the narrow float types, integers for the narrow integers,
    a NumPy array otherwise). `codes` overrides the narrow floats' codes."""

    def __init__(self, elem_type, shape, values, codes=None, saturate=True):
        self.elem_type, self.shape = elem_type, tuple(shape)
        if elem_type in FORMATS:
            if codes is None:
                codes = [FORMATS[elem_type].encode(v, saturate)
                         for v in np.asarray(values, np.float64).reshape(-1)]
            self.codes = np.asarray(codes, np.uint8).reshape(self.shape)
        elif elem_type in INT_BITS:
            self.codes = np.asarray(values, np.int64).reshape(self.shape)
        else:
            self.array = np.asarray(values,
                                    NUMPY_TYPES[elem_type]).reshape(self.shape)

    def values(self):
        """The values as float64 (narrow types) or the NumPy array."""
        if self.elem_type in FORMATS:
            f = FORMATS[self.elem_type]
            return np.array([f.decode(int(c)) for c in self.codes.reshape(-1)],
                            np.float64).reshape(self.shape)
        if self.elem_type in INT_BITS:
            return self.codes.astype(np.float64)
        return self.array

    def proto(self, name):
        if self.elem_type not in FORMATS and self.elem_type not in INT_BITS:
            return numpy_helper.from_array(self.array, name)
        t = onnx.TensorProto()
        t.name = name
        t.data_type = self.elem_type
        t.dims.extend(self.shape)
        flat = self.codes.reshape(-1).astype(np.int64)
        if self.elem_type in FORMATS and self.elem_type != FLOAT4E2M1:
            t.raw_data = flat.astype(np.uint8).tobytes()
            return t
        bits = 4 if self.elem_type in (FLOAT4E2M1, UINT4, INT4) else 2
        per_byte = 8 // bits
        flat = flat & ((1 << bits) - 1)
        flat = np.concatenate([flat, np.zeros(-len(flat) % per_byte, np.int64)])
        packed = np.zeros(len(flat) // per_byte, np.int64)
        for i in range(per_byte):
            packed |= flat[i::per_byte] << (bits * i)
        t.raw_data = packed.astype(np.uint8).tobytes()
        return t


def as_tensor(value):
    if isinstance(value, Tensor):
        return value
    array = np.asarray(value)
    number = {np.dtype(v): k for k, v in NUMPY_TYPES.items()}[array.dtype]
    return Tensor(number, array.shape, array)


def write_case(out, name, op, inputs, outputs, opset, **attributes):
    """inputs and outputs: lists of (name, Tensor or NumPy value)."""
    inputs = [(n, as_tensor(v)) for n, v in inputs]
    outputs = [(n, as_tensor(v)) for n, v in outputs]
    node = helper.make_node(op, [n for n, _ in inputs],
                            [n for n, _ in outputs], **attributes)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, t.elem_type, list(t.shape))
         for n, t in inputs],
        [helper.make_tensor_value_info(n, t.elem_type, list(t.shape))
         for n, t in outputs])
    model = helper.make_model(graph, producer_name="backend-test",
                              opset_imports=[helper.make_opsetid("", opset)])
    # The IR version of the ONNX release that brought the opset.
    model.ir_version = {19: 9, 21: 10, 23: 11, 24: 11, 25: 12}[opset]
    directory = os.path.join(out, name)
    data = os.path.join(directory, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for i, (n, t) in enumerate(tensors):
            with open(os.path.join(data, "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(t.proto(n).SerializeToString())


def quantizelinear_cases(out):
    q = "QuantizeLinear"
    xyz = ["x", "y_scale", "y_zero_point"]

    def case(name, values, opset, **attributes):
        write_case(out, name, q, list(zip(xyz, values[:-1])),
                   [("y", values[-1])], opset, **attributes)

    case("test_quantizelinear",
         [np.array([0, 2, 3, 1000, -254, -1000], np.float32), np.float32(2),
          np.uint8(128), np.array([128, 129, 130, 255, 1, 0], np.uint8)], 21)

    x = np.array([[[[-162, 10], [-100, 232], [-20, -50]],
                   [[-76, 0], [0, 252], [32, -44]],
                   [[245, -485], [-960, -270], [-375, -470]]]], np.float32)
    scale = np.array([2, 4, 5], np.float32)
    zp = np.array([84, 24, 196], np.uint8)
    y = (x / scale.reshape(1, 3, 1, 1) + zp.reshape(1, 3, 1, 1)).astype(
        np.uint8)
    case("test_quantizelinear_axis", [x, scale, zp, y], 21)

    x = np.array([0.0, 1.0, 2.0, 100000.0, 200.0], np.float32)
    case("test_quantizelinear_e4m3fn",
         [x, np.float32(2), Tensor(E4M3FN, [1], [0]),
          Tensor(E4M3FN, [5], [0, 0.5, 1, 448, 96])], 19)
    case("test_quantizelinear_e5m2",
         [x, np.float32(2), Tensor(E5M2, [1], [0.0]),
          Tensor(E5M2, [5], [0, 0.5, 1, 49152, 96])], 19)

    x = np.array([0.0, -128.0, 3.0, -3.0, 2.9, -2.9, 3.1, -3.1, 65536.0,
                  -65534.0, 70000.0, -70000.0], np.float32)
    y = np.array([32767, 32703, 32769, 32765, 32768, 32766, 32769, 32765,
                  65535, 0, 65535, 0], np.uint16)
    case("test_quantizelinear_uint16", [x, np.float32(2.0), np.uint16(32767),
                                        y], 21)

    x = np.array([0.0, -514.0, 3.0, -3.0, 2.9, -2.9, 3.1, -3.1, 65022.0,
                  -66046.0, 65023.0, -66047.0, 65024.0, -66048.0, 70000.0,
                  -70000.0], np.float32)
    y = np.array([256, -1, 258, 254, 257, 255, 258, 254, 32767, -32767,
                  32767, -32768, 32767, -32768, 32767, -32768], np.int16)
    case("test_quantizelinear_int16", [x, np.float32(2.0), np.int16(256), y],
         21)

    x = np.array([[0.0, 2.5, 4.8, 8.6], [-30, -20, 6, 9], [12, 15, 16, 40]],
                 np.float32)
    scale = np.array([2.0, 3.0, 4.0], np.float32)
    case("test_quantizelinear_uint4",
         [x, scale, Tensor(UINT4, [3], [1, 1, 1]),
          Tensor(UINT4, x.shape, [1, 2, 3, 5, 0, 0, 3, 4, 4, 5, 5, 11])], 21,
         axis=0)
    case("test_quantizelinear_int4",
         [x, scale, Tensor(INT4, [3], [1, 1, 1]),
          Tensor(INT4, x.shape, [1, 2, 3, 5, -8, -6, 3, 4, 4, 5, 5, 7])], 21,
         axis=0)

    x = np.array([[0.0, 2.5, 4.8, 8.6], [-2.0, -1.0, 1.0, 3.0],
                  [4.0, 5.0, 6.0, 7.0]], np.float32)
    case("test_quantizelinear_uint2",
         [x, scale, Tensor(UINT2, [3], [0, 0, 0]),
          Tensor(UINT2, x.shape, [0, 1, 2, 3, 0, 0, 0, 1, 1, 1, 2, 2])], 25,
         axis=0)
    x = np.array([[0.0, 2.5, 4.8, 8.6], [-4.0, -3.0, 1.0, 2.0],
                  [-0.0, -2.5, -4.8, -8.6]], np.float32)
    case("test_quantizelinear_int2",
         [x, scale, Tensor(INT2, [3], [0, 0, 0]),
          Tensor(INT2, x.shape, [0, 1, 1, 1, -1, -1, 0, 1, 0, -1, -1, -2])],
         25, axis=0)

    x = np.array([[0.0, 2.5, 4.8, 8.6], [-30, -20, 6, 9],
                  [-0.0, -2.5, -4.8, -8.6]], np.float32)
    case("test_quantizelinear_float4e2m1",
         [x, scale, Tensor(FLOAT4E2M1, [3], [0, 0, 0]),
          Tensor(FLOAT4E2M1, x.shape,
                 [0, 1, 2, 4, -6, -6, 2, 3, 0, -0.5, -1, -2])], 23, axis=0)

    x = np.array([[6.0, 12.0, 50.0, 5.0], [1.0, 8.0, 4.0, 5.0],
                  [0.0, 20.0, 10.0, 4.0]], np.float32)
    scale = np.array([[1.5, 2.5], [3.0, 4.9], [5.1, 6.9]], np.float32)
    zp = np.array([[0, 1], [1, 0], [2, 3]], np.uint8)
    y = np.rint(x / np.repeat(scale, 2, axis=1) +
                np.repeat(zp, 2, axis=1)).astype(np.uint8)
    case("test_quantizelinear_blocked_asymmetric", [x, scale, zp, y], 21,
         axis=1, block_size=2)

    x = np.array([[6.0, -8, -10, 5.0], [1.0, 8.0, 4.0, 5.0],
                  [0.0, 20.0, 10.0, 4.0]], np.float32)
    y = np.clip(np.rint(x / np.repeat(scale, 2, axis=1)), -32768,
                32767).astype(np.int16)
    write_case(out, "test_quantizelinear_blocked_symmetric", q,
               [("x", x), ("y_scale", scale)], [("y", y)], 21, axis=1,
               block_size=2, output_dtype=INT16)


def dequantizelinear_cases(out):
    d = "DequantizeLinear"

    def case(name, inputs, y, opset, **attributes):
        names = ["x", "x_scale", "x_zero_point"]
        write_case(out, name, d, list(zip(names, inputs)), [("y", y)], opset,
                   **attributes)

    case("test_dequantizelinear",
         [np.array([0, 3, 128, 255], np.uint8), np.float32(2), np.uint8(128)],
         np.array([-256, -250, 0, 254], np.float32), 21)

    x = np.array([[[[3, 89], [34, 200], [74, 59]],
                   [[5, 24], [24, 87], [32, 13]],
                   [[245, 99], [4, 142], [121, 102]]]], np.uint8)
    scale = np.array([2, 4, 5], np.float32)
    zp = np.array([84, 24, 196], np.uint8)
    y = (x.astype(np.float32) - zp.reshape(1, 3, 1, 1).astype(np.float32)) * \
        scale.reshape(1, 3, 1, 1)
    case("test_dequantizelinear_axis", [x, scale, zp], y, 21)

    e4m3 = Tensor(E4M3FN, [5], [0, 0.5, 1, 448, -104])
    y = np.array([0.0, 1.0, 2.0, 896.0, -208.0], np.float32)
    case("test_dequantizelinear_e4m3fn", [e4m3, np.float32(2)], y, 19, axis=0)
    case("test_dequantizelinear_e4m3fn_float16", [e4m3, np.float16(2)],
         y.astype(np.float16), 19, axis=0)
    write_case(out, "test_dequantizelinear_e4m3fn_zero_point", d,
               [("x", e4m3), ("x_scale", np.float32(2)),
                ("zero_point", Tensor(E4M3FN, [1], [0]))], [("y", y)], 19,
               axis=0)
    case("test_dequantizelinear_e5m2",
         [Tensor(E5M2, [5], [0, 0.5, 1, 49152, -96]), np.float32(2)],
         np.array([0.0, 1.0, 2.0, 98304.0, -192.0], np.float32), 19, axis=0)

    case("test_dequantizelinear_uint16",
         [np.array([30000, 31000, 32768, 33000], np.uint16), np.float32(2),
          np.uint16(32767)],
         np.array([-5534.0, -3534.0, 2.0, 466.0], np.float32), 21)
    case("test_dequantizelinear_int16",
         [np.array([-300, -30, -1025, 1270], np.int16), np.float32(2),
          np.int16(-1024)],
         np.array([1448.0, 1988.0, -2.0, 4588.0], np.float32), 21)

    case("test_dequantizelinear_uint4",
         [Tensor(UINT4, [5], [0, 1, 7, 10, 15]), np.float32(2),
          Tensor(UINT4, [1], [1])],
         np.array([-2, 0, 12, 18, 28], np.float32), 21, axis=0)
    case("test_dequantizelinear_int4",
         [Tensor(INT4, [5], [0, 1, 7, -4, -8]), np.float32(2),
          Tensor(INT4, [1], [1])],
         np.array([-2, 0, 12, -10, -18], np.float32), 21, axis=0)
    case("test_dequantizelinear_uint2",
         [Tensor(UINT2, [4], [0, 1, 2, 3]), np.float32(2),
          Tensor(UINT2, [1], [1])],
         np.array([-2, 0, 2, 4], np.float32), 25, axis=0)
    case("test_dequantizelinear_int2",
         [Tensor(INT2, [4], [0, 1, -1, -2]), np.float32(2),
          Tensor(INT2, [1], [1])],
         np.array([-2, 0, -4, -6], np.float32), 25, axis=0)
    case("test_dequantizelinear_float4e2m1",
         [Tensor(FLOAT4E2M1, [5], [0, 1, -1, 1.5, -4]), np.float32(2),
          Tensor(FLOAT4E2M1, [1], [0])],
         np.array([0, 2, -2, 3, -8], np.float32), 23, axis=0)

    x = np.array([[[[3, 89], [34, 200], [74, 59]],
                   [[5, 24], [24, 87], [32, 13]],
                   [[5, 12], [12, 33], [65, 42]],
                   [[245, 99], [4, 142], [121, 102]]]], np.uint8)
    scale = np.array([[[[3.0, 2.0], [4.0, 1.0], [2.0, 2.0]],
                       [[5.0, 2.0], [4.0, 3.0], [5.0, 2.0]]]], np.float32)
    zp = np.array([[[[1, 0], [0, 1], [2, 20]],
                    [[3, 2], [4, 3], [15, 2]]]], np.uint8)
    y = (x.astype(np.float32) -
         np.repeat(zp, 2, axis=1).astype(np.float32)) * \
        np.repeat(scale, 2, axis=1)
    case("test_dequantizelinear_blocked", [x, scale, zp], y, 21, axis=1,
         block_size=2)


# cast.py's and castlike.py's inputs.
F8_VALUES = ["0.47892547", "0.48033667", "0.49968487", "0.81910545",
             "0.47031248", "0.7229038", "1000000", "1e-7", "NaN", "INF",
             "+INF", "-INF", "-0.0000001", "0.0000001", "-1000000"]
F4_VALUES = ["0.48", "0.25", "1.05", "-3.5", "-8", "9", "1000000", "1e-7",
             "NaN", "INF", "+INF", "-INF", "-4", "0.01", "-0.0"]
CAST_PAIRS = [
    ("FLOAT", "FLOAT8E4M3FN"), ("FLOAT16", "FLOAT8E4M3FN"),
    ("FLOAT", "FLOAT8E4M3FNUZ"), ("FLOAT16", "FLOAT8E4M3FNUZ"),
    ("FLOAT8E4M3FN", "FLOAT"), ("FLOAT8E4M3FN", "FLOAT16"),
    ("FLOAT8E4M3FNUZ", "FLOAT"), ("FLOAT8E4M3FNUZ", "FLOAT16"),
    ("FLOAT", "FLOAT8E5M2"), ("FLOAT16", "FLOAT8E5M2"),
    ("FLOAT", "FLOAT8E5M2FNUZ"), ("FLOAT16", "FLOAT8E5M2FNUZ"),
    ("FLOAT8E5M2", "FLOAT"), ("FLOAT8E5M2", "FLOAT16"),
    ("FLOAT8E5M2FNUZ", "FLOAT"), ("FLOAT8E5M2FNUZ", "FLOAT16"),
    ("FLOAT", "UINT4"), ("FLOAT16", "UINT4"), ("FLOAT", "INT4"),
    ("FLOAT16", "INT4"), ("UINT4", "FLOAT"), ("UINT4", "FLOAT16"),
    ("UINT4", "UINT8"), ("INT4", "FLOAT"), ("INT4", "FLOAT16"),
    ("INT4", "INT8"), ("FLOAT4E2M1", "FLOAT"), ("FLOAT4E2M1", "FLOAT16"),
    ("FLOAT", "FLOAT4E2M1"), ("FLOAT16", "FLOAT4E2M1"),
]


def cast_to(values, from_type, to_type, saturate):
    """values (as float64 or a NumPy array of the source type) cast to
    to_type the way the generator computes its expected output."""
    if to_type in FORMATS:
        return Tensor(to_type, values.shape,
                      np.asarray(values, np.float64), saturate=saturate)
    if to_type in INT_BITS:
        return Tensor(to_type, values.shape, wrap(values, to_type))
    if from_type in INT_BITS:
        return Tensor(to_type, values.shape,
                      values.astype(np.int64).astype(NUMPY_TYPES[to_type]))
    return Tensor(to_type, values.shape,
                  np.asarray(values, np.float64).astype(NUMPY_TYPES[to_type]))


def cast_cases(out):
    # FLOAT16 inputs overflow to Inf, as the generator's do.
    np.seterr(over="ignore")
    for op, prefix in (("Cast", "test_cast_"), ("CastLike", "test_castlike_")):
        for from_name, to_name in CAST_PAIRS:
            f, t = TYPE_NUMBERS[from_name], TYPE_NUMBERS[to_name]
            if f in (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ) or \
                    t in (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ):
                fp32, shape, opset = np.array(F8_VALUES, np.float32), (3, 5), 19
            elif f in INT_BITS or t in INT_BITS:
                fp32, shape, opset = (np.arange(-9, 16).astype(np.float32),
                                      (5, 5), 21)
            else:
                fp32, shape, opset = np.array(F4_VALUES, np.float32), (3, 5), 23
            fp32 = fp32.reshape(shape)
            # np_from, as the generator makes it.
            if f in (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ):
                source = Tensor(f, shape, fp32, saturate=True)
                values = source.values()
            elif f == FLOAT4E2M1:
                source = Tensor(f, shape, fp32, saturate=False)
                values = source.values()
            elif f in INT_BITS:
                source = Tensor(f, shape, wrap(fp32, f))
                values = source.codes
            else:
                source = Tensor(f, shape, fp32.astype(NUMPY_TYPES[f]))
                values = source.array
            # to FLOAT4E2M1 and the 4-bit integers the generator uses astype;
            # to float8 saturate_cast.
            result = cast_to(values, f, t, saturate=t not in (FLOAT4E2M1,))
            inputs = [("input", source)]
            attributes = {}
            if op == "CastLike":
                inputs.append(("like", Tensor(t, [0], [])))
            else:
                attributes["to"] = t
            write_case(out, prefix + from_name + "_to_" + to_name, op, inputs,
                       [("output", result)], opset, **attributes)
        for from_name in ("FLOAT", "FLOAT16"):
            for to_name in ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
                            "FLOAT8E5M2FNUZ"):
                f, t = TYPE_NUMBERS[from_name], TYPE_NUMBERS[to_name]
                source = Tensor(f, (3, 5), np.array(F8_VALUES, np.float32)
                                .astype(NUMPY_TYPES[f]))
                result = cast_to(source.array, f, t, saturate=False)
                inputs = [("input", source)]
                attributes = {"saturate": 0}
                if op == "CastLike":
                    inputs.append(("like", Tensor(t, [0], [])))
                else:
                    attributes["to"] = t
                write_case(out, prefix + "no_saturate_" + from_name + "_to_" +
                           to_name, op, inputs, [("output", result)], 19,
                           **attributes)


FLOAT8E8M0 = 24


def e8m0_code(value, round_mode="up", saturate=True):
    """Cast's rule (opset 24) for float8e8m0, from the f32 bits of value:
    the exponent field, plus one for "up" when any mantissa bit is set, for
    "nearest" when the top mantissa bit is set and a lower one (or the
    exponent field's lowest) is; saturate keeps 254 from becoming 255.
    NaN and infinities are 255 (NaN); the sign is dropped."""
    bits = int(np.asarray(value, np.float32).view(np.uint32))
    exponent, mantissa = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if exponent == 0xFF:
        return 0xFF
    up = False
    if round_mode == "up":
        up = mantissa != 0
    elif round_mode == "nearest":
        up = bool(mantissa & 0x400000) and \
            (bool(mantissa & 0x3FFFFF) or exponent > 0)
    if saturate and exponent == 0xFE:
        up = False
    return exponent + int(up)


def e8m0_value(code, dtype):
    """2^(code - 127), NaN for 255, rounded once to dtype."""
    if code == 0xFF:
        return np.array(np.nan, dtype)
    return np.array(np.ldexp(np.float64(1), code - 127), np.float32).astype(dtype)


class E8M0(Tensor):
    """A float8e8m0 tensor of given codes (one byte each)."""

    def __init__(self, shape, codes):
        self.elem_type, self.shape = FLOAT8E8M0, tuple(shape)
        self.codes = np.asarray(codes, np.uint8).reshape(self.shape)

    def proto(self, name):
        t = onnx.TensorProto()
        t.name, t.data_type = name, FLOAT8E8M0
        t.dims.extend(self.shape)
        t.raw_data = self.codes.tobytes()
        return t


def e8m0_cases(out):
    """The generator's four test_cast_e8m0_* cases (opset 24), and ours:
    round_mode down and nearest (ties, carries), saturate 0 at the top,
    denormals, Inf, NaN and negative inputs."""
    np.seterr(over="ignore")
    values = np.array([0.0, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0], np.float32)
    for name, dtype in (("FLOAT", np.float32), ("FLOAT16", np.float16)):
        x = values.astype(dtype)
        codes = [e8m0_code(v) for v in x.astype(np.float32)]
        write_case(out, "test_cast_e8m0_%s_to_FLOAT8E8M0" % name, "Cast",
                   [("input", x.reshape(2, 4))],
                   [("output", E8M0((2, 4), codes))], 24,
                   to=FLOAT8E8M0, saturate=1, round_mode="up")
        source = [e8m0_code(v) for v in values]
        write_case(out, "test_cast_e8m0_FLOAT8E8M0_to_%s" % name, "Cast",
                   [("input", E8M0((2, 4), source))],
                   [("output", np.array([e8m0_value(c, dtype) for c in source],
                                        dtype).reshape(2, 4))], 24,
                   to=TYPE_NUMBERS[name])
    edges = np.array([1.5, 3.0, 0.75, 1.25, 1.75, 6.0, -6.0, 1e-40, 6e-39,
                      3.0e38, 3.4028235e38, np.inf, -np.inf, np.nan, 2.0 ** -127,
                      1.0], np.float32)
    for mode in ("up", "down", "nearest"):
        for saturate in (1, 0):
            codes = [e8m0_code(v, mode, bool(saturate)) for v in edges]
            write_case(out, "test_cast_e8m0_%s_saturate%d" % (mode, saturate),
                       "Cast", [("input", edges.reshape(4, 4))],
                       [("output", E8M0((4, 4), codes))], 24,
                       to=FLOAT8E8M0, saturate=saturate, round_mode=mode)
    all_codes = list(range(256))
    write_case(out, "test_cast_e8m0_every_code_to_FLOAT", "Cast",
               [("input", E8M0((16, 16), all_codes))],
               [("output", np.array([e8m0_value(c, np.float32)
                                     for c in all_codes],
                                    np.float32).reshape(16, 16))], 24,
               to=TYPE_NUMBERS["FLOAT"])


def main():
    out = sys.argv[1]
    quantizelinear_cases(out)
    dequantizelinear_cases(out)
    cast_cases(out)
    e8m0_cases(out)


if __name__ == "__main__":
    main()
