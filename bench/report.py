#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turn the harness CSVs into the benchmark report.

usage: report.py OUT_DIR SIZE...   (SIZE as 4096x4096; reads OUT_DIR/SIZE/results.csv)

Prints, per size and thread count, one row per kernel: the matching limit
(the fastest of the harness's loops for the kernel's access pattern, with
plain and non-temporal stores:
quantize reads 4 bytes and writes 1, dequantize reads 1 and writes 4, qdq
copies 4), then ours, the hand-written loop and upstream `quant` in GB/s with
their ratio to the limit, and ours over the best other column. Writes
OUT_DIR/results.csv (every measurement plus limit and ratio) and
OUT_DIR/results.png (ratio to the limit, per kernel, size and thread count).
Then prints OUT_DIR/compile-times.csv if present.
"""
import csv
import os
import sys

PATTERN = {"quantize": "read4write1", "dequantize": "read1write4", "qdq": "copy"}
KINDS = ("ours", "hand", "upstream")


def load(out_dir, sizes):
    rows = []
    for size in sizes:
        with open(os.path.join(out_dir, size, "results.csv")) as f:
            for r in csv.DictReader(f):
                r["size"] = size
                r["threads"] = int(r["threads"])
                r["gbps"] = float(r["gbps"])
                rows.append(r)
    return rows


def limits_of(rows):
    best = {}
    for r in rows:
        if r["kind"] == "limit":
            key = (r["size"], r["op"], r["threads"])
            best[key] = max(best.get(key, 0.0), r["gbps"])
    return best


def main():
    out_dir, sizes = sys.argv[1], sys.argv[2:]
    rows = load(out_dir, sizes)
    limits = limits_of(rows)
    kernels = {}
    for r in rows:
        if r["kind"] == "limit":
            r["limit_gbps"], r["ratio_to_limit"] = r["gbps"], 1.0
            continue
        limit = limits[(r["size"], PATTERN[r["op"]], r["threads"])]
        r["limit_gbps"], r["ratio_to_limit"] = limit, r["gbps"] / limit
        kernels.setdefault((r["size"], r["threads"], r["op"], r["range"], r["encoding"]), {})[r["kind"]] = r

    with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
        fields = ["size", "kind", "op", "range", "encoding", "threads", "bytes", "seconds", "gbps",
                  "limit_gbps", "ratio_to_limit"]
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({**r, "gbps": "%.3f" % r["gbps"], "limit_gbps": "%.3f" % r["limit_gbps"],
                        "ratio_to_limit": "%.3f" % r["ratio_to_limit"]})

    print("GB/s (ratio to the access pattern's limit); last column: ours / best other")
    below = []
    for size in sizes:
        for threads in sorted({k[1] for k in kernels if k[0] == size}):
            print("\n%s, %d thread%s. Limits in GB/s: %s" % (
                size, threads, "s" if threads > 1 else "",
                ", ".join("%s %s %.1f" % (r["op"], r["encoding"], r["gbps"]) for r in rows
                          if r["kind"] == "limit" and r["size"] == size and r["threads"] == threads)))
            print("%-11s %-5s %-9s %7s  %-15s %-15s %-15s %s" % (
                "op", "range", "encoding", "limit", "ours", "hand", "upstream", "ours/best"))
            for key in sorted(k for k in kernels if k[0] == size and k[1] == threads):
                k = kernels[key]
                cells = []
                for kind in KINDS:
                    r = k.get(kind)
                    cells.append("%6.1f (%4.2f)" % (r["gbps"], r["ratio_to_limit"]) if r else "-")
                others = [k[kind]["gbps"] for kind in ("hand", "upstream") if kind in k]
                ours = k["ours"]
                print("%-11s %-5s %-9s %7.1f  %-15s %-15s %-15s %5.2f" % (
                    key[2], key[3], key[4], ours["limit_gbps"], *cells, ours["gbps"] / max(others)))
                if ours["ratio_to_limit"] < 0.9:
                    below.append((size, threads, key[2], key[3], key[4], ours["ratio_to_limit"]))
    print("\nours below 0.9 of the limit: %d of %d" % (
        len(below), sum(1 for k in kernels.values() if "ours" in k)))
    for b in below:
        print("  %s, %d threads, %s %s %s: %.2f" % b)

    plot(out_dir, sizes, kernels)
    times = os.path.join(out_dir, "compile-times.csv")
    if os.path.exists(times):
        print("\nCompile times")
        with open(times) as f:
            for r in csv.DictReader(f):
                print("  %-70s %s s" % (r["what"], r["seconds"]))


def plot(out_dir, sizes, kernels):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib missing: no PNG)")
        return
    panels = sorted({(k[0], k[1]) for k in kernels}, key=lambda p: (sizes.index(p[0]), p[1]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(16, 3.2 * len(panels)), squeeze=False)
    colors = {"ours": "#1f77b4", "hand": "#ff7f0e", "upstream": "#7f7f7f"}
    for ax, (size, threads) in zip(axes[:, 0], panels):
        keys = sorted(k for k in kernels if k[0] == size and k[1] == threads)
        for i, kind in enumerate(KINDS):
            xs = [j + (i - 1) * 0.27 for j in range(len(keys))]
            ys = [kernels[k][kind]["ratio_to_limit"] if kind in kernels[k] else 0 for k in keys]
            ax.bar(xs, ys, width=0.27, color=colors[kind], label=kind)
        ax.axhline(0.9, color="red", linewidth=0.8, linestyle="--")
        ax.axhline(1.0, color="black", linewidth=0.5)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(["%s\n%s %s" % (k[2][:5], k[3], k[4]) for k in keys], fontsize=6)
        ax.set_ylabel("x limit")
        ax.set_title("%s, %d thread%s" % (size, threads, "s" if threads > 1 else ""), fontsize=9)
    axes[0, 0].legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "results.png")
    fig.savefig(path, dpi=110)
    print("\nwrote %s and %s" % (os.path.join(out_dir, "results.csv"), path))


if __name__ == "__main__":
    main()
