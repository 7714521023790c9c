// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ONNX Runtime's MatMulNBits on a case of bench/matmul:
//   node ort.js CASE_DIR ROUNDS
// On 1 and 2 threads, in two modes each: f32 (accuracy_level 0) and int8 (4:
// activations rounded to int8). Runs CASE_DIR/model-MODE.onnx
// (make_model.py) on a.bin, warm-up runs (at least 2 and 100 ms) then
// ROUNDS timed ones, and prints one CSV line per thread count and mode:
//   ort-MODE,THREADS,median seconds,max |y - ref| / max |ref|,
//   max over outputs of |y - ref| / (K 2^-24 sum |a w|)
// against ref.bin and mag.bin (float64, from the harness); a run that fails
// prints nan in its three numbers.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function readF64(file) {
  const buf = fs.readFileSync(file);
  return new Float64Array(buf.buffer, buf.byteOffset, buf.length / 8);
}

// The case's inputs and float64 reference, read once per launch.
function readCase(dir) {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json')));
  const abuf = fs.readFileSync(path.join(dir, 'a.bin'));
  const a = new Float32Array(abuf.buffer.slice(abuf.byteOffset, abuf.byteOffset + abuf.length));
  return {
    dir, meta, a,
    ref: readF64(path.join(dir, 'ref.bin')),
    mag: readF64(path.join(dir, 'mag.bin')),
  };
}

async function timeOne(c, rounds, threads, mode) {
  const session = await ort.InferenceSession.create(
      path.join(c.dir, `model-${mode}.onnx`), {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
      });
  const feeds = {A: new ort.Tensor('float32', c.a, [c.meta.M, c.meta.K])};
  // Warm-up as the harness's: at least 2 runs and 100 ms (this host's
  // first calls after a pause run slower for some 20 ms).
  let y;
  const warmUntil = process.hrtime.bigint() + 100000000n;
  for (let i = 0; i < 2 || process.hrtime.bigint() < warmUntil; ++i)
    y = (await session.run(feeds)).Y.data;
  const times = [];
  for (let i = 0; i < rounds; ++i) {
    const start = process.hrtime.bigint();
    y = (await session.run(feeds)).Y.data;
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  await session.release();
  times.sort((p, q) => p - q);
  let maxErr = 0, maxRef = 0, maxBound = 0;
  const unit = c.meta.K * Math.pow(2, -24);
  for (let i = 0; i < c.ref.length; ++i) {
    const err = Math.abs(y[i] - c.ref[i]);
    maxErr = Math.max(maxErr, err);
    maxRef = Math.max(maxRef, Math.abs(c.ref[i]));
    maxBound = Math.max(maxBound, err / (unit * c.mag[i] + 1e-300));
  }
  return `${times[Math.floor(times.length / 2)]},${maxErr / maxRef},${maxBound}`;
}

async function main() {
  const [dir, roundsArg] = process.argv.slice(2);
  const c = readCase(dir);
  for (const threads of [1, 2]) {
    for (const mode of ['f32', 'int8']) {
      let numbers = 'nan,nan,nan';
      try {
        numbers = await timeOne(c, Number(roundsArg), threads, mode);
      } catch (e) {
        console.error(e.message || e);
      }
      console.log(`ort-${mode},${threads},${numbers}`);
    }
  }
}

main();
