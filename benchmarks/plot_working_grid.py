"""Table and plot of run_working_grid_bench.sh: as_given vs auto per (P, N), min over reps."""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
best = defaultdict(lambda: float("inf"))
used = {}
for r in rows:
    key = (r["np"], r["N"], r["grid_choice"])
    best[key] = min(best[key], r["seconds"])
    used[key] = (r["grid"], r["grid_used"])
cores = rows[0]["cores"] if rows else 0
print(f"{rows[0]['solver'] if rows else ''}, type {rows[0]['type'] if rows else ''}, "
      f"{cores} cores, min of {max(r['rep'] for r in rows) if rows else 0} runs, seconds\n")
print("| P | N | grid | as_given | auto grid | auto | as_given / auto |")
print("|---:|---:|---|---:|---|---:|---:|")
cases = sorted({(p, n) for p, n, _ in best})
for p, n in cases:
    a, b = best[(p, n, "as_given")], best[(p, n, "auto")]
    print(f"| {p} | {n} | {used[(p, n, 'as_given')][0]} | {a:.4f} | "
          f"{used[(p, n, 'auto')][1]} | {b:.4f} | {a / b:.2f} |")

fig, ax = plt.subplots(figsize=(7, 4))
ns = sorted({n for _, n in cases})
for n in ns:
    ps = [p for p, m in cases if m == n]
    ax.plot(ps, [best[(p, n, "as_given")] / best[(p, n, "auto")] for p in ps], "o-", label=f"N = {n}")
ax.axhline(1.0, color="gray", lw=0.8)
ax.set_xlabel(f"MPI ranks P ({cores} cores)")
ax.set_ylabel("time as_given / time auto")
ax.set_title("Working grid: speedup of --grid-choice auto")
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
