#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The dynamic microscaling table: GB/s of the access pattern (the input
read once, the codes and scale bytes written once) and ratios to the limit
measured in the same run.

usage: report.py results.csv
"""
import csv
import sys


def main():
    lines = list(open(sys.argv[1]))
    for line in lines:
        if line.startswith("#"):
            print(line.strip())
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    times = {(r["case"], r["threads"], r["variant"]): float(r["seconds"]) for r in rows}
    traffic = {r["case"]: int(r["bytes"]) for r in rows}
    print("| case | threads | limit GB/s | ours GB/s | ours / limit | plain / limit |")
    print("|---|---|---|---|---|---|")
    for (case, threads, variant), seconds in times.items():
        if variant != "ours":
            continue
        limit = times[(case, threads, "limit")]
        plain = times[(case, threads, "plain")]
        gb = traffic[case] / 1e9
        print("| %s | %s | %.1f | %.1f | %.2f | %.2f |" % (
            case, threads, gb / limit, gb / seconds, limit / seconds, limit / plain))


if __name__ == "__main__":
    main()
