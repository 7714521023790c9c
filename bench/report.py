#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turn the harness CSVs into the benchmark report.

usage: report.py OUT_DIR SIZE...   (SIZE as 4096x4096; reads OUT_DIR/SIZE/results.csv)

Every harness row names its access pattern (bytes read and written per
element: read4write4 for qdq, read4write1 for quantize to i8, read1write4 for
dequantize from i8, read4write0.5 and read0.5write4 for packed int4, ...).
The limit of a pattern is the fastest of its limit loops (bench/limits.h:
plain or streaming stores, with or without prefetching) measured in the same
run at the same thread count. Prints, per size and thread count, the limits,
then one row per kernel: its limit, then ours (the pipeline's defaults),
ours-explicit (explicit options), the hand-written loop and upstream `quant`
in GB/s with their ratio to the limit, and ours over the best of hand and
upstream. Kernels map to limits only through the pattern column: the packed
rows (range i4-packed, i2-packed) map to read4write0.5, read0.5write4,
read4write0.25 and read0.25write4, and have no upstream cell. Writes
OUT_DIR/results.csv (every measurement plus limit and ratio) and
OUT_DIR/results.png (ratio to the limit, per kernel, size and thread count).
Then prints OUT_DIR/compile-times.csv if present.
"""
import csv
import os
import sys

KINDS = ("ours", "ours-explicit", "hand", "upstream")
OURS_KINDS = ("ours", "ours-explicit")


def load(out_dir, sizes):
    """The harness rows, and the targets the harnesses print ("# target:
    ..." lines: what their limit loops were compiled for, bench/simd.h)."""
    rows, targets = [], []
    for size in sizes:
        with open(os.path.join(out_dir, size, "results.csv")) as f:
            lines = list(f)
            for line in lines:
                if line.startswith("# target:") and line.strip() not in targets:
                    targets.append(line.strip())
            for r in csv.DictReader(line for line in lines if not line.startswith("#")):
                r["size"] = size
                r["threads"] = int(r["threads"])
                r["gbps"] = float(r["gbps"])
                rows.append(r)
    return rows, targets


def limits_of(rows):
    """(size, pattern, threads) -> the fastest limit row."""
    best = {}
    for r in rows:
        if r["kind"] == "limit":
            key = (r["size"], r["pattern"], r["threads"])
            if key not in best or r["gbps"] > best[key]["gbps"]:
                best[key] = r
    return best


def main():
    out_dir, sizes = sys.argv[1], sys.argv[2:]
    rows, targets = load(out_dir, sizes)
    for target in targets:
        print(target)
    limits = limits_of(rows)
    kernels = {}
    for r in rows:
        limit = limits[(r["size"], r["pattern"], r["threads"])]["gbps"]
        r["limit_gbps"], r["ratio_to_limit"] = limit, r["gbps"] / limit
        if r["kind"] != "limit":
            key = (r["size"], r["threads"], r["op"], r["range"], r["encoding"])
            kernels.setdefault(key, {})[r["kind"]] = r

    with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
        fields = ["size", "kind", "op", "range", "encoding", "pattern", "threads", "bytes", "seconds",
                  "gbps", "limit_gbps", "ratio_to_limit"]
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({**r, "gbps": "%.3f" % r["gbps"], "limit_gbps": "%.3f" % r["limit_gbps"],
                        "ratio_to_limit": "%.3f" % r["ratio_to_limit"]})

    print("GB/s (ratio to the access pattern's limit); last column: ours / best of hand and upstream")
    below = {kind: [] for kind in OURS_KINDS}
    for size in sizes:
        for threads in sorted({k[1] for k in kernels if k[0] == size}):
            print("\n%s, %d thread%s. Limits in GB/s (fastest variant):" % (
                size, threads, "s" if threads > 1 else ""))
            for (lsize, pattern, lthreads), r in sorted(limits.items()):
                if lsize != size or lthreads != threads:
                    continue
                others = ", ".join("%s %.1f" % (v["encoding"], v["gbps"]) for v in rows
                                   if v["kind"] == "limit" and v["size"] == size
                                   and v["threads"] == threads and v["pattern"] == pattern)
                print("  %-15s %6.1f  (%s)" % (pattern, r["gbps"], others))
            print("%-11s %-9s %-9s %7s  %-15s %-15s %-15s %-15s %s" % (
                "op", "range", "encoding", "limit", "ours", "ours-explicit", "hand", "upstream",
                "ours/best"))
            for key in sorted(k for k in kernels if k[0] == size and k[1] == threads):
                k = kernels[key]
                cells = []
                for kind in KINDS:
                    r = k.get(kind)
                    cells.append("%6.1f (%4.2f)" % (r["gbps"], r["ratio_to_limit"]) if r else "-")
                others = [k[kind]["gbps"] for kind in ("hand", "upstream") if kind in k]
                ours = k.get("ours") or k.get("ours-explicit")
                print("%-11s %-9s %-9s %7.1f  %-15s %-15s %-15s %-15s %5.2f" % (
                    key[2], key[3], key[4], ours["limit_gbps"], *cells,
                    ours["gbps"] / max(others) if others else float("nan")))
                for kind in OURS_KINDS:
                    if kind in k and k[kind]["ratio_to_limit"] < 0.9:
                        below[kind].append((size, threads, key[2], key[3], key[4],
                                            k[kind]["ratio_to_limit"]))
    for kind in OURS_KINDS:
        print("\n%s below 0.9 of the limit: %d of %d" % (
            kind, len(below[kind]), sum(1 for k in kernels.values() if kind in k)))
        for b in below[kind]:
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
    colors = {"ours": "#1f77b4", "ours-explicit": "#aec7e8", "hand": "#ff7f0e",
              "upstream": "#7f7f7f"}
    width = 0.8 / len(KINDS)
    for ax, (size, threads) in zip(axes[:, 0], panels):
        keys = sorted(k for k in kernels if k[0] == size and k[1] == threads)
        for i, kind in enumerate(KINDS):
            xs = [j + (i - (len(KINDS) - 1) / 2) * width for j in range(len(keys))]
            ys = [kernels[k][kind]["ratio_to_limit"] if kind in kernels[k] else 0 for k in keys]
            ax.bar(xs, ys, width=width, color=colors[kind], label=kind)
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
