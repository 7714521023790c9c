// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ONNX Runtime's Cast to float8e4m3fn and back on the input of
// bench/floatqdq:
//   node ort.js OUT ROUNDS THREADS ROWS
// Runs OUT/cast-e4m3-ROWS.onnx (make_model.py) on OUT/x-ROWS.bin, 2 warm-up
// runs then ROUNDS timed ones, compares its output with ours
// (OUT/ours-e4m3-ROWS.bin, NaN equal to NaN) and prints one CSV line:
//   ort,ROWS,THREADS,median seconds,values that differ
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function readF32(file) {
  const buf = fs.readFileSync(file);
  return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
}

async function main() {
  const [dir, roundsArg, threadsArg, rowsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg), threads = Number(threadsArg), rows = Number(rowsArg);
  const session = await ort.InferenceSession.create(
      path.join(dir, `cast-e4m3-${rows}.onnx`), {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
      });
  const x = readF32(path.join(dir, `x-${rows}.bin`));
  const feeds = {X: new ort.Tensor('float32', x, [rows, 4096])};
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
  const ours = readF32(path.join(dir, `ours-e4m3-${rows}.bin`));
  const y = out.Y.data;
  let differ = 0;
  const bitsY = new Uint32Array(y.buffer, y.byteOffset, y.length);
  const bitsO = new Uint32Array(ours.buffer, ours.byteOffset, ours.length);
  for (let i = 0; i < y.length; ++i)
    if (bitsY[i] !== bitsO[i] && !(Number.isNaN(y[i]) && Number.isNaN(ours[i])))
      ++differ;
  console.log(`ort,${rows},${threads},${times[Math.floor(times.length / 2)]},${differ}`);
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
