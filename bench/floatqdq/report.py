#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The float_qdq table: GB/s of the access pattern (read and write 4 bytes
per element) and ratios to the copy limit measured in the same run; ONNX
Runtime's Cast to float8e4m3fn and back beside the E4M3 rows.

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
        if len(f) == 5 and f[0] == "ort":
            ort[(f[1], f[2])] = f
    times = {(r["case"], r["rows"], r["threads"], r["variant"]): float(r["seconds"]) for r in rows}
    traffic = {(r["case"], r["rows"]): int(r["bytes"]) for r in rows}
    print("| case | size | threads | limit GB/s | ours GB/s | ours / limit | plain / limit | ORT Cast-Cast / limit |")
    print("|---|---|---|---|---|---|---|---|")
    for (case, size, threads, variant), seconds in times.items():
        if variant != "ours":
            continue
        limit = times[(case, size, threads, "limit")]
        plain = times[(case, size, threads, "plain")]
        gb = traffic[(case, size)] / 1e9
        peer = "-"
        if case == "e4m3" and (size, threads) in ort:
            peer = "%.2f" % (limit / float(ort[(size, threads)][3]))
        print("| %s | %sx4096 | %s | %.1f | %.1f | %.2f | %.2f | %s |" % (
            case, size, threads, gb / limit, gb / seconds, limit / seconds, limit / plain, peer))
    for (size, threads), f in sorted(ort.items()):
        print("\nONNX Runtime, %sx4096, %s thread(s): %s values differ from ours" % (size, threads, f[4]))


if __name__ == "__main__":
    main()
