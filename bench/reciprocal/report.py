#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The division-against-reciprocal table: GB/s of each variant (bytes read
and written once) and reciprocal / divide.

usage: report.py results.csv
"""
import csv
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    t = {(r["op"], r["encoding"], r["rows"], r["cols"], r["threads"], r["variant"]): (float(r["seconds"]),
                                                                                       int(r["bytes"]))
         for r in rows}
    print("| op | encoding | size | threads | divide GB/s | reciprocal GB/s | reciprocal / divide |")
    print("|---|---|---|---|---|---|---|")
    for (op, enc, m, n, threads, variant), (sec, nbytes) in t.items():
        if variant != "divide":
            continue
        rsec, _ = t[(op, enc, m, n, threads, "reciprocal")]
        print("| %s | %s | %sx%s | %s | %.1f | %.1f | %.2f |" % (
            op, enc, m, n, threads, nbytes / sec / 1e9, nbytes / rsec / 1e9, sec / rsec))
    for r in open(sys.argv[1]):
        if r.startswith("#"):
            print(r.strip())


if __name__ == "__main__":
    main()
