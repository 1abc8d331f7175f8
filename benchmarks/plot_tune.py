#!/usr/bin/env python3
"""Table (markdown on stdout) and plot of tune_bench's JSON lines: each choice's time over
the exhaustive best, per problem, and the goals (tuned ≤ 1.05, model ≤ 1.15, SCF search
≤ 12 calls with no trial slower than 2× the best)."""
import json
import sys


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    print("| type | N | nev | np | exhaustive best | s | tuned | model | defaults | SCF calls | slowest SCF trial |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [r["type"], r["N"], r["nev"], r["np"], r["best"]["choice"], f'{r["best"]["seconds"]:.3f}']
        for k in ("tuned", "model", "defaults"):
            cells.append(f'{r[k]["ratio"]:.2f} ({r[k]["choice"]})')
        cells += [r["scf_calls"], f'{r["scf_worst_trial_ratio"]:.2f}' +
                  (f' ({r["scf_worst_trial"]})' if "scf_worst_trial" in r else "")]
        print("| " + " | ".join(str(c) for c in cells) + " |")
    met = {k: sum(r[k]["ratio"] <= lim for r in rows) for k, lim in (("tuned", 1.05), ("model", 1.15), ("defaults", 1.0))}
    scf_ok = sum(r["scf_calls"] <= 12 and r["scf_worst_trial_ratio"] <= 2 for r in rows)
    print(f"\ntuned within 5 %: {met['tuned']}/{len(rows)}; model within 15 %: {met['model']}/{len(rows)}; "
          f"SCF ≤ 12 calls and no trial > 2×: {scf_ok}/{len(rows)}")
    if len(sys.argv) > 2:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = [f'{r["type"]} {r["N"]}/{r["nev"]} np{r["np"]}' for r in rows]
        x = range(len(rows))
        fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(rows) + 2), 4))
        for off, k in ((-0.25, "tuned"), (0, "model"), (0.25, "defaults")):
            ax.bar([i + off for i in x], [r[k]["ratio"] for r in rows], width=0.25, label=k)
        ax.axhline(1.05, color="k", lw=0.8, ls="--")
        ax.axhline(1.15, color="gray", lw=0.8, ls=":")
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("time / exhaustive best")
        ax.set_title("tseig autotuner: choices against the exhaustive best (tune_bench)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
