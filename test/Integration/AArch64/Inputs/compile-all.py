#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compiles every CPU integration test to AArch64 assembly, for NEON and SVE.

usage: compile-all.py OPT TRANSLATE LLC TEST_DIR

Each .mlir file of TEST_DIR whose RUN lines use --quant-affine-cpu-pipeline
(and need nothing before it but -inline/-canonicalize) goes through the
pipeline for aarch64 with and without SVE, mlir-translate and llc. A pipeline
error, or LLVM failing on what the pipeline emitted (such as a libm call on a
scalable vector), is a failure. Prints one line per failure and a summary.
"""
import os
import re
import subprocess
import sys

TARGETS = [
    "target-triple=aarch64-unknown-linux-gnu",
    "target-triple=aarch64-unknown-linux-gnu features=+sve",
]


def main():
    opt, translate, llc, directory = sys.argv[1:5]
    files = 0
    failures = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".mlir"):
            continue
        text = open(path).read()
        if "--quant-affine-cpu-pipeline" not in text or "--transform-interpreter" in text:
            continue
        files += 1
        # Programs written in upstream's quant dialect (docs/Interop.md).
        extra = " from-quant=true" if "from-quant=true" in text else ""
        for target in TARGETS:
            steps = [
                [opt, path, "--quant-affine-cpu-pipeline=" + target + extra],
                [translate, "--mlir-to-llvmir"],
                [llc, "-O2", "-o", os.devnull],
            ]
            data = None
            for step in steps:
                done = subprocess.run(step, input=data, capture_output=True)
                if done.returncode != 0:
                    failures += 1
                    first = done.stderr.decode(errors="replace").strip().splitlines()
                    print("FAIL %s [%s] %s: %s" % (name, target, os.path.basename(step[0]),
                                                   first[0] if first else ""))
                    break
                data = done.stdout
    print("%d files, %d targets, %d failures" % (files, len(TARGETS), failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
