#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""How compile time and memory grow with the program: runs a pipeline on
modules of N ops of each shape of bench/gen_scaling.py (chain, mlp, funcs)
on one thread (--mlir-disable-threading), and prints, per pipeline and
shape, the time (CPU, user + system; and wall) and peak resident memory of
each N, and the exponent k of time ~ N^k fitted by least squares on log-log.

usage: compile_scaling.py QUANT_AFFINE_OPT OUT_DIR [options]
  --sizes 1000,5000,20000   values of N
  --shapes chain,mlp,funcs  shapes (what N counts: bench/gen_scaling.py)
  --pipelines cpu,gpu       cpu: --quant-affine-cpu-pipeline; gpu:
                            --quant-affine-gpu-pipeline="format=isa
                            cuda-path=$CUDA_PATH" (default /usr/local/cuda)
  --repeat R                runs of each point, the fastest kept (default 1)
  --limit S                 a shape's larger N are skipped once one of its
                            points took more than S seconds (default 600)
Appends rows to OUT_DIR/compile-scaling.csv:
  pipeline,shape,N,cpu_seconds,wall_seconds,peak_MB
"""
import argparse
import math
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    """(cpu seconds, wall seconds, peak resident MB) of one run of cmd."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit("failed (%d): %s" % (status, " ".join(cmd)))
    # ru_maxrss is in KiB on Linux.
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024.0


def fit_exponent(points):
    """Least-squares slope of log(time) against log(N)."""
    if len(points) < 2:
        return float("nan")
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-3)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("opt")
    parser.add_argument("out")
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--shapes", default="chain,mlp,funcs")
    parser.add_argument("--pipelines", default="cpu,gpu")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--limit", type=float, default=600.0)
    args = parser.parse_args()
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    pipelines = {
        "cpu": "--quant-affine-cpu-pipeline",
        "gpu": '--quant-affine-gpu-pipeline=format=isa cuda-path=%s' % cuda,
    }
    sizes = [int(n) for n in args.sizes.split(",")]
    workdir = os.path.join(args.out, "scaling")
    os.makedirs(workdir, exist_ok=True)
    csv = os.path.join(args.out, "compile-scaling.csv")
    new = not os.path.exists(csv)
    summary = []
    with open(csv, "a") as table:
        if new:
            table.write("pipeline,shape,N,cpu_seconds,wall_seconds,peak_MB\n")
        for pipeline in args.pipelines.split(","):
            for shape in args.shapes.split(","):
                points = []
                for n in sizes:
                    path = os.path.join(workdir, "%s-%d.mlir" % (shape, n))
                    if not os.path.exists(path):
                        subprocess.run([sys.executable,
                                        os.path.join(ROOT, "bench", "gen_scaling.py"),
                                        shape, str(n), path], check=True)
                    cmd = [args.opt, path, pipelines[pipeline],
                           "--mlir-disable-threading", "-o", "/dev/null"]
                    runs = [run(cmd) for _ in range(args.repeat)]
                    cpu = min(r[0] for r in runs)
                    wall = min(r[1] for r in runs)
                    peak = max(r[2] for r in runs)
                    points.append((n, cpu))
                    table.write("%s,%s,%d,%.2f,%.2f,%.0f\n"
                                % (pipeline, shape, n, cpu, wall, peak))
                    table.flush()
                    print("%-4s %-6s N=%-6d %8.2f s cpu %8.2f s wall %7.0f MB"
                          % (pipeline, shape, n, cpu, wall, peak), flush=True)
                    if cpu > args.limit:
                        break
                summary.append((pipeline, shape, fit_exponent(points)))
    for pipeline, shape, k in summary:
        print("%-4s %-6s fitted exponent (cpu time ~ N^k): k = %.2f"
              % (pipeline, shape, k))


if __name__ == "__main__":
    main()
