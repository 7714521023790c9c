// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs an ONNX model with ONNX Runtime (onnxruntime-node) on raw inputs:
//   node onnx-ort-run.js MODEL DIR OPTIMIZATION
// DIR/inputs.json lists the graph inputs ({name, type, dims, file}, the
// file holding the little-endian elements); writes each output's elements to
// DIR/output_I.bin and their list to DIR/outputs.json. OPTIMIZATION is an
// ONNX Runtime graphOptimizationLevel: 'disabled' runs the graph's nodes as
// written, 'all' as ONNX Runtime rewrites them by default. One thread, so
// that reductions run in one order.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array,
  uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
  uint64: BigUint64Array, bool: Uint8Array,
};

async function main() {
  const [model, dir, optimization] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: optimization,
    executionMode: 'sequential',
  });
  const feeds = {};
  for (const input of JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json')))) {
    const bytes = fs.readFileSync(path.join(dir, input.file));
    const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    feeds[input.name] = new ort.Tensor(input.type, new ARRAYS[input.type](copy), input.dims);
  }
  const results = await session.run(feeds);
  const outputs = session.outputNames.map((name, i) => {
    const tensor = results[name];
    const data = tensor.data;
    fs.writeFileSync(path.join(dir, `output_${i}.bin`),
                     Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return {name, type: tensor.type, dims: tensor.dims, file: `output_${i}.bin`};
  });
  fs.writeFileSync(path.join(dir, 'outputs.json'), JSON.stringify(outputs));
}

main().catch((error) => {
  console.error(`onnx-ort-run.js: ${error.message}`);
  process.exit(1);
});
