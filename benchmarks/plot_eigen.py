#!/usr/bin/env python3
"""Table and plot of slepc_eigen_bench JSON lines.

usage: plot_eigen.py eigen.jsonl eigen.png

Per problem: every solver's seconds, iterations, pairs found, largest residual by the
common test, peak memory growth per rank, tseig's time split, and the speed-up of the
fastest tseig solver over each SLEPc solver; draws seconds per solver and problem.
"""
import collections
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def family(problem):
    # The window run of the TI is the same problem as its "nearest" run.
    return problem[: -len("_window")] if problem.endswith("_window") else problem


def main():
    rows = load(sys.argv[1])
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault(family(r["problem"]), []).append(r)
    print("| problem | np | solver | seconds | iterations | found | max residual | MiB/rank "
          "| spmmv / orth / RR s | tseig speed-up |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---|---:|")
    for problem, rs in groups.items():
        ours = [r for r in rs if r["solver"].startswith("tseig")]
        best = min(r["seconds"] for r in ours) if ours else None
        for r in rs:
            split = (f'{r["spmmv_s"]:.1f} / {r["orthogonalization_s"]:.1f} / '
                     f'{r["rayleigh_ritz_s"]:.1f}' if "spmmv_s" in r else "")
            speedup = (f'{r["seconds"] / best:.2f}x'
                       if best and not r["solver"].startswith("tseig") else "")
            print(f'| {r["problem"]} | {r["np"]} | {r["solver"]} | {r["seconds"]:.2f} | '
                  f'{r["iterations"]} | {r["found"]} | {r["max_residual"]:.1e} | '
                  f'{r["memory_mib"]:.0f} | {split} | {speedup} |')
    fig, axes = plt.subplots(1, len(groups), figsize=(5 * len(groups), 4), squeeze=False)
    for ax, (problem, rs) in zip(axes[0], groups.items()):
        names = [r["solver"] for r in rs]
        colors = ["tab:blue" if n.startswith("tseig") else "tab:gray" for n in names]
        ax.barh(names, [r["seconds"] for r in rs], color=colors)
        ax.set_xlabel("seconds")
        ax.set_title(problem, fontsize=9)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
