#!/usr/bin/env python3
"""Runs a tseig-solve command several times, each writing its eigenvalues and
eigenvectors (--out-values, --out-vectors, full precision), and fails unless every run's
files are byte-identical to the first's: same input and rank count, bitwise the same result.

usage: check_reproducible.py [--runs R] [--timeout S] -- mpiexec ... tseig-solve ARGS"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile


def main():
    argv = sys.argv[1:]
    split = argv.index("--")
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--timeout", type=float, default=120)
    args = p.parse_args(argv[:split])
    cmd = argv[split + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for k in range(args.runs):
            values, vectors = os.path.join(tmp, f"values{k}"), os.path.join(tmp, f"vectors{k}.mtx")
            try:
                run = subprocess.run(cmd + ["--out-values", values, "--out-vectors", vectors],
                                     capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                sys.exit(f"FAIL: run {k} timed out after {args.timeout} s")
            if run.returncode != 0:
                sys.exit(f"FAIL: run {k} exited {run.returncode}: {run.stderr[-2000:]}")
            files.append((values, vectors))
        for k in range(1, args.runs):
            for a, b in zip(files[0], files[k]):
                if not filecmp.cmp(a, b, shallow=False):
                    sys.exit(f"FAIL: run {k}: {os.path.basename(b)} differs from run 0's")
    print(f"OK: {args.runs} runs bitwise identical (values and vectors)")


if __name__ == "__main__":
    main()
