#!/usr/bin/env python3
"""Plot the KPM density of states written by `tseig-solve ... --kpm --json`.

usage: plot_dos.py dos.json dos.png
Shades the --interval (if one was given) and prints its eigenvalue count.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    with open(sys.argv[1]) as f:
        run = json.loads(f.read().strip().splitlines()[-1])
    dos = run["dos"]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(dos["energy"], dos["density"], lw=1.2)
    title = f'{run["matrix"]}: KPM DOS, {run["moments"]} moments, {run["vectors"]} vectors'
    if "interval" in run:
        a, b = run["interval"]
        ax.axvspan(a, b, alpha=0.2, color="tab:orange",
                   label=f'{run["count"]:.1f} ± {run["count_error"]:.1f} eigenvalues')
        ax.legend()
    ax.set_xlabel("energy")
    ax.set_ylabel("states per unit energy")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"DOS plot: {sys.argv[2]}")


if __name__ == "__main__":
    main()
