// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ONNX Runtime's DynamicQuantizeLinear (per tensor, uint8) on the input of
// bench/dynquant:
//   node ort.js OUT ROUNDS THREADS
// Runs OUT/dynamic-quantize.onnx (make_model.py) on OUT/x.bin, 2 warm-up
// runs then ROUNDS timed ones, compares its codes, scale and zero point
// with ours (OUT/ours-per-tensor*.bin: compute_encoding [0, 255] + quantize,
// whose offset is the negated zero point) and prints one CSV line:
//   ort,THREADS,median seconds,codes that differ,ort scale,our scale,
//   ort zero point,our zero point
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function readF32(file) {
  const buf = fs.readFileSync(file);
  return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
}

async function main() {
  const [dir, roundsArg, threadsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg), threads = Number(threadsArg);
  const session = await ort.InferenceSession.create(
      path.join(dir, 'dynamic-quantize.onnx'), {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
      });
  const x = readF32(path.join(dir, 'x.bin'));
  const feeds = {X: new ort.Tensor('float32', x, [4096, 4096])};
  let out;
  for (let i = 0; i < 2; ++i)
    out = await session.run(feeds);
  const times = [];
  for (let i = 0; i < rounds; ++i) {
    const start = process.hrtime.bigint();
    out = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((p, q) => p - q);
  const ours = fs.readFileSync(path.join(dir, 'ours-per-tensor.bin'));
  const y = out.Y.data;
  let differ = 0;
  for (let i = 0; i < y.length; ++i)
    differ += y[i] !== ours[i] ? 1 : 0;
  const ourScale = readF32(path.join(dir, 'ours-per-tensor-encoding.bin'))[0];
  const ourOffset = readF32(path.join(dir, 'ours-per-tensor-offset.bin'))[0];
  console.log(`ort,${threads},${times[Math.floor(times.length / 2)]},${differ},` +
              `${out.Y_scale.data[0]},${ourScale},${out.Y_zero_point.data[0]},${-ourOffset}`);
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
