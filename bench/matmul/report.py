#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints the tables of bench/matmul from OUT/results.csv and OUT/ort.csv.

Decode (M = 1): GB/s of packed weights and scales, and each kernel's ratio
to the bound (reading them once) on the same thread count. Prefill: GFLOP/s
and the ratio to the FMA peak measured in the same run. ONNX Runtime's
columns carry, after a slash, its largest relative error,
max |y - ref| / max |ref| (ours is checked to be within K 2^-24 sum |x w| of
the float64 reference, output by output, before timing).
"""
import csv
import math
import os
import sys


def main():
    out = sys.argv[1]
    lines = list(open(os.path.join(out, "results.csv")))
    # "# target: ...": what the harness (its bound and peak) was compiled for.
    for line in lines:
        if line.startswith("# target:"):
            print(line.strip() + "\n")
    rows = [r for r in csv.DictReader(
        line for line in lines if not line.startswith("#"))]
    # ONNX Runtime: one line per block of the harness's rounds; the median
    # of their medians (a failed block counts as nan only if all failed).
    runs = {}
    path = os.path.join(out, "ort.csv")
    if os.path.exists(path):
        for line in open(path):
            parts = line.strip().split(",")
            if len(parts) >= 6:
                name, mode, threads, seconds, relative = parts[:5]
                runs.setdefault((name, mode, threads), []).append(
                    (float(seconds), float(relative)))
    ort = {}
    for key, values in runs.items():
        good = sorted(v for v in values if not math.isnan(v[0]))
        ort[key] = (good[(len(good) - 1) // 2] if good
                    else (float("nan"), float("nan")))
    peak = {r["threads"]: float(r["flops"]) for r in rows
            if r["variant"] == "peak"}
    cases = {}
    for r in rows:
        if r["variant"] != "peak":
            cases.setdefault((r["case"], r["threads"]), {})[r["variant"]] = r

    def ort_cell(name, mode, threads, work, per_second_of):
        if (name, mode, threads) not in ort:
            return "-"
        seconds, err = ort[(name, mode, threads)]
        if math.isnan(seconds):
            return "failed"
        return "%s / %.3g" % (per_second_of(work / seconds), err)

    print("## Decode (M = 1): ratio to the bound of reading the packed "
          "weights and scales once\n")
    print("| weights | threads | bound GB/s | ours GB/s | ours | plain | "
          "ORT f32 / rel. err | ORT int8-act / rel. err |")
    print("|---|---|---|---|---|---|---|---|")
    convs = {k: v for k, v in cases.items() if "ours" not in v}
    cases = {k: v for k, v in cases.items() if "ours" in v}
    for (name, threads), v in cases.items():
        if v["ours"]["m"] != "1":
            continue
        nbytes = float(v["ours"]["bytes"])
        bound = float(v["bound"]["seconds"])
        ratio = lambda s: "%.2f" % (bound / s)
        label = name.replace("mm_m1_", "")
        print("| %s | %s | %.1f | %.1f | %s | %s | %s | %s |" % (
            label, threads, nbytes / bound / 1e9,
            nbytes / float(v["ours"]["seconds"]) / 1e9,
            ratio(float(v["ours"]["seconds"])),
            ratio(float(v["plain"]["seconds"])),
            ort_cell(name, "ort-f32", threads, bound, lambda x: "%.2f" % x),
            ort_cell(name, "ort-int8", threads, bound, lambda x: "%.2f" % x)))
    print("\n## Prefill: GFLOP/s, and ours as a fraction of the FMA peak "
          "(%s)\n" % ", ".join("%s thread(s): %.0f GFLOP/s" % (t, p / 1e9)
                               for t, p in sorted(peak.items())))
    print("| case | threads | ours | of peak | plain | ORT f32 / rel. err | "
          "ORT int8-act / rel. err |")
    print("|---|---|---|---|---|---|---|")
    for (name, threads), v in cases.items():
        if v["ours"]["m"] == "1":
            continue
        flops = float(v["ours"]["flops"])
        ours = flops / float(v["ours"]["seconds"])
        gf = lambda x: "%.1f" % (x / 1e9)
        print("| %s | %s | %.1f | %.2f | %.1f | %s | %s |" % (
            name.replace("mm_", ""), threads, ours / 1e9,
            ours / peak.get(threads, float("nan")),
            flops / float(v["plain"]["seconds"]) / 1e9,
            ort_cell(name, "ort-f32", threads, flops, gf),
            ort_cell(name, "ort-int8", threads, flops, gf)))

    if convs:
        print("\n## Convolution 3x3, 64 -> 64 channels, 56 x 56 (NHWC): int8 "
              "filters dequantized inside, beside f32 filters, same pipeline\n")
        print("| threads | int8 filters GFLOP/s | f32 filters GFLOP/s | "
              "int8 / f32 |")
        print("|---|---|---|---|")
        for (name, threads), v in sorted(convs.items()):
            q = float(v["conv-int8"]["flops"]) / float(v["conv-int8"]["seconds"])
            f = float(v["conv-f32"]["flops"]) / float(v["conv-f32"]["seconds"])
            print("| %s | %.1f | %.1f | %.2f |" % (threads, q / 1e9, f / 1e9,
                                                  q / f))


if __name__ == "__main__":
    main()
