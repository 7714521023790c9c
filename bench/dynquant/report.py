#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The dynamic-quantization table: GB/s of the access pattern (the input
read twice, the codes written once) and ratios to the limit measured in the
same run; ONNX Runtime's DynamicQuantizeLinear beside the per-tensor row.

usage: report.py results.csv ort.csv
"""
import csv
import sys


def main():
    lines = list(open(sys.argv[1]))
    # "# target: ...": what the harness (its limit loops) was compiled for.
    for line in lines:
        if line.startswith("# target:"):
            print(line.strip())
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    ort = {}
    for line in open(sys.argv[2]):
        f = line.strip().split(",")
        if len(f) == 8 and f[0] == "ort":
            ort[f[1]] = f
    times = {(r["case"], r["threads"], r["variant"]): float(r["seconds"]) for r in rows}
    traffic = {r["case"]: int(r["bytes"]) for r in rows}
    print("| case | threads | limit GB/s | ours GB/s | ours / limit | plain / limit | ORT DynamicQuantizeLinear / limit |")
    print("|---|---|---|---|---|---|---|")
    for (case, threads, variant), seconds in times.items():
        if variant != "ours":
            continue
        limit = times[(case, threads, "limit")]
        plain = times[(case, threads, "plain")]
        gb = traffic[case] / 1e9
        peer = "-"
        if case == "per_tensor_u8" and threads in ort:
            peer = "%.2f" % (limit / float(ort[threads][2]))
        print("| %s | %s | %.1f | %.1f | %.2f | %.2f | %s |" % (
            case, threads, gb / limit, gb / seconds, limit / seconds, limit / plain, peer))
    for threads, f in sorted(ort.items()):
        print("\nONNX Runtime, %s thread(s): %s of 16777216 codes differ from ours; scale %s (ours %s), "
              "zero point %s (ours %s)" % (threads, f[3], f[4], f[5], f[6], f[7]))


if __name__ == "__main__":
    main()
