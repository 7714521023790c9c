#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes ONNX Runtime's outputs for an ONNX test directory as a new test
data set, so that --onnx-test-data compares a compiled model with ONNX
Runtime instead of the stored reference.

usage: onnx-ort-outputs.py --node-modules DIR [--optimization LEVEL]
                           TEST_DIR OUT_SET
Reads TEST_DIR/model.onnx and TEST_DIR/test_data_set_0/input_*.pb, runs the
model with onnxruntime-node (found in DIR/node_modules) through
utils/onnx-ort-run.js, and writes OUT_SET/input_*.pb (copies) and
OUT_SET/output_*.pb (ONNX Runtime's results). LEVEL is ONNX Runtime's
graphOptimizationLevel: `disabled` (the default) runs the nodes as written;
`all` lets ONNX Runtime fuse them as it does by default.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

# numpy dtype name -> onnxruntime-node tensor type.
ORT_TYPES = {"float32": "float32", "float64": "float64", "int8": "int8",
             "uint8": "uint8", "int16": "int16", "uint16": "uint16",
             "int32": "int32", "uint32": "uint32", "int64": "int64",
             "uint64": "uint64", "bool": "bool"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-modules", required=True)
    parser.add_argument("--optimization", default="disabled",
                        choices=["disabled", "basic", "extended", "all"])
    parser.add_argument("test_dir")
    parser.add_argument("out_set")
    args = parser.parse_args()
    model = onnx.load(os.path.join(args.test_dir, "model.onnx"))
    initializers = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in initializers]
    inputs = sorted(glob.glob(os.path.join(args.test_dir, "test_data_set_0",
                                           "input_*.pb")))
    os.makedirs(args.out_set, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        listed = []
        for index, (name, file) in enumerate(zip(names, inputs)):
            tensor = onnx.TensorProto()
            with open(file, "rb") as f:
                tensor.ParseFromString(f.read())
            array = numpy_helper.to_array(tensor)
            raw = "input_%d.bin" % index
            array.tofile(os.path.join(work, raw))
            listed.append({"name": name, "type": ORT_TYPES[array.dtype.name],
                           "dims": list(array.shape), "file": raw})
            shutil.copy(file, os.path.join(args.out_set,
                                           os.path.basename(file)))
        with open(os.path.join(work, "inputs.json"), "w") as f:
            json.dump(listed, f)
        env = dict(os.environ, NODE_PATH=os.path.join(args.node_modules,
                                                      "node_modules"))
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "onnx-ort-run.js")
        ran = subprocess.run(["node", script,
                              os.path.join(args.test_dir, "model.onnx"), work,
                              args.optimization], env=env)
        if ran.returncode != 0:
            return ran.returncode
        with open(os.path.join(work, "outputs.json")) as f:
            outputs = json.load(f)
        for index, output in enumerate(outputs):
            array = np.fromfile(os.path.join(work, output["file"]),
                                dtype=output["type"].replace("bool", "bool_"))
            tensor = numpy_helper.from_array(array.reshape(output["dims"]),
                                             output["name"])
            with open(os.path.join(args.out_set, "output_%d.pb" % index),
                      "wb") as f:
                f.write(tensor.SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
