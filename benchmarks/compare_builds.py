#!/usr/bin/env python3
"""Table of compare_builds.sh: per (type, N, nev, solver) the minimum seconds of build A
and of build B over the rounds, their ratio B/A and the worst residual/orthogonality of
each build (the same code built two ways must give equally accurate results)."""
import argparse
import glob
import json
import os


def load(folder, label):
    runs = {}
    for path in glob.glob(os.path.join(folder, f"{label}-*.jsonl")):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("record") != "solve" or r.get("seconds") is None:
                    continue
                key = (r["type"], r["N"], r["nev"], r["solver"])
                runs.setdefault(key, []).append(r)
    return runs


def worst(rows, field):
    values = [r[field] for r in rows if r.get(field) is not None]
    return max(values) if values else float("nan")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--a", default="A")
    p.add_argument("--b", default="B")
    args = p.parse_args()
    a, b = load(args.folder, "A"), load(args.folder, "B")
    print(f"A = {args.a}, B = {args.b}; seconds are the minimum over the rounds")
    print(f"{'type':4} {'N':>6} {'nev':>6} {'solver':10} {'A s':>8} {'B s':>8} {'B/A':>6}"
          f" {'A resid':>9} {'B resid':>9} {'A orth':>9} {'B orth':>9}")
    for key in sorted(set(a) & set(b)):
        ta = min(r["seconds"] for r in a[key])
        tb = min(r["seconds"] for r in b[key])
        t, n, nev, solver = key
        print(f"{t:4} {n:6} {nev:6} {solver:10} {ta:8.3f} {tb:8.3f} {tb / ta:6.3f}"
              f" {worst(a[key], 'residual'):9.2e} {worst(b[key], 'residual'):9.2e}"
              f" {worst(a[key], 'orthogonality'):9.2e} {worst(b[key], 'orthogonality'):9.2e}")


if __name__ == "__main__":
    main()
