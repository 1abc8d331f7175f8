"""Runs a sparse-mode `tseig-solve ... --json` and checks it against the exact spectrum
of the generator's matrix.

usage: check_sparse_json.py --spectrum laplace3d:N|laplace2d:N
                            (--lowest K | --interval a:b | --kpm-count a:b)
                            [--tol T] [--vectors FILE] [--tuned-in RR:NB,NB...]
                            -- command...
--lowest K: the K lowest exact eigenvalues lead the returned ones; --interval: exactly
the exact eigenvalues in [a, b] come back; --kpm-count: the KPM count lies within 4
standard errors (+0.5) of the exact count. Residuals must be ≤ tol, orthogonality ≤ 1e-10.
--vectors FILE: the command's --out-vectors file (3D Laplacian only) holds one unit
eigenvector per returned eigenvalue, each with ‖Lv − λv‖ ≤ 12 · 10 · tol.
--tuned-in R,R...:W,W...: the run used a tuning cache: its rr_distributed_min is one of
the R and its block_width one of the W.
"""
import argparse
import itertools
import json
import math
import os
import signal
import subprocess
import sys


def fail(reason):
    print("check_sparse_json: FAIL: " + reason)
    sys.exit(1)


def spectrum(spec):
    kind, n = spec.split(":")
    n = int(n)
    if kind == "laplace3d":  # Dirichlet: 2 - 2cos(pi k / (n + 1)), k = 1..n
        one = [2 - 2 * math.cos(math.pi * k / (n + 1)) for k in range(1, n + 1)]
        return sorted(a + b + c for a, b, c in itertools.product(one, repeat=3))
    if kind == "laplace2d":  # periodic: 2 - 2cos(2 pi k / n), k = 0..n-1
        one = [2 - 2 * math.cos(2 * math.pi * k / n) for k in range(n)]
        return sorted(a + b for a, b in itertools.product(one, repeat=2))
    fail("unknown spectrum " + spec)


def main():
    argv = sys.argv[1:]
    cut = argv.index("--")
    p = argparse.ArgumentParser()
    p.add_argument("--spectrum", required=True)
    p.add_argument("--lowest", type=int)
    p.add_argument("--interval")
    p.add_argument("--kpm-count")
    p.add_argument("--tol", type=float, default=1e-8)
    p.add_argument("--vectors")
    p.add_argument("--tuned-in")
    p.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE",
                   help="a top-level JSON field and its value")
    args = p.parse_args(argv[:cut])
    proc = subprocess.Popen(argv[cut + 1:], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        fail("no answer within 150 s (hang?)")
    if proc.returncode != 0:
        fail(f"exit code {proc.returncode}")
    run = json.loads(out.strip().splitlines()[-1])
    for item in args.expect:
        key, value = item.split("=", 1)
        if str(run.get(key)) != value:
            fail(f"{key} = {run.get(key)!r}, expected {value}")
    exact = spectrum(args.spectrum)
    if args.kpm_count:
        a, b = map(float, args.kpm_count.split(":"))
        want = sum(a <= x <= b for x in exact)
        if abs(run["count"] - want) > 4 * run["count_error"] + 0.5:
            fail(f"KPM count {run['count']} +- {run['count_error']}, exact {want}")
        print(f"KPM count {run['count']:.2f} +- {run['count_error']:.2f}, exact {want}")
        return
    if args.tuned_in:
        rr, nb = (list(map(int, part.split(","))) for part in args.tuned_in.split(":"))
        if run["rr_distributed_min"] not in rr or run["block_width"] not in nb:
            fail(f"tuned knobs rr_distributed_min {run['rr_distributed_min']}, block_width "
                 f"{run['block_width']}: expected one of {rr} and one of {nb}")
    got = run["eigenvalues"]
    if not run["converged"] or run["max_residual"] > args.tol:
        fail(f"converged {run['converged']}, max residual {run['max_residual']}")
    if run["orthogonality"] > 1e-10:
        fail(f"orthogonality {run['orthogonality']}")
    if args.lowest:
        want, got = exact[:args.lowest], sorted(got)[:args.lowest]
    else:
        a, b = map(float, args.interval.split(":"))
        want = [x for x in exact if a <= x <= b]
        got = sorted(got)
    if len(got) != len(want):
        fail(f"{len(got)} eigenvalues, expected {len(want)}")
    worst = max(abs(g - w) for g, w in zip(got, want))
    # Eigenvalue error ≈ residual² / gap, but at least the residual times |A| ≤ 12.
    if worst > 12 * args.tol:
        fail(f"eigenvalues off by {worst}")
    print(f"{len(got)} eigenvalues match the exact spectrum to {worst:.2e}")
    if args.vectors:
        check_vectors(args.vectors, int(args.spectrum.split(":")[1]), run["eigenvalues"],
                      args.tol)


def laplace3d_times(v, n):
    """The 7-point Dirichlet Laplacian of an n³ grid (x fastest) times v."""
    def at(i, j, k):
        return v[i + n * (j + n * k)]
    out = []
    for k in range(n):
        for j in range(n):
            for i in range(n):
                s = 6 * at(i, j, k)
                for di, dj, dk in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1),
                                   (0, 0, -1)):
                    a, b, c = i + di, j + dj, k + dk
                    if 0 <= a < n and 0 <= b < n and 0 <= c < n:
                        s -= at(a, b, c)
                out.append(s)
    return out


def check_vectors(path, n, values, tol):
    with open(path) as f:
        if not f.readline().startswith("%%MatrixMarket matrix array real general"):
            fail("--out-vectors: not a real Matrix Market array")
        rows, cols = map(int, f.readline().split())
        data = [float(line) for line in f if line.strip()]
    if rows != n ** 3 or cols != len(values) or len(data) != rows * cols:
        fail(f"--out-vectors: {rows} x {cols} with {len(data)} entries, expected "
             f"{n ** 3} x {len(values)}")
    for j, lam in enumerate(values):
        v = data[j * rows:(j + 1) * rows]
        norm = math.sqrt(sum(x * x for x in v))
        r = math.sqrt(sum((a - lam * b) ** 2 for a, b in zip(laplace3d_times(v, n), v)))
        if abs(norm - 1) > 1e-8 or r > 120 * tol:
            fail(f"--out-vectors column {j}: norm {norm}, residual {r}")
    print(f"{cols} eigenvectors in {path} verified")


if __name__ == "__main__":
    main()
