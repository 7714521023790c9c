#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs ONNX's own node tests (Debian's libonnx-testdata) through
quant-affine-translate --import-onnx, the CPU pipeline (or the GPU mapping run
on the CPU) and mlir-runner, and compares every output with the stored one.

A test is a directory with model.onnx and test_data_set_*/{input,output}_*.pb.
The comparison happens in the compiled program (--onnx-test-data): bit for
bit for operators whose result ONNX specifies exactly (the quantization
operators, integer arithmetic, data movement, IEEE add/sub/mul/div), within
ONNX's own default tolerance (rtol 1e-3, atol 1e-7) for the others.

usage: onnx-node-tests.py --translate T --opt O --runner R --libdir L
                          [--pipeline cpu|gpu-on-cpu] [--verbose] TEST...
Each TEST is a test directory or a directory of them. Prints one line per
test that does not pass (FAIL; DIFFERS, for stored data we knowingly do not
reproduce, with the reason; UNSUPPORTED, with the importer's message) and
`N passed, N failed, N known differences, N unsupported`.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

# Operators whose outputs ONNX's tests expect bit for bit.
EXACT_OPS = re.compile(
    r"quantizelinear|dequantizelinear|integer|qlinear|relu|reshape|transpose|"
    r"flatten|concat|gather|constant|maxpool|_add|_sub|_mul|_div|cast")
# Float contractions whose test names match the above ("gemm_transposeA"):
# their sums may be ordered or fused differently.
INEXACT_OPS = re.compile(r"gemm|_matmul_")


# Tests whose stored data we knowingly do not reproduce, and why.
KNOWN_DIFFERENCES = {
    "test_cast_FLOAT_to_BFLOAT16":
        "ONNX 1.12's data truncates float to bfloat16; ONNX 1.13 and later "
        "(and our Cast) round to nearest even",
    "test_castlike_FLOAT_to_BFLOAT16":
        "its test data gives `like` the shape [1], the graph declares 3x4",
    "test_castlike_FLOAT_to_BFLOAT16_expanded":
        "its test data gives `like` the shape [1], the graph declares 3x4",
    "test_castlike_BFLOAT16_to_FLOAT":
        "its test data gives `like` the shape [1], the graph declares 3x4",
    "test_castlike_BFLOAT16_to_FLOAT_expanded":
        "its test data gives `like` the shape [1], the graph declares 3x4",
}


def run(command, data=None, timeout=300):
    return subprocess.run(command, input=data, capture_output=True,
                          timeout=timeout)


def run_test(args, test_dir):
    """(status, detail) of one test directory."""
    name = os.path.basename(test_dir.rstrip("/"))
    sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not sets:
        return "UNSUPPORTED", "no test data"
    exact = EXACT_OPS.search(name) and not INEXACT_OPS.search(name)
    tolerance = [] if exact else ["--onnx-rtol=1e-3", "--onnx-atol=1e-7"]
    pipeline = ("--quant-affine-cpu-pipeline" if args.pipeline == "cpu"
                else "--quant-affine-test-gpu-on-cpu-pipeline")
    for data_set in sets:
        imported = run([args.translate, "--import-onnx",
                        os.path.join(test_dir, "model.onnx"),
                        "--onnx-test-data=" + data_set] + tolerance)
        if imported.returncode != 0:
            message = imported.stderr.decode(errors="replace").strip()
            first = message.splitlines()[0] if message else "import failed"
            if "not supported" in first or "does not hold" in first:
                return "UNSUPPORTED", first
            return "FAIL", first
        compiled = run([args.opt, pipeline], imported.stdout)
        if compiled.returncode != 0:
            first = compiled.stderr.decode(
                errors="replace").strip().splitlines()[0]
            # The GPU pipeline's refusal of host code reading an argument
            # (a shape or axes computed from a graph input): a diagnosed
            # limit of that pipeline, not a wrong result.
            if "accesses buffer arguments in kernels only" in first:
                return "UNSUPPORTED", "GPU pipeline: " + first
            return "FAIL", "compile: " + first
        ran = run([args.runner, "-e", "main", "-entry-point-result=void",
                   "-shared-libs=%s/libmlir_runner_utils.so" % args.libdir,
                   "-shared-libs=%s/libmlir_c_runner_utils.so" % args.libdir],
                  compiled.stdout)
        if ran.returncode != 0:
            return "FAIL", "run: " + ran.stderr.decode(errors="replace")[:200]
        counts = re.findall(r"\[(\d+),\s+(\d+)\]", ran.stdout.decode())
        if not counts:
            return "FAIL", "no output lines"
        bad = [(int(i), int(n)) for i, n in counts if int(n) != 0]
        if bad:
            return "FAIL", "%s: mismatches (output, count) %s" % (
                os.path.basename(data_set), bad)
    return "PASS", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--translate", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--libdir", required=True)
    parser.add_argument("--pipeline", choices=["cpu", "gpu-on-cpu"],
                        default="cpu")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("tests", nargs="+")
    args = parser.parse_args()
    totals = {"PASS": 0, "FAIL": 0, "UNSUPPORTED": 0, "DIFFERS": 0}
    tests = []
    for path in args.tests:
        # A directory of tests (Debian's data/node) or one test.
        if os.path.exists(os.path.join(path, "model.onnx")):
            tests.append(path)
        else:
            tests += sorted(glob.glob(os.path.join(path, "test_*")))
    for test_dir in tests:
        status, detail = run_test(args, test_dir)
        known = KNOWN_DIFFERENCES.get(os.path.basename(test_dir.rstrip("/")))
        if known and status == "FAIL":
            status, detail = "DIFFERS", known
        totals[status] += 1
        if status != "PASS" or args.verbose:
            print("%s: %s %s" % (status, os.path.basename(test_dir), detail))
    print("%d passed, %d failed, %d known differences, %d unsupported" %
          (totals["PASS"], totals["FAIL"], totals["DIFFERS"],
           totals["UNSUPPORTED"]))
    return 1 if totals["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
