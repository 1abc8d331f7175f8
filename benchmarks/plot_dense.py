#!/usr/bin/env python3
"""Reads dense_bench JSON lines; prints a markdown table and draws the time of each
solver against N, one panel per (type, nev fraction) and rank count.

usage: plot_dense.py dense.jsonl [--png dense.png]
"""
import argparse
import json
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import numpy as np  # noqa: E402

STYLE = {"one_stage": "o-", "scalapack": "s-", "elpa1": "^-", "elpa2": "v-", "lapack": "kD--",
         "one_stage_gpu": "o:", "two_stage_gpu": "P:", "cusolver": "*:"}


def load(path):
    solves, dgemm = [], []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            (dgemm if r.get("record") == "dgemm" else solves).append(r)
    return solves, dgemm


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def nev_label(r):
    return "all" if r["nev"] == r["N"] else f"{r['nev'] / r['N']:.2g}N"


def print_markdown(solves, dgemm):
    for d in dgemm:
        print(f"dgemm N={d['N']}: {d['gflops_min_rank']:.1f} GFlop/s per rank at "
              f"{d['np']} rank(s) x {d['blas_threads']} thread(s), "
              f"{d['gflops_total']:.1f} GFlop/s in total")
    print()
    print("| solver | type | N | nev | np | grid | BLAS threads | seconds | residual "
          "| orthogonality | note |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|")
    key = lambda r: (r["type"], r["N"], -r["nev"], r["np"], r["solver"])
    for r in sorted(solves, key=key):
        print(f"| {r['solver']} | {r['type']} | {r['N']} | {r['nev']} | {r['np']} | {r['grid']} "
              f"| {r['blas_threads']} | {fmt(r['seconds'], '.3f')} "
              f"| {fmt(r['residual'], '.2e')} | {fmt(r['orthogonality'], '.2e')} "
              f"| {r['note'] or ''} |")


def plot(solves, png):
    ok = [r for r in solves if r["seconds"] is not None]
    # LAPACK (one rank, all the node's threads) is a reference drawn in every panel
    # that computes all eigenpairs.
    lapack = [r for r in ok if r["solver"] == "lapack"]
    mpi = [r for r in ok if r["solver"] != "lapack"]
    rows = sorted({r["np"] for r in mpi})
    cols = sorted({(r["type"], nev_label(r)) for r in mpi}, key=lambda c: (c[0], c[1] != "all"))
    if not rows or not cols:
        print("plot_dense.py: no successful runs to plot")
        return
    fig, axes = plt.subplots(len(rows), len(cols), squeeze=False,
                             figsize=(4.2 * len(cols), 3.4 * len(rows)))
    for i, np_ in enumerate(rows):
        for j, (type_, nev) in enumerate(cols):
            ax = axes[i][j]
            series = defaultdict(list)
            for r in mpi:
                if r["np"] == np_ and r["type"] == type_ and nev_label(r) == nev:
                    series[r["solver"]].append((r["N"], r["seconds"]))
            if nev == "all":
                for r in lapack:
                    if r["type"] == type_:
                        series[f"lapack ({r['blas_threads']} threads)"].append(
                            (r["N"], r["seconds"]))
            for name, points in sorted(series.items()):
                n, t = np.array(sorted(points)).T
                ax.plot(n, t, STYLE.get(name.split()[0], "x-"), label=name)
            ax.set_title(f"type {type_}, nev {nev}, {np_} rank(s)")
            ax.set_xlabel("N")
            ax.set_ylabel("seconds")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"\nplot written to {png}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("jsonl")
    p.add_argument("--png", default="dense.png")
    args = p.parse_args()
    solves, dgemm = load(args.jsonl)
    print_markdown(solves, dgemm)
    plot(solves, args.png)


if __name__ == "__main__":
    main()
