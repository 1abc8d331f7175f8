#!/usr/bin/env python3
"""Tables (markdown on stdout) and plot of tune_bench's JSON lines: each choice's time over
the exhaustive best, per problem, and the goals (tuned ≤ 1.05, model ≤ 1.15, SCF search
≤ 12 calls with no trial slower than 2× the best). The first table scores by the grid's
times; the second, where the lines have one, by the confirmation round that timed the
finalists again in turn (the plot shows that one then)."""
import json
import sys

CHOICES = ("tuned", "model", "defaults")


def score(rows, view):
    """The three goals' counts; `view(r)` the record holding best/tuned/model/defaults."""
    met = {k: sum(view(r)[k]["ratio"] <= lim for r in rows)
           for k, lim in (("tuned", 1.05), ("model", 1.15))}
    scf_ok = sum(r["scf_calls"] <= 12 and r["scf_worst_trial_ratio"] <= 2 for r in rows)
    return (f"tuned within 5 %: {met['tuned']}/{len(rows)}; model within 15 %: {met['model']}/{len(rows)}; "
            f"SCF ≤ 12 calls and no trial > 2×: {scf_ok}/{len(rows)}")


def grid_table(rows):
    print("| type | N | nev | np | exhaustive best | s | tuned | model | defaults | SCF calls | slowest SCF trial |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [r["type"], r["N"], r["nev"], r["np"], r["best"]["choice"], f'{r["best"]["seconds"]:.3f}']
        for k in CHOICES:
            cells.append(f'{r[k]["ratio"]:.2f} ({r[k]["choice"]})')
        cells += [r["scf_calls"], f'{r["scf_worst_trial_ratio"]:.2f}' +
                  (f' ({r["scf_worst_trial"]})' if "scf_worst_trial" in r else "")]
        print("| " + " | ".join(str(c) for c in cells) + " |")
    print("\n" + score(rows, lambda r: r))


def confirmed_table(rows):
    print(f'\nConfirmation round ({rows[0]["confirmed"]["rounds"]} rounds, the finalists timed in turn, '
          "each one's best round):\n")
    print("| type | N | nev | np | confirmed best | s | tuned | model | defaults |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for r in rows:
        c = r["confirmed"]
        cells = [r["type"], r["N"], r["nev"], r["np"], c["best"]["choice"], f'{c["best"]["seconds"]:.3f}']
        cells += [f'{c[k]["ratio"]:.2f} ({c[k]["choice"]})' for k in CHOICES]
        print("| " + " | ".join(str(x) for x in cells) + " |")
    print("\n" + score(rows, lambda r: r["confirmed"]))


def plot(rows, view, title, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [f'{r["type"]} {r["N"]}/{r["nev"]} np{r["np"]}' for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(rows) + 2), 4))
    for off, k in ((-0.25, "tuned"), (0, "model"), (0.25, "defaults")):
        ax.bar([i + off for i in x], [view(r)[k]["ratio"] for r in rows], width=0.25, label=k)
    ax.axhline(1.05, color="k", lw=0.8, ls="--")
    ax.axhline(1.15, color="gray", lw=0.8, ls=":")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("time / best")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    grid_table(rows)
    confirmed = all("confirmed" in r for r in rows)
    if confirmed:
        confirmed_table(rows)
    if len(sys.argv) > 2:
        if confirmed:
            plot(rows, lambda r: r["confirmed"], "tseig autotuner: choices against the confirmed best (tune_bench)",
                 sys.argv[2])
        else:
            plot(rows, lambda r: r, "tseig autotuner: choices against the exhaustive best (tune_bench)", sys.argv[2])


if __name__ == "__main__":
    main()
