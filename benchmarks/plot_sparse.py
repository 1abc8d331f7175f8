#!/usr/bin/env python3
"""Table and plot of sparse_bench / petsc_spmv_bench JSON lines.

usage: plot_sparse.py sparse.jsonl sparse.png

Prints, per matrix and rank count, GFlop/s, % of the STREAM roofline and % of the
attainable rate (the lower of that roofline and the dgemm rate) for every
kernel and block width, the per-vector cost at nb = 16 relative to one vector, and the
speed-up of tseig's spmmv over PETSc's MatMatMult; draws GFlop/s against nb.
"""
import collections
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def series_name(r):
    fmt = r["format"]
    return r["kernel"] if fmt in ("aij",) or r["kernel"].startswith("plain") else f'{r["kernel"]} {fmt}'


def main():
    rows = load(sys.argv[1])
    groups = collections.defaultdict(dict)  # (matrix, np) -> series -> nb -> record
    for r in rows:
        groups[(r["matrix"], r["np"])].setdefault(series_name(r), {})[r["nb"]] = r
    fig, axes = plt.subplots(1, len(groups), figsize=(6.5 * len(groups), 5), squeeze=False)
    for ax, ((matrix, np_), series) in zip(axes[0], sorted(groups.items())):
        widths = sorted({nb for s in series.values() for nb in s})
        any_rec = next(iter(next(iter(series.values())).values()))
        print(f"\n### {matrix}, np = {np_} (STREAM {any_rec['stream_gbs']:.1f} GB/s, "
              f"dgemm {any_rec['dgemm_gflops']:.1f} GFlop/s)\n")
        print("GFlop/s (% of the memory roofline / % of min(roofline, dgemm rate))\n")
        print("| kernel | " + " | ".join(f"nb={w}" for w in widths) + " |")
        print("|---|" + "---:|" * len(widths))
        for name, by_nb in sorted(series.items()):
            cells = []
            for w in widths:
                r = by_nb.get(w)
                cells.append(f"{r['gflops']:.1f} ({r['percent_roofline']:.0f} / {r['percent_attainable']:.0f} %)"
                             if r else "")
            print(f"| {name} | " + " | ".join(cells) + " |")
            ax.plot([w for w in widths if w in by_nb], [by_nb[w]["gflops"] for w in widths if w in by_nb],
                    marker="o", label=name)
        spmmv = series.get("spmmv crs", {})
        if 1 in spmmv and 16 in spmmv:
            ratio = spmmv[16]["seconds"] / 16 / spmmv[1]["seconds"]
            print(f"\nper-vector cost of spmmv (crs) at nb = 16: {ratio:.3f} of one vector")
        petsc = series.get("petsc_matmatmult", {})
        common = [w for w in widths if w in petsc and w in spmmv]
        if common:
            print("spmmv (crs) speed-up over PETSc MatMatMult: " +
                  ", ".join(f"nb={w}: {petsc[w]['seconds'] / spmmv[w]['seconds']:.1f}x" for w in common))
        ax.set_xscale("log", base=2)
        ax.set_xlabel("block width nb")
        ax.set_ylabel("GFlop/s")
        ax.set_title(f"{matrix}, np = {np_}")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"\nplot: {sys.argv[2]}")


if __name__ == "__main__":
    main()
