"""Runs a registered pipeline, then the text --dump-pass-pipeline gives for
it, and checks that the two outputs are the same: every pass the pipelines
build must be registered and print options that parse back, so that users
can assemble, reduce or reproduce them (mlir-reduce, crash reproducers).

usage: reparse-pipeline.py QUANT_AFFINE_OPT INPUT PIPELINE_FLAG...
"""
import re
import subprocess
import sys


def comparable(output):
    # gpu-module-to-binary records how long it took.
    return re.sub(r"LLVMIRToISATimeInMs = \d+", "", output)


opt, source, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
for flag in flags:
    dumped = subprocess.run([opt, source, flag, "--dump-pass-pipeline",
                             "-o", "/dev/null"], capture_output=True,
                            text=True, check=True).stderr
    text = " ".join(dumped.split("\n", 1)[1].split())
    direct = subprocess.run([opt, source, flag], capture_output=True,
                            text=True, check=True).stdout
    reparsed = subprocess.run([opt, source, "--pass-pipeline=" + text],
                              capture_output=True, text=True)
    if reparsed.returncode != 0:
        sys.exit(f"{flag}: the dumped pipeline does not run:\n"
                 f"{reparsed.stderr}")
    if comparable(reparsed.stdout) != comparable(direct):
        sys.exit(f"{flag}: the dumped pipeline gives another output")
    print(f"{flag}: same output")
