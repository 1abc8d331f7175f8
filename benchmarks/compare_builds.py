#!/usr/bin/env python3
"""Table of compare_builds.sh: per (type, N, nev, solver) the minimum seconds of each build
over the rounds, the ratio of each build to the first, and the worst residual and
orthogonality of each build (the same code built two ways must be equally accurate)."""
import glob
import json
import os
import sys


def load(folder, index):
    runs = {}
    for path in glob.glob(os.path.join(folder, f"build{index}-round*.jsonl")):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("record") != "solve" or r.get("seconds") is None:
                    continue
                runs.setdefault((r["type"], r["N"], r["nev"], r["solver"]), []).append(r)
    return runs


def worst(rows, field):
    values = [r[field] for r in rows if r.get(field) is not None]
    return max(values) if values else float("nan")


def main():
    folder, builds = sys.argv[1], sys.argv[2:]
    runs = [load(folder, i) for i in range(len(builds))]
    for i, b in enumerate(builds):
        print(f"build {i}: {b}")
    print("seconds: minimum over the rounds; ratio: build k / build 0")
    head = f"{'type':4} {'N':>6} {'nev':>6} {'solver':10}"
    head += "".join(f" {'s' + str(i):>8}" for i in range(len(builds)))
    head += "".join(f" {str(i) + '/0':>6}" for i in range(1, len(builds)))
    head += "".join(f" {'resid' + str(i):>9} {'orth' + str(i):>9}" for i in range(len(builds)))
    print(head)
    keys = set(runs[0]).intersection(*runs[1:])
    for key in sorted(keys):
        t = [min(r["seconds"] for r in run[key]) for run in runs]
        line = f"{key[0]:4} {key[1]:6} {key[2]:6} {key[3]:10}"
        line += "".join(f" {x:8.3f}" for x in t)
        line += "".join(f" {x / t[0]:6.3f}" for x in t[1:])
        line += "".join(f" {worst(run[key], 'residual'):9.2e} {worst(run[key], 'orthogonality'):9.2e}"
                        for run in runs)
        print(line)


if __name__ == "__main__":
    main()
