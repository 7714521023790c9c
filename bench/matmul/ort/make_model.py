#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes CASE_DIR/model-<mode>.onnx: one com.microsoft MatMulNBits node.

usage: make_model.py CASE_DIR

Reads CASE_DIR/meta.json ({M, N, K, bits, block}), b.bin and scales.bin
(written by bench/matmul/harness.cpp) and writes two models, accuracy_level
0 (f32 activations, "f32") and 4 (activations rounded to int8, "int8"),
with B and scales as initializers and no zero points (the defaults, 8 for
4 bits and 128 for 8 bits, match the harness's unsigned codes). The
protobuf is encoded here (field numbers of onnx.proto), so the `onnx`
package is not needed.
"""
import json
import os
import struct
import sys


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, data):
    if isinstance(data, str):
        data = data.encode()
    return varint((number << 3) | 2) + varint(len(data)) + data


FLOAT, UINT8 = 1, 2
ATTR_INT = 2


def tensor(name, dtype, dims, raw):
    # TensorProto: dims 1, data_type 2, name 8, raw_data 9.
    body = b"".join(field_varint(1, d) for d in dims)
    return body + field_varint(2, dtype) + field_bytes(8, name) + field_bytes(9, raw)


def value_info(name, dtype, dims):
    # ValueInfoProto: name 1, type 2; TypeProto.tensor_type 1;
    # Tensor: elem_type 1, shape 2; TensorShapeProto.dim 1; dim_value 1.
    shape = b"".join(field_bytes(1, field_varint(1, d)) for d in dims)
    tensor_type = field_varint(1, dtype) + field_bytes(2, shape)
    return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor_type))


def attribute(name, value):
    # AttributeProto: name 1, i 3, type 20.
    return field_bytes(1, name) + field_varint(3, value) + field_varint(20, ATTR_INT)


def model(meta, b_raw, scales_raw, accuracy_level):
    m, n, k = meta["M"], meta["N"], meta["K"]
    bits, block = meta["bits"], meta["block"]
    blocks = k // block
    # NodeProto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7.
    node = (field_bytes(1, "A") + field_bytes(1, "B") + field_bytes(1, "scales")
            + field_bytes(2, "Y") + field_bytes(3, "matmul")
            + field_bytes(4, "MatMulNBits")
            + b"".join(field_bytes(5, attribute(a, v)) for a, v in (
                ("K", k), ("N", n), ("bits", bits), ("block_size", block),
                ("accuracy_level", accuracy_level)))
            + field_bytes(7, "com.microsoft"))
    # GraphProto: node 1, name 2, initializer 5, input 11, output 12.
    graph = (field_bytes(1, node) + field_bytes(2, "g")
             + field_bytes(5, tensor("B", UINT8, [n, blocks, block * bits // 8], b_raw))
             + field_bytes(5, tensor("scales", FLOAT, [n * blocks], scales_raw))
             + field_bytes(11, value_info("A", FLOAT, [m, k]))
             + field_bytes(12, value_info("Y", FLOAT, [m, n])))
    # OperatorSetIdProto: domain 1, version 2.
    opsets = (field_bytes(8, field_bytes(1, "") + field_varint(2, 21))
              + field_bytes(8, field_bytes(1, "com.microsoft") + field_varint(2, 1)))
    # ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8.
    return field_varint(1, 10) + field_bytes(2, "quant-affine-bench") + field_bytes(7, graph) + opsets


def main():
    case = sys.argv[1]
    meta = json.load(open(os.path.join(case, "meta.json")))
    b_raw = open(os.path.join(case, "b.bin"), "rb").read()
    scales_raw = open(os.path.join(case, "scales.bin"), "rb").read()
    for mode, level in (("f32", 0), ("int8", 4)):
        with open(os.path.join(case, "model-%s.onnx" % mode), "wb") as f:
            f.write(model(meta, b_raw, scales_raw, level))


if __name__ == "__main__":
    main()
